/**
 * One session of the report: its facts (status, model, duration, tokens, why it failed), its timeline, and its
 * transcript as `render` writes it, with each tool call's arguments and output in expandable blocks. Built event by
 * event within the report's limits, so a session's section has a bounded size whatever its length.
 */

import type { CanonicalEvent, RecordTimes, SessionSummary } from '@cursor-stream/core/normalize';
import { isFailedStatus, type SessionFacts, trackSessionFacts } from '@cursor-stream/core/sessions';
import {
  escapeControlsKeepingLines,
  foldToOneLine,
  formatBytes,
  formatCount,
  formatDuration,
  plural,
  truncate,
} from '@cursor-stream/core/text';
import { renderMarkdown } from '../markdown/index.ts';
import { createPalette } from '../terminal/index.ts';
import { createTranscript } from '../transcript/index.ts';
import { ansiToHtml, escapeHtml } from './html.ts';
import { INDEX_CELL_CHARS, type ReportLimits } from './report-limits.ts';
import { hasContent, valueDetails } from './shown-value.ts';
import { createTimeline } from './timeline.ts';

/** What the index lists of a session. */
export interface SessionRow {
  /** The section's anchor number. */
  number: number;
  facts: SessionFacts;
  /** Duration from the result, else from the records' clocks; `null` without either. */
  durationMs: number | null;
  /** Total tokens, or `null` when the result reported no usage. */
  tokens: number | null;
  toolCalls: number;
  failedCalls: number;
  failure: string | null;
  /** The session's first prompt on one line, cut to an index cell; `null` when it has none. */
  prompt: string | null;
}

/** A finished session: its section's HTML and its index row. */
export interface BuiltSession {
  html: string;
  row: SessionRow;
}

/** Builds one session's section. */
export interface SessionSection {
  push(event: CanonicalEvent, times: RecordTimes | undefined): void;
  /** The section, numbered `number`; `undefined` if the session had no content. */
  end(number: number): BuiltSession | undefined;
}

/**
 * Transcript HTML within a budget: past it, events are counted instead of shown. Assistant text is gathered per
 * message and shown as Markdown; everything else is `render`'s text, its styles as HTML.
 */
function createTranscriptHtml(limits: ReportLimits) {
  const transcript = createTranscript(createPalette(true));
  const parts: string[] = [];
  let used = 0;
  let omitted = 0;
  let omittedCalls = 0;
  // The assistant text of the message going on, shown as Markdown once it ends.
  let message = '';
  // A Markdown block is a block of its own: the line feed the transcript puts after text would show as an empty line.
  let afterMessage = false;
  function append(html: string): void {
    parts.push(html);
    used += html.length;
  }
  function styled(ansi: string): string {
    const text = afterMessage && ansi.startsWith('\n') ? ansi.slice(1) : ansi;
    if (text !== '') afterMessage = false;
    const room = limits.transcriptChars - used;
    return ansiToHtml(text.length > room ? `${text.slice(0, Math.max(room, 0))}…` : text);
  }
  function endMessage(): void {
    if (message === '') return;
    const room = Math.max(limits.transcriptChars - used, 0);
    const text = message.length > room ? `${message.slice(0, room)}…` : message;
    message = '';
    append(`<div class="md">${renderMarkdown(escapeControlsKeepingLines(text))}</div>`);
    afterMessage = true;
  }
  function text(event: Extract<CanonicalEvent, { type: 'text-delta' }>): void {
    const shown = transcript.push(event);
    const own = escapeControlsKeepingLines(event.text);
    // What the transcript writes before the text: held reasoning, or the break before another model call's message.
    const before = shown.endsWith(own) ? shown.slice(0, shown.length - own.length) : '';
    if (before !== '') {
      endMessage();
      const lead = styled(before.replace(/\n+$/, '\n'));
      if (lead.trim() !== '') append(lead);
    }
    message += event.text;
  }
  return {
    push(event: CanonicalEvent): void {
      if (used + message.length >= limits.transcriptChars) {
        omitted += 1;
        if (event.type === 'tool-call') omittedCalls += 1;
        return;
      }
      if (event.type === 'text-delta') {
        text(event);
        return;
      }
      endMessage();
      const shown = transcript.push(event);
      // A details block is a block of its own: the line feed before it would show as an empty line.
      const block = event.type === 'tool-call' || event.type === 'tool-result';
      append(styled(block && shown.endsWith('\n') ? shown.slice(0, -1) : shown));
      if (event.type === 'tool-call' && hasContent(event.input)) {
        append(valueDetails('value', 'arguments', event.input, limits.valueChars));
      }
      if (event.type === 'tool-result' && hasContent(event.output)) {
        // A failed call's output is open: why it failed is what one looks for.
        const className = event.isError ? 'value failed' : 'value';
        append(valueDetails(className, 'output', event.output, limits.valueChars, event.isError));
      }
    },
    html(): string {
      endMessage();
      const end = omitted === 0 ? styled(transcript.end()) : '';
      const note =
        omitted === 0
          ? ''
          : `<p class="note">The transcript is cut here, at ${formatBytes(limits.transcriptChars)}: ${plural(omitted, 'more event')} (${plural(omittedCalls, 'tool call')}) are in the log.</p>`;
      return `<div class="transcript-body">${parts.join('')}${end}</div>${note}`;
    },
  };
}

/**
 * Why a session failed: the agent's own sentence (the core's `failure`: the failed result's text, else its last plain
 * output line) with its class when the table of the CLI's sentences knows it, else the last error the log reports,
 * else what the log shows.
 */
