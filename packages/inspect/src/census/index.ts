/**
 * `@cursor-stream/inspect/census`: what the schemas and the canonical model do not know about a set of logs. Records
 * are counted per dialect, type and subtype, with their unknown fields and values, the types the model reads as
 * `unknown` events, and where each first appears; every list is capped, so memory stays bounded. The census is a
 * JSON document, with a text form for a terminal.
 */

export { CENSUS_VALIDATOR_KINDS, type CensusReader, createCensusReader } from './census-reader.ts';
export { formatCensusText } from './census-report.ts';
export {
  CENSUS_LIMITS,
  type CensusDriftEntry,
  type CensusInvalidLines,
  type CensusJson,
  type CensusLocation,
  type CensusRow,
  type CensusTally,
  type CensusUnreadable,
  type CensusViolations,
  censusDriftSummary,
  censusFoundDrift,
  createCensusTally,
} from './census-tally.ts';
export {
  censusPointer,
  type DriftItem,
  MAX_VALIDATION_PASSES,
  type RecordDrift,
  recordDrift,
} from './record-drift.ts';
