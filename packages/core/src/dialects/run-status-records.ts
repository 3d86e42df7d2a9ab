/**
 * The CLI's records about the run rather than the conversation: `connection`, `retry`, `system` subtypes other than
 * `init`, and `interaction_query`. Each becomes a typed `status` or `interaction` event that keeps everything the
 * record said (fields it does not name go to `extraFields`), so that encoders write it back as it came.
 */

import type { JsonObject } from '../dialect.ts';
import type { InteractionEvent, SourceLocation, StatusEvent, StatusKind } from '../events/index.ts';
import { asNumber, asObject, asString, isJsonObject, ownEntry, setOwn } from '../json-values.ts';

/** Where each status kind comes from: the record's `type` and `subtype`. */
export const STATUS_RECORDS: Readonly<Record<StatusKind, { type: string; subtype: string }>> = {
  reconnecting: { type: 'connection', subtype: 'reconnecting' },
  reconnected: { type: 'connection', subtype: 'reconnected' },
  'retry-starting': { type: 'retry', subtype: 'starting' },
  'retry-resuming': { type: 'retry', subtype: 'resuming' },
  'retry-scheduled': { type: 'retry', subtype: 'scheduled' },
  compacting: { type: 'system', subtype: 'status' },
  'compact-boundary': { type: 'system', subtype: 'compact_boundary' },
  'background-shell-timeout': { type: 'system', subtype: 'background_shell_timeout' },
  'task-notification': { type: 'system', subtype: 'task_notification' },
  status: { type: 'system', subtype: 'status' },
};

/** The status kind of a record, or `undefined` for a record that is no status (or one nobody has seen). */
export function statusKindOf(record: JsonObject): StatusKind | undefined {
  const { type, subtype } = record;
  if (type === 'system' && subtype === 'status')
    return record.status === 'compacting' ? 'compacting' : 'status';
  for (const kind in STATUS_RECORDS) {
    const source = STATUS_RECORDS[kind as StatusKind];
    if (source.type === type && source.subtype === subtype) return kind as StatusKind;
  }
  return undefined;
}

/** A whole number of zero or more (attempts, turn counts). */
function asWholeNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function asBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

function asAny(value: unknown): unknown {
  return value;
}

/** A record field an event names: the event's field, and the reader that accepts the record's value (else `undefined`). */
type FieldMap = Readonly<Record<string, readonly [string, (value: unknown) => unknown]>>;

const COMMON_FIELDS: FieldMap = {
  session_id: ['sessionId', asString],
  timestamp_ms: ['timestampMs', asNumber],
};

const STATUS_FIELDS: FieldMap = {
  ...COMMON_FIELDS,
  attempt: ['attempt', asWholeNumber],
  endpoint_url: ['endpointUrl', asString],
  is_resume: ['isResume', asBoolean],
  checkpoint_turn_count: ['checkpointTurnCount', asWholeNumber],
  status: ['status', asString],
  message: ['message', asString],
};

const INTERACTION_FIELDS: FieldMap = {
  ...COMMON_FIELDS,
  query_type: ['queryType', asString],
  query: ['query', asAny],
  response: ['response', asAny],
  result: ['result', asAny],
};

/**
 * Copies the record's fields onto `event` under their event names, and any field the event does not name (or holds
 * with another type than the event's) into `extraFields`. `type` and `subtype` are the event's kind already.
 */
function copyFields<E extends StatusEvent | InteractionEvent>(
  event: E,
  record: JsonObject,
  fields: FieldMap,
  loc: SourceLocation | undefined,
): E {
  const target = event as unknown as Record<string, unknown>;
  for (const key in record) {
    if (key === 'type' || key === 'subtype') continue;
    const field = ownEntry(fields, key);
    const value = field === undefined ? undefined : field[1](record[key]);
    if (field !== undefined && value !== undefined) target[field[0]] = value;
    else {
      event.extraFields ??= {};
      setOwn(event.extraFields, key, record[key]);
    }
  }
  if (loc !== undefined) event.loc = loc;
  return event;
}

/** A `status` event for a record of a known status kind; `undefined` otherwise. */
export function statusEvent(record: JsonObject, loc: SourceLocation | undefined): StatusEvent | undefined {
  const kind = statusKindOf(record);
  if (kind === undefined) return undefined;
  return copyFields<StatusEvent>({ type: 'status', kind }, record, STATUS_FIELDS, loc);
}

