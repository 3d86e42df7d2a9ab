/**
 * Canonical events to the AI SDK's UI message stream chunks, one event at a time. A stream of events becomes one
 * assistant message: text and reasoning as blocks with stable ids, each tool call as one tool part that ends with
 * its output or its error, and the run's failure as the `error` chunk, sent last so that a `useChat` client, which
 * stops reading at an error, has every part first.
 */

import {
  type CanonicalEvent,
  type FinishEvent,
  type ToolCallEvent,
  type ToolResultEvent,
  unreachable,
} from '@cursor-stream/core/events';
import { toolErrorText } from '@cursor-stream/core/tools';
import type { FinishReason, UIMessageChunk } from 'ai';
import { createCompletedCalls } from './completed-calls.ts';
import { type ModelStep, newModelStep, noteModelOutput, startsNewStep } from './model-steps.ts';
import { createOpenCalls, FORGOTTEN_TOOL_CALLS_CHUNK_TYPE, forgottenToolCallsText } from './open-calls.ts';

/** Options of {@link createUIMessageEncoder} and {@link toUIMessageStream}. */
export interface UIMessageEncoderOptions {
  /** The assistant message's id, sent in the `start` chunk; the client generates one when absent. */
  messageId?: string;
  /**
   * Send tool calls as dynamic tools (`dynamic-tool` parts named by `toolName`) rather than as `tool-${toolName}`
   * parts. Use it when the front end's message type declares no tools.
   *
   * @defaultValue false
   */
  dynamicTools?: boolean;
  /**
   * Send the model's reasoning as `reasoning-*` chunks.
   *
   * @defaultValue true
   */
  reasoning?: boolean;
}

/** The error text of a tool call still open when its session ended. */
export const UNFINISHED_TOOL_ERROR_TEXT = 'The session ended before the tool call completed.';

/** Turns canonical events into UI message stream chunks; see {@link createUIMessageEncoder}. */
export interface UIMessageEncoder {
  /** The chunks for one event (the first call also gives `start`). */
  encode(event: CanonicalEvent): UIMessageChunk[];
  /** Closes what is open and gives the last chunks: the run's `error`, if it failed, then `finish`. */
  end(): UIMessageChunk[];
}

type BlockKind = 'text' | 'reasoning';

const FINISH_REASONS: Record<FinishEvent['finishReason'], FinishReason> = {
  stop: 'stop',
  error: 'error',
  incomplete: 'other',
};

/** Error messages of a run the `error` chunk joins, at most: a run that errs in a loop still gives one short text. */
const MAX_ERRORS = 3;

/**
 * Creates an encoder of one assistant message. Block ids are `text-1`, `reasoning-1`, `text-2`, ... in the order the
 * blocks open, so the same events always give the same chunks (a relay replaying a log sends the same ids again).
 *
 * Mapping: each model call's output in a `start-step`/`finish-step` pair, cut as the harness bridge cuts steps (a new
 * one when, after tool calls, the model writes again under another model call id, or once every call completed where
 * the log names none); `text-delta` → `text-start`/`text-delta`/`text-end`; `reasoning-delta`/`reasoning-end` →
 * `reasoning-start`/`reasoning-delta`/`reasoning-end`; `tool-call` → `tool-input-available`; `tool-result` →
 * `tool-output-available`, or `tool-output-error` with {@link toolErrorText} when it failed; a call still open at
 * its session's `finish` → `tool-output-error`; `error` events and a failed `finish` → one `error` chunk at the end;
 * then `finish` (`stop`, `error`, or `other` for an incomplete session). Other events give no chunk.
 *
 * A session keeps its newest 1024 open calls (core's `MAX_REMEMBERED_CALLS`), so that calls that never complete
 * hold bounded memory and its end gives a bounded number of chunks: it ends the calls it kept, and says how many it
 * forgot in one `data-forgotten-tool-calls` chunk (`data: { count, text }`); their parts keep their input.
 */
