/**
 * A delta's line is written by its fields rather than by `JSON.stringify`'s walk; the line must be `JSON.stringify`'s,
 * byte for byte, for any value handed in: deltas of any text and location, and values that only look like one (a
 * field more or fewer, another order, another type, a `toJSON`, a getter).
 */
import { type CanonicalEvent, stringifyEvent, stringifyEventPieces } from '@cursor-stream/core';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, test as it } from 'vitest';

/** Any number, the ones JSON has no form for included. */
const anyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 1e21, 5e-324),
);
/** Any string: lone surrogates, controls, the characters JSON escapes. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', 'é', 'a'),
  }),
);
const anyValue = fc.oneof(anyString, anyNumber, fc.boolean(), fc.constant(null), fc.constant(undefined));

const delta = fc.record({
  type: fc.oneof(fc.constantFrom('reasoning-delta', 'text-delta'), anyString),
  text: anyString,
  loc: fc.record({ line: anyNumber, offset: anyNumber }),
  sessionId: fc.oneof(fc.constant('4dea1b23-a54c-48d8-ac51-abfd2bd7eed6'), anyString),
});

/** A delta changed in one way: a field dropped, added, moved, or of another type. */
const nearDelta = fc
  .tuple(
    delta,
    fc.constantFrom('drop', 'add', 'swap', 'retype', 'loc-add', 'loc-retype', 'loc-array'),
    fc.nat(3),
    anyValue,
  )
  .map(([value, change, at, other]) => {
    const entries = Object.entries(value);
    const key = (entries[at] as [string, unknown])[0];
    switch (change) {
      case 'drop':
        return Object.fromEntries(entries.filter((_, index) => index !== at));
      case 'add':
        return { ...value, extra: other };
      case 'swap':
        return Object.fromEntries([...entries.slice(at), ...entries.slice(0, at)]);
      case 'retype':
        return { ...value, [key]: other };
      case 'loc-add':
        return { ...value, loc: { ...value.loc, column: other } };
      case 'loc-retype':
        return { ...value, loc: { line: other, offset: value.loc.offset } };
      default:
        return { ...value, loc: [value.loc.line, value.loc.offset] };
    }
  });

describe("a delta's line", () => {
  test.prop([delta], { numRuns: 500 })("is JSON.stringify's for any delta", (event) => {
    expect(stringifyEvent(event as CanonicalEvent)).toBe(JSON.stringify(event));
    expect(stringifyEventPieces(event as CanonicalEvent)).toEqual([JSON.stringify(event)]);
  });

  test.prop([nearDelta], { numRuns: 500 })(
    "is JSON.stringify's for a value that is nearly a delta",
    (event) => {
      expect(stringifyEvent(event as unknown as CanonicalEvent)).toBe(JSON.stringify(event));
    },
  );

  it("is JSON.stringify's for a delta with a toJSON, a getter or a field it inherits", () => {
    const base = { type: 'text-delta', text: 'a', loc: { line: 1, offset: 0 }, sessionId: 's' };
    const withToJson = { ...base, loc: Object.assign(Object.create({ toJSON: () => 'here' }), base.loc) };
    const getter = { ...base };
    let reads = 0;
    Object.defineProperty(getter, 'text', {
      enumerable: true,
      get: () => {
        reads++;
        return `read ${reads}`;
      },
    });
    const inherited = Object.assign(Object.create({ sessionId: 'inherited' }), {
      type: 'text-delta',
      text: 'a',
      loc: { line: 1, offset: 0 },
    });
    const ownToJson = Object.defineProperty({ ...base }, 'toJSON', { value: () => 'own', enumerable: false });
    const bare = Object.assign(Object.create(null), base);
    for (const event of [withToJson, inherited, ownToJson, bare]) {
      expect(stringifyEvent(event as CanonicalEvent)).toBe(JSON.stringify(event));
    }
    expect(stringifyEvent(getter as CanonicalEvent)).toBe(
      '{"type":"text-delta","text":"read 1","loc":{"line":1,"offset":0},"sessionId":"s"}',
    );
  });

  it('reports a delta whose getter throws, as any event', () => {
    const event = { type: 'text-delta', text: '', loc: { line: 4, offset: 9 }, sessionId: 's' };
    Object.defineProperty(event, 'text', {
      enumerable: true,
      get: () => {
        throw new Error('no text');
      },
    });
    expect(JSON.parse(stringifyEvent(event as CanonicalEvent))).toMatchObject({
      type: 'invalid-line',
      code: 'invalid-json',
      loc: { line: 4, offset: 9 },
    });
  });
});
