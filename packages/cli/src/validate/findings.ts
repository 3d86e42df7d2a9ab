/** What `validate` reports about a line: problems (exit 1) and warnings (reported, exit unchanged). */

/** Codes of findings about the stream as a whole rather than one record; warnings unless `--strict`. */
export type AnomalyCode =
  | 'unknown-event'
  | 'orphan-tool-result'
  | 'pending-tool-call'
  | 'missing-result'
  | 'text-mismatch';

/** One thing `validate` found, located in the input. */
export interface Finding {
  /** 1-based physical line. */
  line: number;
  /** Byte offset of the record (or of the end of input, for a session that ends without a result). */
  offset: number;
  /** A tokenizer or normalizer code (`invalid-json`, `unrecognized-record`, ...), `schema-violation`, `unknown-field`, or an {@link AnomalyCode}. */
  code: string;
  message: string;
  /** JSON Pointer into the record, for schema findings. */
  pointer?: string;
}

/** The validation of one log. */
export interface FileReport {
  path: string;
  /** The dialect that read the log; `null` when none was detected. */
  dialect: string | null;
  lines: number;
  events: number;
  problems: Finding[];
  warnings: Finding[];
}

/** Orders findings by where they are in the input; stable, so findings of one record keep their order. */
export function byPosition(a: Finding, b: Finding): number {
  return a.line - b.line || a.offset - b.offset;
}
