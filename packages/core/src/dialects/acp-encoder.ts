/**
 * Canonical events written back as Agent Client Protocol traffic, as the `acp` dialect reads it: one JSON-RPC 2.0
 * message per line, without a direction wrapper, each valid for the protocol's published schema. A turn is the
 * client's `session/prompt` (for the user message that opens it) and the agent's answer to it (the finish's stop reason
 * with the turn's usage, or a JSON-RPC error for a turn that failed without one); what happens in between is
 * `session/update` notifications; permission requests and Cursor's extension requests are written as the agent sends
 * them, with the client's answers.
 */

import type { JsonObject } from '../dialect.ts';
import {
  type AgentErrorEvent,
  type CanonicalEvent,
  type FinishEvent,
  type InteractionEvent,
  type PlanEvent,
  type StatusEvent,
  type ToolCallEvent,
  type ToolName,
  type ToolResultEvent,
  type TurnTokens,
  type UsageEvent,
  unreachable,
} from '../events/index.ts';
import { isJsonObject, ownEntry } from '../json-values.ts';
import { ACP_STATUS_UPDATES } from './acp-status-updates.ts';
import { withDefined } from './encoder-support.ts';

/** The stop reasons the protocol names; a finish with another says it as a failed prompt. */
const STOP_REASONS = new Set(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']);

/** JSON-RPC's internal error: the code of a failed turn whose error names none. */
const INTERNAL_ERROR = -32603;

/** ACP's tool kinds for the canonical tool names, for a call whose source gave no kind. */
const KIND_OF_TOOL: Partial<Record<ToolName, string>> = {
  shell: 'execute',
  read: 'read',
  ls: 'read',
  edit: 'edit',
  write: 'edit',
  delete: 'delete',
  grep: 'search',
  glob: 'search',
  'web-search': 'fetch',
  'web-fetch': 'fetch',
};

/** What the encoder carries from one event to the next. */
interface EncoderState {
  lines: JsonObject[];
  sessionId: string;
  /** Requests written so far, for fresh ids. */
  requests: number;
  /** The id of the open turn's prompt request, once written. */
  prompt: string | undefined;
  /** Whether the last event opened a turn, so that its user message is the prompt. */
  opening: boolean;
  /** The turn's token counts, said in the prompt's answer. */
  tokens: TurnTokens | undefined;
  /** The error just before a finish: said as the prompt's failed answer. */
  error: AgentErrorEvent | undefined;
}

function nextId(state: EncoderState, prefix: string): string {
  state.requests += 1;
  return `${prefix}-${state.requests}`;
}

function request(state: EncoderState, id: string | number, method: string, params: unknown): void {
  state.lines.push({ jsonrpc: '2.0', id, method, params });
}

function notify(state: EncoderState, method: string, params: JsonObject): void {
  state.lines.push({ jsonrpc: '2.0', method, params });
}

function update(state: EncoderState, fields: JsonObject): void {
  notify(state, 'session/update', { sessionId: state.sessionId, update: fields });
}

function textBlock(text: string): JsonObject {
  return { type: 'text', text };
}

function toolCallUpdate(state: EncoderState, event: ToolCallEvent): void {
  update(
    state,
    withDefined(
      {
        sessionUpdate: 'tool_call',
        toolCallId: event.toolCallId,
        // The protocol requires a title; the tool's own name stands in for one the source did not give.
        title: event.title ?? event.providerToolName,
        name: event.providerToolName,
        kind: event.kind ?? ownEntry(KIND_OF_TOOL, event.toolName) ?? 'other',
        status: 'in_progress',
      },
      { rawInput: event.input },
    ),
  );
}

/**
 * A call's end: `failed` for a failure, else `completed`: an `error` is a completed call whose raw output holds an
 * `error`, and a `rejected` one is completed after the client refused its permission, as Cursor ends them. Statuses
 * the protocol has no word for (a timeout, a spawn error) are `failed`.
 */
function toolResultUpdate(state: EncoderState, event: ToolResultEvent): void {
  const failed = event.status !== 'success' && event.status !== 'error' && event.status !== 'rejected';
  update(
    state,
    withDefined(
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: event.toolCallId,
        status: failed ? 'failed' : 'completed',
      },
      { rawOutput: event.output },
    ),
  );
}

