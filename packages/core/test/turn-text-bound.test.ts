/**
 * The bound on one turn's assistant text: past it, deduplication keeps edges and fingerprints instead of the text,
 * and judges every message exactly as with the whole text kept, so each piece of text is still emitted once.
 */

import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, test as it } from 'vitest';
import {
  type AssistantMessageForm,
  createAssistantTextState,
  endAssistantDeltaRun,
  takeNewAssistantText,
} from '../src/dialects/assistant-text.ts';
import {
  appendTurnText,
  boundTurnText,
  createTurnText,
  MAX_TURN_TEXT_CHARS,
  markTurnStart,
  startsWithTurnFrom,
} from '../src/dialects/turn-text.ts';
import { assistantText, normalizeText } from './support.ts';

/** A message, or another record between messages (which ends a run of deltas). */
type Step = { text: string; form: AssistantMessageForm } | { other: true };

/** Texts over a tiny alphabet, so that messages often repeat earlier text and its edges. */
const text = fc.string({ unit: fc.constantFrom('a', 'b', '🙂'), minLength: 1, maxLength: 10 });

/** Steps shaped like real turns: deltas, then copies of what they said, interleaved with other records. */
const steps: fc.Arbitrary<Step[]> = fc
  .array(
    fc.oneof(
      fc.record({ text, form: fc.constantFrom<AssistantMessageForm>('delta', 'model-call', 'final') }),
      fc.constant({ other: true as const }),
      fc.constant({ copy: 'run' as const }),
      fc.constant({ copy: 'turn' as const }),
    ),
    { maxLength: 40 },
  )
  .map((raw) => {
    const out: Step[] = [];
    let turn = '';
    let run = '';
    for (const step of raw) {
      if ('copy' in step) {
        out.push({ text: step.copy === 'run' ? run || 'a' : turn || 'a', form: 'final' });
        continue;
      }
      out.push(step);
      if ('other' in step) run = '';
      else if (step.form === 'delta') {
        run += step.text;
        turn += step.text;
      }
    }
    return out;
  });

function judge(steps: readonly Step[], maxTurnChars?: number): string[] {
  const state = createAssistantTextState(maxTurnChars);
  return steps.map((step) => {
    if ('other' in step) {
      endAssistantDeltaRun(state);
      return '|';
    }
    return takeNewAssistantText(state, step.text, step.form);
  });
}

describe('a turn past the bound', () => {
  test.prop([steps, fc.integer({ min: 4, max: 40 })])(
    'every message is judged as it is with the whole turn kept',
    (turn, limit) => {
      expect(judge(turn, limit)).toEqual(judge(turn));
    },
  );

  it('a turn larger than the bound, streamed with copies, gives its text exactly once through the normalizer', () => {
    const piece = `${'x'.repeat(1023)}\n`;
    const pieces = Math.ceil((1.5 * MAX_TURN_TEXT_CHARS) / piece.length);
    const records: object[] = [{ type: 'system', subtype: 'init', session_id: 's', model: 'm' }];
    const message = (text: string, extra: object) => ({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      session_id: 's',
      ...extra,
    });
    for (let i = 0; i < pieces; i++) records.push(message(`${i}:${piece}`, { timestamp_ms: i }));
    let whole = '';
    for (let i = 0; i < pieces; i++) whole += `${i}:${piece}`;
    // The consolidated copy of the call, then a final copy of the whole turn: both are repeats.
    records.push(message(whole, { model_call_id: 'm1', timestamp_ms: 0 }), message(whole, {}));
    records.push(message('and one more sentence.', {}));
    const events = normalizeText(ndjson(records));
    expect(events.filter((event) => event.type === 'invalid-line')).toEqual([]);
    expect(assistantText(events)).toBe(`${whole}and one more sentence.`);
  });
});

describe('a turn kept in pieces', () => {
  /** Appends over a tiny alphabet, some past a piece's size, each maybe marked as a place a comparison starts from. */
  const appends = fc.array(
    fc.record({
      text: fc.oneof(
        fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 8 }),
        fc.integer({ min: 0, max: 2500 }).map((length) => 'ab'.repeat(length).slice(0, length)),
      ),
      mark: fc.boolean(),
    }),
    { maxLength: 30 },
  );

  test.prop([
    appends,
    fc.constantFrom(8, 40, 3000, MAX_TURN_TEXT_CHARS),
    fc.nat(),
    fc.string({ maxLength: 3 }),
  ])(
    'says whether a text begins with the turn from a marked offset exactly as the whole text kept as one string does',
    (steps, limit, pick, suffix) => {
      const turn = createTurnText(limit);
      const marks = [0];
      let whole = '';
      for (const { text, mark } of steps) {
        if (mark) marks.push(markTurnStart(turn));
        appendTurnText(turn, text);
        whole += text;
        boundTurnText(turn, marks);
      }
      expect(turn.length).toBe(whole.length);
      const from = marks[pick % marks.length] ?? 0;
      const repeat = whole.slice(from);
      // The repeated part itself, cut short, or changed at one place.
      const changedAt = repeat.length === 0 ? 0 : pick % repeat.length;
      const changed = `${repeat.slice(0, changedAt)}${repeat[changedAt] === 'a' ? 'b' : 'a'}${repeat.slice(changedAt + 1)}`;
      for (const candidate of [repeat + suffix, repeat.slice(0, -1), changed + suffix]) {
        expect(startsWithTurnFrom(turn, candidate, from)).toBe(candidate.startsWith(repeat));
      }
    },
  );
});
