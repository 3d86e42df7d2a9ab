/**
 * `@cursor-stream/inspect/validate`: what validating a log finds, located by line and byte offset. A collector takes
 * the records and events a reader hands on and finds schema violations, unknown fields and event types, lines that
 * are not records and anomalies of whole sessions; the report of a log keeps the first findings of each kind and
 * counts the rest. Formatters give the text lines (`FILE:LINE: code: message`) and the `--json` document.
 */

export { findingMessage } from '../finding-message.ts';
export {
  type AnomalyCode,
  byPosition,
  createFindingList,
  type FileReport,
  type Finding,
  MAX_FINDINGS_LISTED,
  problemCount,
  warningCount,
} from './findings.ts';
export {
  createValidateCollector,
  type FindingSink,
  type KeptFindings,
  type ReadLogFacts,
  type ValidateCollector,
  type ValidateCollectorOptions,
  validationReport,
  validatorKindsFor,
} from './validate-collector.ts';
export {
  fileReportLines,
  fileSummaryLine,
  findingLine,
  findingLines,
  totalsLine,
  unreadableFileJson,
  type ValidateFileJson,
  type ValidateJson,
} from './validate-report.ts';