/** Plans as the protocol's `plan` update (every entry needs a priority: `medium` when none was said), or as Cursor's requests. */
function planLine(state: EncoderState, event: PlanEvent): void {
  if (event.source === 'cursor/update_todos' || event.source === 'cursor/create_plan') {
    const todos = event.entries.map((entry) =>
      withDefined({ content: entry.content, status: entry.status }, { priority: entry.priority }),
    );
    const params = withDefined({ sessionId: state.sessionId, todos }, { plan: event.markdown });
    request(state, nextId(state, 'plan'), event.source, params);
    return;
  }
  const entries = event.entries.map((entry) => ({
    content: entry.content,
    priority: entry.priority ?? 'medium',
    status: entry.status,
  }));
  update(state, { sessionUpdate: 'plan', entries });
}

/**
 * Token counts are said in the prompt's answer, which the protocol's `Usage` gives only with the input, output and
 * total known; context occupancy is a `usage_update`, which needs both its size and what is used.
 */
function usageLine(state: EncoderState, event: UsageEvent): void {
  const tokens = event.tokens;
  if (
    tokens !== undefined &&
    tokens.inputTokens !== null &&
    tokens.outputTokens !== null &&
    tokens.totalTokens !== null
  )
    state.tokens = tokens;
  const context = event.context;
  if (context === undefined || context.used === null || context.size === null) return;
  const cost = event.cost;
  update(
    state,
    withDefined(
      { sessionUpdate: 'usage_update', used: context.used, size: context.size },
      {
        cost:
          cost === undefined || cost.amount === null
            ? undefined
            : { amount: cost.amount, currency: cost.currency ?? 'USD' },
      },
    ),
  );
}

/**
 * A session update the dialect reads as a status (`available_commands_update`, ...) with the fields it kept, and a
 * cancel the client sent. Other channels' statuses (retries, compaction, a run's state) have no ACP form.
 */
function statusLine(state: EncoderState, event: StatusEvent): void {
  if (event.kind !== 'status' || event.status === undefined) return;
  if (ACP_STATUS_UPDATES.has(event.status))
    update(state, { ...(event.extraFields ?? {}), sessionUpdate: event.status });
  else if (event.status === 'session/cancel') notify(state, 'session/cancel', { sessionId: state.sessionId });
}

/**
 * Permission requests and their answers, and Cursor's questions and tasks, with the parameters and result the events
 * kept. Other channels' interactions (stream-json's plan queries) have no ACP form.
 */
function interactionLine(state: EncoderState, event: InteractionEvent): void {
  const id = event.queryId ?? nextId(state, 'query');
  if (event.queryType === 'permission') {
    if (event.phase === 'request') {
      const params = isJsonObject(event.query)
        ? event.query
        : { sessionId: state.sessionId, toolCall: { toolCallId: event.toolCallId ?? '' }, options: [] };
      request(state, id, 'session/request_permission', params);
    } else {
      const result = isJsonObject(event.result)
        ? event.result
        : event.outcome === 'cancelled' || event.outcome === undefined
          ? { outcome: { outcome: 'cancelled' } }
          : { outcome: { outcome: 'selected', optionId: event.outcome } };
      state.lines.push({ jsonrpc: '2.0', id, result });
    }
    return;
  }
  if (
    event.phase === 'request' &&
    (event.queryType === 'cursor/ask_question' || event.queryType === 'cursor/task')
  )
    request(state, id, event.queryType, isJsonObject(event.query) ? event.query : {});
}

