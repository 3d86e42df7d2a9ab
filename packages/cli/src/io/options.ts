/** Option values shared by the commands, and the parsers that check them. */

import { BUILT_IN_DIALECT_NAMES } from '@cursor-stream/core/dialect-registry';
import { MAX_RECORD_BYTES_CAP } from '@cursor-stream/ndjson';

/**
 * The values of `--dialect`: `auto` and the names of the core's dialect registry, which is data alone, so that the
 * bundle's start-up (`--help`) takes the names without the dialects.
 */
export const DIALECT_CHOICES = ['auto', ...BUILT_IN_DIALECT_NAMES] as const;

/** A value of `--dialect`. */
export type DialectChoice = (typeof DIALECT_CHOICES)[number];

/** Options every command that reads a log accepts. */
export interface InputOptions {
  /** `auto` (detect per stream) or a dialect name. */
  dialect: DialectChoice;
  /** The largest record held in memory; larger ones are reported as `oversize` and skipped. */
  maxRecordBytes?: number;
}

/** Why an option value was refused: one phrase, e.g. `must be a positive integer`. */
export interface OptionValueError {
  readonly code: 'bad-option-value';
  readonly message: string;
}

/** Reads a positive integer option value such as `--jobs 4` or `--max-record-bytes 1048576`. */
export function parsePositiveInteger(text: string): number | OptionValueError {
  const trimmed = text.trim();
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(value) || value <= 0) {
    return { code: 'bad-option-value', message: 'must be a positive integer' };
  }
  return value;
}

/**
 * The largest `--max-record-bytes` accepted: the tokenizer's own cap, the largest record a JavaScript string holds
 * with room to parse it. A larger limit would let a long line end in a `RangeError` instead of an `oversize` line.
 */
export const MAX_RECORD_BYTES_LIMIT = MAX_RECORD_BYTES_CAP;

/** Reads `--max-record-bytes`: a byte size (see {@link parseByteSize}) no larger than {@link MAX_RECORD_BYTES_LIMIT}. */
export function parseMaxRecordBytes(text: string): number | OptionValueError {
  const value = parseByteSize(text);
  if (isOptionValueError(value) || value <= MAX_RECORD_BYTES_LIMIT) return value;
  return {
    code: 'bad-option-value',
    message: `must be at most ${MAX_RECORD_BYTES_LIMIT} bytes (256m), the largest record the JavaScript runtime can hold and parse`,
  };
}

/** What `--jobs` comes to on this machine: at most one worker per CPU. */
export function capJobs(requested: number, cpus: number): { jobs: number; note?: string } {
  const most = Math.max(1, cpus);
  if (requested <= most) return { jobs: requested };
  return {
    jobs: most,
    note: `--jobs ${requested} lowered to ${most}, the number of CPUs: more workers than CPUs only add memory`,
  };
}

/** Reads a byte size such as `1048576`, `512k`, `64m` or `1g` (binary units). */
export function parseByteSize(text: string): number | OptionValueError {
  const match = /^(\d+)\s*([kmg]i?b?)?$/i.exec(text.trim());
  const unit = match?.[2]?.[0]?.toLowerCase();
  const scale = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  const value = match?.[1] === undefined ? Number.NaN : Number(match[1]) * scale;
  if (!Number.isSafeInteger(value) || value <= 0) {
    return {
      code: 'bad-option-value',
      message: 'must be a positive number of bytes (e.g. 1048576, 512k, 64m)',
    };
  }
  return value;
}

/** Whether a parsed option value is an {@link OptionValueError}. */
export function isOptionValueError(value: unknown): value is OptionValueError {
  return (
    typeof value === 'object' && value !== null && (value as { code?: unknown }).code === 'bad-option-value'
  );
}
