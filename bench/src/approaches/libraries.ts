/** The NDJSON libraries people reach for, each in its documented streaming use. */

import type { Duplex } from 'node:stream';
import type { Approach } from './approach.ts';
import { forEachChunk, pipeThrough } from './stream-helpers.ts';

/** split2 with `JSON.parse` as its mapper, piped. */
export const split2Parse: Approach = {
  name: 'split2',
  label: 'split2(JSON.parse)',
  group: 'baseline',
  survivesRawNewlines: false,
  async load() {
    const { default: split2 } = await import('split2');
    return (input, sink) => pipeThrough(input.open(), split2(JSON.parse), (value) => sink.value(value));
  },
};

/** stream-json's JSONL parser (a re-export of stream-chain's), as a Node stream. */
export const streamJsonJsonl: Approach = {
  name: 'stream-json-jsonl',
  label: 'stream-json jsonl/parser asStream()',
  group: 'baseline',
  survivesRawNewlines: false,
  async load() {
    const { default: jsonlParser } = await import('stream-json/jsonl/parser.js');
    return (input, sink) =>
      pipeThrough(input.open(), jsonlParser.asStream() as Duplex, (item) =>
        sink.value((item as { value: unknown }).value),
      );
  },
};

/** @streamparser/json's `JSONParser` with a newline separator, fed every chunk. */
export const streamparserJson: Approach = {
  name: 'streamparser-json',
  label: "@streamparser/json JSONParser({separator:'\\n'})",
  group: 'baseline',
  survivesRawNewlines: false,
  async load() {
    const { JSONParser } = await import('@streamparser/json');
    return async (input, sink) => {
      const parser = new JSONParser({ separator: '\n', paths: ['$'], keepStack: false });
      parser.onValue = ({ value }) => sink.value(value);
      await forEachChunk(input.open(), (chunk) => parser.write(chunk));
      parser.end();
    };
  },
};

/** ndjson's `parse()` (strict), piped. */
export const ndjsonParse: Approach = {
  name: 'ndjson',
  label: 'ndjson.parse()',
  group: 'baseline',
  survivesRawNewlines: false,
  async load() {
    const { default: ndjson } = await import('ndjson');
    return (input, sink) => pipeThrough(input.open(), ndjson.parse(), (value) => sink.value(value));
  },
};
