/**
 * The JSON line of the hottest event, written without `JSON.stringify`'s walk of the object. Most events of a log are
 * deltas of one token (`{"type":"reasoning-delta","text":" the","loc":{…},"sessionId":"…"}`), and writing
 * one generically costs about twice what writing its four fields by name does, since the walk looks up each key's
 * property and escapes each key again. The line written is exactly `JSON.stringify`'s: the event must hold those four
 * fields, in that order, of those types, and nothing else that `JSON.stringify` would see; any other event is left
 * to it.
 */

/** The fields of a delta event, in the order the normalizer writes them. */
const DELTA_KEYS: readonly string[] = ['type', 'text', 'loc', 'sessionId'];
const LOC_KEYS: readonly string[] = ['line', 'offset'];

/** Longer texts go to `JSON.stringify`, which reports a line over the runtime's string limit as its caller expects. */
const MAX_WRITTEN_TEXT = 1 << 20;

/** Whether `value`'s enumerable keys, own and inherited as `for…in` lists them, are exactly `keys`, in order. */
function hasExactKeys(value: object, keys: readonly string[]): boolean {
  let index = 0;
  for (const key in value) {
    if (key !== keys[index]) return false;
    index++;
  }
  return index === keys.length;
}

/**
 * An object literal's kind of object, which `JSON.stringify` writes by its own fields and `for…in` lists the same
 * (any enumerable field it inherits from `Object.prototype` too, which then fails the keys' check), with no `toJSON`.
 */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    (value as { toJSON?: unknown }).toJSON === undefined
  );
}

// The last type and session id written, with their JSON: a run of deltas shares both.
let lastType = '';
let lastTypeJson = '""';
let lastSessionId = '';
let lastSessionIdJson = '""';

/**
 * The JSON text of `event` when it is a delta's four fields (`type`, `text`, `loc` of `line` and `offset`,
 * `sessionId`) as plain data, exactly as `JSON.stringify` writes it; `undefined` for any other value. Reads each field
 * once, as `JSON.stringify` does.
 */
export function deltaEventJson(event: unknown): string | undefined {
  if (!isPlainRecord(event) || !hasExactKeys(event, DELTA_KEYS)) return undefined;
  const { type, text, loc, sessionId } = event;
  if (typeof type !== 'string' || typeof text !== 'string' || typeof sessionId !== 'string') return undefined;
  if (text.length > MAX_WRITTEN_TEXT || !isPlainRecord(loc) || !hasExactKeys(loc, LOC_KEYS)) return undefined;
  const { line, offset } = loc;
  // A finite number is written as `String` writes it (-0 as 0); `JSON.stringify` writes any other as null.
  if (typeof line !== 'number' || typeof offset !== 'number') return undefined;
  if (!Number.isFinite(line) || !Number.isFinite(offset)) return undefined;
  if (type !== lastType) {
    lastTypeJson = JSON.stringify(type);
    lastType = type;
  }
  if (sessionId !== lastSessionId) {
    lastSessionIdJson = JSON.stringify(sessionId);
    lastSessionId = sessionId;
  }
  return `{"type":${lastTypeJson},"text":${JSON.stringify(text)},"loc":{"line":${line},"offset":${offset}},"sessionId":${lastSessionIdJson}}`;
}
