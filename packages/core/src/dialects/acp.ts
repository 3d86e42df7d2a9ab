/**
 * The `acp` dialect: Agent Client Protocol traffic (`agent acp`: JSON-RPC 2.0 over stdio) as clients log it, one
 * message per line: plain, or in a wrapper that adds its direction or time (`{dir, ms, msg}`, `{direction, message}`,
 * `{dir, frame}`, `{notification}`), or only the update object of a `session/update` (`{sessionUpdate, ...}`).
 *
 * A prompt turn is a session in the union's sense: it opens with the `session/prompt` request (or, in a log of the
 * agent's side only, with its first update), and its `finish` is the prompt response's `stopReason`. ACP's session id
 * is the turns' `sessionId`, as stream-json's chat id is across `--resume`d runs. Tool calls are announced before
 * their arguments (Cursor's first `rawInput` is often `{}` and grows in later updates), so a call's `tool-call` is
 * emitted once it runs, ends or the turn ends, with the arguments it had by then.
 *
 * @see https://agentclientprotocol.com/protocol/overview
 */

import type { Detection, Dialect, DialectContext, JsonObject, RecordNamer } from '../dialect.ts';
import type {
  AgentErrorEvent,
  CanonicalEvent,
  FinishEvent,
  InteractionEvent,
  PlanEntry,
  PlanEvent,
  SourceLocation,
  StatusEvent,
  StreamStartEvent,
  ToolCallEvent,
  ToolName,
  TurnTokens,
  Usage,
  UsageCost,
  UsageEvent,
} from '../events/index.ts';
import { asCount, asNumber, asObject, asString, assignDefined, isJsonObject } from '../json-values.ts';
import {
  MAX_REMEMBERED_CALLS,
  MAX_REMEMBERED_ID_CHARS,
  rememberCall,
  rememberCallId,
} from '../open-calls.ts';
import { reportedCount } from '../token-counts.ts';
import { typeNameOf, unknownEvent } from '../unknown-event.ts';
import { encodeAcp } from './acp-encoder.ts';
import { ACP_STATUS_UPDATES } from './acp-status-updates.ts';
import { NO_EVENTS } from './cli-records.ts';
import { ENVELOPE_THINKING_PREFIXES, reasoningSkipPrefixes } from './reasoning-skip-filter.ts';
import { schemaValidator } from './schema-validation.ts';
import { toolResultEvent } from './tool-events.ts';
import { toolNameOfLabel } from './tool-names.ts';

/** Who sent a message: the client (`c2a`), the agent (`a2c`), or a log that does not say. */
type Direction = 'c2a' | 'a2c' | 'unknown';

interface OpenCall {
  title: string | undefined;
  /** The tool's programmatic name, when the agent gives it (`name`, optional in the protocol). */
  name: string | undefined;
  /**
   * Cursor's name of the tool, in `rawInput._toolName` (`task`, `updateTodos`): the one place Cursor says which tool
   * a call of kind `other` is.
   */
  cursorName: string | undefined;
  kind: string | undefined;
  input: unknown;
  /** The latest output an update gave (`rawOutput`, else `content`): an update need only send what changed. */
  output: unknown;
  emitted: boolean;
}

/** Per-stream state of the `acp` dialect: bounded by the requests, calls and permission answers open at once. */
export interface AcpState {
  /** Requests by `<direction>:<id>`, for their responses. */
  pending: PendingRequests;
  /** Calls of the open turn by id. */
  calls: Map<string, OpenCall>;
  /** Calls whose permission the client refused. */
  rejected: Set<string>;
  /** Calls of the open turn that have ended: a later update of one without a status is not a new call. */
  ended: Set<string>;
  /** The agent as `initialize` names it. */
  agent: string | undefined;
  /** The model `session/new` or `session/load` reports. */
  model: string | undefined;
  /** The ACP session of the traffic. */
  sessionId: string | undefined;
  /** Whether a turn is open (its start emitted, its end not). */
  inTurn: boolean;
  /** The `session/prompt` request that opened the turn, by `<direction>:<id>`, when the log holds it. */
  turnPrompt: string | undefined;
  /** Whether the client sent `session/cancel` during the open turn. */
  cancelSent: boolean;
  /**
   * A prompt sent while a turn was open and not cancelled, held for one record: the agent's answer to the open turn's
   * prompt usually follows it at once (Cursor's `cancelled`), and says how that turn ended better than a guess.
   */
  nextPrompt: HeldPrompt | undefined;
  /** Whether the last update was a thought chunk, so that its `reasoning-end` comes before the next other one. */
  inThought: boolean;
}

function createAcpState(): AcpState {
  return {
    pending: new Map(),
    calls: new Map(),
    rejected: new Set(),
    ended: new Set(),
    agent: undefined,
    model: undefined,
    sessionId: undefined,
    inTurn: false,
    turnPrompt: undefined,
    cancelSent: false,
    nextPrompt: undefined,
    inThought: false,
  };
}

