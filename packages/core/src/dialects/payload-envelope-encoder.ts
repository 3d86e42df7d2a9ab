import type { JsonObject } from '../dialect.ts';
import {
  type CanonicalEvent,
  type ToolCallEvent,
  type ToolResultEvent,
  unreachable,
} from '../events/index.ts';
import {
  callTimesOf,
  initFields,
  rawRecordOf,
  resultArmOf,
  resultFields,
  textMessage,
  toolKindOf,
  withDefined,
} from './encoder-support.ts';
import { interactionRecordOf, statusRecordOf } from './run-status-records.ts';

function envelope(type: string, subtype: string | undefined, payload: JsonObject): JsonObject {
  return subtype === undefined ? { type, payload } : { type, subtype, payload };
}

/** A CLI record about the run, its fields under the envelope's `payload`. */
function runRecordEnvelope(record: JsonObject): JsonObject {
  const { type, subtype, ...payload } = record;
  return envelope(String(type), typeof subtype === 'string' ? subtype : undefined, payload);
}

function toolRecord(event: ToolCallEvent | ToolResultEvent): JsonObject {
  const session = { session_id: event.sessionId };
  if (event.type === 'tool-call') {
    const toolCall = { id: event.toolCallId, [toolKindOf(event)]: { args: event.input } };
    return envelope(
      'tool_call',
      'started',
      withDefined({ toolCall }, { ...session, model_call_id: event.modelCallId }),
    );
  }
  // The app's own completions carry no kind; naming it lets a completion without its start keep its tool.
  const toolCall = {
    id: event.toolCallId,
    [toolKindOf(event)]: event.input === undefined ? {} : { args: event.input },
    result: resultArmOf(event),
    ...callTimesOf(event),
  };
  return envelope('tool_call', 'completed', withDefined({ toolCall }, session));
}

function encodeEvent(event: CanonicalEvent): JsonObject | undefined {
  const session = { session_id: event.sessionId };
  switch (event.type) {
    case 'stream-start':
      return envelope('system', 'init', initFields(event, 'cwd'));
    case 'user-message':
      return envelope('user', undefined, withDefined({ prompt: event.text }, session));
    case 'reasoning-delta':
      return envelope('thinking', 'delta', withDefined({ content: event.text }, session));
    case 'reasoning-end':
      return envelope('thinking', 'completed', withDefined({}, session));
    case 'text-delta':
      return envelope(
        'assistant',
        undefined,
        withDefined(
          { message: textMessage('assistant', event.text) },
          { ...session, model_call_id: event.modelCallId },
        ),
      );
    case 'tool-call':
    case 'tool-result':
      return toolRecord(event);
    case 'finish': {
      if (event.finishReason === 'incomplete') return undefined;
      const subtype = event.isError ? 'error' : 'success';
      // The code of the process, when the session knows it; the subtype says how the run ended either way.
      const exitCode = event.exitCode;
      if (exitCode === undefined) return { type: 'result', subtype, payload: resultFields(event) };
      return { type: 'result', subtype, exitCode, payload: { exitCode, ...resultFields(event) } };
    }
    case 'error':
      return withDefined({ type: 'error', message: event.message }, session);
    case 'status':
      return runRecordEnvelope(statusRecordOf(event));
    case 'interaction':
      return runRecordEnvelope(interactionRecordOf(event));
    case 'unknown':
      return rawRecordOf(event);
    // `invalid-line` has no record form.
    case 'invalid-line':
    // The CLI writes no record of a turn's usage or of a plan's progress; they come from other channels.
    case 'usage':
    case 'plan':
      return undefined;
    default:
      return unreachable(event);
  }
}

/**
 * Writes canonical events as payload-envelope records, the form a server speaks to the app's clients. Result arms
 * are written as `result: { [status]: output }`; an `incomplete` finish and `invalid-line` have no record form.
 */
export function encodePayloadEnvelope(events: readonly CanonicalEvent[]): JsonObject[] {
  const records: JsonObject[] = [];
  for (const event of events) {
    const record = encodeEvent(event);
    if (record !== undefined) records.push(record);
  }
  return records;
}
