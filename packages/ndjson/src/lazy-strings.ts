/**
 * Parsing a long record without decoding its long strings. A tool's output or a file's contents can make a record of
 * hundreds of kilobytes; decoding it into one string and parsing that string allocates two or three copies of the
 * payload in the runtime's large-object space, which costs far more than the parse itself, and most consumers never
 * read the payload (a summary wants the tool's status, not its output).
 *
 * So a long line is scanned on its bytes: each long string value is checked to be exactly what `JSON.parse` accepts,
 * cut out, and replaced by a short placeholder; the small rest (the skeleton) is decoded and parsed; and each
 * placeholder becomes a property that decodes and unescapes its bytes on first access. A consumer reading the
 * property gets the very string an eager parse gives. Anything unusual (an invalid escape, a raw control character,
 * a skeleton that does not parse) gives up, and the caller parses the line as usual, so the result never differs.
 */

import { jsonStringEnd, scannedBytes } from './string-bytes.ts';
import type { NdjsonRecord } from './types.ts';

/** String values at least this long, in bytes between their quotes, are left undecoded until read. */
export const LAZY_STRING_BYTES = 1024;

/** Lines shorter than this are parsed as they are: cutting strings out pays only on long records. */
export const LAZY_LINE_BYTES = 32 * 1024;

/** Where lazy strings begin; the defaults are {@link LAZY_LINE_BYTES} and {@link LAZY_STRING_BYTES}. */
export interface LazyStringBounds {
  /** Lines (bytes before the line feed) shorter than this are parsed eagerly. */
  readonly lineBytes: number;
  /** String values shorter than this (bytes between their quotes) are decoded with the rest. */
  readonly stringBytes: number;
}

/** The bounds a `lazyStrings` option asks for; `undefined` when it is off. */
export function lazyStringBounds(
  option: boolean | Partial<LazyStringBounds> | undefined,
): LazyStringBounds | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true ? {} : option;
  return {
    lineBytes: given.lineBytes ?? LAZY_LINE_BYTES,
    stringBytes: Math.max(1, given.stringBytes ?? LAZY_STRING_BYTES),
  };
}

const QUOTE = 0x22;
const COLON = 0x3a;

/** A placeholder's first character: a NUL, which a skeleton can only hold as the escape checked for below. */
const PLACEHOLDER_MARK = '\u0000';
const ESCAPED_MARK = '\\u0000';

/**
 * Marks an object or array holding strings not yet decoded, as the symbol-keyed map of their keys: JSON and
 * `Object.keys` never see it, and a walk that must not decode them (a depth check) can tell which properties to pass.
 */
export const LAZY_KEYS: unique symbol = Symbol.for('cursor-stream.lazy-keys');

/** Whether the string closed at `close` is an object key: the next byte past whitespace is a colon. */
function isKey(bytes: Uint8Array, close: number): boolean {
  for (let at = close + 1; at < bytes.length; at++) {
    const byte = bytes[at] as number;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return byte === COLON;
  }
  return false;
}

/** A long string value's bytes, its quotes included. */
interface Payload {
  start: number;
  end: number;
  /**
   * Whether the bytes are the string as `JSON.stringify` writes it (no `\/`, no `\u` escape), so that a writer may
   * copy them instead of decoding and escaping the string again.
   */
  canonical: boolean;
}

/**
 * The long string values of a line, in order, or `undefined` when the line is not plain enough to cut (a string
 * that is unclosed or not valid as JSON; the eager path then reports or repairs it).
 */
function findPayloads(bytes: Uint8Array, stringBytes: number): Payload[] | undefined {
  const payloads: Payload[] = [];
  const scanned = scannedBytes(bytes);
  for (let from = 0; ; ) {
    const open = bytes.indexOf(QUOTE, from);
    if (open === -1) return payloads;
    const found = jsonStringEnd(scanned, open);
    if (found === undefined) return undefined;
    const { close, canonical } = found;
    if (close - open - 1 >= stringBytes && !isKey(bytes, close))
      payloads.push({ start: open, end: close + 1, canonical });
    from = close + 1;
  }
}

/** The line's text with each payload replaced by the placeholder of its index; `undefined` if one could collide. */
function skeletonOf(
  bytes: Uint8Array,
  payloads: readonly Payload[],
  decoder: TextDecoder,
): string | undefined {
  let skeleton = '';
  let from = 0;
  for (let index = 0; index <= payloads.length; index++) {
    const payload = payloads[index];
    const piece = decoder.decode(bytes.subarray(from, payload?.start ?? bytes.length));
    if (piece.includes(ESCAPED_MARK)) return undefined;
    skeleton += piece;
    if (payload === undefined) break;
    skeleton += `"${ESCAPED_MARK}${index}"`;
    from = payload.end;
  }
  return skeleton;
}

