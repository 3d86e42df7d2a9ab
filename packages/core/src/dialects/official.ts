/**
 * The official dialect: what `cursor-agent --print --output-format stream-json` writes (the CLI docs, and every
 * real capture).
 *
 * @see https://docs.cursor.com/en/cli/reference/output-format
 */

import type { Detection, Dialect, DialectContext, HotLines, JsonObject } from '../dialect.ts';
import type { CanonicalEvent, SourceLocation } from '../events/index.ts';
import { OFFICIAL_RECORD_SHAPES } from '../generated/official-record-shapes.ts';
import { asObject, asString, isJsonObject } from '../json-values.ts';
import { malformedRecord } from '../malformed-record.ts';
import { rememberCall } from '../open-calls.ts';
import type { RecordShape } from '../record-readers/record-shape.ts';
import { typeNameOf, unknownEvent } from '../unknown-event.ts';
import { endAssistantDeltaRun, resetAssistantTurn } from './assistant-text.ts';
import {
  assistantFormOf,
  assistantTextEvents,
  CLI_STREAM_STATE,
  type CliStreamState,
  createCliStreamState,
  initEvent,
  located,
  messageText,
  NO_EVENTS,
  resultEvents,
  runRecordEvents,
  startCliSession,
  thinkingEvents,
  userEvent,
} from './cli-records.ts';
import { encodeOfficial } from './official-encoder.ts';
import {
  announceCall,
  completedCallEvent,
  durationOfCall,
  findToolKind,
  resultArm,
  type StartedCalls,
  startedCall,
  toolCallIdOf,
} from './official-tool-call.ts';
import { isRunClosingRecord } from './payload-envelope.ts';
import { CLI_THINKING_PREFIXES, reasoningSkipPrefixes } from './reasoning-skip-filter.ts';
import { schemaValidator } from './schema-validation.ts';
import { isSdkMessage } from './sdk-message-shape.ts';
import { toolCallEvent } from './tool-events.ts';

/**
 * Whether a record wraps another dialect's shape (the payload envelope's `payload`, the wrapper's serialized
 * `AgentEvent` with `raw_type` and `data`) though its `type` is one the CLI also writes.
 */
export function isWrappedRecord(record: JsonObject): boolean {
  return isJsonObject(record.payload) || (typeof record.raw_type === 'string' && isJsonObject(record.data));
}

function detectOfficial(record: JsonObject): Detection {
  // An SDK message of a type the CLI also writes (`tool_call`) is the SDK's, in a log that holds both.
  if (isSdkMessage(record)) return 'foreign';
  switch (record.type) {
    case 'system':
    case 'user':
    case 'thinking':
      return isWrappedRecord(record) ? 'foreign' : 'shared';
    case 'result':
      // The WebSocket app's closing message follows the CLI's lines it forwards: the app's dialect reads it.
      return isWrappedRecord(record) || isRunClosingRecord(record) ? 'foreign' : 'shared';
    case 'assistant':
      if (!isJsonObject(record.message) || isWrappedRecord(record)) return 'foreign';
      // Only the CLI marks a model call's message; the wrapper's documented shapes never carry the id.
      return typeof record.model_call_id === 'string' ? 'distinctive' : 'shared';
    case 'tool_call':
    case 'connection':
    case 'retry':
    case 'interaction_query':
      // Types only the CLI writes.
      return isWrappedRecord(record) ? 'foreign' : 'distinctive';
    default:
      return 'foreign';
  }
}

/** Whether the official dialect explains `record`: a record the CLI writes, such as one a wrapper passes on. */
export function isCliRecord(record: JsonObject): boolean {
  return detectOfficial(record) !== 'foreign';
}

function toolCallEvents(
  record: JsonObject,
  calls: StartedCalls,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  const toolCall = asObject(record.tool_call);
  const kind = toolCall === undefined ? undefined : findToolKind(toolCall);
  const id = toolCallIdOf(record, toolCall, kind);
  const subtype = record.subtype;
  if (subtype !== 'started' && subtype !== 'completed') {
    return [unknownEvent(record, 'tool_call', loc, asString(record.session_id))];
  }
  if (id === undefined)
    return [malformedRecord(`tool_call/${subtype} without a string call_id`, record, loc)];
  if (subtype === 'started') {
    const toolName = kind?.toolName ?? 'unknown';
    const providerToolName = kind?.providerToolName ?? 'unknown';
    rememberCall(calls, id, startedCall(toolName, providerToolName, record, toolCall));
    const input = kind?.body.args ?? null;
    return [
      located(
        toolCallEvent(id, toolName, providerToolName, input, record.model_call_id),
        loc,
        record.session_id,
      ),
    ];
  }
  const announcement = calls.get(id);
  const announced = announcement?.announced === true;
  const result = resultArm(kind?.body.result ?? toolCall?.result);
  const event = completedCallEvent(id, kind, calls, result, (start) =>
    durationOfCall(record, toolCall, start),
  );
  if (!announced) return [located(event, loc, record.session_id)];
  // Its start is this completion: the call as the completion names it, then how it ended.
  const start = toolCallEvent(
    id,
    event.toolName,
    event.providerToolName,
    kind?.body.args ?? announcement?.announcedArgs ?? null,
    record.model_call_id,
  );
  return [located(start, loc, record.session_id), located(event, loc, record.session_id)];
}

