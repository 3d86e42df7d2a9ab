/**
 * Token counts as tools sum them. The normalizer keeps any finite number a log reports as a count, as the log says it
 * (see {@link reportedCount}); a sum over sessions needs whole numbers that add up exactly and stay finite (two counts
 * of `1e308` add up to `Infinity`). {@link checkUsage} is the one place that tells such counts from the others, and
 * says why each other one is left out: a count the dialects dropped would be lost without a word.
 */

import type { Usage } from './events/index.ts';

/** Whether `value` is a token count: a whole number from 0 to `Number.MAX_SAFE_INTEGER` (2^53 - 1). */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A number as JSON writes one, in a string: how 64-bit protobuf integers are sent, and how some logs send counts. */
const NUMBER_TEXT = /^-?\d{1,64}(?:\.\d{1,64})?(?:[eE][+-]?\d{1,4})?$/;

/**
 * A token count as a log reports it: any finite number, or a number written in a string (a string of digits, as
 * 64-bit protobuf integers are sent), negative, fractional or too large ones too, for {@link checkUsage} to name;
 * `undefined` for anything else.
 */
export function reportedCount(value: unknown): number | undefined {
  const count =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && NUMBER_TEXT.test(value)
        ? Number(value)
        : undefined;
  return count !== undefined && Number.isFinite(count) ? count : undefined;
}

/**
 * All the input a usage counts: Cursor's `inputTokens` leaves out what was read from or written to the cache (real
 * captures report more cache reads than input), where OpenTelemetry's `gen_ai.usage.input_tokens` and the AI SDK's
 * input total include them. `undefined` unless the input, the cache reads and the cache writes are all known, and
 * their sum exact: a part missing would make a total that is not one.
 */
export function allInputTokens(usage: Usage | null | undefined): number | undefined {
  const parts = [usage?.inputTokens, usage?.cacheReadTokens, usage?.cacheWriteTokens];
  let sum = 0;
  for (const part of parts) {
    if (part === undefined) return undefined;
    sum += part;
  }
  return isTokenCount(sum) ? sum : undefined;
}

const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;

/** What {@link checkUsage} made of a usage: the counts kept, and one sentence per count left out. */
export interface CheckedUsage {
  /** The usage with only its token counts; `null` when none is left (or there was no usage). */
  usage: Usage | null;
  /** For a person, one per count left out: `usage.inputTokens 1.5 is not a whole number of tokens`. */
  problems: string[];
}

/**
 * The usage with every count that is not a {@link isTokenCount} left out, and why each was, the counts given in a form
 * no count is read from (`unreadable`) among them. Sums of what it keeps are exact up to 2^53 and finite for any
 * number of sessions a machine can read.
 */
export function checkUsage(usage: Usage | null | undefined): CheckedUsage {
  if (usage === null || usage === undefined) return { usage: null, problems: [] };
  const kept: Usage = {};
  const problems: string[] = [];
  let found = false;
  for (const field of USAGE_FIELDS) {
    const count = usage[field];
    if (count === undefined) continue;
    if (isTokenCount(count)) {
      kept[field] = count;
      found = true;
    } else {
      const why =
        count < 0
          ? 'is negative, not a number of tokens'
          : Number.isInteger(count)
            ? 'is more tokens than can be counted exactly'
            : 'is not a whole number of tokens';
      problems.push(`usage.${field} ${count} ${why}`);
    }
  }
  for (const [field, text] of Object.entries(usage.unreadable ?? {}))
    problems.push(`usage.${field} ${text} is not a number of tokens`);
  return { usage: found ? kept : null, problems };
}
