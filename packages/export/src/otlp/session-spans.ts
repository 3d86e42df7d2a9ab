/**
 * One exported session as OpenTelemetry spans (the SDK's `ReadableSpan`): an `invoke_agent` span for the run and an
 * `execute_tool {name}` child per tool call.
 *
 * Times come from the records: a call's `startedAtMs`/`completedAtMs`, else its records' `timestamp_ms`; the
 * session spans its records' earliest and latest times. Where records carry none, times are placed by position,
 * one millisecond per line from the session's start (the previous session's end, or the log's modification time),
 * so spans keep the log's order; `cursor_stream.time_source` says `records` or `position`.
 */

import { allInputTokens, MAX_RECORD_TIME_MS, readRecordTime } from '@cursor-stream/core/normalize';
import type { Attributes, HrTime, SpanContext } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { jsonText } from '../json-text.ts';
import type { ExportSession, ExportToolCall } from '../session-collector.ts';
import { wellFormedText } from '../well-formed-text.ts';
import { AGENT_NAME, ATTR, GEN_AI_SCHEMA_URL, PROVIDER_NAME } from './gen-ai-conventions.ts';
import type { SessionSpanIds } from './span-ids.ts';

/** OTLP enum values, as `@opentelemetry/api` numbers them (kept here so this module loads no package). */
const SPAN_KIND_INTERNAL = 0;
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;
const TRACE_FLAG_SAMPLED = 1;

/** The instrumentation scope every span carries. */
export const INSTRUMENTATION_SCOPE = {
  name: '@cursor-stream/export',
  version: '0.1.0',
  schemaUrl: GEN_AI_SCHEMA_URL,
} as const;

/** What to put in the spans. */
export interface SpanOptions {
  resource: Resource;
  /** Tool arguments and results as `gen_ai.tool.call.arguments` / `.result` (opt-in: they may hold secrets). */
  includeContent: boolean;
  /** Start of a session whose records carry no time (ms since the epoch). */
  fallbackStartMs: number;
  /**
   * The longest string an attribute holds, in UTF-16 units, as the SDK's `attributeValueLengthLimit`: a longer one
   * (a tool's output, with `includeContent`) is cut and ends with a marker saying how much was cut. Default
   * {@link DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT}.
   */
  attributeValueLengthLimit?: number;
  /**
   * Hears of a value a span cannot carry as it is, with its line when it has one: a duration that would end it past
   * any time (`duration_ms: 1e308`), a string with a lone surrogate.
   */
  onProblem?(line: number | null, message: string): void;
}

/** The longest attribute string by default: 16 Ki UTF-16 units, a screenful of a tool's output. */
export const DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT = 16_384;

/**
 * `text` cut to `limit` UTF-16 units, its end a marker saying how much was cut (never splitting a surrogate pair);
 * as it is when it fits.
 */
export function limitAttributeText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const marker = (cut: number) => `… [${cut} more characters cut]`;
  // The marker for the whole text is the longest any cut needs.
  const longest = marker(text.length).length;
  let keep = Math.max(0, limit >= longest ? limit - longest : limit);
  const last = text.charCodeAt(keep - 1);
  if (keep > 0 && last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return limit >= longest ? `${text.slice(0, keep)}${marker(text.length - keep)}` : text.slice(0, keep);
}

/**
 * A span time: `ms` when it is a time a record may name (see the core's `readRecordTime`: from 1970 to
 * {@link MAX_RECORD_TIME_MS}, which 64-bit nanoseconds hold), else `undefined`.
 */
function recordTimeOf(ms: number): number | undefined {
  const time = readRecordTime(ms, 'time');
  return time?.ok === true ? time.ms : undefined;
}

/** A time given as a start plus a duration; past any time, the start itself, said as a problem. */
function endAfter(startMs: number, durationMs: number, line: number | null, options: SpanOptions): number {
  const end = recordTimeOf(startMs + durationMs);
  if (end !== undefined) return end;
  options.onProblem?.(
    line,
    `duration_ms ${durationMs} ends the span past any time; the span is given no length`,
  );
  return startMs;
}

/**
 * `ms` held within the times a record may name, so that its nanoseconds fit 64 bits: only a time placed by position
 * from a start near the last of them, or a caller's own, can be outside.
 */