export function createUIMessageEncoder(options: UIMessageEncoderOptions = {}): UIMessageEncoder {
  const dynamic = options.dynamicTools === true ? { dynamic: true } : {};
  // Only the ids: a call's end needs nothing else.
  const openTools = createOpenCalls<undefined>();
  const completed = createCompletedCalls();
  let started = false;
  let ended = false;
  let block: { kind: BlockKind; id: string } | undefined;
  /** The open step; `undefined` between steps. */
  let step: ModelStep | undefined;
  const blockCounts: Record<BlockKind, number> = { text: 0, reasoning: 0 };
  /** The run's error messages, each once, in order: the first is often the cause, the last what it came to. */
  const errors: string[] = [];
  let finishReason: FinishReason | undefined;

  function start(out: UIMessageChunk[]): void {
    if (started) return;
    started = true;
    out.push(
      options.messageId === undefined ? { type: 'start' } : { type: 'start', messageId: options.messageId },
    );
  }

  function closeBlock(out: UIMessageChunk[]): void {
    if (block === undefined) return;
    out.push({ type: block.kind === 'text' ? 'text-end' : 'reasoning-end', id: block.id });
    block = undefined;
  }

  /** The open step, opened with `start-step` when none is. */
  function openStep(out: UIMessageChunk[]): ModelStep {
    if (step === undefined) {
      step = newModelStep();
      out.push({ type: 'start-step' });
    }
    return step;
  }

  function closeStep(out: UIMessageChunk[]): void {
    closeBlock(out);
    if (step === undefined) return;
    out.push({ type: 'finish-step' });
    step = undefined;
  }

  /** The model writes (text, reasoning, a tool call): in a new step when it starts one (see `startsNewStep`). */
  function modelOutput(out: UIMessageChunk[], modelCallId: string | undefined): void {
    if (step !== undefined && startsNewStep(step, modelCallId, openTools.size)) closeStep(out);
    noteModelOutput(openStep(out), modelCallId);
  }

  function delta(out: UIMessageChunk[], kind: BlockKind, text: string, modelCallId?: string): void {
    modelOutput(out, modelCallId);
    if (block?.kind !== kind) {
      closeBlock(out);
      blockCounts[kind] += 1;
      block = { kind, id: `${kind}-${blockCounts[kind]}` };
      out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id: block.id });
    }
    out.push({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', id: block.id, delta: text });
  }

  function toolInput(
    out: UIMessageChunk[],
    call: Pick<ToolCallEvent, 'toolCallId' | 'toolName'>,
    input: unknown,
  ) {
    closeBlock(out);
    openStep(out).hadToolCall = true;
    out.push({
      type: 'tool-input-available',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      // A call whose arguments the log does not give has none: the AI SDK's model messages need an object.
      input: input ?? {},
      providerExecuted: true,
      ...dynamic,
    });
  }

  function toolOutput(out: UIMessageChunk[], result: ToolResultEvent): void {
    // The AI SDK attaches an output to an existing tool part, so a result without its call opens the part first,
    // with the arguments the result repeats, else none: the chunk's `input` is required (`{}` as the harness sends).
    // A call's part takes one output: a completion sent again leaves the first standing.
    if (completed.has(result.toolCallId)) return;
    if (!openTools.has(result.toolCallId)) toolInput(out, result, result.input ?? {});
    openTools.close(result.toolCallId);
    completed.add(result.toolCallId);
    openStep(out).hadToolResult = true;
    out.push(
      result.isError
        ? {
            type: 'tool-output-error',
            toolCallId: result.toolCallId,
            errorText: toolErrorText(result),
            ...dynamic,
          }
        : // `ai`'s chunk schema requires an output: an event built without one (the normalizer gives `null`) says none.
          {
            type: 'tool-output-available',
            toolCallId: result.toolCallId,
            output: result.output ?? null,
            ...dynamic,
          },
    );
  }

  function closeSession(out: UIMessageChunk[]): void {
    closeBlock(out);
    for (const [toolCallId] of openTools.entries()) {
      out.push({ type: 'tool-output-error', toolCallId, errorText: UNFINISHED_TOOL_ERROR_TEXT, ...dynamic });
    }
    // Their ids are gone, so their parts cannot be ended; one chunk says how many, rather than none.
    const forgotten = openTools.forgotten;
    if (forgotten > 0) {
      out.push({
        type: FORGOTTEN_TOOL_CALLS_CHUNK_TYPE,
        data: { count: forgotten, text: forgottenToolCallsText(forgotten) },
      });
    }
    openTools.clear();
    // Call ids are a session's own: the next session may use them again, for calls of its own.
    completed.clear();
    closeStep(out);
  }

  function finish(out: UIMessageChunk[], event: FinishEvent): void {
    closeSession(out);
    // One message for the whole log: a session that failed leaves it failed, as its error chunk says.
    if (finishReason !== 'error') finishReason = FINISH_REASONS[event.finishReason];
    // A run that failed, or ended without a result after the agent said why (its `failure`), shows why.
    if (errors.length > 0) return;
    if (event.isError) addError(event.text ?? event.failure?.message ?? 'The agent reported an error.');
    else if (event.failure !== undefined) addError(event.failure.message);
  }

  function addError(message: string): void {
    if (errors.length < MAX_ERRORS && !errors.includes(message)) errors.push(message);
  }

  function route(out: UIMessageChunk[], event: CanonicalEvent): void {
    switch (event.type) {
      case 'text-delta':
        if (event.text !== '') delta(out, 'text', event.text, event.modelCallId);
        return;
      case 'reasoning-delta':
        if (options.reasoning !== false && event.text !== '') delta(out, 'reasoning', event.text);
        return;
      case 'reasoning-end':
        if (block?.kind === 'reasoning') closeBlock(out);
        return;
      case 'tool-call':
        // A repeated start of a call that is open or completed adds nothing: it would reopen the call's part.
        if (openTools.has(event.toolCallId) || completed.has(event.toolCallId)) return;
        modelOutput(out, event.modelCallId);
        toolInput(out, event, event.input);
        openTools.open(event.toolCallId, undefined);
        return;
      case 'tool-result':
        toolOutput(out, event);
        return;
      case 'error':
        addError(event.message);
        return;
      case 'finish':
        finish(out, event);
        return;
      // No chunk: the UI message stream has no part for them.
      case 'stream-start':
      case 'user-message':
      case 'status':
      case 'interaction':
      case 'usage':
      case 'plan':
      case 'unknown':
      case 'invalid-line':
        return;
      default:
        unreachable(event);
    }
  }

  return {
    encode(event) {
      const out: UIMessageChunk[] = [];
      if (ended) return out;
      start(out);
      route(out, event);
      return out;
    },
    end() {
      const out: UIMessageChunk[] = [];
      if (ended) return out;
      ended = true;
      start(out);
      closeSession(out);
      if (errors.length > 0) out.push({ type: 'error', errorText: errors.join('\n') });
      out.push(finishReason === undefined ? { type: 'finish' } : { type: 'finish', finishReason });
      return out;
    },
  };
}
