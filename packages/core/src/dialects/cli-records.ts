/**
 * Records shaped like the CLI's own (`system/init`, `user`, `thinking`, `assistant`, `result`): the official dialect
 * and the Python wrapper's share them, so both normalize them here.
 */

import type { JsonObject } from '../dialect.ts';
import type {
  AgentErrorEvent,
  CanonicalEvent,
  FinishEvent,
  InteractionEvent,
  SourceLocation,
  StatusEvent,
  StreamStartEvent,
  TextDeltaEvent,
  UserMessageEvent,
} from '../events/index.ts';
import { asCount, asString, assignDefined, isJsonObject } from '../json-values.ts';
import { messagelessError } from '../messageless-error.ts';
import { typeNameOf, unknownEvent } from '../unknown-event.ts';
import {
  type AssistantMessageForm,
  type AssistantTextState,
  createAssistantTextState,
  resetAssistantTurn,
  takeNewAssistantText,
} from './assistant-text.ts';
import type { StartedCalls } from './official-tool-call.ts';
import { interactionEvent, statusEvent } from './run-status-records.ts';
import { normalizeUsage } from './usage.ts';

/** The shared empty result: most records give one event or none, and none needs no allocation. */
export const NO_EVENTS: readonly CanonicalEvent[] = Object.freeze([]);

/** Sets `loc` and `sessionId` (from `session_id`) on a fresh event. */
export function located<E extends CanonicalEvent>(event: E, loc: SourceLocation, sessionId: unknown): E {
  event.loc = loc;
  if (typeof sessionId === 'string') event.sessionId = sessionId;
  return event;
}

/**
 * The text of a message: its `content` string, or its text blocks joined (the docs: "concatenate every
 * `message.content[].text`"). `undefined` when it has neither.
 */
export function messageText(message: unknown): string | undefined {
  if (!isJsonObject(message)) return undefined;
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  let text: string | undefined;
  for (const block of content) {
    if (
      isJsonObject(block) &&
      typeof block.text === 'string' &&
      (block.type === undefined || block.type === 'text')
    ) {
      text = text === undefined ? block.text : text + block.text;
    }
  }
  return text;
}

/** `system/init` → `stream-start`. The wrapper's init names the working directory `workspace`. */
export function initEvent(fields: JsonObject, loc: SourceLocation, sessionId: unknown): StreamStartEvent {
  const event = assignDefined<StreamStartEvent>(
    { type: 'stream-start' },
    {
      model: asString(fields.model),
      cwd: asString(fields.cwd) ?? asString(fields.workspace),
      apiKeySource: asString(fields.apiKeySource),
      permissionMode: asString(fields.permissionMode),
      requestId: asString(fields.request_id),
    },
  );
  return located(event, loc, sessionId);
}

/** The user's prompt → `user-message`. */
export function userEvent(text: string, loc: SourceLocation, sessionId: unknown): UserMessageEvent {
  return located({ type: 'user-message', text }, loc, sessionId);
}

/** `thinking` (`delta` or no subtype with text, `completed`) → reasoning events; other subtypes → `unknown`. */
export function thinkingEvents(
  record: JsonObject,
  text: unknown,
  loc: SourceLocation,
  sessionId: unknown,
): readonly CanonicalEvent[] {
  const subtype = record.subtype;
  if (subtype === 'completed') return [located({ type: 'reasoning-end' }, loc, sessionId)];
  if ((subtype === 'delta' || subtype === undefined) && typeof text === 'string') {
    return [located({ type: 'reasoning-delta', text }, loc, sessionId)];
  }
  return [unknownEvent(record, 'thinking', loc, asString(sessionId))];
}

/** The form of a CLI `assistant` message; see {@link AssistantMessageForm}. */
export function assistantFormOf(record: JsonObject): AssistantMessageForm {
  if (typeof record.model_call_id === 'string') return 'model-call';
  return typeof record.timestamp_ms === 'number' ? 'delta' : 'final';
}

/** One assistant message → the `text-delta` it adds, if any; see {@link takeNewAssistantText}. */
export function assistantTextEvents(
  state: AssistantTextState,
  text: string,
  form: AssistantMessageForm,
  modelCallId: unknown,
  loc: SourceLocation,
  sessionId: unknown,
): readonly CanonicalEvent[] {
  const added = takeNewAssistantText(state, text, form);
  if (added.length === 0) return NO_EVENTS;
  const event: TextDeltaEvent = { type: 'text-delta', text: added };
  if (typeof modelCallId === 'string') event.modelCallId = modelCallId;
  return [located(event, loc, sessionId)];
}

