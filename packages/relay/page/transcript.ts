/**
 * The page's transcript, as `cursor-stream render` shows a run: the prompt, assistant text as it streams, reasoning
 * folded to one line, each tool call as one line that turns from running to done or failed, and how the run ended
 * (with the agent's or the relay's sentence saying why, when it failed). Pure, so it is tested without a browser.
 *
 * Its items change in place as a run goes on (a tool line turns from running to done), where the transcript of
 * `@cursor-stream/inspect/transcript` is text that only grows; what both say alike (tool labels, tool failures, the
 * reasoning preview) comes from the core's tools entry and from that package.
 */

import { usageCost } from '@cursor-stream/core/cost';
import { type CanonicalEvent, type Usage, unreachable } from '@cursor-stream/core/events';
import { foldToOneLine, formatCount, truncate } from '@cursor-stream/core/text';
import { toolArgumentDetails, toolErrorText, toolLabel, toolOutcomeDetails } from '@cursor-stream/core/tools';

/** One line or block of the transcript. */
export type TranscriptItem =
  | { kind: 'prompt'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | {
      kind: 'tool';
      toolCallId: string;
      label: string;
      /** The arguments the label does not show, as `key=value` pairs; empty when there are none. */
      details: string;
      /** The facts of the outcome (`exit 0`, `lines 1-54 of 54`); empty while running or when there are none. */
      outcome: string;
      state: 'running' | 'done' | 'failed';
      durationMs: number | undefined;
      errorText: string | undefined;
    }
  | { kind: 'ending'; state: 'succeeded' | 'failed' | 'incomplete'; text: string };

/** A transcript being built; {@link applyEvent} changes it in place. */
export interface Transcript {
  items: TranscriptItem[];
  /** Index of each tool call's item. */
  tools: Map<string, number>;
  /** The latest error sentence, for the ending of a failed run. */
  lastError: string | undefined;
  /** The model the run's start named. */
  model: string | undefined;
  /** The tokens the run's result reported. */
  usage: Usage | undefined;
}

/** An empty transcript. */
export function createTranscript(): Transcript {
  return { items: [], tools: new Map(), lastError: undefined, model: undefined, usage: undefined };
}

/** The longest tool label, in characters: the tool's name and what the call is about, as `render` shows it. */
const TOOL_LABEL_LENGTH = 100;

function last(transcript: Transcript): TranscriptItem | undefined {
  return transcript.items.at(-1);
}

/** Adds an item; returns its index. */
function add(transcript: Transcript, item: TranscriptItem): number {
  transcript.items.push(item);
  return transcript.items.length - 1;
}

function appendText(transcript: Transcript, kind: 'text' | 'reasoning', text: string): number {
  const tail = last(transcript);
  if (tail?.kind === kind) {
    tail.text += text;
    return transcript.items.length - 1;
  }
  return add(transcript, { kind, text });
}

function endingOf(
  transcript: Transcript,
  event: Extract<CanonicalEvent, { type: 'finish' }>,
): TranscriptItem {
  const seconds = event.durationMs === undefined ? '' : ` in ${(event.durationMs / 1000).toFixed(1)} s`;
  if (event.isError) {
    return {
      kind: 'ending',
      state: 'failed',
      text: `failed: ${transcript.lastError ?? event.text ?? 'the agent reported an error'}`,
    };
  }
  if (event.finishReason === 'incomplete')
    return { kind: 'ending', state: 'incomplete', text: 'ended without a result' };
  return { kind: 'ending', state: 'succeeded', text: `done${seconds}` };
}

/** Applies one event; returns the indexes of the items it added or changed. */
export function applyEvent(transcript: Transcript, event: CanonicalEvent): number[] {
  switch (event.type) {
    case 'user-message':
      return [add(transcript, { kind: 'prompt', text: event.text })];
    case 'text-delta':
      return event.text === '' ? [] : [appendText(transcript, 'text', event.text)];
    case 'reasoning-delta':
      return event.text === '' ? [] : [appendText(transcript, 'reasoning', event.text)];
    case 'tool-call': {
      if (transcript.tools.has(event.toolCallId)) return [];
      const label = toolLabel(event.toolName, event.input, TOOL_LABEL_LENGTH);
      const at = add(transcript, {
        kind: 'tool',
        toolCallId: event.toolCallId,
        label,
        details: toolArgumentDetails(event.toolName, event.input),
        outcome: '',
        state: 'running',
        durationMs: undefined,
        errorText: undefined,
      });
      transcript.tools.set(event.toolCallId, at);
      return [at];
    }
    case 'tool-result': {
      let at = transcript.tools.get(event.toolCallId);
      if (at === undefined) {
        at = add(transcript, {
          kind: 'tool',
          toolCallId: event.toolCallId,
          // A completion whose start was not seen may repeat the call's arguments.
          label: toolLabel(event.toolName, event.input, TOOL_LABEL_LENGTH),
          details: toolArgumentDetails(event.toolName, event.input),
          outcome: '',
          state: 'running',
          durationMs: undefined,
          errorText: undefined,
        });
        transcript.tools.set(event.toolCallId, at);
      }
      const item = transcript.items[at];
      if (item?.kind === 'tool') {
        item.state = event.isError ? 'failed' : 'done';
        item.durationMs = event.durationMs;
        item.errorText = event.isError ? toolErrorText(event) : undefined;
        item.outcome = event.isError ? '' : toolOutcomeDetails(event.output, false);
      }
      return [at];
    }
    case 'error':
      transcript.lastError = event.message;
      return [];
    case 'finish':
      if (event.usage !== undefined) transcript.usage = event.usage;
      return [add(transcript, endingOf(transcript, event))];
    case 'stream-start':
      if (event.model !== undefined) transcript.model = event.model;
      return [];
    // Not shown: the page is the conversation and how it ended.
    case 'reasoning-end':
    case 'status':
    case 'interaction':
    case 'usage':
    case 'plan':
    case 'unknown':
    case 'invalid-line':
      return [];
    default:
      return unreachable(event) ?? [];
  }
}

/** The text of a tool line: a mark, the label, and its duration or why it failed. */
export function toolLine(item: Extract<TranscriptItem, { kind: 'tool' }>): string {
  const mark = item.state === 'running' ? '…' : item.state === 'done' ? '✓' : '✗';
  const duration = item.durationMs === undefined ? '' : ` (${item.durationMs} ms)`;
  const why = item.errorText === undefined ? '' : `: ${truncate(foldToOneLine(item.errorText), 200)}`;
  return `${mark} ${item.label}${duration}${why}`;
}

/** What a run used, for a person: its tokens by kind, and its cost at the built-in prices or why it is unknown. */
export interface UsageFacts {
  /** `12,345 in · 678 out · 90,000 cache read · 0 cache write` */
  tokens: string;
  /** `$0.0185 at Composer 2.5 prices`, or `cost unknown: no price for <model>` */
  cost: string;
  /** Whether the cost is known. */
  priced: boolean;
}

/** The run's usage as {@link UsageFacts}; `undefined` before its result reported any. */
export function usageFacts(transcript: Transcript): UsageFacts | undefined {
  const usage = transcript.usage;
  if (usage === undefined) return undefined;
  const parts: [number | undefined, string][] = [
    [usage.inputTokens, 'in'],
    [usage.outputTokens, 'out'],
    [usage.cacheReadTokens, 'cache read'],
    [usage.cacheWriteTokens, 'cache write'],
  ];
  const tokens = parts
    .filter(([count]) => count !== undefined)
    .map(([count, what]) => `${formatCount(count ?? 0)} ${what}`)
    .join(' · ');
  const cost = usageCost(usage, transcript.model);
  const model =
    transcript.model === undefined ? 'a model not named' : truncate(foldToOneLine(transcript.model), 60);
  return cost === null
    ? { tokens, cost: `cost unknown: no price for ${model}`, priced: false }
    : {
        tokens,
        cost: `$${cost < 1 ? cost.toFixed(4) : cost.toFixed(2)} at ${model} prices`,
        priced: true,
      };
}
