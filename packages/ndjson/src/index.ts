export {
  isNdjsonProblem,
  iterateNdjson,
  type NdjsonSource,
  type NdjsonStreamOptions,
  readChunks,
} from './iterate.ts';
export { EXCERPT_LENGTH, excerptOf } from './json-text.ts';
export { MAX_OUTPUT_LINE_LENGTH } from './line-kind.ts';
export { createNdjsonTokenizer, DEFAULT_MAX_RECORD_BYTES } from './tokenizer.ts';
export { NdjsonTransformStream } from './transform-stream.ts';
export type {
  NdjsonChunk,
  NdjsonItem,
  NdjsonProblem,
  NdjsonProblemCode,
  NdjsonRecord,
  NdjsonSkip,
  NdjsonTokenizer,
  NdjsonTokenizerOptions,
} from './types.ts';