function failureOf(summary: SessionSummary, lastError: string | null): string | null {
  if (summary.status === 'success') return null;
  const code = summary.failure?.code ?? 'unknown';
  if (summary.failure !== null && summary.failure.message !== '')
    return code === 'unknown' ? summary.failure.message : `${summary.failure.message} (${code})`;
  const said = lastError;
  if (said !== null && said !== '') return said;
  return summary.status === 'error' ? 'the result reports an error' : 'the log ends without a result';
}

function truncateOrNull(text: string | null, max: number): string | null {
  return text === null ? null : truncate(text, max);
}

function totalTokens(summary: SessionSummary): number | null {
  const usage = summary.usage;
  if (usage === null) return null;
  return (
    (usage.inputTokens ?? 0) +
    (usage.outputTokens ?? 0) +
    (usage.cacheReadTokens ?? 0) +
    (usage.cacheWriteTokens ?? 0)
  );
}

/** `2026-09-18 06:34:23 UTC` */
export function formatUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function fact(name: string, value: string): string {
  return `<div><dt>${escapeHtml(name)}</dt><dd>${value}</dd></div>`;
}

function tokensFact(summary: SessionSummary, tokens: number | null): string {
  const usage = summary.usage;
  if (usage === null || tokens === null) return '<span class="dim">not reported</span>';
  const parts = [
    `${formatCount(usage.inputTokens ?? 0)} in`,
    `${formatCount(usage.outputTokens ?? 0)} out`,
    `${formatCount(usage.cacheReadTokens ?? 0)} cache read`,
    `${formatCount(usage.cacheWriteTokens ?? 0)} cache write`,
  ];
  return `${formatCount(tokens)} <small>${parts.join(' · ')}</small>`;
}

function headerHtml(row: SessionRow): string {
  const { summary, file, line, firstAtMs } = row.facts;
  const title = [
    `<span class="badge ${summary.status}">${summary.status}</span>`,
    `<span class="model">${escapeHtml(summary.model ?? 'unknown model')}</span>`,
    summary.sessionId === null ? '' : `<code class="sid">${escapeHtml(summary.sessionId)}</code>`,
  ];
  const facts = [
    fact(
      'duration',
      row.durationMs === null ? '<span class="dim">unknown</span>' : formatDuration(row.durationMs),
    ),
    fact('tokens', tokensFact(summary, row.tokens)),
    fact(
      'tool calls',
      `${formatCount(row.toolCalls)}${row.failedCalls === 0 ? '' : ` <span class="red">(${formatCount(row.failedCalls)} failed)</span>`}`,
    ),
    fact('started', firstAtMs === null ? '<span class="dim">no timestamps</span>' : formatUtc(firstAtMs)),
    fact('log', `<code>${escapeHtml(line === null ? file : `${file}:${line}`)}</code>`),
  ];
  const failure =
    row.failure === null
      ? ''
      : `<p class="failure"><strong>Why it ${summary.status === 'error' ? 'failed' : 'stopped'}:</strong> ${escapeHtml(row.failure)}</p>`;
  const prompt = row.prompt === null ? '' : `<p class="prompt">${escapeHtml(row.prompt)}</p>`;
  return `<header><h2>${title.join(' ')}</h2>${prompt}<dl class="facts">${facts.join('')}</dl>${failure}</header>`;
}

/** Starts a session's section, for a session of `file`. */
export function createSessionSection(file: string, limits: ReportLimits): SessionSection {
  const facts = trackSessionFacts(file);
  const timeline = createTimeline(limits.timelineBars);
  const transcript = createTranscriptHtml(limits);
  let lastError: string | null = null;
  let prompt: string | null = null;
  return {
    push(event, times) {
      facts.push(event, times);
      if (event.type === 'user-message' && prompt === null) {
        // Only the start is kept: the index shows one line of it.
        const line = foldToOneLine(event.text.slice(0, 4 * INDEX_CELL_CHARS));
        if (line !== '') prompt = truncate(line, INDEX_CELL_CHARS);
      }
      timeline.push(event, times);
      transcript.push(event);
      if (event.type === 'error') lastError = truncate(event.message, limits.valueChars);
    },
    end(number) {
      const sessionFacts = facts.facts();
      if (sessionFacts === undefined) return undefined;
      const { summary, firstAtMs, lastAtMs } = sessionFacts;
      const clockSpan = firstAtMs === null || lastAtMs === null ? null : lastAtMs - firstAtMs;
      const toolCalls = summary.toolCalls.length + sessionFacts.toolCallsOmitted;
      const row: SessionRow = {
        number,
        facts: sessionFacts,
        durationMs: summary.durationMs ?? clockSpan,
        tokens: totalTokens(summary),
        toolCalls,
        // Past the listed calls failures are counted by completion, so a repeated one could make them outnumber calls.
        failedCalls: Math.min(
          summary.toolCalls.filter((call) => isFailedStatus(call.status)).length +
            sessionFacts.failedCallsOmitted,
          toolCalls,
        ),
        failure: truncateOrNull(failureOf(summary, lastError), limits.valueChars),
        prompt,
      };
      const timelineHtml = timeline.html();
      const html = [
        `<section class="session ${summary.status}" id="session-${number}">`,
        headerHtml(row),
        timelineHtml === '' ? '' : `<h3>Timeline</h3>${timelineHtml}`,
        `<details class="transcript" open><summary>Transcript</summary>${transcript.html()}</details>`,
        '</section>\n',
      ].join('');
      return { html, row };
    },
  };
}
