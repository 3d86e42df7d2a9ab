import type { Usage, UsageCountField } from '../events/index.ts';
import { isJsonObject } from '../json-values.ts';
import { reportedCount } from '../token-counts.ts';

/** Each canonical usage field, with the spellings sources use for it (camelCase, snake_case, Anthropic's). */
const USAGE_FIELDS: ReadonlyArray<readonly [UsageCountField, readonly string[]]> = [
  ['inputTokens', ['inputTokens', 'input_tokens']],
  ['outputTokens', ['outputTokens', 'output_tokens']],
  ['cacheReadTokens', ['cacheReadTokens', 'cache_read_tokens', 'cache_read_input_tokens']],
  ['cacheWriteTokens', ['cacheWriteTokens', 'cache_write_tokens', 'cache_creation_input_tokens']],
];

/** The most of an unreadable count's JSON text kept: enough to name it, never the whole of a large value. */
const UNREADABLE_TEXT_LENGTH = 40;

/** The start of a value's JSON text, for a person to recognise it. */
function textOf(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > UNREADABLE_TEXT_LENGTH ? `${text.slice(0, UNREADABLE_TEXT_LENGTH)}…` : text;
}

/**
 * Token counts in camelCase from a `usage` object in either case style; `undefined` when it holds none. A count given
 * in a form no count is read from (`true`, `[5]`, `"0x10"`) is kept in `unreadable`, for a tool summing counts to name.
 */
export function normalizeUsage(value: unknown): Usage | undefined {
  if (!isJsonObject(value)) return undefined;
  const usage: Usage = {};
  let found = false;
  for (const [field, spellings] of USAGE_FIELDS) {
    let given: unknown;
    for (const spelling of spellings) {
      const count = reportedCount(value[spelling]);
      if (count !== undefined) {
        usage[field] = count;
        found = true;
        given = undefined;
        break;
      }
      // `null` says the count is unknown, which is no count at all.
      if (given === undefined && value[spelling] !== undefined && value[spelling] !== null)
        given = value[spelling];
    }
    if (given !== undefined) {
      usage.unreadable ??= {};
      usage.unreadable[field] = textOf(given);
      found = true;
    }
  }
  return found ? usage : undefined;
}
