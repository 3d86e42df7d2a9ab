/**
 * Writing an event whose long strings were never decoded (see the tokenizer's `lazyStrings`): their bytes, when they
 * are what `JSON.stringify` would write, are copied into the output as they came, instead of being decoded, escaped
 * again and encoded again. The text around them is the event's JSON as {@link stringifyEvent} writes it, so the
 * pieces joined are byte for byte that line.
 */

import { hasLazyStrings, isLazyString, lazyStringsMade, rawLazyString } from '@cursor-stream/ndjson';
import type { CanonicalEvent } from './events/index.ts';
import { setOwn } from './json-values.ts';
import { deltaEventJsonOf, MAX_JSON_DEPTH, stringifyEvent, stringifyEventByWalk } from './safe-json.ts';

/** A piece of an event's JSON line: text, or the UTF-8 bytes of a string written as it came in. */
export type EventPiece = string | Uint8Array;

/** Stands for a copied string while the rest is written; a NUL is written `\u0000`, so the mark cannot be mistaken. */
const MARK = '\u0000cursor-stream-splice:';
const WRITTEN_MARK = JSON.stringify(MARK).slice(0, -1);

/**
 * A copy of `value` in which every copyable string is its mark; `value` itself where nothing below is copyable, so
 * only the objects on the way to a long string are copied. `undefined` when the value is too deep to walk.
 */
function marked(value: unknown, raws: Uint8Array[], depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_JSON_DEPTH) return undefined;
  const keys = Object.keys(value);
  let copy: Record<string, unknown> | unknown[] | undefined;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const raw = rawLazyString(value, key);
    // A string not decoded and not copyable is read (decoded) like any other value, which leaves the value alone.
    const child = raw === undefined ? childOf(value, key, raws, depth) : `${MARK}${raws.push(raw) - 1}`;
    if (raw === undefined && copy === undefined && child === (value as Record<string, unknown>)[key])
      continue;
    copy ??= copyUpTo(value, keys, index);
    setOwn(copy as Record<string, unknown>, key, child);
  }
  return copy ?? value;
}

function childOf(value: object, key: string, raws: Uint8Array[], depth: number): unknown {
  const child = (value as Record<string, unknown>)[key];
  if (isLazyString(value, key)) return child;
  return marked(child, raws, depth + 1);
}

/** A fresh array or object holding `value`'s first `count` entries. */
function copyUpTo(
  value: object,
  keys: readonly string[],
  count: number,
): Record<string, unknown> | unknown[] {
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (let index = 0; index < count; index++) {
    const key = keys[index] as string;
    setOwn(copy as Record<string, unknown>, key, (value as Record<string, unknown>)[key]);
  }
  return copy;
}

/**
 * One canonical event as its JSON line (without the line feed), in pieces: text, and the bytes of long strings that
 * were never decoded, copied as they came. Joined (the text encoded as UTF-8), they are exactly the bytes of
 * {@link stringifyEvent}'s line, provided each copied piece is valid UTF-8, which the caller checks (a byte sequence
 * that is not would be written as U+FFFD by the decoder); an event with no such string is one piece of text.
 */
export function stringifyEventPieces(event: CanonicalEvent): readonly EventPiece[] {
  if (!lazyStringsMade()) return [stringifyEvent(event)];
  // A delta holds no object but its location, so its own strings are the only ones that may be copied; reading one
  // that was not decoded would decode it.
  if (typeof event === 'object' && event !== null && !hasLazyStrings(event)) {
    const delta = deltaEventJsonOf(event);
    if (delta !== undefined) return [delta];
  }
  // Not a delta written by its fields, which was just tried: the walk writes it (the same text for a delta that
  // holds an undecoded string of its own).
  const raws: Uint8Array[] = [];
  const copy = marked(event, raws, 0);
  if (raws.length === 0 || copy === undefined) return [stringifyEventByWalk(event)];
  const text = stringifyEventByWalk(copy as CanonicalEvent);
  const pieces = splitAtMarks(text, raws);
  return pieces ?? [stringifyEventByWalk(event)];
}

/**
 * `text` cut at each mark, with the mark's bytes in its place; `undefined` unless the marks are exactly the ones
 * placed (another string holding the mark's text, which only a hostile input could write, makes the cut ambiguous).
 */
function splitAtMarks(text: string, raws: readonly Uint8Array[]): EventPiece[] | undefined {
  let marks = 0;
  for (let at = text.indexOf(WRITTEN_MARK); at !== -1; at = text.indexOf(WRITTEN_MARK, at + 1)) marks++;
  if (marks !== raws.length) return undefined;
  const pieces: EventPiece[] = [];
  let from = 0;
  for (let index = 0; index < raws.length; index++) {
    const written = `${WRITTEN_MARK}${index}"`;
    const at = text.indexOf(WRITTEN_MARK, from);
    if (!text.startsWith(written, at)) return undefined;
    pieces.push(text.slice(from, at), raws[index] as Uint8Array);
    from = at + written.length;
  }
  pieces.push(text.slice(from));
  return pieces;
}
