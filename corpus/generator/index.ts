export { buildSession, resultText } from './build-session.ts';
export {
  createEncodingWriter,
  DIALECT_WRITERS,
  type DialectWriter,
  officialToCanonical,
  officialWriter,
} from './dialect-writers.ts';
export {
  type CorpusOptions,
  type CorpusSummary,
  generateCorpus,
  metaFileOf,
  writeCorpus,
} from './generate-corpus.ts';
export { officialRecords } from './official-records.ts';
export { parseSize } from './parse-size.ts';
export { isProfileName, PROFILE_NAMES, PROFILES, type Profile, type ProfileName } from './profiles.ts';
export { createRandom, type Random } from './random.ts';
export type * from './session-model.ts';