/**
 * A record about the run (`connection`, `retry`, a `system` subtype other than `init`, `interaction_query`) → its
 * `status` or `interaction` event; `undefined` for a kind nobody has seen, which stays `unknown`.
 */
export function runRecordEvent(
  record: JsonObject,
  loc: SourceLocation,
): StatusEvent | InteractionEvent | undefined {
  if (record.type === 'interaction_query') {
    return typeof record.subtype === 'string' ? interactionEvent(record, record.subtype, loc) : undefined;
  }
  return statusEvent(record, loc);
}

/** {@link runRecordEvent}, or the `unknown` event of a record of a kind nobody has seen. */
export function runRecordEvents(record: JsonObject, loc: SourceLocation): readonly CanonicalEvent[] {
  return [
    runRecordEvent(record, loc) ??
      unknownEvent(record, typeNameOf(record.type), loc, asString(record.session_id)),
  ];
}

/** The strings of an `errors` array, one per line; `undefined` when it holds none. */
export function errorsText(errors: unknown): string | undefined {
  if (!Array.isArray(errors)) return undefined;
  const messages = errors.filter((item): item is string => typeof item === 'string');
  return messages.length > 0 ? messages.join('\n') : undefined;
}

/** The message of a failed result: `error` (the wrapper), `errors[]`, else a non-empty `result` text. */
function errorMessage(record: JsonObject): string | undefined {
  const result = asString(record.result);
  return asString(record.error) ?? errorsText(record.errors) ?? (result === '' ? undefined : result);
}

/** The `finish` of a `result` record (its `pendingToolCallIds` are the normalizer's to fill in). */
export function finishEvent(
  record: JsonObject,
  isError: boolean,
  loc: SourceLocation | undefined,
  exitCode?: number,
): FinishEvent {
  const finish = assignDefined<FinishEvent>(
    { type: 'finish', finishReason: isError ? 'error' : 'stop', isError, pendingToolCallIds: [] },
    {
      text: asString(record.result),
      durationMs: asCount(record.duration_ms),
      durationApiMs: asCount(record.duration_api_ms),
      usage: normalizeUsage(record.usage),
      requestId: asString(record.request_id),
      loc,
      exitCode,
    },
  );
  const sessionId = asString(record.session_id);
  if (sessionId !== undefined) finish.sessionId = sessionId;
  return finish;
}

/** A record's `exitCode`, when it is one a process can have (an integer); `undefined` for anything else. */
export function exitCodeOf(record: JsonObject): number | undefined {
  const exitCode = record.exitCode;
  return typeof exitCode === 'number' && Number.isSafeInteger(exitCode) ? exitCode : undefined;
}

/** Whether an exit code a result gives says the run failed: any code but 0. */
export function isFailingExit(exitCode: number | undefined): boolean {
  return exitCode !== undefined && exitCode !== 0;
}

/**
 * `result` → `finish`, preceded by an `error` when the result failed. Ends the assistant turn. A wrapper that adds
 * the process's `exitCode` to the result makes a code other than 0 a failure.
 */
export function resultEvents(
  record: JsonObject,
  state: AssistantTextState,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  resetAssistantTurn(state);
  const exitCode = exitCodeOf(record);
  const isError = record.is_error === true || record.subtype === 'error' || isFailingExit(exitCode);
  const finish = finishEvent(record, isError, loc, exitCode);
  if (!isError) return [finish];
  const message = errorMessage(record);
  const error: AgentErrorEvent = located(
    message === undefined ? messagelessError() : { type: 'error', message },
    loc,
    record.session_id,
  );
  return [error, finish];
}

/**
 * Per-stream state of the CLI-shaped dialects: the assistant text seen this turn and the calls started. The three
 * built-in dialects share one per stream ({@link CLI_STREAM_STATE}), as a wrapper's records may carry the CLI's.
 */
export interface CliStreamState {
  text: AssistantTextState;
  calls: StartedCalls;
}

/** The {@link Dialect.stateKey} of the built-in dialects. */
export const CLI_STREAM_STATE: unique symbol = Symbol('cli stream state');

/** Fresh {@link CliStreamState} for one stream. */
export function createCliStreamState(): CliStreamState {
  return { text: createAssistantTextState(), calls: new Map() };
}

/**
 * A new session (`system/init`): its text is never a repeat of the last one's, and a call is paired with a start of
 * its own session only. A run of the CLI cannot complete another run's call; an id met again in a later session
 * (logs of runs concatenated, producers that number calls from 0 in every run) names a call of its own.
 */
export function startCliSession(state: CliStreamState): void {
  resetAssistantTurn(state.text);
  state.calls.clear();
}
