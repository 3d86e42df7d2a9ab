import type { JsonObject } from '../dialect.ts';
import {
  type CanonicalEvent,
  type ToolCallEvent,
  type ToolResultEvent,
  unreachable,
} from '../events/index.ts';
import {
  callTimesOf,
  encodeEventsWithResultErrors,
  rawRecordOf,
  resultArmOf,
  resultFields,
  sharedRecordOf,
  textMessage,
  toolKindOf,
  withDefined,
} from './encoder-support.ts';
import { interactionRecordOf, statusRecordOf } from './run-status-records.ts';

function toolRecord(event: ToolCallEvent | ToolResultEvent): JsonObject {
  const kind = toolKindOf(event);
  if (event.type === 'tool-call') {
    return withDefined(
      {
        type: 'tool_call',
        subtype: 'started',
        call_id: event.toolCallId,
        tool_call: { [kind]: { args: event.input } },
      },
      { model_call_id: event.modelCallId, session_id: event.sessionId },
    );
  }
  const body = withDefined({}, { args: event.input, result: resultArmOf(event) });
  const toolCall = { [kind]: body, ...callTimesOf(event) };
  return withDefined(
    { type: 'tool_call', subtype: 'completed', call_id: event.toolCallId, tool_call: toolCall },
    { session_id: event.sessionId },
  );
}

function encodeEvent(
  event: CanonicalEvent,
  errorMessages: readonly string[] | undefined,
): JsonObject | undefined {
  const session = { session_id: event.sessionId };
  switch (event.type) {
    case 'stream-start':
    case 'user-message':
    case 'reasoning-delta':
    case 'reasoning-end':
      return sharedRecordOf(event, 'cwd');
    case 'text-delta':
      // A model call's message carries its id; one without is the final form. Neither is read as a repeat.
      return withDefined(
        { type: 'assistant', message: textMessage('assistant', event.text) },
        { ...session, model_call_id: event.modelCallId },
      );
    case 'tool-call':
    case 'tool-result':
      return toolRecord(event);
    case 'finish':
      if (event.finishReason === 'incomplete') return undefined;
      return withDefined(
        { type: 'result', subtype: event.isError ? 'error' : 'success', ...resultFields(event) },
        { errors: errorMessages === undefined ? undefined : [...errorMessages] },
      );
    case 'status':
      return statusRecordOf(event);
    case 'interaction':
      return interactionRecordOf(event);
    case 'unknown':
      return rawRecordOf(event);
    // A session's `error` events travel inside its failed `result`; `invalid-line` has no record form.
    case 'error':
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
 * Writes canonical events as official records. A synthesized `incomplete` finish is left out (the end of input says
 * it), a session's `error` events before its failed `finish` become that result's `errors`, and `invalid-line` has no
 * form.
 */
export function encodeOfficial(events: readonly CanonicalEvent[]): JsonObject[] {
  return encodeEventsWithResultErrors(events, encodeEvent);
}
