/**
 * Assistant text exactly once. The CLI sends the same text in several forms (FINDINGS.md §1):
 *
 * - without `--stream-partial-output`, each message once: mid-turn ones carry `model_call_id`, the final one has
 *   neither `model_call_id` nor `timestamp_ms`, and `result.result` is their plain concatenation;
 * - with it, deltas (`timestamp_ms`, no `model_call_id`), then the same text again with `model_call_id`, more
 *   deltas, and a final message repeating the whole text (over a retry too: `Hello!` then `Hello! How can I help?`).
 *
 * Each message is judged when it arrives, against the text already emitted, so events keep streaming. Only text
 * that came from deltas is ever taken as repeated: without deltas every message is new, so a message that really
 * says the same thing twice is kept.
 */

/** The three forms an assistant message takes. */
export type AssistantMessageForm =
  /** A piece of a message being streamed (`timestamp_ms`, no `model_call_id`; the wrapper's top-level `text`). */
  | 'delta'
  /** A whole model call's message (`model_call_id`): new text, or the deltas just streamed, consolidated. */
  | 'model-call'
  /** A message with neither: new text, or the whole turn (or the last deltas) repeated. */
  | 'final';

/** Per-stream state of {@link takeNewAssistantText}. */
export interface AssistantTextState {
  /** Text emitted this turn. */
  turn: string;
  /** Text emitted from deltas since the last whole message. */
  segment: string;
  /** Whether this turn had deltas: only then can a whole message repeat text. */
  sawDelta: boolean;
}

/** Fresh state for one stream. */
export function createAssistantTextState(): AssistantTextState {
  return { turn: '', segment: '', sawDelta: false };
}

/** Forgets the turn (after a `result` or a new prompt), so the next turn's text is never compared with this one. */
export function resetAssistantTurn(state: AssistantTextState): void {
  state.turn = '';
  state.segment = '';
  state.sawDelta = false;
}

function remainderAfter(text: string, prefix: string): string | undefined {
  return prefix.length > 0 && text.startsWith(prefix) ? text.slice(prefix.length) : undefined;
}

/**
 * What a whole message adds to the deltas since the last whole message: the rest after them when it extends them,
 * nothing when it repeats their latest part (an earlier model call's deltas may have gone unconsolidated).
 */
function remainderAfterSegment(text: string, segment: string): string | undefined {
  const rest = remainderAfter(text, segment);
  if (rest !== undefined) return rest;
  return segment.length > 0 && segment.endsWith(text) ? '' : undefined;
}

function wholeMessageRemainder(state: AssistantTextState, text: string, form: AssistantMessageForm): string {
  if (!state.sawDelta) return text;
  if (form === 'final') {
    const afterTurn = remainderAfter(text, state.turn);
    if (afterTurn !== undefined) return afterTurn;
  }
  return remainderAfterSegment(text, state.segment) ?? text;
}

/**
 * Judges one assistant message and returns the text it adds (possibly `''`), updating `state`.
 *
 * @param text - The message's text.
 * @param form - Its form; see {@link AssistantMessageForm}.
 */
export function takeNewAssistantText(
  state: AssistantTextState,
  text: string,
  form: AssistantMessageForm,
): string {
  if (form === 'delta') {
    state.sawDelta = true;
    state.segment += text;
    state.turn += text;
    return text;
  }
  const added = wholeMessageRemainder(state, text, form);
  state.segment = '';
  state.turn += added;
  return added;
}
