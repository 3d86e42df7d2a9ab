/**
 * One turn's canonical events as `HarnessV1StreamPart`s. The mapping:
 *
 * - the first `stream-start` (`system/init`) → `stream-start` with the model's name; any other part first → a
 *   `stream-start` with the model asked for;
 * - `text-delta` / `reasoning-delta` → `text-*` / `reasoning-*` blocks, closed when the other kind, a tool call,
 *   a compaction or the step's end comes; `reasoning-end` closes the reasoning;
 * - `tool-call` → `tool-call` (`providerExecuted`, the CLI's kind as `nativeName`, the input as JSON text;
 *   `dynamic` for MCP tools and kinds that are not builtins); `tool-result` → `tool-result` (`isError` unless it
 *   succeeded, the result arm as `status` in `providerMetadata`); a completion whose start was not seen opens its
 *   call first; a call still open at the end fails with the bridge's unfinished-call text; the turn keeps its newest
 *   1024 open calls (core's `MAX_REMEMBERED_CALLS`), and at its end one `raw` part, whose `rawValue` is
 *   `{ type: 'forgotten-tool-calls', count, text }`, says how many it forgot (their calls get no result);
 * - `status` `compact-boundary` → `compaction` (`auto`: print mode has no manual compaction; `summary` empty: the
 *   CLI's records carry none);
 * - a step per model call: a new one starts when, after tool calls, the model writes again under another
 *   `model_call_id`, or (where the log names none) once every call has completed; `finish-step` closes each, with
 *   unknown usage (stream-json reports usage per turn only);
 * - the end: `finish-step` then `finish` with the turn's usage and metadata, or, when the turn failed,
 *   `finish-step` then one `error`;
 * - everything else (the prompt's echo, `interaction` queries, other `status` events, the log's own `error` and
 *   `finish` events inside a turn, `unknown` records, non-JSON lines, repeated starts and completions of a call)
 *   → `raw`, with the canonical event as `rawValue`: never dropped.
 *
 * `interaction_query` records go out as `raw`, not `tool-approval-request`: in print mode the CLI answers its own
 * queries (it rejects them, or runs the tool under `--force`), and nothing can be written back to it, so an approval
 * request would ask the caller a question whose answer could go nowhere.
 */

import type { HarnessV1CallWarning, HarnessV1Metadata, HarnessV1StreamPart } from '@ai-sdk/harness';
import type {
  CanonicalEvent,
  FinishEvent,
  StatusEvent,
  StreamStartEvent,
  ToolCallEvent,
  ToolResultEvent,
} from '@cursor-stream/core/normalize';
import { mcpToolName } from '@cursor-stream/core/tools';
import { createCompletedCalls } from '../completed-calls.ts';
import { newModelStep, noteModelOutput, startsNewStep } from '../model-steps.ts';
import { createOpenCalls, FORGOTTEN_TOOL_CALLS_RAW_TYPE, forgottenToolCallsText } from '../open-calls.ts';
import { UNFINISHED_TOOL_ERROR_TEXT } from '../ui-message-encoder.ts';
import { builtinToolOfKind } from './builtin-tools.ts';
import { cursorUsage, type HarnessUsage, unknownUsage } from './usage.ts';

type Part = HarnessV1StreamPart;
type FinishReason = Extract<Part, { type: 'finish' }>['finishReason'];
type JsonObject = Record<string, unknown>;

/** What a turn's parts need besides its events. */
export interface TurnPartOptions {
  /** The key of the turn's metadata (`harnessMetadata`, tools' `providerMetadata`). */
  harnessId: string;
  /** The model asked for, reported when the log names none. */
  model?: string | undefined;
  /** The chat the turn resumes; a log that names another says so in a warning. */
  resume?: string | undefined;
  /** Warnings for `stream-start` (settings the turn could not honour). */
  warnings?: readonly HarnessV1CallWarning[];
}

/** How a turn ended: with the agent's `finish`, or failed with `error` (the value of the `error` part). */
export type TurnEnding =
  | { ok: true; finish: FinishEvent | undefined; chatId: string | undefined }
  | { ok: false; error: unknown };

/** Maps one turn's events; see {@link createTurnParts}. */
export interface TurnParts {
  /** The parts for one event of the turn (not the run's final `error` and `finish`). */
  map(event: CanonicalEvent): Part[];
  /** The parts that end the turn. */
  end(ending: TurnEnding): Part[];
}

