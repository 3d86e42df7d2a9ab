import type { Dialect } from '../dialect.ts';
import type { CanonicalEventType } from '../events/index.ts';

/**
 * The raw-text test that lets the tokenizer skip records giving only unwanted events, or `undefined` when nothing
 * can be skipped. Detection runs per record, so only prefixes that every dialect lists are used: one dialect's "only
 * reasoning" must not hide another dialect's meaningful record.
 */
export function skipFilterFor(
  dialects: readonly Dialect[],
  wanted: ReadonlySet<CanonicalEventType>,
): ((text: string) => boolean) | undefined {
  let common: string[] | undefined;
  for (const dialect of dialects) {
    const prefixes = dialect.skipPrefixes?.(wanted);
    if (prefixes === undefined) return undefined;
    common = common === undefined ? [...prefixes] : common.filter((prefix) => prefixes.includes(prefix));
  }
  if (common === undefined || common.length === 0) return undefined;
  const prefixes = common;
  return (text) => {
    for (const prefix of prefixes) if (text.startsWith(prefix)) return true;
    return false;
  };
}
