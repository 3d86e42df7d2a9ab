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
 * says the same thing twice is kept. The state is bounded whatever the turn's length (see {@link TurnText}).
 */

import {
  appendTurnText,
  boundTurnText,
  createTurnText,
  MAX_TURN_TEXT_CHARS,
  markTurnStart,
  startsWithTurnFrom,
  type TurnText,
} from './turn-text.ts';

/** The three forms an assistant message takes. */
export type AssistantMessageForm =
  /** A piece of a message being streamed (`timestamp_ms`, no `model_call_id`; the wrapper's top-level `text`). */
  | 'delta'
  /** A whole model call's message (`model_call_id`): new text, or the deltas just streamed, consolidated. */
  | 'model-call'
  /** A message with neither: new text, or the whole turn (or the last deltas) repeated. */
  | 'final';

/**
 * Message starts remembered per turn besides the turn's own start: a repeat copies the last model call or the whole
 * turn, so older starts are never needed, and a turn of a million messages keeps a bounded list.
 */
const MAX_STARTS = 256;

/** Per-stream state of {@link takeNewAssistantText}. */
export interface AssistantTextState {
  /** Text emitted this turn (bounded; see {@link TurnText}). */
  turn: TurnText;
  /**
   * Offsets in the turn where a message began: the turn's start, the first delta of each run of deltas, and the text
   * each whole message added. A whole message that repeats text repeats it from one of these points.
   */
  starts: number[];
  /** Whether the last message was a delta, so that the next delta continues its run. */
  inDeltaRun: boolean;
  /** Whether this turn had deltas: only then can a whole message repeat text. */
  sawDelta: boolean;
}

/**
 * Fresh state for one stream.
 *
 * @param maxTurnChars - Characters of a turn kept whole; see {@link MAX_TURN_TEXT_CHARS}. Lower only in tests.
 */
export function createAssistantTextState(maxTurnChars = MAX_TURN_TEXT_CHARS): AssistantTextState {
  return { turn: createTurnText(maxTurnChars), starts: [0], inDeltaRun: false, sawDelta: false };
}

/** Forgets the turn (after a `result` or a new prompt), so the next turn's text is never compared with this one. */
export function resetAssistantTurn(state: AssistantTextState): void {
  state.turn = createTurnText(state.turn.limit);
  state.starts = [0];
  state.inDeltaRun = false;
  state.sawDelta = false;
}

/**
 * Marks that a record other than assistant text arrived (a tool call, thinking, ...): the next delta starts a new
 * run, so a later copy of that model call's text can be recognised from its first delta on.
 */
export function endAssistantDeltaRun(state: AssistantTextState): void {
  state.inDeltaRun = false;
}

/**
 * The part of a whole message not yet emitted. The repeated part is the longest text emitted since a message start
 * that the message begins with: the consolidated copy of the deltas just streamed (`model_call_id`), the final copy
 * of the last model call, or of the whole turn (over a retry too).
 */
function wholeMessageRemainder(state: AssistantTextState, text: string): string {
  if (!state.sawDelta) return text;
  for (const start of state.starts) {
    const repeated = state.turn.length - start;
    if (repeated > 0 && startsWithTurnFrom(state.turn, text, start)) return text.slice(repeated);
  }
  return text;
}

function markStart(state: AssistantTextState): void {
  state.starts.push(markTurnStart(state.turn));
  // The turn's own start stays; the oldest of the others gives way.
  if (state.starts.length > MAX_STARTS + 1) state.starts.splice(1, 1);
}

function append(state: AssistantTextState, text: string): void {
  appendTurnText(state.turn, text);
  boundTurnText(state.turn, state.starts);
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
    if (!state.inDeltaRun) markStart(state);
    state.inDeltaRun = true;
    state.sawDelta = true;
    append(state, text);
    return text;
  }
  state.inDeltaRun = false;
  const added = wholeMessageRemainder(state, text);
  if (added.length > 0) markStart(state);
  append(state, added);
  return added;
}
