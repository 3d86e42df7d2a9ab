/**
 * A session's timeline: reasoning phases, model turns (runs of assistant text) and each tool call as a bar from its
 * start to its completion, parallel calls stacked on lanes of their own, failures marked.
 *
 * Everything is placed on one clock: the records' `timestamp_ms`, the time the CLI wrote each record. The tool call's
 * own `startedAtMs`/`completedAtMs` come from the clock of whatever ran the tool, which real logs show seconds away
 * from the CLI's (3.8 s in one 2026 capture): placed by it, a read was drawn after the text that followed it. So a
 * tool bar starts at its `started` record's time and ends at its `completed` record's; the tool's own times only give
 * a bar its length when the completion has no time of its own, and its place when the log has no `timestamp_ms` at
 * all. An event whose record has no time takes the time of the last one that had, and a session with no time at all
 * is laid out by the order of its events.
 */

import {
  type CanonicalEvent,
  eventTraits,
  type ToolCallEvent,
  type ToolResultEvent,
  unreachable,
} from '@cursor-stream/core/events';
import type { RecordTimes } from '@cursor-stream/core/normalize';
import { formatDuration, plural } from '@cursor-stream/core/text';
import { toolLabel } from '@cursor-stream/core/tools';
import { escapeHtml } from './html.ts';

/** A point of the session: its clock time when known, and the event's position in the session. */
interface Stamp {
  ms: number | undefined;
  pos: number;
}

type BarKind = 'reasoning' | 'model' | 'tool';
type BarState = 'ok' | 'failed' | 'pending' | 'orphan';

interface Bar {
  kind: BarKind;
  start: Stamp;
  end: Stamp | undefined;
  state: BarState;
  /** Shown on the bar. */
  label: string;
  /** Shown on hover. */
  detail: string;
}

/** Builds a session's timeline from its events. */
export interface TimelineBuilder {
  push(event: CanonicalEvent, times: RecordTimes | undefined): void;
  /** The timeline as HTML; `toolCalls` and `failedCalls` count the tool bars drawn. */
  html(): string;
}

const TOOL_LABEL_CHARS = 80;

/**
 * Calls not drawn whose ids are kept to know their completions by. Past it, a completion may be counted twice; the
 * bound keeps a session of millions of calls from holding all their ids.
 */
const MAX_DROPPED_CALLS_KNOWN = 65_536;