function usageOf(tokens: TurnTokens): JsonObject {
  return withDefined(
    { inputTokens: tokens.inputTokens, outputTokens: tokens.outputTokens, totalTokens: tokens.totalTokens },
    {
      thoughtTokens: tokens.reasoningTokens ?? undefined,
      cachedReadTokens: tokens.cacheReadTokens ?? undefined,
      cachedWriteTokens: tokens.cacheWriteTokens ?? undefined,
    },
  );
}

/**
 * The prompt's answer: its stop reason (the error the dialect reads before a finish that is not `end_turn` is implied
 * by it), or a JSON-RPC error with the message of the error before the finish. A finish the end of input made has no
 * answer.
 */
function finishLine(state: EncoderState, event: FinishEvent): void {
  if (event.finishReason === 'incomplete') return;
  const id = state.prompt ?? nextId(state, 'turn');
  const stopReason = event.stopReason ?? (event.isError ? undefined : 'end_turn');
  if (stopReason !== undefined && STOP_REASONS.has(stopReason)) {
    const usage = state.tokens === undefined ? undefined : usageOf(state.tokens);
    state.lines.push({ jsonrpc: '2.0', id, result: withDefined({ stopReason }, { usage }) });
  } else {
    const error = state.error;
    const code = Number(error?.code);
    const message =
      error?.message ?? (stopReason === undefined ? 'the prompt failed' : `the turn stopped: ${stopReason}`);
    state.lines.push({
      jsonrpc: '2.0',
      id,
      error: { code: Number.isInteger(code) ? code : INTERNAL_ERROR, message },
    });
  }
  state.prompt = undefined;
  state.tokens = undefined;
  state.error = undefined;
}

function encodeEvent(state: EncoderState, event: CanonicalEvent): void {
  const opening = state.opening;
  state.opening = false;
  switch (event.type) {
    case 'stream-start':
      // A turn opens at its first line. The model and agent are said only by the handshake, not written here.
      state.opening = true;
      state.prompt = undefined;
      state.tokens = undefined;
      state.error = undefined;
      return;
    case 'user-message':
      if (opening) {
        state.prompt = nextId(state, 'turn');
        request(state, state.prompt, 'session/prompt', {
          sessionId: state.sessionId,
          prompt: [textBlock(event.text)],
        });
      } else update(state, { sessionUpdate: 'user_message_chunk', content: textBlock(event.text) });
      return;
    case 'text-delta':
      update(state, { sessionUpdate: 'agent_message_chunk', content: textBlock(event.text) });
      return;
    case 'reasoning-delta':
      update(state, { sessionUpdate: 'agent_thought_chunk', content: textBlock(event.text) });
      return;
    case 'reasoning-end':
      // A thought ends at the next update that is not one: the protocol has no line for it.
      return;
    case 'tool-call':
      toolCallUpdate(state, event);
      return;
    case 'tool-result':
      toolResultUpdate(state, event);
      return;
    case 'plan':
      planLine(state, event);
      return;
    case 'usage':
      usageLine(state, event);
      return;
    case 'status':
      statusLine(state, event);
      return;
    case 'interaction':
      interactionLine(state, event);
      return;
    case 'error':
      // The protocol says an error only as a request's answer: the failed prompt's, when a finish follows.
      state.error = event;
      state.opening = opening;
      return;
    case 'finish':
      finishLine(state, event);
      return;
    // A record the dialect could not read, and a line that was not one, have no ACP form.
    case 'unknown':
    case 'invalid-line':
      return;
    default:
      unreachable(event);
  }
}

/**
 * Writes canonical events as ACP JSON-RPC messages, one per record. Events without a session are written in the last
 * session named (`session` before any).
 */
export function encodeAcp(events: readonly CanonicalEvent[]): JsonObject[] {
  const state: EncoderState = {
    lines: [],
    sessionId: 'session',
    requests: 0,
    prompt: undefined,
    opening: false,
    tokens: undefined,
    error: undefined,
  };
  for (const event of events) {
    if (event.sessionId !== undefined) state.sessionId = event.sessionId;
    encodeEvent(state, event);
  }
  return state.lines;
}