/** The events of an `interaction_query`; a request naming a call not started yet announces it (see `announceCall`). */
function interactionQueryEvents(
  record: JsonObject,
  calls: StartedCalls,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  const events = runRecordEvents(record, loc);
  const [event] = events;
  if (event?.type === 'interaction' && event.phase === 'request' && event.toolCallId !== undefined)
    announceCall(calls, event.toolCallId, record);
  return events;
}

function normalizeOfficial(
  record: JsonObject,
  context: DialectContext<CliStreamState>,
): readonly CanonicalEvent[] {
  const { state, loc } = context;
  if (record.type !== 'assistant' && record.type !== 'thinking') endAssistantDeltaRun(state.text);
  switch (record.type) {
    case 'thinking':
      return thinkingEvents(record, record.text, loc, record.session_id);
    case 'assistant': {
      const text = messageText(record.message);
      if (text === undefined) return NO_EVENTS;
      return assistantTextEvents(
        state.text,
        text,
        assistantFormOf(record),
        record.model_call_id,
        loc,
        record.session_id,
      );
    }
    case 'tool_call':
      return toolCallEvents(record, state.calls, loc);
    case 'system':
      if (record.subtype !== 'init') return runRecordEvents(record, loc);
      startCliSession(state);
      return [initEvent(record, loc, record.session_id)];
    case 'connection':
    case 'retry':
      return runRecordEvents(record, loc);
    case 'interaction_query':
      return interactionQueryEvents(record, state.calls, loc);
    case 'user':
      resetAssistantTurn(state.text);
      return [userEvent(messageText(record.message) ?? '', loc, record.session_id)];
    case 'result':
      return resultEvents(record, state.text, loc);
  }
  const sessionId = typeof record.session_id === 'string' ? record.session_id : undefined;
  return [unknownEvent(record, typeNameOf(record.type), loc, sessionId)];
}

/** The record shape of `type` (and `subtype`), as the schema gives it. */
function officialShape(type: string, subtype?: string): RecordShape[] {
  return OFFICIAL_RECORD_SHAPES.filter((shape) => shape.type === type && shape.subtype === subtype);
}

/**
 * The records most of a stream is: a `thinking` delta, whose event needs its `text` and session id only and whose
 * `normalize` leaves the stream's state alone; and an assistant message of one text block (a delta of
 * `--stream-partial-output`, or a whole message), whose text the state decides on as for any assistant record.
 */
const officialHotLines: HotLines<CliStreamState> = {
  layouts: [
    ...officialShape('thinking', 'delta').map((shape) => ({ shape, read: ['text'], fixed: ['session_id'] })),
    ...officialShape('assistant').map((shape) => ({
      shape,
      read: ['message', 'content', 0, 'text'],
      fixed: ['session_id', 'model_call_id'],
      // One block of text: the message's text is that block's, as `messageText` reads it.
      learns: (record: JsonObject) => {
        const content = isJsonObject(record.message) ? record.message.content : undefined;
        return Array.isArray(content) && content.length === 1 && messageText(record.message) !== undefined;
      },
    })),
  ],
  events(line, loc, state) {
    const { record, value } = line;
    if (record.type === 'thinking') return thinkingEvents(record, value, loc, record.session_id);
    return assistantTextEvents(
      state.text,
      value,
      assistantFormOf(record),
      record.model_call_id,
      loc,
      record.session_id,
    );
  },
};

/** The official `cursor-agent` stream-json dialect. */
export const officialDialect: Dialect<CliStreamState, 'official'> = {
  name: 'official',
  description:
    'cursor-agent --print --output-format stream-json, as the CLI writes it (with or without --stream-partial-output).',
  detect: detectOfficial,
  validate: schemaValidator('official'),
  createState: createCliStreamState,
  stateKey: CLI_STREAM_STATE,
  normalize: normalizeOfficial,
  callsEndWithSession: true,
  skipPrefixes: reasoningSkipPrefixes(CLI_THINKING_PREFIXES),
  encode: encodeOfficial,
  hotLines: officialHotLines,
};
