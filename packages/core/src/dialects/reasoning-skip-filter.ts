import type { Dialect } from '../dialect.ts';
import { CANONICAL_EVENT_TYPES, EVENT_TRAITS } from '../events/index.ts';

/** The reasoning types (see `EVENT_TRAITS`): the only events a `thinking` record gives. */
const REASONING_TYPES = CANONICAL_EVENT_TYPES.filter((type) => EVENT_TRAITS[type].reasoning);

/**
 * A {@link Dialect.skipPrefixes} for `thinking` records, which give only reasoning events and touch no other state:
 * when no reasoning type is wanted, records starting with one of `prefixes` may be skipped unparsed. Prefixes
 * are exact (key order and spacing as the producer writes them), so a record written otherwise is simply parsed.
 */
export function reasoningSkipPrefixes(prefixes: readonly string[]): NonNullable<Dialect['skipPrefixes']> {
  return (wanted) => (REASONING_TYPES.some((type) => wanted.has(type)) ? undefined : prefixes);
}

/**
 * How the CLI, and the wrappers that pass its records on, begin a `thinking` record: compact, and spaced as a tool
 * that writes the records again with Python's `json.dumps` spaces them.
 */
export const CLI_THINKING_PREFIXES: readonly string[] = [
  '{"type":"thinking","subtype":"delta",',
  '{"type":"thinking","subtype":"completed",',
  '{"type": "thinking", "subtype": "delta",',
  '{"type": "thinking", "subtype": "completed",',
];

/**
 * How the payload-envelope app begins a `thinking` record: spaced JSON as its server writes it, and the CLI's
 * compact form, which it may pass on as is. A `thinking` record without a subtype is left to be parsed: without a
 * text it is an `unknown` event, not a reasoning one.
 */
export const ENVELOPE_THINKING_PREFIXES: readonly string[] = [
  ...CLI_THINKING_PREFIXES,
  '{"type": "thinking", "subtype": "completed"',
];