const WRAPPED = ['msg', 'message', 'frame', 'notification'] as const;

function isJsonRpc(value: JsonObject): boolean {
  if (value.jsonrpc === '2.0') return true;
  const method = value.method;
  return typeof method === 'string' && /^(session|cursor|\$)\//.test(method);
}

/** Whether a record is a `session/update`'s parameters: the session's id and the update. */
function isSessionNotification(record: JsonObject): boolean {
  const update = record.update;
  return (
    typeof record.sessionId === 'string' && isJsonObject(update) && typeof update.sessionUpdate === 'string'
  );
}

/** What a line holds: a message and who sent it, or a note of the logging client (`{dir: "summary", msg}`). */
type Unwrapped =
  | { kind: 'message'; message: JsonObject; direction: Direction }
  | { kind: 'note'; name: string; fields: JsonObject };

/** What a line holds; `undefined` for a line that is no ACP traffic. */
function unwrap(record: JsonObject): Unwrapped | undefined {
  if (isJsonRpc(record) || typeof record.sessionUpdate === 'string')
    return { kind: 'message', message: record, direction: 'unknown' };
  // The parameters of a `session/update` alone (`SessionNotification`), as clients built on the SDK log them.
  if (isSessionNotification(record))
    return {
      kind: 'message',
      message: { jsonrpc: '2.0', method: 'session/update', params: record },
      direction: 'a2c',
    };
  for (const field of WRAPPED) {
    const inner = asObject(record[field]);
    if (inner === undefined || !(isJsonRpc(inner) || typeof inner.sessionUpdate === 'string')) continue;
    return { kind: 'message', message: inner, direction: directionOf(record.dir ?? record.direction) };
  }
  // A recorder's own line in its wrapper, beside the traffic: kept as a note about the run.
  const note = asObject(record.msg);
  if (note !== undefined && typeof record.dir === 'string' && typeof record.ms === 'number')
    return { kind: 'note', name: record.dir, fields: note };
  return undefined;
}

/**
 * A line of a client's text log of the traffic: an optional time in seconds, then the direction, then the message
 * (`0.759 <-- {…}` in a capture script's log, `SERVER {…}` in a harness's, `11.958  ← {…}` in a study's, `<< {…}` in a
 * probe's).
 */
const PREFIXED_MESSAGE = /^\s*(?:(\d{1,9}(?:\.\d{1,9})?)\s+)?(-->|<--|>>|<<|→|←|CLIENT|SERVER)\s*(?=\{)/;

/** The capture script's own note between the messages: `152.352 ### prompt answered: …`. */
const PREFIXED_NOTE = /^\s*(\d{1,9}(?:\.\d{1,9})?)\s+###\s?(.*)$/;

/** Who sent a prefixed line's message: the arrows point from the sender, `CLIENT` and `SERVER` (the agent) name it. */
const PREFIX_DIRECTIONS: Readonly<Record<string, 'c2a' | 'a2c'>> = {
  '-->': 'c2a',
  '>>': 'c2a',
  '→': 'c2a',
  CLIENT: 'c2a',
  '<--': 'a2c',
  '<<': 'a2c',
  '←': 'a2c',
  SERVER: 'a2c',
};

function millisecondsOf(seconds: string | undefined): number | undefined {
  return seconds === undefined ? undefined : Math.round(Number(seconds) * 1_000_000) / 1000;
}

/**
 * A prefixed line as the wrapper this dialect reads (`{dir, ms, msg}`): a message with its direction and time, or a
 * capture script's note; `undefined` for any other line.
 */
function readPrefixedLine(line: string): JsonObject | undefined {
  const note = PREFIXED_NOTE.exec(line);
  if (note !== null) return { dir: 'note', ms: millisecondsOf(note[1]) ?? 0, msg: { text: note[2] ?? '' } };
  const prefix = PREFIXED_MESSAGE.exec(line);
  const direction = prefix?.[2];
  if (prefix === null || direction === undefined) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line.slice(prefix[0].length));
  } catch {
    return undefined;
  }
  if (!isJsonObject(message) || !(isJsonRpc(message) || typeof message.sessionUpdate === 'string'))
    return undefined;
  const ms = millisecondsOf(prefix[1]);
  return ms === undefined
    ? { dir: PREFIX_DIRECTIONS[direction], msg: message }
    : { dir: PREFIX_DIRECTIONS[direction], ms, msg: message };
}

function directionOf(value: unknown): Direction {
  if (value === 'c2a' || value === 'outbound' || value === 'out' || value === 'send' || value === 'client')
    return 'c2a';
  if (value === 'a2c' || value === 'inbound' || value === 'in' || value === 'recv' || value === 'agent')
    return 'a2c';
  return 'unknown';
}