function withinRecordTimes(ms: number): number {
  return Math.min(MAX_RECORD_TIME_MS, Math.max(0, Number.isFinite(ms) ? ms : 0));
}

/** OTLP's time of `ms` (a time within the times a record may name, or a duration). */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))];
}

function context(traceId: string, spanId: string): SpanContext {
  return { traceId, spanId, traceFlags: TRACE_FLAG_SAMPLED, isRemote: false };
}

function put(attributes: Attributes, name: string, value: string | number | null | undefined): void {
  if (value !== null && value !== undefined) attributes[name] = value;
}

function contentText(value: unknown, options: SpanOptions): string {
  const text = typeof value === 'string' ? value : jsonText(value);
  return limitAttributeText(text, options.attributeValueLengthLimit ?? DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT);
}

/**
 * A string of a span as OTLP can carry it: each lone surrogate replaced (protobuf strings are UTF-8, and a collector
 * refuses the whole request for one), said as a problem, then cut to the limit.
 */
function spanText(text: string, where: string, options: SpanOptions): string {
  const fitted = wellFormedText(text);
  if (fitted.changed)
    options.onProblem?.(
      null,
      `${where} holds a lone surrogate, which no UTF-8 text can; sent with U+FFFD in its place`,
    );
  return limitAttributeText(
    fitted.text,
    options.attributeValueLengthLimit ?? DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT,
  );
}

/** Every string of the attributes cut to the limit: ids, names and messages come from the log too. */
function limitAttributes(attributes: Attributes, options: SpanOptions): Attributes {
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === 'string') attributes[key] = spanText(value, key, options);
    else if (Array.isArray(value))
      attributes[key] = value.map((item) =>
        typeof item === 'string' ? spanText(item, key, options) : item,
      ) as string[] | number[];
  }
  return attributes;
}

interface SpanParts {
  name: string;
  ids: SpanContext;
  parent?: SpanContext;
  startMs: number;
  endMs: number;
  status: ReadableSpan['status'];
  attributes: Attributes;
}

