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
import { forEachChunk, forEachInputChunk, parseLineInto } from './stream-helpers.ts';

/** The row every ratio is taken against. */
export const REFERENCE_LOOP_NAME = 'reference-loop';

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
      const decoder = new TextDecoder();
      let tail = '';
      const onChunk = (chunk: Uint8Array): void => {
        const text = tail + decoder.decode(chunk, { stream: true });
        let start = 0;
        for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
          parseLineInto(text.slice(start, end), sink);
          start = end + 1;
        }
        tail = text.slice(start);
      };
      await forEachInputChunk(input, onChunk);
      parseLineInto(tail + decoder.decode(), sink);
    };
  },
};

/** The plain loop that decodes each line on its own, measured beside the reference loop. */
export const LINE_DECODING_LOOP_NAME = 'buffer-indexof';

/**
 * `Buffer#indexOf(10)` on the bytes, the partial line kept as a list of copied pieces, one `toString` per line. Read
 * as the reference loop reads (with `readSync` in the command rows, whose chunks share one buffer: hence the copies).
 */
export const bufferIndexOf: Approach = {
  name: LINE_DECODING_LOOP_NAME,
  label: 'Buffer#indexOf + toString per line + JSON.parse',
  group: 'baseline',
  survivesRawNewlines: false,
  async load() {
    return async (input, sink) => {
      let parts: Buffer[] = [];
      const onChunk = (bytes: Uint8Array): void => {
        const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        let start = 0;
        for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
          let line: string;
          if (parts.length === 0) line = chunk.toString('utf8', start, end);
          else {
            parts.push(chunk.subarray(start, end));
            line = Buffer.concat(parts).toString('utf8');
            parts = [];
          }
          parseLineInto(line, sink);
          start = end + 1;
        }
        if (start < chunk.length) parts.push(Buffer.from(chunk.subarray(start)));
      };
      await forEachInputChunk(input, onChunk);
      parseLineInto(Buffer.concat(parts).toString('utf8'), sink);
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