function detectAcp(record: JsonObject): Detection {
  return unwrap(record) === undefined ? 'foreign' : 'distinctive';
}

/** The ACP schema of a line: the message inside its wrapper. */
function validateAcp(record: JsonObject, options?: { strict?: boolean }) {
  return schemaValidator('acp')(record, options);
}

/** A `session/prompt` request held for one record (see {@link AcpState.nextPrompt}). */
interface HeldPrompt {
  params: JsonObject | undefined;
  id: unknown;
  direction: Direction;
  loc: SourceLocation;
}

interface Turn {
  state: AcpState;
  loc: SourceLocation;
  out: CanonicalEvent[];
}

function stamped<E extends CanonicalEvent>(turn: Turn, event: E, sessionId?: unknown): E {
  event.loc = turn.loc;
  const session = asString(sessionId) ?? turn.state.sessionId;
  if (session !== undefined) event.sessionId = session;
  return event;
}

function openTurn(turn: Turn, sessionId: unknown): void {
  const { state } = turn;
  if (typeof sessionId === 'string') state.sessionId = sessionId;
  if (state.inTurn) return;
  state.inTurn = true;
  state.turnPrompt = undefined;
  state.cancelSent = false;
  state.calls.clear();
  state.rejected.clear();
  state.ended.clear();
  const start = assignDefined<StreamStartEvent>(
    { type: 'stream-start' },
    { model: state.model, agent: state.agent },
  );
  turn.out.push(stamped(turn, start));
}

function endThought(turn: Turn): void {
  if (!turn.state.inThought) return;
  turn.state.inThought = false;
  turn.out.push(stamped(turn, { type: 'reasoning-end' }));
}

/** The text of a content block or an array of them; `undefined` for content that holds none. */
function contentText(content: unknown): string | undefined {
  if (Array.isArray(content)) {
    const texts = content.map(contentText).filter((text) => text !== undefined);
    return texts.length === 0 ? undefined : texts.join('');
  }
  const block = asObject(content);
  if (block?.type === 'text' && typeof block.text === 'string') return block.text;
  return undefined;
}

/**
 * ACP's tool kinds, and Cursor's titles where one kind covers several tools. A call of no particular kind is named by
 * Cursor's name of its tool where it gives one, as the CLI's records name it (`task`, `updateTodos` → `todo`).
 */
function toolNameOf(call: OpenCall): ToolName {
  const { kind, cursorName } = call;
  const label = (call.title ?? '').toLowerCase();
  switch (kind) {
    case 'execute':
      return 'shell';
    case 'read':
      return 'read';
    case 'edit':
      return 'edit';
    case 'delete':
      return 'delete';
    case 'fetch':
      return label.includes('search') ? 'web-search' : 'web-fetch';
    case 'search':
      if (label.includes('web')) return 'web-search';
      return label === 'find' || label.startsWith('find ') || label.includes('glob') ? 'glob' : 'grep';
    default:
      if (cursorName !== undefined) return toolNameOfLabel(cursorName);
      if (label.includes('todo')) return 'todo';
      return kind ?? 'unknown';
  }
}

/** The agent's own name of a call's tool: its programmatic name, else Cursor's, else its kind or title. */
function nativeNameOf(call: OpenCall): string {
  return call.name ?? call.cursorName ?? call.kind ?? call.title ?? 'unknown';
}

/** The `tool-call` of an open call, which is then given: no later update gives it again. */
function givenCall(id: string, call: OpenCall): ToolCallEvent {
  call.emitted = true;
  return assignDefined<ToolCallEvent>(
    {
      type: 'tool-call',
      toolCallId: id,
      toolName: toolNameOf(call),
      providerToolName: nativeNameOf(call),
      input: call.input ?? null,
    },
    { title: call.title, kind: call.kind },
  );
}

function callEvent(turn: Turn, id: string, call: OpenCall, sessionId: unknown): ToolCallEvent {
  return stamped(turn, givenCall(id, call), sessionId);
}

function hasKeys(value: unknown): boolean {
  return isJsonObject(value) && Object.keys(value).length > 0;
}

/**
 * Keeps a new open call. Past {@link MAX_REMEMBERED_CALLS} the oldest is forgotten, so that a turn of endless
 * announcements stays bounded: it is given first, with the arguments it has, rather than lost.
 */
function keepCall(turn: Turn, id: string, call: OpenCall): void {
  const { calls } = turn.state;
  if (calls.size >= MAX_REMEMBERED_CALLS && id.length <= MAX_REMEMBERED_ID_CHARS) {
    const oldest = calls.entries().next().value;
    if (oldest !== undefined && !oldest[1].emitted)
      turn.out.push(callEvent(turn, oldest[0], oldest[1], undefined));
  }
  rememberCall(calls, id, call);
}

