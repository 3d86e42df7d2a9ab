import type { JsonObject } from '../dialect.ts';
import { type CanonicalEvent, unreachable } from '../events/index.ts';
import { isJsonObject } from '../json-values.ts';
import {
  encodeEventsWithResultErrors,
  rawRecordOf,
  resultFields,
  sharedRecordOf,
  withDefined,
} from './encoder-support.ts';
import { interactionRecordOf, statusRecordOf } from './run-status-records.ts';

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
      return sharedRecordOf(event, 'workspace');
    case 'text-delta':
      // The wrapper's delta form; no complete message follows, so nothing is read as a repeat.
      return withDefined(
        { type: 'assistant', text: event.text, timestamp_ms: 0 },
        { ...session, model_call_id: event.modelCallId },
      );
    case 'tool-call':
      return withDefined(
        {
          type: 'tool-call-started',
          tool_name: event.providerToolName,
          tool_call_id: event.toolCallId,
          parameters: event.input,
        },
        { ...session, model_call_id: event.modelCallId },
      );
    case 'tool-result':
      return withDefined(
        {
          type: 'tool-call-completed',
          tool_name: event.providerToolName,
          tool_call_id: event.toolCallId,
          ...(event.input === undefined ? {} : { parameters: event.input }),
          // The wrapper has no result arms: a success flag beside the output (a non-object output under `output`).
          result: {
            success: event.status === 'success',
            ...(isJsonObject(event.output) ? event.output : { output: event.output }),
          },
        },
        { ...session, duration_ms: event.durationMs },
      );
    case 'finish':
      if (event.finishReason === 'incomplete') return undefined;
      return withDefined(
        { type: 'result', subtype: event.isError ? 'error' : 'success', ...resultFields(event) },
        // One `error` field: the session's messages one per line, as a reader of `errors[]` joins them.
        { error: errorMessages?.join('\n') },
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
 * Writes canonical events as the Python wrapper's records. A tool result becomes `result{success, ...output}` (the
 * wrapper has no result arms, so a status other than `success` reads back as `failure`); a session's `error` events
 * before its failed `finish` become that result's `error`, one per line; an `incomplete` finish and `invalid-line`
 * have no record form.
 */
export function encodePythonWrapper(events: readonly CanonicalEvent[]): JsonObject[] {
  return encodeEventsWithResultErrors(events, encodeEvent);
}
