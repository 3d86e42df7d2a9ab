/**
 * The loops people write by hand. The reference loop, one streaming `TextDecoder`, `String#indexOf('\n')` and
 * `JSON.parse`, is the one the targets are stated against. It is not the fastest plain loop on every log: a loop that
 * finds line feeds in the bytes and decodes each line on its own (`buffer-indexof`) parses one-byte strings where a
 * decoded chunk with one character past Latin-1 is two bytes a character throughout, and on recorded captures takes
 * about half the time; the command rows measure both. Each loop skips blank lines and counts a line that does not
 * parse as a problem, as careful hand-written code does.
 */

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Approach } from './approach.ts';
import {
  LINE_DECODING_LOOP_NAME,
  lineDecodingLoopOf,
  REFERENCE_LOOP_NAME,
  referenceLoopOf,
} from './plain-loops.ts';
import { forEachChunk, forEachInputChunk, parseLineInto } from './stream-helpers.ts';

/**
 * `TextDecoder({stream:true})` per chunk, `String#indexOf('\n')`, `JSON.parse` per line. Where the run reads files
 * as a plain loop does (the command rows), the file is read with `readSync`: over a folder of small logs a read
 * stream per file costs about a quarter of a millisecond in set-up and event-loop turns, three times what the loop
 * spends parsing a small log.
 */
export const referenceLoop: Approach = {
  name: REFERENCE_LOOP_NAME,
  label: 'reference loop: TextDecoder + String#indexOf + JSON.parse',
  group: 'baseline',
  survivesRawNewlines: false,
  async load() {
    return async (input, sink) => {
      const loop = referenceLoopOf((line) => parseLineInto(line, sink));
      await forEachInputChunk(input, loop.chunk);
      loop.end();
    };
  },
};

/**
 * `Buffer#indexOf(10)` on the bytes, one `toString` per line. Read as the reference loop reads (with `readSync` in
 * the command rows).
 */
export const bufferIndexOf: Approach = {
  name: LINE_DECODING_LOOP_NAME,
  label: 'Buffer#indexOf + toString per line + JSON.parse',
  group: 'baseline',
  survivesRawNewlines: false,
  async load() {
    return async (input, sink) => {
      const loop = lineDecodingLoopOf((line) => parseLineInto(line, sink));
      await forEachInputChunk(input, loop.chunk);
      loop.end();
    };
  },
};

/** `readFileSync(file).toString().split('\n')`, then `JSON.parse` per line: the whole file in memory at once. */
export const wholeBufferSplit: Approach = {
  name: 'whole-buffer-split',
  label: "readFileSync + toString + split('\\n') + JSON.parse",
  group: 'baseline',
  survivesRawNewlines: false,
  readsWholeFile: true,
  async load() {
    return async (input, sink) => {
      for (const line of readFileSync(input.file).toString().split('\n')) parseLineInto(line, sink);
    };
  },
};

/** Node's `readline` (`crlfDelay: Infinity`, `line` events), `JSON.parse` per line. */
export const readlineLoop: Approach = {
  name: 'readline',
  label: 'readline + JSON.parse',
  group: 'baseline',
  survivesRawNewlines: false,
  async load() {
    return async (input, sink) => {
      const lines = createInterface({ input: input.open(), crlfDelay: Number.POSITIVE_INFINITY });
      lines.on('line', (line) => parseLineInto(line, sink));
      await once(lines, 'close');
    };
  },
};

/** Reading alone, no parsing: the fixed cost of the runner and the I/O under every row. */
export const readOnly: Approach = {
  name: 'read-only',
  label: 'I/O only: createReadStream, no parsing',
  group: 'overhead',
  survivesRawNewlines: false,
  async load() {
    return (input) => forEachChunk(input.open(), () => {});
  },
};