function toolUpdate(turn: Turn, update: JsonObject, sessionId: unknown): void {
  const id = asString(update.toolCallId);
  if (id === undefined) {
    turn.out.push(unknownEvent(update, typeNameOf(update.sessionUpdate), turn.loc, asString(sessionId)));
    return;
  }
  const known = turn.state.calls.get(id);
  // Claude Code's adapter sends what a hook saw after the call's end, with no status: that call and its result are
  // told already. An update with a status is a call of its own (a producer may give two calls one id).
  if (known === undefined && update.status == null && turn.state.ended.has(id)) return;
  const call: OpenCall = known ?? {
    title: undefined,
    name: undefined,
    cursorName: undefined,
    kind: undefined,
    input: undefined,
    output: undefined,
    emitted: false,
  };
  if (known === undefined) keepCall(turn, id, call);
  // A call's first message may hold a description as its content (Claude Code's); output comes in its updates.
  if (update.sessionUpdate === 'tool_call_update')
    call.output = update.rawOutput ?? update.content ?? call.output;
  call.title = asString(update.title) ?? call.title;
  call.name = asString(update.name) ?? call.name;
  call.cursorName = asString(asObject(update.rawInput)?._toolName) ?? call.cursorName;
  call.kind = asString(update.kind) ?? call.kind;
  // Cursor's first arguments are often `{}`; later updates carry the whole arguments so far.
  if (hasKeys(update.rawInput) || call.input === undefined) call.input = update.rawInput ?? call.input;
  const status = update.status;
  // A call not kept (its id past the bound) cannot wait for its arguments: it is given at once.
  if (!call.emitted && (status === 'in_progress' || !turn.state.calls.has(id)))
    turn.out.push(callEvent(turn, id, call, sessionId));
  if (status !== 'completed' && status !== 'failed') return;
  if (!call.emitted) turn.out.push(callEvent(turn, id, call, sessionId));
  turn.state.calls.delete(id);
  rememberCallId(turn.state.ended, id);
  const rawOutput = asObject(call.output);
  // A call whose permission was refused is rejected, however the agent ends it (Cursor: `completed`; others: `failed`).
  const outcome = turn.state.rejected.has(id)
    ? 'rejected'
    : status === 'failed'
      ? 'failure'
      : rawOutput?.error !== undefined
        ? 'error'
        : 'success';
  const result = toolResultEvent({
    toolCallId: id,
    toolName: toolNameOf(call),
    providerToolName: nativeNameOf(call),
    status: outcome,
    output: call.output ?? null,
    durationMs: undefined,
  });
  turn.out.push(stamped(turn, result, sessionId));
}

/** Remembers a call the client refused to run: Cursor still ends it `completed`, without output. */
function rejectCall(state: AcpState, toolCallId: string): void {
  rememberCallId(state.rejected, toolCallId);
}

function planEntries(items: unknown): PlanEntry[] {
  if (!Array.isArray(items)) return [];
  return items
    .filter(isJsonObject)
    .map((item) =>
      assignDefined<PlanEntry>(
        { content: asString(item.content) ?? '', status: asString(item.status) ?? '' },
        { priority: asString(item.priority) },
      ),
    );
}

function nullableCount(value: unknown): number | null {
  return asCount(value) ?? null;
}

/** The session updates that belong to a turn: what the user and the agent say and do in it. */
const TURN_UPDATES: ReadonlySet<string> = new Set([
  'agent_message_chunk',
  'agent_thought_chunk',
  'user_message_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
]);

/** One `session/update`. */
function sessionUpdate(turn: Turn, update: JsonObject, sessionId: unknown): void {
  const kind = update.sessionUpdate;
  if (kind !== 'agent_thought_chunk') endThought(turn);
  if (typeof kind === 'string' && ACP_STATUS_UPDATES.has(kind)) {
    const { sessionUpdate: _kind, ...fields } = update;
    const status = assignDefined<StatusEvent>(
      { type: 'status', kind: 'status', status: kind },
      { extraFields: Object.keys(fields).length > 0 ? fields : undefined },
    );
    turn.out.push(stamped(turn, status, sessionId));
    return;
  }
  if (kind === 'usage_update') {
    const cost = asObject(update.cost);
    const event = assignDefined<UsageEvent>(
      {
        type: 'usage',
        context: { used: nullableCount(update.used), size: nullableCount(update.size) },
      },
      {
        cost:
          cost === undefined
            ? undefined
            : assignDefined<UsageCost>(
                { amount: asNumber(cost.amount) ?? null },
                { currency: asString(cost.currency) },
              ),
      },
    );
    turn.out.push(stamped(turn, event, sessionId));
    return;
  }
  if (!TURN_UPDATES.has(kind as string)) {
    // A kind from a later protocol version: said, and not taken for the start of a turn.
    turn.out.push(unknownEvent(update, typeNameOf(kind), turn.loc, asString(sessionId)));
    return;
  }
  openTurn(turn, sessionId);
  switch (kind) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk': {
      const text = contentText(update.content);
      if (text === undefined) {
        turn.out.push(unknownEvent(update, kind, turn.loc, asString(sessionId)));
        return;
      }
      if (kind === 'agent_thought_chunk') {
        turn.state.inThought = true;
        turn.out.push(stamped(turn, { type: 'reasoning-delta', text }, sessionId));
      } else if (kind === 'agent_message_chunk') {
        turn.out.push(stamped(turn, { type: 'text-delta', text }, sessionId));
      } else {
        turn.out.push(stamped(turn, { type: 'user-message', text }, sessionId));
      }
      return;
    }
    case 'tool_call':
    case 'tool_call_update':
      toolUpdate(turn, update, sessionId);
      return;
    case 'plan':
      turn.out.push(
        stamped(turn, { type: 'plan', entries: planEntries(update.entries), source: 'plan' }, sessionId),
      );
      return;
  }
  turn.out.push(unknownEvent(update, typeNameOf(kind), turn.loc, asString(sessionId)));
}

