/**
 * Depth-safe JSON. `JSON.parse` reads any nesting (V8's parser is iterative), but `JSON.stringify` and every
 * recursive walk overflow the stack a few thousand levels down, and a value handed in by a caller may hold a getter
 * that throws, a cycle or a BigInt. Everything that writes or walks a value goes through here, so that such a value
 * becomes a located problem with a `code` instead of an exception that ends the stream.
 */

import { hasLazyStrings, isLazyString } from '@cursor-stream/ndjson';
import { deltaEventJson } from './delta-event-json.ts';
import type { CanonicalEvent, InvalidLineCode, InvalidLineEvent } from './events/index.ts';

/**
 * The deepest nesting of arrays and objects a record may have: 512 levels, far beyond any agent event and well
 * within what `JSON.stringify` and the schema validators handle, and within the default recursion limit of other
 * languages' JSON readers (Python's is 1,000) once an event wraps the record.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * The deepest nesting {@link safeJsonStringify} writes by default: a record at {@link MAX_JSON_DEPTH} wrapped in
 * an event, and that event in an encoder's record, fits with room to spare.
 */
export const MAX_SERIALIZED_DEPTH = 2 * MAX_JSON_DEPTH;

/** Why a value could not be written as JSON. */
export interface JsonWriteProblem {
  /** `too-deep`: nested deeper than the limit; `invalid-json`: a cycle, a BigInt or a getter that throws. */
  code: Extract<InvalidLineCode, 'too-deep' | 'invalid-json' | 'oversize'>;
  message: string;
}

/** What {@link safeJsonStringify} gave: the JSON text, or why there is none. */
export type SafeJsonResult = { ok: true; text: string } | ({ ok: false } & JsonWriteProblem);

/**
 * Pushes the arrays and objects held by `value` onto the walk's stack, at `depth`. A string not decoded yet (see
 * `lazyStrings` of the tokenizer) is a leaf whatever it holds, so it is passed over rather than read, which would
 * decode it. Own enumerable fields, as `Object.values` gives them, without the array it would make per object: the
 * strict validation of every record walks it.
 */
function pushChildren(value: object, depth: number, stack: unknown[], depths: number[]): void {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const child: unknown = value[index];
      if (typeof child !== 'object' || child === null) continue;
      stack.push(child);
      depths.push(depth);
    }
    return;
  }
  const lazy = hasLazyStrings(value);
  for (const key in value) {
    if (!Object.hasOwn(value, key) || (lazy && isLazyString(value, key))) continue;
    const child: unknown = (value as Record<string, unknown>)[key];
    if (typeof child !== 'object' || child === null) continue;
    stack.push(child);
    depths.push(depth);
  }
}

/**
 * Whether a JSON text of `length` characters may nest arrays and objects deeper than `maxDepth`: each level opens and
 * closes with a character of its own, so a text of `2 * maxDepth` or fewer cannot. A byte length, never shorter than
 * the text, may be given instead.
 */
export function mayNestDeeperThan(length: number, maxDepth: number): boolean {
  return length > 2 * maxDepth;
}

/**
 * Whether `value` nests arrays and objects deeper than `maxDepth` (a scalar is depth 0, `[]` depth 1). Iterative, so
 * any depth is measured without recursion; it stops at the first path that is too deep. A getter that throws
 * counts as not too deep: the caller learns of it when it writes the value.
 */
export function exceedsJsonDepth(value: unknown, maxDepth: number): boolean {
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  try {
    for (let value = stack.pop(), depth = depths.pop(); depth !== undefined; ) {
      if (typeof value === 'object' && value !== null) {
        if (depth + 1 > maxDepth) return true;
        pushChildren(value, depth + 1, stack, depths);
      }
      value = stack.pop();
      depth = depths.pop();
    }
  } catch {
    return false;
  }
  return false;
}

function describeError(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'unknown error';
  }
}

/**
 * `JSON.stringify(value, null, space)` that never throws. The result is `too-deep` exactly when the value nests
 * deeper than `maxDepth`, wherever on the stack it is called from; a value `JSON.stringify` rejects for another
 * reason (a cycle, a BigInt, a getter that throws) is `invalid-json`, and one whose text would exceed the runtime's
 * string limit `oversize`. A value with no JSON form (`undefined`, a function) is written as `null`.
 *
 * @param maxDepth - The deepest nesting written; see {@link MAX_SERIALIZED_DEPTH}.
 */
export function safeJsonStringify(
  value: unknown,
  space?: number,
  maxDepth: number = MAX_SERIALIZED_DEPTH,
): SafeJsonResult {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, null, space);
  } catch (error) {
    // A cycle or a BigInt is a TypeError; a stack overflow or a text over the string limit a RangeError.
    if (!(error instanceof TypeError) && exceedsJsonDepth(value, maxDepth)) return tooDeep(maxDepth);
    const isLength = error instanceof RangeError && /string length/i.test(describeError(error));
    return {
      ok: false,
      code: isLength ? 'oversize' : 'invalid-json',
      message: `cannot be written as JSON: ${describeError(error)}`,
    };
  }
  if (text !== undefined && mayNestDeeperThan(text.length, maxDepth) && exceedsJsonDepth(value, maxDepth))
    return tooDeep(maxDepth);
  return { ok: true, text: text ?? 'null' };
}

function tooDeep(maxDepth: number): SafeJsonResult {
  return { ok: false, code: 'too-deep', message: `nested deeper than ${maxDepth} levels, too deep to write` };
}

/**
 * One canonical event as a line of JSON (without its line feed). An event that cannot be written (a value nested
 * too deep, a caller's value with a throwing getter) is written as an `invalid-line` at the same location instead,
 * so a stream of events always gives a stream of lines.
 */
export function stringifyEvent(event: CanonicalEvent): string {
  return deltaEventJsonOf(event) ?? stringifyEventByWalk(event);
}

/** {@link stringifyEvent} without trying a delta's writer first: for a caller that has tried it. */
export function stringifyEventByWalk(event: CanonicalEvent): string {
  const result = safeJsonStringify(event);
  if (result.ok) return result.text;
  return JSON.stringify(unwritableEvent(event, result));
}

/**
 * A delta's line written by its fields (see `delta-event-json.ts`), or `undefined`: for any other event, and for one
 * whose getter throws, which {@link safeJsonStringify} then reports.
 */
export function deltaEventJsonOf(event: CanonicalEvent): string | undefined {
  try {
    return deltaEventJson(event);
  } catch {
    return undefined;
  }
}

/** The `invalid-line` that stands for an event that cannot be written. */
export function unwritableEvent(event: CanonicalEvent, problem: JsonWriteProblem): InvalidLineEvent {
  let type = 'event';
  let loc: CanonicalEvent['loc'];
  try {
    type = String(event.type);
    loc =
      event.loc === undefined
        ? undefined
        : { line: Number(event.loc.line), offset: Number(event.loc.offset) };
  } catch {}
  const written: InvalidLineEvent = {
    type: 'invalid-line',
    code: problem.code,
    message: `This ${type} event ${problem.message}.`,
    excerpt: '',
  };
  if (loc !== undefined) written.loc = loc;
  return written;
}