/** The query's own object: the key of `query` that names its type (`createPlanRequestQuery: {args, toolCallId}`). */
function queryBody(
  query: JsonObject | undefined,
  queryType: string | undefined,
): [string, JsonObject] | undefined {
  if (query === undefined) return undefined;
  if (queryType !== undefined && isJsonObject(query[queryType]))
    return [queryType, query[queryType] as JsonObject];
  for (const key in query) {
    const body = query[key];
    if (key !== 'id' && isJsonObject(body)) return [key, body];
  }
  return undefined;
}

/**
 * The object holding a response's arms. The CLI writes the answer under `response`, keyed by the kind of answer
 * (`{id, createPlanRequestResponse: {result: {success: {}, planUri}}}`, `{id, webFetchRequestResponse: {rejected}}`);
 * builds before 2026.09 wrote the arms, or a `result` holding them, under `result`.
 */
function answerArms(record: JsonObject): JsonObject | undefined {
  const response = asObject(record.response);
  let arms: JsonObject | undefined;
  if (response !== undefined) {
    for (const key in response) {
      if (key !== 'id' && isJsonObject(response[key])) {
        arms = response[key] as JsonObject;
        break;
      }
    }
  } else arms = asObject(record.result);
  // A result-style answer nests its arms one level down; `planUri` and the like sit beside them there.
  if (arms !== undefined && isJsonObject(arms.result)) arms = arms.result as JsonObject;
  return arms;
}

/** A response's arm (`rejected`, `approved`, `success`, ...) and its words. */
function answerOf(record: JsonObject): Pick<InteractionEvent, 'outcome' | 'reason'> {
  const arms = answerArms(record);
  for (const outcome in arms) {
    const body = arms[outcome];
    if (!isJsonObject(body)) continue;
    const reason = asString(body.reason) ?? asString(body.error) ?? asString(body.errorMessage);
    return reason === undefined ? { outcome } : { outcome, reason };
  }
  return {};
}

/**
 * `interaction_query/<phase>` → `interaction`. What the query is about is read off `query` (its type, id, tool call
 * and plan text) and the answer (`response`, or `result` of older builds: its id, arm and reason); all are kept as
 * sent too.
 */
export function interactionEvent(
  record: JsonObject,
  phase: string,
  loc: SourceLocation | undefined,
): InteractionEvent {
  const event = copyFields<InteractionEvent>({ type: 'interaction', phase }, record, INTERACTION_FIELDS, loc);
  const query = asObject(record.query);
  const body = queryBody(query, event.queryType);
  const args = asObject(body?.[1].args);
  const queryId = query?.id ?? asObject(record.response)?.id;
  // Derived fields are read-only views of `query` and `result`; encoders write those back, not these.
  if (event.queryType === undefined && body !== undefined) event.queryType = body[0];
  if (typeof queryId === 'number' || typeof queryId === 'string') event.queryId = queryId;
  const toolCallId = asString(body?.[1].toolCallId) ?? asString(args?.toolCallId);
  if (toolCallId !== undefined) event.toolCallId = toolCallId;
  const plan = asString(args?.plan);
  if (plan !== undefined) event.plan = plan;
  return Object.assign(event, answerOf(record));
}

/** The record fields of an event, named back by `fields`, then its `extraFields` as they came. */
function recordFields(event: StatusEvent | InteractionEvent, fields: FieldMap): JsonObject {
  const source = event as unknown as Record<string, unknown>;
  const record: JsonObject = {};
  for (const key in fields) {
    const name = (fields[key] as readonly [string, unknown])[0];
    if (source[name] !== undefined) record[key] = source[name];
  }
  return Object.assign(record, event.extraFields);
}

/** The CLI record a `status` event was read from. */
export function statusRecordOf(event: StatusEvent): JsonObject {
  const { type, subtype } = STATUS_RECORDS[event.kind] ?? STATUS_RECORDS.status;
  const record: JsonObject = { type, subtype, ...recordFields(event, STATUS_FIELDS) };
  if (event.kind === 'compacting') record.status = 'compacting';
  return record;
}

/** The CLI record an `interaction` event was read from (the fields read off `query` and the answer are views of them). */
export function interactionRecordOf(event: InteractionEvent): JsonObject {
  return { type: 'interaction_query', subtype: event.phase, ...recordFields(event, INTERACTION_FIELDS) };
}
