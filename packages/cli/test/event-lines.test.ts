/**
 * `normalize`'s batch writer: whether it copies long strings from the input or writes them again, the bytes are those
 * of the events' lines as `stringifyEvent` writes them, invalid UTF-8 in the input included.
 */
import { type CanonicalEvent, createNormalizer, stringifyEvent } from '@cursor-stream/core/normalize';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { eventLines } from '../src/commands/normalize/output.ts';

/** The events of `bytes`, fed in two chunks so that a long line is held and its long strings stay undecoded. */
function eventsOf(bytes: Uint8Array): CanonicalEvent[] {
  const normalizer = createNormalizer();
  return [
    ...normalizer.feed(bytes.subarray(0, 3)),
    ...normalizer.feed(bytes.subarray(3)),
    ...normalizer.end(),
  ];
}

function expectedBytes(events: readonly CanonicalEvent[]): Buffer {
  return Buffer.from(`${events.map(stringifyEvent).join('\n')}\n`);
}

function completion(content: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      '{"type":"tool_call","subtype":"completed","call_id":"c","tool_call":{"readToolCall":{"args":{},',
    ),
    Buffer.from('"result":{"success":{"content":"'),
    content,
    Buffer.from('"}}}},"session_id":"s"}\n'),
  ]);
}

describe('event lines', () => {
  it('copy valid long strings and are byte for byte the eager lines', () => {
    const events = eventsOf(completion(Buffer.from('ok é 👍🏽 \\" \\n '.repeat(4000))));
    const written = eventLines(events);
    expect(written).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(written)).toEqual(expectedBytes(events));
  });

  it('write a long string holding invalid UTF-8 as the decoder reads it, not as it came', () => {
    const invalid = Buffer.concat([
      Buffer.from('a'.repeat(40_000)),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('b'),
    ]);
    const events = eventsOf(completion(invalid));
    const bytes = Buffer.from(eventLines(events));
    expect(bytes).toEqual(expectedBytes(events));
    expect(bytes.includes(Buffer.from([0xff]))).toBe(false);
  });

  it('are the events as JSON text when nothing is copied, characters past Latin-1 among them', () => {
    const events = eventsOf(
      Buffer.from('{"type":"system","subtype":"init","session_id":"s"}\nnot a record … 中文 👍🏽\n'),
    );
    expect(Buffer.from(eventLines(events)).toString('utf8')).toBe(
      `${events.map(stringifyEvent).join('\n')}\n`,
    );
  });
});

describe('event lines of one of several logs', () => {
  const small = Buffer.from(
    '{"type":"system","subtype":"init","session_id":"s"}\nnot a record\n{"type":"user","message":{"content":[]}}\n',
  );
  const long = completion(Buffer.from('ok é 👍🏽 \\" \\n '.repeat(4000)));

  propertyTest.prop([fc.string({ unit: 'binary' }), fc.constantFrom(small, long)])(
    'are the events as one log gives them, each with the file as its first field',
    (file, input) => {
      const events = eventsOf(input);
      const written = eventLines(events, file);
      const text = Buffer.from(written).toString();
      const lines = text.split('\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((line) => JSON.parse(line))).toEqual(
        events.map((event) => ({ file, ...JSON.parse(stringifyEvent(event)) })),
      );
      expect(lines.every((line) => line.startsWith(`{"file":${JSON.stringify(file)},"type":`))).toBe(true);
    },
  );
});