/** A string not decoded yet: its bytes, as JSON text (quotes included) or as the UTF-8 text itself. */
interface LazyPayload {
  readonly bytes: Uint8Array;
  /** Whether the bytes are JSON text, which is parsed once decoded. */
  readonly json: boolean;
  /** Whether {@link Payload.canonical} holds for them (never for plain text). */
  readonly canonical: boolean;
}

/** A holder's strings not decoded yet, by key. */
type LazyKeys = Map<string, LazyPayload>;

function ownLazyKeys(holder: object): LazyKeys | undefined {
  return Object.hasOwn(holder, LAZY_KEYS) ? (holder as { [LAZY_KEYS]: LazyKeys })[LAZY_KEYS] : undefined;
}

function lazyKeysOf(holder: object): LazyKeys | undefined {
  return (holder as { [LAZY_KEYS]?: LazyKeys })[LAZY_KEYS];
}

/** Decodes a payload's bytes; decoding without streaming keeps no state, so one decoder serves every record. */
const payloadDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The object whose own lazy string `key` is, with its payload: `receiver` itself, or the prototype it reads through
 * (a holder may be the prototype of another object).
 */
function lazyOwner(receiver: unknown, key: string): { owner: object; payload: LazyPayload } | undefined {
  for (let at = receiver; typeof at === 'object' && at !== null; at = Object.getPrototypeOf(at)) {
    const payload = ownLazyKeys(at)?.get(key);
    if (payload !== undefined) return { owner: at, payload };
  }
  return undefined;
}

/**
 * Makes `holder[key]` a plain property holding `value`, as an eager parse would have left it. A holder frozen by its
 * consumer keeps the accessor, which then decodes on each read.
 */
function settle(holder: object, key: string, value: unknown): void {
  const plain = { value, writable: true, enumerable: true, configurable: true };
  if (Reflect.defineProperty(holder, key, plain)) ownLazyKeys(holder)?.delete(key);
}

/** Accessors kept for reuse; past this many distinct keys, a key gets accessors of its own. */
const MAX_SHARED_ACCESSORS = 1024;
const sharedAccessors = new Map<string, PropertyDescriptor>();

/**
 * The accessor of a lazy string under `key`: it decodes the payload on first read (and keeps the string), or takes a
 * value written to it. One accessor serves every holder, finding its bytes through the holder: a closure per holder
 * would make each record's object a hidden class of its own, and the runtime keeps hidden classes (with the bytes the
 * closure holds) until a full collection, so megabytes of dead payloads would pile up between them.
 */
function accessorFor(key: string): PropertyDescriptor {
  const shared = sharedAccessors.get(key);
  if (shared !== undefined) return shared;
  const accessor: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: unknown): unknown {
      const found = lazyOwner(this, key);
      if (found === undefined) return undefined;
      const text = payloadDecoder.decode(found.payload.bytes);
      const value: unknown = found.payload.json ? JSON.parse(text) : text;
      settle(found.owner, key, value);
      return value;
    },
    set(this: unknown, value: unknown): void {
      const found = lazyOwner(this, key);
      if (found !== undefined) settle(found.owner, key, value);
    },
  };
  if (sharedAccessors.size < MAX_SHARED_ACCESSORS) sharedAccessors.set(key, accessor);
  return accessor;
}

// Whether any string was ever left undecoded here: until one is, no value anywhere holds one.
let anyLazyString = false;

/**
 * Whether any string has been left undecoded in this runtime so far. Until one has, no value holds one, and a writer
 * that copies such strings (see {@link rawLazyString}) need not walk a value to look for them: most logs have no line
 * long enough for any.
 */
export function lazyStringsMade(): boolean {
  return anyLazyString;
}

/** Makes `holder[key]` the string `payload` holds, decoded on first read. */
function defineLazy(holder: object, key: string, payload: LazyPayload): void {
  anyLazyString = true;
  let keys = ownLazyKeys(holder);
  if (keys === undefined) {
    keys = new Map();
    Object.defineProperty(holder, LAZY_KEYS, { value: keys, configurable: true });
  }
  keys.set(key, payload);
  Object.defineProperty(holder, key, accessorFor(key));
}

/**
 * Makes `holder[key]` the UTF-8 text of `bytes`, decoded on first read (a record's `text`). The bytes are kept, not
 * copied: the caller gives bytes nothing else writes to.
 */
