/**
 * Writing events whose long strings were never decoded: the pieces, joined, are byte for byte the line
 * `stringifyEvent` writes, whatever the strings hold (escapes a copy cannot keep, text that looks like the mark).
 */
import {
  type CanonicalEvent,
  createNormalizer,
  stringifyEvent,
  stringifyEventPieces,
} from '@cursor-stream/core';
import { LAZY_LINE_BYTES, LAZY_STRING_BYTES } from '@cursor-stream/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, test as it } from 'vitest';

const encoder = new TextEncoder();

/** The pieces of an event's line as bytes. */
function piecesBytes(event: CanonicalEvent): Uint8Array {
  const parts = stringifyEventPieces(event).map((piece) =>
    typeof piece === 'string' ? encoder.encode(piece) : piece,
  );
  return Buffer.concat(parts);
}

/** The events of `lines`, each long line fed over two chunks so that its long strings stay undecoded. */
function eventsOf(lines: readonly string[]): CanonicalEvent[] {
  const normalizer = createNormalizer();
  const events: CanonicalEvent[] = [];
  for (const line of lines) {
    const bytes = encoder.encode(`${line}\n`);
    events.push(...normalizer.feed(bytes.subarray(0, 5)), ...normalizer.feed(bytes.subarray(5)));
  }
  events.push(...normalizer.end());
  return events;
}

/** A tool completion line whose output is `content` written as `rawContent` (JSON string text, quotes excluded). */
function completionLine(rawContent: string, id: string): string {
  return `{"type":"tool_call","subtype":"completed","call_id":"${id}","tool_call":{"readToolCall":{"args":{"path":"a"},"result":{"success":{"content":"${rawContent}","note":"${rawContent}"}}}},"session_id":"s"}`;
}

/** Escapes JSON allows, some of which `JSON.stringify` never writes (`\/`, `\u0041`, an escaped pair). */
const rawPiece = fc.constantFrom(
  'plain text ',
  '\\"',
  '\\\\',
  '\\n',
  '\\t',
  '\\/',
  '\\u0041',
  '\\u001f',
  '\\ud83d\\ude00',
  '\\ud800',
  'é',
  '👍🏽',
  '\\u0000cursor-stream-splice:0',
);

const rawContent = fc
  .array(rawPiece, { minLength: 1, maxLength: 12 })
  .map((pieces) => pieces.join('').repeat(Math.ceil(LAZY_LINE_BYTES / 2 / pieces.join('').length) + 1));

describe('event pieces', () => {
  test.prop([rawContent, fc.string({ maxLength: 10 })])(
    'joined, are the bytes of the eager line, for every escape a string can hold',
    (raw, id) => {
      const line = completionLine(raw, JSON.stringify(id).slice(1, -1));
      for (const event of eventsOf([line])) {
        expect(Buffer.from(piecesBytes(event)).toString('utf8')).toBe(stringifyEvent(event));
      }
    },
  );

  it('copy a canonical long string as it came, and write an event without one as one text', () => {
    const raw = 'a "quoted" line\\n'.replace('"quoted"', '\\"quoted\\"').repeat(LAZY_STRING_BYTES * 4);
    const events = eventsOf([completionLine(raw, 'c1')]);
    const result = events.find((event) => event.type === 'tool-result') as CanonicalEvent;
    const pieces = stringifyEventPieces(result);
    expect(pieces.filter((piece) => typeof piece !== 'string')).toHaveLength(2);
    expect(Buffer.from(piecesBytes(result)).toString('utf8')).toBe(stringifyEvent(result));
    const start = events.find((event) => event.type === 'stream-start' || event.type === 'tool-call');
    expect(stringifyEventPieces(start as CanonicalEvent)).toEqual([stringifyEvent(start as CanonicalEvent)]);
  });
});
