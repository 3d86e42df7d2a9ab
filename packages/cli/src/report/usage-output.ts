/**
 * `usage` output: a table (a header, one row per group, a total) or ccusage-style JSON. Rows of `--by session` are
 * written as each session ends, so that memory does not grow with the number of sessions; days and models are
 * written at the end, in order.
 */

import {
  type FactsTracker,
  type SessionFacts,
  trackSessionFacts,
  utcDay,
} from '@cursor-stream/core/sessions';
import { escapeControls, formatCount, truncate } from '@cursor-stream/core/text';
import { type LogSessionsOptions, visitLogSessions } from '@cursor-stream/node/logs';
import { displayPath } from '../cli-error.ts';
import type { UsageGrouping } from './usage-grouping.ts';
import {
  addUsage,
  createUsageTally,
  type DailyUsageRow,
  emptyTotals,
  type ModelUsageRow,
  type SessionUsageRow,
  sessionUsageRow,
  type UsageTotals,
} from './usage-totals.ts';
import { createValueProblemList, type LogsOutcome, withValueProblems } from './value-problems.ts';

/** Options of {@link writeUsage}. */
export interface UsageOptions extends LogSessionsOptions<SessionFacts> {
  by: UsageGrouping;
  json: boolean;
}

/** Where the output goes; awaited, so a slow reader holds the reading back. */
export type WriteText = (text: string) => Promise<void>;

const NUMBER_WIDTH = 13;
const COLUMNS = ['Sessions', 'No usage', 'Input', 'Output', 'Cache write', 'Cache read', 'Total'] as const;
/** The JSON array each grouping writes, as ccusage names them. */
const JSON_KEYS: Record<UsageGrouping, string> = { day: 'daily', session: 'sessions', model: 'models' };
const LABELS: Record<UsageGrouping, string> = { day: 'Day (UTC)', session: 'Session', model: 'Model' };

function numbers(totals: UsageTotals): string[] {
  return [
    totals.sessionCount,
    totals.sessionsWithoutUsage,
    totals.inputTokens,
    totals.outputTokens,
    totals.cacheCreationTokens,
    totals.cacheReadTokens,
    totals.totalTokens,
  ].map((count) => formatCount(count).padStart(NUMBER_WIDTH));
}

/**
 * One table line: the label padded to `width`, then the right-aligned numbers. Labels come from the logs (session ids,
 * models, file names): the caller escapes them, as every command does what it prints on a terminal.
 */
function tableLine(label: string, width: number, cells: readonly string[]): string {
  return `${truncate(label, width).padEnd(width)}${cells.join('')}`.trimEnd();
}

function headerLine(by: UsageGrouping, width: number): string {
  return tableLine(
    LABELS[by],
    width,
    COLUMNS.map((column) => column.padStart(NUMBER_WIDTH)),
  );
}

/** Indents a JSON value as an element of a top-level array. */
function jsonElement(value: unknown): string {
  return `    ${JSON.stringify(value, null, 2).replaceAll('\n', '\n    ')}`;
}

function jsonDocument(by: UsageGrouping, rows: readonly unknown[], totals: UsageTotals): string {
  const elements = rows.map(jsonElement).join(',\n');
  return `{\n  "${JSON_KEYS[by]}": [${elements === '' ? '' : `\n${elements}\n  `}],\n  "totals": ${JSON.stringify(totals, null, 2).replaceAll('\n', '\n  ')}\n}\n`;
}

/** Session rows, written as each session ends. */
function createSessionRows(options: UsageOptions, write: WriteText) {
  const totals = emptyTotals();
  const width = 38;
  let rows = 0;
  return {
    async add(facts: SessionFacts): Promise<void> {
      const row: SessionUsageRow = sessionUsageRow(facts);
      addUsage(totals, facts.summary.usage);
      if (options.json) await write(`${rows === 0 ? `{\n  "sessions": [\n` : ',\n'}${jsonElement(row)}`);
      else {
        const label = escapeControls(row.sessionId ?? `${row.file}:${row.line ?? '?'}`);
        await write(
          `${rows === 0 ? `${headerLine('session', width)}\n` : ''}${tableLine(label, width, numbers(row))}\n`,
        );
      }
      rows += 1;
    },
    end(): string {
      if (options.json) {
        const open = rows === 0 ? `{\n  "sessions": [` : '\n  ';
        return `${open}],\n  "totals": ${JSON.stringify(totals, null, 2).replaceAll('\n', '\n  ')}\n}\n`;
      }
      const header = rows === 0 ? `${headerLine('session', width)}\n` : '';
      return `${header}${tableLine('Total', width, numbers(totals))}\n`;
    },
  };
}

/** Day or model rows, summed as sessions end and written at the end. */
function createGroupRows(options: UsageOptions) {
  const by = options.by;
  const tally = createUsageTally((facts) => (by === 'day' ? utcDay(facts.firstAtMs) : facts.summary.model));
  return {
    add: (facts: SessionFacts): void => tally.add(facts),
    end(): string {
      const groups = tally.groups();
      if (options.json) {
        const rows = groups.map(({ key, totals, modelsUsed }): DailyUsageRow | ModelUsageRow =>
          by === 'day' ? { date: key, ...totals, modelsUsed } : { modelName: key, ...totals },
        );
        return jsonDocument(by, rows, tally.totals);
      }
      const labels = groups.map(({ key }) => (key === null ? 'unknown' : escapeControls(key)));
      const width = Math.max(LABELS[by].length, 'Total'.length, ...labels.map((label) => label.length)) + 2;
      const lines = [headerLine(by, Math.min(width, 40))];
      groups.forEach((group, index) => {
        lines.push(tableLine(labels[index] ?? '', Math.min(width, 40), numbers(group.totals)));
      });
      lines.push(tableLine('Total', Math.min(width, 40), numbers(tally.totals)));
      return `${lines.join('\n')}\n`;
    },
  };
}

/**
 * Reads the logs and writes their token usage grouped as `options.by` asks.
 *
 * @returns What reading came to: unreadable arguments and invalid lines are for the caller to report.
 */
export async function writeUsage(
  paths: readonly string[],
  options: UsageOptions,
  write: WriteText,
): Promise<LogsOutcome> {
  const sessionRows = options.by === 'session' ? createSessionRows(options, write) : createGroupRows(options);
  const problems = createValueProblemList();
  const output = {
    add(facts: SessionFacts): void | Promise<void> {
      problems.add(facts);
      return sessionRows.add(facts);
    },
  };
  let tracker: FactsTracker | undefined;
  const outcome = await visitLogSessions(
    paths,
    { ...options, foreignLogs: 'leave-out' },
    {
      start(path) {
        tracker = trackSessionFacts(displayPath(path));
      },
      event(event, times) {
        tracker?.push(event, times);
      },
      async end() {
        const facts = tracker?.facts();
        if (facts !== undefined) await output.add(facts);
        tracker = undefined;
      },
      async whole(facts) {
        await output.add(facts);
      },
    },
  );
  await write(sessionRows.end());
  return withValueProblems(outcome, problems);
}
