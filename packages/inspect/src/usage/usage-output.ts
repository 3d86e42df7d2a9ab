/**
 * `usage` output: a table (a header, one row per group, a total) or ccusage-style JSON, from each session's facts as
 * it ends. Rows per session are handed back as each session ends, so that memory does not grow with the number of
 * sessions; days and models come at the end, in order.
 */

import { type SessionFacts, utcDay } from '@cursor-stream/core/sessions';
import { escapeControls, formatCount, truncate } from '@cursor-stream/core/text';
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

/** Options of {@link createUsageOutput}. */
export interface UsageOptions {
  /** How sessions are grouped. */
  readonly by: UsageGrouping;
  /** ccusage-style JSON instead of a table. */
  readonly json: boolean;
}

/** The text of `usage`, a piece at a time; see {@link createUsageOutput}. */
export interface UsageOutput {
  /** Counts a session that ended; returns the text to write now (its row with `--by session`, else nothing). */
  add(facts: SessionFacts): string;
  /** The rest of the text: the groups and the totals, or the end of the JSON document. */
  end(): string;
}

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

/** Session rows, handed back as each session ends. */
function createSessionRows(options: UsageOptions): UsageOutput {
  const totals = emptyTotals();
  const width = 38;
  let rows = 0;
  return {
    add(facts) {
      const row: SessionUsageRow = sessionUsageRow(facts);
      addUsage(totals, facts.summary.usage);
      const first = rows === 0;
      rows += 1;
      if (options.json) return `${first ? `{\n  "sessions": [\n` : ',\n'}${jsonElement(row)}`;
      const label = escapeControls(row.sessionId ?? `${row.file}:${row.line ?? '?'}`);
      return `${first ? `${headerLine('session', width)}\n` : ''}${tableLine(label, width, numbers(row))}\n`;
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

/** Day or model rows, summed as sessions end and handed back at the end. */
function createGroupRows(options: UsageOptions): UsageOutput {
  const by = options.by;
  const tally = createUsageTally((facts) => (by === 'day' ? utcDay(facts.firstAtMs) : facts.summary.model));
  return {
    add(facts) {
      tally.add(facts);
      return '';
    },
    end() {
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

/** The output of `usage` grouped as `options.by` asks, fed each session's facts as it ends. */
export function createUsageOutput(options: UsageOptions): UsageOutput {
  return options.by === 'session' ? createSessionRows(options) : createGroupRows(options);
}
