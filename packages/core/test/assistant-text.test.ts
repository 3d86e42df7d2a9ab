import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { assistantText, normalizeText } from './support.ts';

const nonEmpty = fc.string({ minLength: 1, maxLength: 12 });

function toolCall(id: string) {
  return {
    type: 'tool_call',
    subtype: 'started',
    call_id: id,
    tool_call: { readToolCall: { args: { path: 'a' } } },
  };
}

function message(text: string, extra: object = {}) {
  return { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] }, ...extra };
}

/**
 * One model call streamed with --stream-partial-output: its first delta, maybe the same text again with its id, more
 * deltas, then maybe a final copy of the call's whole text.
 */
const streamedCall = fc.record({
  pieces: fc.array(nonEmpty, { minLength: 1, maxLength: 5 }),
  consolidated: fc.boolean(),
  finalCopy: fc.boolean(),
});

describe('assistant text is reconstructed exactly once', () => {
  test.prop([fc.array(streamedCall, { minLength: 1, maxLength: 4 }), fc.boolean()])(
    'partial-output streams of any shape give each piece once, whatever copies of a call or the turn follow',
    (calls, withFinal) => {
      const records: object[] = [];
      let whole = '';
      calls.forEach((call, index) => {
        // Model calls are separated by the records between them, here a tool call.
        if (index > 0) records.push(toolCall(`call-${index}`));
        const [first, ...rest] = call.pieces as [string, ...string[]];
        records.push(message(first, { timestamp_ms: records.length }));
        if (call.consolidated) records.push(message(first, { model_call_id: `m-${index}`, timestamp_ms: 0 }));
        for (const piece of rest) records.push(message(piece, { timestamp_ms: records.length }));
        const text = call.pieces.join('');
        if (call.finalCopy) records.push(message(text));
        whole += text;
      });
      if (withFinal) records.push(message(whole));
      expect(assistantText(normalizeText(ndjson(records)))).toBe(whole);
    },
  );

  test.prop([fc.array(fc.record({ text: nonEmpty, midTurn: fc.boolean() }), { minLength: 1, maxLength: 6 })])(
    'without partial output every message counts, repeats included',
    (messages) => {
      const records = messages.map(({ text, midTurn }, index) =>
        message(text, midTurn ? { model_call_id: `m-${index}`, timestamp_ms: index } : {}),
      );
      expect(assistantText(normalizeText(ndjson(records)))).toBe(messages.map(({ text }) => text).join(''));
    },
  );

  test.prop([fc.array(nonEmpty, { minLength: 1, maxLength: 6 })])(
    "the Python wrapper's deltas followed by its complete message give the text once",
    (pieces) => {
      const records = [
        ...pieces.map((text, index) => ({ type: 'assistant', text, timestamp_ms: index })),
        message(pieces.join('')),
      ];
      expect(assistantText(normalizeText(ndjson(records)))).toBe(pieces.join(''));
    },
  );

  test('a new prompt starts a new turn, so the same text may stream again', () => {
    const user = { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'again' }] } };
    const records = [message('ok', { timestamp_ms: 1 }), message('ok'), user, message('ok')];
    expect(assistantText(normalizeText(ndjson(records)))).toBe('okok');
  });
});
