/**
 * Redaction over values and canonical events: every string a secret can reach (texts, tool arguments and results
 * nested anywhere, raw records, object keys) is redacted, a field named like a secret loses its value, and an
 * environment held as an object goes whole. The walk is iterative, so any depth is walked without recursion, and
 * copies what it walks: the value given is left as it was.
 */

import type { CanonicalEvent } from '../events/index.ts';
import { setOwn } from '../json-values.ts';
import { unwritableEvent } from '../safe-json.ts';
import { markSessionDialect, sessionDialectOf } from '../session-dialect.ts';
import { type RedactionOptions, redactTextInto } from './redact-text.ts';
import { isPlaceholder, placeholderOf, type RedactionCounts, type RedactionKind } from './secret-kinds.ts';
import { isEnvironmentName, isSecretName } from './secret-names.ts';

/** Redacts texts, values and events, counting what it removes across all of them. */
export interface Redactor {
  /** `text` with its secrets replaced by placeholders. */
  text(text: string): string;
  /** A copy of `value` with every string in it redacted, fields named like secrets emptied of their values. */
  value(value: unknown): unknown;
  /**
   * A copy of `event` with every string in it redacted but its `type`. An event that cannot be read (a caller's
   * value whose getter throws) becomes an `invalid-line` at its location, holding nothing of it.
   */
  event(event: CanonicalEvent): CanonicalEvent;
  /** How many of each kind were replaced so far. */
  readonly counts: RedactionCounts;
  /**
   * The same redaction, counted apart from {@link counts}: for a second form of what is also redacted and counted (a
   * record's value and text beside the events read from it), so that each secret is counted once.
   */
  readonly uncounted: Pick<Redactor, 'text' | 'value'>;
}

const ENV_PROBE = ['PATH', 'HOME'] as const;

/** Whether `value` is an environment: variables by name, all texts (under an environment's name, or with PATH and HOME). */
function isEnvironmentObject(value: object, named: boolean): boolean {
  if (Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 0 || keys.length > 100_000) return false;
  const record = value as Record<string, unknown>;
  if (!named && !ENV_PROBE.every((name) => typeof record[name] === 'string')) return false;
  return keys.every((key) => typeof record[key] === 'string');
}

/** A redactor; its counts add up over every text, value and event it is given. */
export function createRedactor(options: RedactionOptions = {}): Redactor {
  const counts: RedactionCounts = {};
  const text = (value: string): string => redactTextInto(value, counts, options);
  const replace = (kind: RedactionKind): string => {
    counts[kind] = (counts[kind] ?? 0) + 1;
    return placeholderOf(kind);
  };

  function value(root: unknown): unknown {
    const copies = new WeakMap<object, unknown>();
    const pending: [source: object, target: unknown[] | Record<string, unknown>][] = [];

    /** The redacted form of `child`, found under `key` (undefined in an array); objects are copied later. */
    function redactChild(key: string | undefined, child: unknown): unknown {
      if (typeof child === 'string') {
        if (key !== undefined && child !== '' && isSecretName(key) && !isPlaceholder(child))
          return replace('secret-variable');
        return text(child);
      }
      if (typeof child !== 'object' || child === null) return child;
      const seen = copies.get(child);
      if (seen !== undefined) return seen;
      if (isEnvironmentObject(child, key !== undefined && isEnvironmentName(key)))
        return replace('environment');
      const copy: unknown[] | Record<string, unknown> = Array.isArray(child) ? [] : {};
      copies.set(child, copy);
      pending.push([child, copy]);
      return copy;
    }

    const result = redactChild(undefined, root);
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [source, target] = next;
      if (Array.isArray(source)) {
        const list = target as unknown[];
        for (let i = 0; i < source.length; i++) list.push(redactChild(undefined, source[i]));
      } else {
        const record = source as Record<string, unknown>;
        for (const key of Object.keys(record))
          setOwn(target as Record<string, unknown>, text(key), redactChild(key, record[key]));
      }
    }
    return result;
  }

  function event(input: CanonicalEvent): CanonicalEvent {
    try {
      const copy = value(input) as Record<string, unknown>;
      copy.type = input.type;
      const redacted = copy as unknown as CanonicalEvent;
      // The dialect that read a session is marked on its finish by identity, which a copy does not carry.
      if (input.type === 'finish' && redacted.type === 'finish') {
        const dialect = sessionDialectOf(input);
        if (dialect !== undefined) markSessionDialect(redacted, dialect);
      }
      return redacted;
    } catch (error) {
      const why = error instanceof Error ? error.message : 'unreadable';
      return unwritableEvent(input, { code: 'invalid-json', message: `could not be read to redact: ${why}` });
    }
  }

  let uncounted: Redactor | undefined;
  return {
    text,
    value,
    event,
    counts,
    get uncounted() {
      uncounted ??= createRedactor(options);
      return uncounted;
    },
  };
}

/** A redacted copy of `events`, and how many of each kind were replaced. */
export function redactEvents(
  events: readonly CanonicalEvent[],
  options: RedactionOptions = {},
): { events: CanonicalEvent[]; counts: RedactionCounts } {
  const redactor = createRedactor(options);
  return { events: events.map((event) => redactor.event(event)), counts: redactor.counts };
}

/** `text` redacted, and how many of each kind were replaced. */
export function redactText(
  text: string,
  options: RedactionOptions = {},
): { text: string; counts: RedactionCounts } {
  const redactor = createRedactor(options);
  return { text: redactor.text(text), counts: redactor.counts };
}
