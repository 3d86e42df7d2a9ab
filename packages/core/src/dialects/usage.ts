import type { Usage } from '../events/index.ts';
import { isJsonObject } from '../json-values.ts';
import { reportedCount } from '../token-counts.ts';

/** Each canonical usage field, with the spellings sources use for it (camelCase, snake_case, Anthropic's). */
const USAGE_FIELDS: ReadonlyArray<readonly [keyof Usage, readonly string[]]> = [
  ['inputTokens', ['inputTokens', 'input_tokens']],
  ['outputTokens', ['outputTokens', 'output_tokens']],
  ['cacheReadTokens', ['cacheReadTokens', 'cache_read_tokens', 'cache_read_input_tokens']],
  ['cacheWriteTokens', ['cacheWriteTokens', 'cache_write_tokens', 'cache_creation_input_tokens']],
];

/** Token counts in camelCase from a `usage` object in either case style; `undefined` when it holds none. */
export function normalizeUsage(value: unknown): Usage | undefined {
  if (!isJsonObject(value)) return undefined;
  const usage: Usage = {};
  let found = false;
  for (const [field, spellings] of USAGE_FIELDS) {
    for (const spelling of spellings) {
      const count = reportedCount(value[spelling]);
      if (count !== undefined) {
        usage[field] = count;
        found = true;
        break;
      }
    }
  }
  return found ? usage : undefined;
}