interface OpenCall {
  toolName: string;
  dynamic: boolean;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON value for a part: `undefined` becomes `null`, and anything JSON cannot hold is left out by JSON itself. */
function jsonValue(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value) ?? 'null');
}

/** An object without its `undefined` fields, as JSON values must be. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** How a call is named to the AI SDK: a builtin's key, or a dynamic tool's name. */
function describeCall(call: Pick<ToolCallEvent, 'toolName' | 'providerToolName'>, input: unknown) {
  const builtin = builtinToolOfKind(call.providerToolName);
  if (builtin !== undefined) return { toolName: builtin, dynamic: false, input };
  if (call.toolName === 'mcp') {
    // An MCP call's own arguments are under `args`; the server and tool are in its name.
    const args = isObject(input) && isObject(input.args) ? input.args : input;
    return { toolName: mcpToolName(input) ?? 'mcp', dynamic: true, input: args };
  }
  return { toolName: call.toolName, dynamic: true, input };
}

/** Creates the mapper of one turn. */
export function createTurnParts(options: TurnPartOptions): TurnParts {
  const { harnessId } = options;
  let started = false;
  let block: { kind: 'text' | 'reasoning'; id: string } | undefined;
  const blockCounts = { text: 0, reasoning: 0 };
  let step = newModelStep();
  const openCalls = createOpenCalls<OpenCall>();
  const completed = createCompletedCalls();

  function complete(toolCallId: string): void {
    openCalls.close(toolCallId);
    completed.add(toolCallId);
  }

  function start(out: Part[], init?: StreamStartEvent): void {
    if (started) return;
    started = true;
    const warnings = [...(options.warnings ?? [])];
    const chat = init?.sessionId;
    if (options.resume !== undefined && chat !== undefined && chat !== options.resume) {
      warnings.push({
        type: 'other',
        message: `cursor-agent did not resume chat ${options.resume}: it started chat ${chat}, which the session follows.`,
      });
    }
    const modelId = init?.model ?? options.model;
    out.push({
      type: 'stream-start',
      ...(modelId === undefined ? {} : { modelId }),
      ...(warnings.length === 0 ? {} : { warnings }),
    });
  }

  function raw(out: Part[], event: CanonicalEvent): void {
    start(out);
    out.push({ type: 'raw', rawValue: event });
  }

  function closeBlock(out: Part[]): void {
    if (block === undefined) return;
    out.push({ type: block.kind === 'text' ? 'text-end' : 'reasoning-end', id: block.id });
    block = undefined;
  }

  function closeStep(out: Part[], finishReason: FinishReason, harnessMetadata?: HarnessV1Metadata): void {
    closeBlock(out);
    const modelCallId = step.modelCallId;
    const metadata =
      harnessMetadata ?? (modelCallId === undefined ? undefined : { [harnessId]: { modelCallId } });
    out.push({
      type: 'finish-step',
      finishReason,
      usage: unknownUsage(),
      ...(metadata === undefined ? {} : { harnessMetadata: metadata }),
    });
    step = newModelStep();
  }

  /** Opens a new step when the model writes again after its tool calls (see the mapping above). */
  function modelOutput(out: Part[], modelCallId: string | undefined): void {
    start(out);
    if (startsNewStep(step, modelCallId, openCalls.size))
      closeStep(out, { unified: 'tool-calls', raw: undefined });
    noteModelOutput(step, modelCallId);
  }

  function delta(out: Part[], kind: 'text' | 'reasoning', text: string, modelCallId?: string): void {
    modelOutput(out, modelCallId);
    if (block?.kind !== kind) {
      closeBlock(out);
      blockCounts[kind] += 1;
      block = { kind, id: `${kind}-${blockCounts[kind]}` };
      out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id: block.id });
    }
    out.push({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', id: block.id, delta: text });
  }

  function toolCall(
    out: Part[],
    call: Pick<ToolCallEvent, 'toolCallId' | 'toolName' | 'providerToolName'>,
    input: unknown,
  ): OpenCall {
    closeBlock(out);
    step.hadToolCall = true;
    const named = describeCall(call, input);
    const open = { toolName: named.toolName, dynamic: named.dynamic };
    out.push({
      type: 'tool-call',
      toolCallId: call.toolCallId,
      toolName: named.toolName,
      input: JSON.stringify(jsonValue(named.input)),
      providerExecuted: true,
      nativeName: call.providerToolName,
      ...(named.dynamic ? { dynamic: true } : {}),
    });
    return open;
  }

  function toolResult(out: Part[], result: ToolResultEvent): void {
    let open = openCalls.get(result.toolCallId);
    if (open === undefined) {
      if (completed.has(result.toolCallId)) {
        raw(out, result);
        return;
      }
      // The AI SDK pairs a result with its call, so a completion whose start never came opens the call first.
      open = toolCall(out, result, result.input ?? {});
    }
    complete(result.toolCallId);
    step.hadToolResult = true;
    out.push({
      type: 'tool-result',
      toolCallId: result.toolCallId,
      toolName: open.toolName,
      result: jsonValue(result.output) as NonNullable<unknown> as Extract<
        Part,
        { type: 'tool-result' }
      >['result'],
      ...(result.isError ? { isError: true } : {}),
      ...(open.dynamic ? { dynamic: true } : {}),
      providerMetadata: {
        [harnessId]: defined({ status: result.status, durationMs: result.durationMs }) as Record<
          string,
          never
        >,
      },
    });
  }

  function status(out: Part[], event: StatusEvent): void {
    if (event.kind !== 'compact-boundary') {
      raw(out, event);
      return;
    }
    start(out);
    closeBlock(out);
    const when =
      event.timestampMs === undefined
        ? {}
        : { harnessMetadata: { [harnessId]: { timestampMs: event.timestampMs } } };
    out.push({ type: 'compaction', trigger: 'auto', summary: '', ...when });
  }

  /** Maps `event`; `false` for an event the mapping does not cover, which then goes out as `raw`. */
  function route(out: Part[], event: CanonicalEvent): boolean {
    switch (event.type) {
      case 'stream-start':
        if (started) return false;
        start(out, event);
        return true;
      case 'text-delta':
        if (event.text !== '') delta(out, 'text', event.text, event.modelCallId);
        return true;
      case 'reasoning-delta':
        if (event.text !== '') delta(out, 'reasoning', event.text);
        return true;
      case 'reasoning-end':
        if (block?.kind !== 'reasoning') return false;
        closeBlock(out);
        return true;
      case 'tool-call':
        if (openCalls.has(event.toolCallId) || completed.has(event.toolCallId)) return false;
        modelOutput(out, event.modelCallId);
        openCalls.open(event.toolCallId, toolCall(out, event, event.input));
        return true;
      case 'tool-result':
        start(out);
        toolResult(out, event);
        return true;
      case 'status':
        status(out, event);
        return true;
      default:
        return false;
    }
  }

  function turnMetadata(finish: FinishEvent | undefined, chatId: string | undefined): HarnessV1Metadata {
    const fields = defined({
      chatId,
      requestId: finish?.requestId,
      durationMs: finish?.durationMs,
      durationApiMs: finish?.durationApiMs,
    });
    return { [harnessId]: fields as Record<string, never> };
  }

  return {
    map(event) {
      const out: Part[] = [];
      if (!route(out, event)) raw(out, event);
      return out;
    },
    end(ending) {
      const out: Part[] = [];
      start(out);
      closeBlock(out);
      for (const [toolCallId, open] of openCalls.entries()) {
        out.push({
          type: 'tool-result',
          toolCallId,
          toolName: open.toolName,
          result: UNFINISHED_TOOL_ERROR_TEXT,
          isError: true,
          ...(open.dynamic ? { dynamic: true } : {}),
          providerMetadata: { [harnessId]: { status: 'pending' } },
        });
      }
      // Their ids are gone, so no result can end them; one part says how many, rather than none.
      const forgotten = openCalls.forgotten;
      if (forgotten > 0) {
        out.push({
          type: 'raw',
          rawValue: {
            type: FORGOTTEN_TOOL_CALLS_RAW_TYPE,
            count: forgotten,
            text: forgottenToolCallsText(forgotten),
          },
        });
      }
      openCalls.clear();
      if (!ending.ok) {
        closeStep(out, { unified: 'error', raw: 'error' });
        out.push({ type: 'error', error: ending.error });
        return out;
      }
      const finishReason: FinishReason = { unified: 'stop', raw: ending.finish?.finishReason };
      const harnessMetadata = turnMetadata(ending.finish, ending.chatId);
      const totalUsage: HarnessUsage = cursorUsage(ending.finish?.usage);
      // `generate()` reports the last step's metadata and `stream()` the finish's: both carry the turn's.
      closeStep(out, finishReason, harnessMetadata);
      out.push({ type: 'finish', finishReason, totalUsage, harnessMetadata });
      return out;
    },
  };
}