export function defineLazyText(holder: object, key: string, bytes: Uint8Array): void {
  defineLazy(holder, key, { bytes, json: false, canonical: false });
}

/** The payload a placeholder names, if `value` is one. */
function placeholderIndex(value: unknown): number | undefined {
  if (typeof value !== 'string' || !value.startsWith(PLACEHOLDER_MARK)) return undefined;
  return Number(value.slice(1));
}

/**
 * Turns every placeholder in the parsed skeleton into a lazy property. Iterative, so a deeply nested skeleton cannot
 * exhaust the stack. Returns how many it turned.
 */
function installLazyStrings(root: unknown, bytes: Uint8Array, payloads: readonly Payload[]): number {
  let installed = 0;
  const stack: unknown[] = [root];
  for (let holder = stack.pop(); holder !== undefined; holder = stack.pop()) {
    if (typeof holder !== 'object' || holder === null) continue;
    const keys = Array.isArray(holder) ? holder.keys() : Object.keys(holder);
    for (const key of keys) {
      const value = (holder as Record<string | number, unknown>)[key];
      const index = placeholderIndex(value);
      const payload = index === undefined ? undefined : payloads[index];
      if (payload !== undefined) {
        const json = {
          bytes: bytes.subarray(payload.start, payload.end),
          json: true,
          canonical: payload.canonical,
        };
        defineLazy(holder, String(key), json);
        installed += 1;
      } else if (typeof value === 'object' && value !== null) stack.push(value);
    }
  }
  return installed;
}

/**
 * Parses a line's bytes (its terminator excluded) with its long string values left undecoded until read. Returns
 * `undefined` when the line has no long string value or is not plain enough to cut: the caller then parses it
 * eagerly, which gives the same value or the problem this would have hidden. The lazy strings read a copy of the
 * bytes, made only once the line is cut, and returned with the value: the caller may refill `bytes` afterwards.
 *
 * @param decoder - A UTF-8 decoder that keeps a byte order mark (`ignoreBOM: true`), used without streaming.
 * @param stringBytes - The shortest string left undecoded, in bytes between its quotes.
 */
export function parseWithLazyStrings(
  bytes: Uint8Array,
  decoder: TextDecoder,
  stringBytes: number,
): { value: unknown; bytes: Uint8Array } | undefined {
  const payloads = findPayloads(bytes, stringBytes);
  if (payloads === undefined || payloads.length === 0) return undefined;
  const skeleton = skeletonOf(bytes, payloads, decoder);
  if (skeleton === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(skeleton);
  } catch {
    return undefined;
  }
  // A top-level string payload has no holder to hang a property on: such a line is parsed eagerly.
  const kept = bytes.slice();
  if (installLazyStrings(value, kept, payloads) !== payloads.length) return undefined;
  return { value, bytes: kept };
}

/**
 * A copy of `record` at another place (a range's record moved to where it is in the whole file), its text still
 * undecoded if it was: copying the text by reading it would decode a long line's text that its reader may never ask
 * for.
 */
export function relocatedRecord(record: NdjsonRecord, line: number, offset: number): NdjsonRecord {
  const payload = ownLazyKeys(record)?.get('text');
  if (payload === undefined)
    return { value: record.value, text: record.text, line, offset, length: record.length };
  // In the order the tokenizer gives a record with a lazy text.
  const moved: NdjsonRecord = { value: record.value, line, offset, length: record.length, text: '' };
  defineLazy(moved, 'text', payload);
  return moved;
}

/** Whether some of `holder`'s properties are strings not decoded yet. */
export function hasLazyStrings(holder: object): boolean {
  return (lazyKeysOf(holder)?.size ?? 0) > 0;
}

/**
 * Whether `holder[key]` is a string not decoded yet. A walk that only needs the shape of a value (its depth) uses
 * it to pass such properties without decoding them.
 */
export function isLazyString(holder: object, key: string): boolean {
  return lazyKeysOf(holder)?.has(key) === true;
}

/**
 * The JSON text of `holder[key]`, quotes included, as the bytes it came in, when it is a string not decoded yet whose
 * bytes are what `JSON.stringify` writes for it (given they are valid UTF-8, which the caller checks). A writer copies
 * them into its output instead of decoding the string and escaping it again.
 */
export function rawLazyString(holder: object, key: string): Uint8Array | undefined {
  const payload = lazyKeysOf(holder)?.get(key);
  return payload?.canonical === true ? payload.bytes : undefined;
}