/** Creates a timeline builder drawing at most `maxBars` tool bars and `maxBars` other bars. */
export function createTimeline(maxBars: number): TimelineBuilder {
  const bars: Bar[] = [];
  const openCalls = new Map<string, Bar>();
  /** Calls past the bars drawn, so that their completions are not counted again as completions without a call. */
  const droppedCalls = new Set<string>();
  const dropped = { tool: 0, other: 0 };
  let counts = { tool: 0, other: 0 };
  let pos = 0;
  let lastMs: number | undefined;
  let reasoning: Bar | undefined;
  let turn: Bar | undefined;

  function add(bar: Bar): Bar | undefined {
    const group = bar.kind === 'tool' ? 'tool' : 'other';
    if (counts[group] >= maxBars) {
      dropped[group] += 1;
      return undefined;
    }
    counts = { ...counts, [group]: counts[group] + 1 };
    bars.push(bar);
    return bar;
  }

  function closeReasoning(at: Stamp): void {
    if (reasoning !== undefined) reasoning.end = at;
    reasoning = undefined;
  }

  function closeTurn(): void {
    turn = undefined;
  }

  /** The tool's own start of each open call's bar, to measure its length on the tool's clock when nothing else can. */
  const toolStarts = new Map<Bar, number>();

  function toolCall(event: ToolCallEvent, at: Stamp, times: RecordTimes | undefined): void {
    if (openCalls.has(event.toolCallId)) return;
    const start = { ms: at.ms ?? times?.startedAtMs, pos: at.pos };
    const bar = add({
      kind: 'tool',
      start,
      end: undefined,
      state: 'pending',
      label: toolLabel(event.toolName, event.input, TOOL_LABEL_CHARS),
      detail: '',
    });
    if (bar !== undefined) openCalls.set(event.toolCallId, bar);
    else if (droppedCalls.size < MAX_DROPPED_CALLS_KNOWN) droppedCalls.add(event.toolCallId);
    if (bar !== undefined && times?.startedAtMs !== undefined) toolStarts.set(bar, times.startedAtMs);
  }

  /** Where a call's bar ends on the records' clock: its completion's time, else its start plus the tool's duration. */
  function endOf(bar: Bar, at: Stamp, times: RecordTimes | undefined): number | undefined {
    if (times?.timestampMs !== undefined) return times.timestampMs;
    const toolStart = toolStarts.get(bar);
    const completed = times?.completedAtMs;
    if (
      bar.start.ms !== undefined &&
      toolStart !== undefined &&
      completed !== undefined &&
      completed >= toolStart
    )
      return bar.start.ms + (completed - toolStart);
    return at.ms ?? completed;
  }

  function toolResult(event: ToolResultEvent, at: Stamp, times: RecordTimes | undefined): void {
    const state: BarState = event.isError ? 'failed' : 'ok';
    const bar = openCalls.get(event.toolCallId);
    openCalls.delete(event.toolCallId);
    const endMs = bar === undefined ? (at.ms ?? times?.completedAtMs) : endOf(bar, at, times);
    if (bar !== undefined) toolStarts.delete(bar);
    const detail = event.status;
    // The completion of a call not drawn: counted once, with its start.
    if (bar === undefined && droppedCalls.delete(event.toolCallId)) return;
    if (bar === undefined) {
      // A completion without its start: drawn from where its duration says it began, marked as such.
      const startMs =
        endMs === undefined || event.durationMs === undefined ? endMs : endMs - event.durationMs;
      add({
        kind: 'tool',
        start: { ms: startMs, pos: at.pos },
        end: { ms: endMs, pos: at.pos },
        state: event.isError ? 'failed' : 'orphan',
        label: toolLabel(event.toolName, undefined, TOOL_LABEL_CHARS),
        detail: `${detail} · no matching call`,
      });
      return;
    }
    bar.end = { ms: endMs, pos: at.pos };
    bar.state = state;
    bar.detail = detail;
  }

  function push(event: CanonicalEvent, times: RecordTimes | undefined): void {
    if (times?.timestampMs !== undefined) lastMs = times.timestampMs;
    const at: Stamp = { ms: times?.timestampMs ?? lastMs, pos: pos++ };
    if (!eventTraits(event.type).reasoning) closeReasoning(at);
    if (event.type !== 'text-delta') closeTurn();
    switch (event.type) {
      case 'reasoning-delta':
        reasoning ??= add({
          kind: 'reasoning',
          start: at,
          end: at,
          state: 'ok',
          label: 'thinking',
          detail: 'reasoning',
        });
        if (reasoning !== undefined) reasoning.end = at;
        return;
      case 'reasoning-end':
        closeReasoning(at);
        return;
      case 'text-delta':
        turn ??= add({
          kind: 'model',
          start: at,
          end: at,
          state: 'ok',
          label: 'text',
          detail: 'assistant text',
        });
        if (turn !== undefined) turn.end = at;
        return;
      case 'tool-call':
        toolCall(event, at, times);
        return;
      case 'tool-result':
        toolResult(event, at, times);
        return;
      case 'finish':
        for (const bar of openCalls.values()) {
          bar.end = at;
          bar.detail = 'never completed';
        }
        openCalls.clear();
        return;
      // Not drawn: the bars are the model's work and the tools'.
      case 'stream-start':
      case 'user-message':
      case 'error':
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

  return { push, html: () => timelineHtml(bars, dropped) };
}

/** Where bars sit on the axis: clock times when the session has any, else positions. */
function axisOf(bars: readonly Bar[]) {
  const known = bars.flatMap((bar) => [bar.start.ms, bar.end?.ms]).filter((ms) => ms !== undefined);
  const timed = known.length > 0;
  const first = timed ? Math.min(...known) : 0;
  const value = (stamp: Stamp | undefined, fallback: Stamp): number =>
    timed ? ((stamp ?? fallback).ms ?? first) : (stamp ?? fallback).pos;
  const points = bars.flatMap((bar) => [value(bar.start, bar.start), value(bar.end, bar.start)]);
  const min = Math.min(...points);
  const max = Math.max(...points);
  return { timed, min, span: max > min ? max - min : 1, value };
}

/** Assigns tool bars to lanes so that bars that overlap in time sit on different lanes. */
export function packLanes(items: ReadonlyArray<{ from: number; to: number }>): number[] {
  const laneEnds: number[] = [];
  return items.map(({ from, to }) => {
    let lane = laneEnds.findIndex((end) => end < from);
    if (lane === -1) lane = laneEnds.length;
    laneEnds[lane] = to;
    return lane;
  });
}

function percent(value: number): string {
  return `${Math.round(value * 100) / 100}%`;
}

/** Where a bar's label goes: inside the bar, or beside it (right or left) when the lanes leave room. */
type LabelSide = 'inside' | 'right' | 'left';

/** A bar placed on the axis, in percent of the track. */
interface PlacedBar {
  bar: Bar;
  left: number;
  width: number;
  side: LabelSide;
  /** The share of the track the bar and its label take, for lane packing. */
  from: number;
  to: number;
}

/** Labels sit beside the bars only while there are few: each then needs room of its own on its lane. */
const LABELS_BESIDE_MAX_BARS = 60;

/** A label's width in percent of a track about a thousand pixels wide. */
function labelPercent(label: string): number {
  return (label.length * 6.6 + 18) / 10;
}

function place(
  bar: Bar,
  from: number,
  to: number,
  axis: ReturnType<typeof axisOf>,
  beside: boolean,
): PlacedBar {
  const left = ((from - axis.min) / axis.span) * 100;
  const width = ((to - from) / axis.span) * 100;
  if (!beside) return { bar, left, width, side: 'inside', from: left, to: left + width };
  const room = labelPercent(bar.state === 'failed' ? `✗ ${bar.label}` : bar.label);
  return left + width + room <= 100
    ? { bar, left, width, side: 'right', from: left, to: left + width + room }
    : { bar, left, width, side: 'left', from: left - room, to: left + width };
}

function barHtml({ bar, left, width, side }: PlacedBar, axis: ReturnType<typeof axisOf>): string {
  const length = axis.timed ? ` · ${formatDuration((width / 100) * axis.span)}` : '';
  const title = escapeHtml(`${bar.label} · ${bar.detail}${length}`);
  const label = escapeHtml(`${bar.state === 'failed' ? '✗ ' : ''}${bar.label}`);
  // Placed by the page's script from data attributes: the page's policy allows no inline style.
  const box = `<div class="bar ${bar.kind} ${bar.state}" data-left="${percent(left)}" data-width="${percent(width)}" title="${title}">`;
  if (side === 'inside')
    return `${box}<span>${bar.kind === 'tool' || bar.kind === 'reasoning' ? label : ''}</span></div>`;
  const at =
    side === 'right'
      ? `data-left="calc(${percent(left + width)} + 4px)"`
      : `data-right="calc(${percent(100 - left)} + 4px)"`;
  return `${box}</div><span class="bar-label ${bar.state}" ${at} title="${title}">${label}</span>`;
}

function laneHtml(label: string, bars: readonly string[]): string {
  return `<div class="lane"><div class="lane-label">${escapeHtml(label)}</div><div class="track">${bars.join('')}</div></div>`;
}

function axisHtml(axis: ReturnType<typeof axisOf>): string {
  if (!axis.timed) return '<div class="axis untimed">in log order (the records carry no timestamps)</div>';
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (share) => `<span data-left="${percent(share * 100)}">${formatDuration(share * axis.span)}</span>`,
  );
  return `<div class="axis"><div class="lane-label"></div><div class="ticks">${ticks.join('')}</div></div>`;
}

function timelineHtml(bars: readonly Bar[], dropped: { tool: number; other: number }): string {
  if (bars.length === 0) return '';
  const axis = axisOf(bars);
  const beside = bars.filter((bar) => bar.kind === 'tool').length <= LABELS_BESIDE_MAX_BARS;
  const placed = bars.map((bar) => {
    const from = axis.value(bar.start, bar.start);
    return place(
      bar,
      from,
      Math.max(from, axis.value(bar.end, bar.start)),
      axis,
      beside && bar.kind === 'tool',
    );
  });
  const lanes: string[] = [];
  for (const kind of ['reasoning', 'model'] as const) {
    const ofKind = placed.filter(({ bar }) => bar.kind === kind);
    if (ofKind.length > 0)
      lanes.push(
        laneHtml(
          kind,
          ofKind.map((item) => barHtml(item, axis)),
        ),
      );
  }
  const tools = placed.filter(({ bar }) => bar.kind === 'tool').sort((a, b) => a.from - b.from);
  const toolLanes: string[][] = [];
  const laneOf = packLanes(tools);
  tools.forEach((tool, index) => {
    const lane = laneOf[index] ?? 0;
    const bars = toolLanes[lane] ?? [];
    bars.push(barHtml(tool, axis));
    toolLanes[lane] = bars;
  });
  toolLanes.forEach((lane, index) => {
    lanes.push(laneHtml(index === 0 ? 'tools' : '', lane));
  });
  const cut = dropped.tool + dropped.other;
  const note =
    cut === 0
      ? ''
      : `<p class="note">${plural(cut, 'more bar')} not drawn (${plural(dropped.tool, 'tool call')})</p>`;
  return `<div class="timeline">${axisHtml(axis)}${lanes.join('')}</div>${note}`;
}