function readableSpan(parts: SpanParts, options: SpanOptions): ReadableSpan {
  const startMs = withinRecordTimes(parts.startMs);
  const endMs = Math.max(withinRecordTimes(parts.endMs), startMs);
  const status =
    parts.status.message === undefined
      ? parts.status
      : { ...parts.status, message: spanText(parts.status.message, 'the status message', options) };
  const span: ReadableSpan = {
    name: spanText(parts.name, 'the span name', options),
    kind: SPAN_KIND_INTERNAL,
    spanContext: () => parts.ids,
    startTime: hrTime(startMs),
    endTime: hrTime(endMs),
    duration: hrTime(endMs - startMs),
    status,
    attributes: limitAttributes(parts.attributes, options),
    links: [],
    events: [],
    ended: true,
    resource: options.resource,
    instrumentationScope: INSTRUMENTATION_SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
  return parts.parent === undefined ? span : { ...span, parentSpanContext: parts.parent };
}

/** Places a line in time: the session's start plus one millisecond per line after its first. */
function positionOf(session: ExportSession, startMs: number, line: number | null): number {
  return startMs + Math.max(0, (line ?? session.firstLine ?? 0) - (session.firstLine ?? 0));
}

function toolTimes(
  session: ExportSession,
  call: ExportToolCall,
  sessionStartMs: number,
  options: SpanOptions,
) {
  const startMs = call.startedAtMs ?? positionOf(session, sessionStartMs, call.startLine ?? call.endLine);
  const endMs =
    call.completedAtMs ??
    (call.durationMs !== null
      ? endAfter(startMs, call.durationMs, call.endLine ?? call.startLine, options)
      : positionOf(session, sessionStartMs, call.endLine));
  return { startMs, endMs, fromRecords: call.startedAtMs !== null || call.completedAtMs !== null };
}

function toolSpan(
  session: ExportSession,
  call: ExportToolCall,
  ids: SessionSpanIds,
  sessionStartMs: number,
  options: SpanOptions,
): ReadableSpan {
  // An MCP call is named by the MCP tool it ran, as the harness names it, so that traces tell one server's tool from
  // another's; its type says it is an extension.
  const toolName = call.mcpToolName ?? call.toolName;
  const attributes: Attributes = {
    [ATTR.operationName]: 'execute_tool',
    [ATTR.toolName]: toolName,
    [ATTR.toolCallId]: call.toolCallId,
    [ATTR.toolType]: call.toolName === 'mcp' ? 'extension' : 'function',
    [ATTR.toolStatus]: call.status,
  };
  put(attributes, ATTR.toolProviderName, call.providerToolName);
  put(attributes, ATTR.logLine, call.startLine ?? call.endLine);
  if (call.isError) attributes[ATTR.errorType] = call.status;
  if (options.includeContent && call.input !== undefined)
    attributes[ATTR.toolArguments] = contentText(call.input, options);
  if (options.includeContent && call.output !== undefined)
    attributes[ATTR.toolResult] = contentText(call.output, options);
  const times = toolTimes(session, call, sessionStartMs, options);
  attributes[ATTR.timeSource] = times.fromRecords ? 'records' : 'position';
  return readableSpan(
    {
      name: `execute_tool ${toolName}`,
      ids: context(ids.traceId, ids.toolSpanId(call.toolCallId)),
      parent: context(ids.traceId, ids.agentSpanId),
      startMs: times.startMs,
      endMs: times.endMs,
      status: call.isError ? { code: STATUS_ERROR, message: call.status } : { code: STATUS_UNSET },
      attributes,
    },
    options,
  );
}

function agentAttributes(session: ExportSession): Attributes {
  const attributes: Attributes = {
    [ATTR.operationName]: 'invoke_agent',
    [ATTR.providerName]: PROVIDER_NAME,
    [ATTR.agentName]: AGENT_NAME,
    [ATTR.sessionStatus]: session.status,
    [ATTR.logFile]: session.file,
  };
  put(attributes, ATTR.conversationId, session.sessionId);
  put(attributes, ATTR.requestModel, session.model);
  put(attributes, ATTR.logLine, session.firstLine);
  const usage = session.usage;
  // The conventions count cached input in `input_tokens` too; Cursor's `inputTokens` leaves it out.
  put(attributes, ATTR.inputTokens, allInputTokens(usage));
  put(attributes, ATTR.outputTokens, usage?.outputTokens);
  put(attributes, ATTR.cacheReadTokens, usage?.cacheReadTokens);
  put(attributes, ATTR.cacheCreationTokens, usage?.cacheWriteTokens);
  attributes[ATTR.finishReasons] = [session.status === 'success' ? 'stop' : session.status];
  // A run that failed says so in its result; one with no result at all did not finish.
  if (session.status !== 'success')
    attributes[ATTR.errorType] = session.status === 'error' ? 'agent_error' : 'incomplete';
  return attributes;
}

/** The session's spans: the `invoke_agent` span first, then one `execute_tool` span per call in order of sight. */
export function sessionSpans(
  session: ExportSession,
  ids: SessionSpanIds,
  options: SpanOptions,
): ReadableSpan[] {
  const startMs = session.startedAtMs ?? options.fallbackStartMs;
  const tools = session.toolCalls.map((call) => toolSpan(session, call, ids, startMs, options));
  const lastToolEnd = tools.reduce(
    (latest, span) => Math.max(latest, span.endTime[0] * 1000 + span.endTime[1] / 1e6),
    startMs,
  );
  const endMs = Math.max(
    session.endedAtMs ?? positionOf(session, startMs, session.lastLine),
    session.durationMs === null
      ? startMs
      : endAfter(startMs, session.durationMs, session.finishLine ?? session.lastLine, options),
    lastToolEnd,
  );
  const attributes = agentAttributes(session);
  attributes[ATTR.timeSource] = session.startedAtMs === null ? 'position' : 'records';
  // A success leaves the status unset: OpenTelemetry asks instrumentation not to set `OK` unless told to.
  const status =
    session.status === 'success'
      ? { code: STATUS_UNSET }
      : { code: STATUS_ERROR, message: session.failure?.message ?? session.status };
  const agent = readableSpan(
    {
      name: `invoke_agent ${AGENT_NAME}`,
      ids: context(ids.traceId, ids.agentSpanId),
      startMs,
      endMs,
      status,
      attributes,
    },
    options,
  );
  return [agent, ...tools];
}
