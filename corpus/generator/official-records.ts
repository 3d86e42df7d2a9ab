/**
 * Writes a session model as records of the official dialect: what `cursor-agent --print --output-format stream-json`
 * prints, with the key order of the recordings. Under `--stream-partial-output` an assistant message arrives in the
 * four forms the format notes describe: an opening delta with `timestamp_ms`, the same text again with
 * `model_call_id`, small deltas, and a final line holding the whole text again.
 */

import { resultText } from './build-session.ts';
import type {
  AssistantMessageModel,
  JsonObject,
  SessionModel,
  ToolCallModel,
  TurnModel,
} from './session-model.ts';

/** The records of one session, in stream order. */
export function* officialRecords(session: SessionModel): Generator<JsonObject> {
  const { sessionId } = session;
  yield {
    type: 'system',
    subtype: 'init',
    apiKeySource: session.apiKeySource,
    cwd: session.cwd,
    session_id: sessionId,
    model: session.model,
    permissionMode: session.permissionMode,
  };
  yield {
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text: session.prompt }] },
    session_id: sessionId,
  };
  for (const turn of session.turns) yield* turnRecords(session, turn);
  const lastModelCallId = session.turns.at(-1)?.modelCallId;
  yield* messageRecords(session, session.finalMessage, undefined, lastModelCallId);
  yield {
    type: 'result',
    subtype: 'success',
    duration_ms: session.durationMs,
    duration_api_ms: session.durationMs,
    is_error: false,
    result: resultText(session),
    session_id: sessionId,
    request_id: session.requestId,
    usage: { ...session.usage },
  };
}

function* turnRecords(session: SessionModel, turn: TurnModel): Generator<JsonObject> {
  const session_id = session.sessionId;
  for (const { text, timestampMs } of turn.thinking) {
    yield { type: 'thinking', subtype: 'delta', text, session_id, timestamp_ms: timestampMs };
  }
  yield { type: 'thinking', subtype: 'completed', session_id, timestamp_ms: turn.thinkingCompletedMs };
  if (turn.message !== undefined)
    yield* messageRecords(session, turn.message, turn.modelCallId, turn.modelCallId);
  if (turn.parallel) {
    for (const call of turn.calls) yield toolCallRecord(session, turn, call, 'started');
    for (const index of turn.completionOrder) {
      const call = turn.calls[index];
      if (call !== undefined) yield toolCallRecord(session, turn, call, 'completed');
    }
    return;
  }
  for (const call of turn.calls) {
    yield toolCallRecord(session, turn, call, 'started');
    yield toolCallRecord(session, turn, call, 'completed');
  }
}

/**
 * @param modelCallId - The id a whole message carries: the step's id mid-session, none for the final answer.
 * @param repeatedModelCallId - The id the repeated opening delta of a partial-output message carries.
 */
function* messageRecords(
  session: SessionModel,
  message: AssistantMessageModel,
  modelCallId: string | undefined,
  repeatedModelCallId: string | undefined,
): Generator<JsonObject> {
  const session_id = session.sessionId;
  const content = (text: string): JsonObject => ({ role: 'assistant', content: [{ type: 'text', text }] });
  const withCallId = (id: string | undefined): JsonObject => (id === undefined ? {} : { model_call_id: id });
  if (!session.partialOutput) {
    const timing: JsonObject = modelCallId === undefined ? {} : { timestamp_ms: message.timestampMs };
    yield {
      type: 'assistant',
      message: content(message.text),
      session_id,
      ...withCallId(modelCallId),
      ...timing,
    };
    return;
  }
  const [opening, ...rest] = message.pieces;
  if (opening !== undefined) {
    const timestamp_ms = opening.timestampMs;
    yield { type: 'assistant', message: content(opening.text), session_id, timestamp_ms };
    yield {
      type: 'assistant',
      message: content(opening.text),
      session_id,
      ...withCallId(repeatedModelCallId),
      timestamp_ms,
    };
  }
  for (const piece of rest) {
    yield { type: 'assistant', message: content(piece.text), session_id, timestamp_ms: piece.timestampMs };
  }
  yield { type: 'assistant', message: content(message.text), session_id, ...withCallId(modelCallId) };
}

function toolCallRecord(
  session: SessionModel,
  turn: TurnModel,
  call: ToolCallModel,
  subtype: 'started' | 'completed',
): JsonObject {
  const completed = subtype === 'completed';
  const body: JsonObject = {};
  if (!completed || call.argsOnCompletion) body.args = call.args;
  if (completed) body.result = { [call.outcome]: call.result, ...call.resultSiblings };
  if (call.description !== undefined) body.description = call.description;
  const toolCall: JsonObject = { [`${call.kind}ToolCall`]: body };
  if (session.recentCli) {
    toolCall.hookAdditionalContexts = [];
    toolCall.toolCallId = call.callId;
    // The recent CLI writes these times as strings.
    toolCall.startedAtMs = String(call.startedMs);
    if (completed) toolCall.completedAtMs = String(call.completedMs);
  }
  return {
    type: 'tool_call',
    subtype,
    call_id: call.callId,
    tool_call: toolCall,
    model_call_id: turn.modelCallId,
    session_id: session.sessionId,
    timestamp_ms: completed ? call.completedMs : call.startedMs,
  };
}
