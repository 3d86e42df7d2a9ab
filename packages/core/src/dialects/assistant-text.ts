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
  /**
   * Offsets in `turn` where a message began: the turn's start, the first delta of each run of deltas, and the text
   * each whole message added. A whole message that repeats text repeats it from one of these points.
   */
  starts: number[];
  /** Whether the last message was a delta, so that the next delta continues its run. */
  inDeltaRun: boolean;
  /** Whether this turn had deltas: only then can a whole message repeat text. */
  sawDelta: boolean;
}

/** Fresh state for one stream. */
export function createAssistantTextState(): AssistantTextState {
  return { turn: '', starts: [0], inDeltaRun: false, sawDelta: false };
}

/** Forgets the turn (after a `result` or a new prompt), so the next turn's text is never compared with this one. */
export function resetAssistantTurn(state: AssistantTextState): void {
  state.turn = '';
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
    if (repeated > 0 && text.startsWith(state.turn.slice(start))) return text.slice(repeated);
  }
  return text;
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
    if (!state.inDeltaRun) state.starts.push(state.turn.length);
    state.inDeltaRun = true;
    state.sawDelta = true;
    state.turn += text;
    return text;
  }
  state.inDeltaRun = false;
  const added = wholeMessageRemainder(state, text);
  if (added.length > 0) state.starts.push(state.turn.length);
  state.turn += added;
  return added;
}
