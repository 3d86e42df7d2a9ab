export {
  isNdjsonProblem,
  iterateNdjson,
  type NdjsonSource,
  type NdjsonStreamOptions,
  readChunks,
} from './iterate.ts';
export { DOCUMENT_SNIFF_BYTES, startsLikeJsonDocument } from './json-document.ts';
export { EXCERPT_LENGTH, excerptOf } from './json-text.ts';
export {
  hasLazyStrings,
  isLazyString,
  LAZY_LINE_BYTES,
  LAZY_STRING_BYTES,
  type LazyStringBounds,
  lazyStringsMade,
  rawLazyString,
  relocatedRecord,
} from './lazy-strings.ts';
export { MAX_OUTPUT_LINE_LENGTH } from './line-kind.ts';
export { MAX_CANDIDATES } from './open-record-resync.ts';
export { DEFAULT_MAX_RECORD_BYTES, MAX_RECORD_BYTES_CAP } from './record-limits.ts';
export { createNdjsonTokenizer } from './tokenizer.ts';
export { NdjsonTransformStream } from './transform-stream.ts';
export type {
  NdjsonChunk,
  NdjsonItem,
  NdjsonLineView,
  NdjsonProblem,
  NdjsonProblemCode,
  NdjsonRecord,
  NdjsonSkip,
  NdjsonTokenizer,
  NdjsonTokenizerOptions,
} from './types.ts';