/** The prompt's token counts, as the schema names them or as agents send them. */
function promptTokens(usage: JsonObject): TurnTokens {
  const first = (...fields: string[]): number | null => {
    for (const field of fields) {
      const count = reportedCount(usage[field]);
      if (count !== undefined) return count;
    }
    return null;
  };
  return {
    inputTokens: first('inputTokens'),
    outputTokens: first('outputTokens'),
    cacheReadTokens: first('cachedReadTokens', 'cacheReadTokens'),
    cacheWriteTokens: first('cachedWriteTokens', 'cacheWriteTokens'),
    reasoningTokens: first('thoughtTokens', 'reasoningTokens'),
    totalTokens: first('totalTokens'),
  };
}

/** The counts of a turn the agent gave, as the turn's total. */
function knownCounts(tokens: TurnTokens): Usage | undefined {
  const usage: Usage = {};
  for (const field of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const) {
    const count = tokens[field];
    if (count !== null) usage[field] = count;
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** Stop reasons of a whole turn; any other (`cancelled`, `refusal`, `max_tokens`, ...) ends it short. */
const WHOLE_TURN = new Set(['end_turn']);

/** The end of the open turn: the calls it left are announced, then its finish. */
function endTurn(
  turn: Turn,
  fields: {
    stopReason?: string | undefined;
    error?: string | undefined;
    code?: string | undefined;
    usage?: Usage | undefined;
  },
): void {
  endThought(turn);
  const { state } = turn;
  if (!state.inTurn) openTurn(turn, undefined);
  for (const [id, call] of state.calls)
    if (!call.emitted) turn.out.push(callEvent(turn, id, call, undefined));
  state.calls.clear();
  state.inTurn = false;
  const whole = fields.stopReason !== undefined && WHOLE_TURN.has(fields.stopReason);
  if (!whole) {
    const message =
      fields.error ??
      (fields.stopReason === undefined ? 'the prompt failed' : `the turn stopped: ${fields.stopReason}`);
    const error = assignDefined<AgentErrorEvent>(
      { type: 'error', message },
      { code: fields.stopReason === 'cancelled' ? 'cancelled' : fields.code },
    );
    turn.out.push(stamped(turn, error));
  }
  const finish = assignDefined<FinishEvent>(
    { type: 'finish', finishReason: whole ? 'stop' : 'error', isError: !whole, pendingToolCallIds: [] },
    { stopReason: fields.stopReason, usage: fields.usage },
  );
  turn.out.push(stamped(turn, finish));
}

/** The most issues of a validation error's `data` list named in its text. */
const MAX_DATA_ISSUES = 3;

/** What an error's `data` says: its `message` or `details`, or a list of validation issues (`{path, message}`). */
function errorDetail(data: unknown): string | undefined {
  if (isJsonObject(data)) return asString(data.message) ?? asString(data.details);
  if (!Array.isArray(data)) return undefined;
  const issues = data.filter(isJsonObject).flatMap((issue) => {
    const message = asString(issue.message);
    if (message === undefined) return [];
    const path = Array.isArray(issue.path) ? issue.path.map(String).join('.') : '';
    return [path === '' ? message : `${path}: ${message}`];
  });
  if (issues.length === 0) return undefined;
  const more = issues.length > MAX_DATA_ISSUES ? ` (and ${issues.length - MAX_DATA_ISSUES} more)` : '';
  return `${issues.slice(0, MAX_DATA_ISSUES).join('; ')}${more}`;
}

function errorText(error: JsonObject): string {
  const message = asString(error.message) ?? 'JSON-RPC error';
  const detail = errorDetail(error.data);
  return detail === undefined || detail === message ? message : `${message}: ${detail}`;
}

function modelOf(result: JsonObject): string | undefined {
  const models = asObject(result.models);
  const current = asString(models?.currentModelId);
  if (current !== undefined) return current;
  const options = Array.isArray(result.configOptions) ? result.configOptions.filter(isJsonObject) : [];
  const model = options.find((option) => option.id === 'model' || option.category === 'model');
  return asString(model?.currentValue);
}

/**
 * Opens the turn of a prompt. A turn still open then ends: cancelled when the client said so, else superseded, when
 * the agent's answer to its prompt did not come first (see {@link AcpState.nextPrompt}); that answer, when it comes
 * later, is told from the new turn's by its request id.
 */
function startPrompt(turn: Turn, prompt: HeldPrompt): void {
  const at: Turn = { state: turn.state, loc: prompt.loc, out: turn.out };
  endThought(at);
  if (at.state.inTurn) endTurn(at, { stopReason: at.state.cancelSent ? 'cancelled' : 'superseded' });
  const sessionId = prompt.params?.sessionId;
  openTurn(at, sessionId);
  if (typeof prompt.id === 'string' || typeof prompt.id === 'number')
    turn.state.turnPrompt = `${prompt.direction}:${prompt.id}`;
  turn.out.push(
    stamped(at, { type: 'user-message', text: contentText(prompt.params?.prompt) ?? '' }, sessionId),
  );
}

/** A request or notification. */
function request(turn: Turn, message: JsonObject, method: string, direction: Direction): void {
  const params = asObject(message.params);
  const id = message.id;
  if (typeof id === 'string' || typeof id === 'number') {
    rememberCall(turn.state.pending, `${direction}:${id}`, { method, params });
  }
  const sessionId = params?.sessionId;
  if (method === 'session/cancel' && turn.state.inTurn) turn.state.cancelSent = true;
  switch (method) {
    case 'session/update': {
      const update = asObject(params?.update);
      if (update === undefined) break;
      sessionUpdate(turn, update, sessionId);
      return;
    }
    case 'session/prompt': {
      const prompt = { params, id, direction, loc: turn.loc };
      if (turn.state.inTurn && !turn.state.cancelSent) turn.state.nextPrompt = prompt;
      else startPrompt(turn, prompt);
      return;
    }
    case 'session/request_permission': {
      const toolCall = asObject(params?.toolCall);
      const event = assignDefined<InteractionEvent>(
        { type: 'interaction', phase: 'request', queryType: 'permission' },
        {
          queryId: typeof id === 'string' || typeof id === 'number' ? id : undefined,
          toolCallId: asString(toolCall?.toolCallId),
          query: params,
        },
      );
      turn.out.push(stamped(turn, event, sessionId));
      return;
    }
    case 'cursor/update_todos':
    case 'cursor/create_plan': {
      const plan = assignDefined<PlanEvent>(
        { type: 'plan', entries: planEntries(params?.todos), source: method },
        { markdown: asString(params?.plan) },
      );
      turn.out.push(stamped(turn, plan, sessionId));
      return;
    }
    case 'cursor/ask_question':
    case 'cursor/task': {
      const event = assignDefined<InteractionEvent>(
        { type: 'interaction', phase: 'request', queryType: method },
        {
          queryId: typeof id === 'string' || typeof id === 'number' ? id : undefined,
          toolCallId: asString(params?.toolCallId),
          query: params,
        },
      );
      turn.out.push(stamped(turn, event, sessionId));
      return;
    }
  }
  // The protocol's own traffic (initialize, session/new, set_mode, cancel, ...): said, not part of a turn.
  turn.out.push(stamped(turn, { type: 'status', kind: 'status', status: method }, sessionId));
}

/** Requests awaiting their response, by `<direction>:<id>`. */
type PendingRequests = Map<string, { method: string; params: JsonObject | undefined }>;

/** Methods only the agent calls, on its client: reading and writing files, terminals, permissions, Cursor's own. */
const AGENT_METHOD = /^(?:fs\/|terminal\/|cursor\/|session\/request_permission$)/;

/** Whether an answer is the client's, to a request of the agent's: by the side the log names, else by the method. */
function isClientAnswered(method: string, key: string | undefined): boolean {
  if (key?.startsWith('a2c:')) return true;
  return key?.startsWith('unknown:') === true && AGENT_METHOD.test(method);
}

/** The request a response answers: the other side's, when the log says who sent what. */
function answered(
  pending: PendingRequests,
  id: unknown,
  direction: Direction,
  result: JsonObject | undefined,
  take = true,
) {
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const sides: Direction[] =
    direction === 'a2c'
      ? ['c2a', 'unknown']
      : direction === 'c2a'
        ? ['a2c', 'unknown']
        : // A log without directions: a permission's answer has an `outcome`; every other response is the agent's.
          result?.outcome !== undefined
          ? ['unknown', 'a2c', 'c2a']
          : ['unknown', 'c2a', 'a2c'];
  for (const side of sides) {
    const key = `${side}:${id}`;
    const request = pending.get(key);
    if (request === undefined) continue;
    if (
      direction === 'unknown' &&
      result?.outcome === undefined &&
      request.method === 'session/request_permission'
    )
      continue;
    if (take) pending.delete(key);
    return { key, request };
  }
  return undefined;
}

function response(turn: Turn, message: JsonObject, direction: Direction): void {
  const result = asObject(message.result);
  const error = asObject(message.error);
  const answer = answered(turn.state.pending, message.id, direction, result);
  const pending = answer?.request;
  // The answer to a prompt whose turn a later prompt already ended: that turn is told, the open one is not this one's.
  const ownTurn =
    answer === undefined || turn.state.turnPrompt === undefined || answer.key === turn.state.turnPrompt;
  const method = pending?.method ?? (result?.stopReason !== undefined ? 'session/prompt' : undefined);
  const sessionId = pending?.params?.sessionId;
  if (error !== undefined) {
    const code = String(error.code ?? '') || undefined;
    if (method === 'session/prompt' && turn.state.inTurn && ownTurn) {
      endTurn(turn, { error: errorText(error), code });
      return;
    }
    if (method === 'session/new' && !turn.state.inTurn) {
      // No session to prompt (`Authentication required`): the run failed before its first turn.
      openTurn(turn, undefined);
      endTurn(turn, { error: `${method}: ${errorText(error)}`, code });
      return;
    }
    if (method !== undefined && isClientAnswered(method, answer?.key)) {
      // The client refusing a request of the agent's (an extension it does not serve): the agent's to handle.
      const refusal = assignDefined<InteractionEvent>(
        {
          type: 'interaction',
          phase: 'response',
          queryType: method,
          outcome: 'error',
          reason: errorText(error),
        },
        {
          queryId: typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined,
        },
      );
      turn.out.push(stamped(turn, refusal, sessionId));
      return;
    }
    const event = assignDefined<AgentErrorEvent>(
      { type: 'error', message: method === undefined ? errorText(error) : `${method}: ${errorText(error)}` },
      { code: error.code === undefined ? undefined : String(error.code) },
    );
    turn.out.push(stamped(turn, event, sessionId));
    return;
  }
  switch (method) {
    case 'initialize': {
      const info = asObject(result?.agentInfo);
      turn.state.agent = asString(info?.name) ?? turn.state.agent;
      return;
    }
    case 'session/new':
    case 'session/load':
    case 'session/resume':
      if (typeof result?.sessionId === 'string') turn.state.sessionId = result.sessionId;
      turn.state.model = (result === undefined ? undefined : modelOf(result)) ?? turn.state.model;
      // The history a load replays reads as one turn, ended here.
      if (turn.state.inTurn) endTurn(turn, { stopReason: 'end_turn' });
      return;
    case 'session/prompt': {
      if (!turn.state.inTurn && pending === undefined) openTurn(turn, sessionId);
      if (!turn.state.inTurn || !ownTurn) return;
      const usage = asObject(result?.usage);
      const tokens = usage === undefined ? undefined : promptTokens(usage);
      if (tokens !== undefined) turn.out.push(stamped(turn, { type: 'usage', tokens }, sessionId));
      endTurn(turn, {
        stopReason: asString(result?.stopReason) ?? 'end_turn',
        usage: tokens === undefined ? undefined : knownCounts(tokens),
      });
      return;
    }
    case 'session/request_permission': {
      const outcome = asObject(result?.outcome);
      const optionId = asString(outcome?.optionId);
      const toolCall = asObject(pending?.params?.toolCall);
      const toolCallId = asString(toolCall?.toolCallId);
      const options = Array.isArray(pending?.params?.options)
        ? pending.params.options.filter(isJsonObject)
        : [];
      const chosen = options.find((option) => option.optionId === optionId);
      const refused = outcome?.outcome === 'cancelled' || String(chosen?.kind ?? '').startsWith('reject');
      if (refused && toolCallId !== undefined) rejectCall(turn.state, toolCallId);
      const event = assignDefined<InteractionEvent>(
        { type: 'interaction', phase: 'response', queryType: 'permission' },
        {
          queryId: typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined,
          toolCallId,
          outcome: optionId ?? asString(outcome?.outcome),
          result,
        },
      );
      turn.out.push(stamped(turn, event, sessionId));
      return;
    }
  }
  // Other answers (set_mode, authenticate, an extension's `{}`) change nothing a reader of the turn needs.
}

function normalizeAcp(record: JsonObject, context: DialectContext<AcpState>): readonly CanonicalEvent[] {
  const unwrapped = unwrap(record);
  const turn: Turn = { state: context.state, loc: context.loc, out: [] };
  if (unwrapped === undefined) return [unknownEvent(record, typeNameOf(record.type), context.loc, undefined)];
  if (unwrapped.kind === 'note') {
    const note: StatusEvent = {
      type: 'status',
      kind: 'status',
      status: unwrapped.name,
      extraFields: unwrapped.fields,
    };
    return [stamped(turn, note)];
  }
  const { message, direction } = unwrapped;
  const held = context.state.nextPrompt;
  if (held === undefined) route(turn, message, direction);
  else {
    context.state.nextPrompt = undefined;
    const answersOpenTurn = isAnswerTo(context.state, message, direction);
    if (!answersOpenTurn) startPrompt(turn, held);
    route(turn, message, direction);
    if (answersOpenTurn) startPrompt(turn, held);
  }
  return turn.out.length === 0 ? NO_EVENTS : turn.out;
}

/** Whether a message is the agent's answer to the open turn's prompt, without taking it from the pending requests. */
function isAnswerTo(state: AcpState, message: JsonObject, direction: Direction): boolean {
  if (!('result' in message || 'error' in message) || state.turnPrompt === undefined) return false;
  return (
    answered(state.pending, message.id, direction, asObject(message.result), false)?.key === state.turnPrompt
  );
}

function route(turn: Turn, message: JsonObject, direction: Direction): void {
  if (typeof message.sessionUpdate === 'string') sessionUpdate(turn, message, undefined);
  else if (typeof message.method === 'string') request(turn, message, message.method, direction);
  else if ('result' in message || 'error' in message) response(turn, message, direction);
  else turn.out.push(unknownEvent(message, 'jsonrpc', turn.loc, undefined));
}

/**
 * Names each line as a reader of ACP traffic does: a request or notification by its method (a `session/update` by its
 * update's kind beside it), a response by the method of the request it answers when the log holds that request,
 * else as a bare `response` or `error`, and a recorder's own line as a `note`.
 */
function createAcpRecordNamer(): RecordNamer {
  const pending: PendingRequests = new Map();
  return (record) => {
    const unwrapped = unwrap(record);
    if (unwrapped === undefined) return { type: asString(record.type) ?? null, subtype: null };
    if (unwrapped.kind === 'note') return { type: 'note', subtype: unwrapped.name };
    const { message, direction } = unwrapped;
    if (typeof message.sessionUpdate === 'string')
      return { type: 'session/update', subtype: message.sessionUpdate };
    if (typeof message.method === 'string') {
      const id = message.id;
      if (typeof id === 'string' || typeof id === 'number')
        rememberCall(pending, `${direction}:${id}`, { method: message.method, params: undefined });
      const update =
        message.method === 'session/update' ? asObject(asObject(message.params)?.update) : undefined;
      return { type: message.method, subtype: asString(update?.sessionUpdate) ?? null };
    }
    const outcome = 'error' in message ? 'error' : 'response';
    const request = answered(pending, message.id, direction, asObject(message.result))?.request;
    return request === undefined
      ? { type: outcome, subtype: null }
      : { type: request.method, subtype: outcome };
  };
}

/** The Agent Client Protocol dialect: `agent acp` traffic, Cursor's or another agent's. */
/**
 * The calls announced and never given: a call waits for its arguments (Cursor announces most with none) until an
 * update or the turn's end; a log cut off before either still had them started.
 */
function endAcpStream(state: AcpState): readonly CanonicalEvent[] {
  const events: CanonicalEvent[] = [];
  const held = state.nextPrompt;
  if (held !== undefined) {
    state.nextPrompt = undefined;
    startPrompt({ state, loc: held.loc, out: events }, held);
  }
  for (const [id, call] of state.calls) {
    if (call.emitted) continue;
    const event = givenCall(id, call);
    // No record gives it a place in the log; its session is the traffic's.
    if (state.sessionId !== undefined) event.sessionId = state.sessionId;
    events.push(event);
  }
  return events;
}

export const acpDialect: Dialect<AcpState, 'acp'> = {
  name: 'acp',
  description:
    'Agent Client Protocol traffic (agent acp): JSON-RPC messages one per line, plain or in a direction/time wrapper.',
  detect: detectAcp,
  validate: validateAcp,
  createState: createAcpState,
  // The CLI's `thinking` records are none of this dialect's: skipping them when no reasoning is wanted loses it nothing.
  skipPrefixes: reasoningSkipPrefixes(ENVELOPE_THINKING_PREFIXES),
  normalize: normalizeAcp,
  endStream: endAcpStream,
  readTextLine: readPrefixedLine,
  createRecordNamer: createAcpRecordNamer,
  encode: encodeAcp,
};
