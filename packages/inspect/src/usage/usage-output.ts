/**
 * `usage` output: a table (a header, one row per group with a row per model under it, a total) or ccusage-style JSON,
 * from each session's facts as it ends. Rows per session are handed back as each session ends, so that memory does
 * not grow with the number of sessions; periods and models come at the end, in order.
 */

import { BUILT_IN_PRICE_TABLE, formatUsd, type PriceTable } from '@cursor-stream/core/cost';
import type { SessionFacts } from '@cursor-stream/core/sessions';
import { escapeControls, formatCount, plural, truncate } from '@cursor-stream/core/text';
import type { ForeignLogsFields } from '../foreign-logs/index.ts';
import { createPalette, type Palette } from '../terminal/index.ts';
import type { UsageGrouping, UsageOrder } from './usage-grouping.ts';
import {
  createWallClock,
  dayOf,
  localTimeZone,
  monthOf,
  parseTimeBound,
  type UsageTimeResult,
  type WallClock,
  weekOf,
} from './usage-time.ts';
import {
  addUsage,
  createUsageTally,
  emptyTotals,
  type ModelBreakdown,
  pricedUsage,
  sessionUsageRow,
  type UsageTotals,
} from './usage-totals.ts';

/** Options of {@link createUsageOutput}; {@link resolveUsageOptions} makes them from what a person typed. */
export interface UsageOptions {
  /** How sessions are grouped. */
  readonly by: UsageGrouping;
  /** ccusage-style JSON instead of a table. */
  readonly json: boolean;
  /** The zone days, weeks and months are read in. @defaultValue the machine's */
  readonly clock?: WallClock;
  /** Sessions whose first time is before this wall time (`2026-05-01T00:00:00.000`) are left out. */
  readonly since?: string;
  /** Sessions whose first time is after this wall time are left out. */
  readonly until?: string;
  /** Periods and models in ascending or descending order; session rows come as sessions end. @defaultValue `'asc'` */
  readonly order?: UsageOrder;
  /** The rates costs are computed at. @defaultValue the built-in table */
  readonly prices?: PriceTable;
  /** Styles of the table. @defaultValue no color */
  readonly palette?: Palette;
}

/** What a person asks of `usage`, as text; see {@link resolveUsageOptions}. */
export interface UsageRequest {
  readonly by: UsageGrouping;
  readonly json: boolean;
  /** An IANA zone; the machine's when absent. */
  readonly timeZone?: string;
  /** `2026-05-01`, `20260501` or `2026-05-01T09:30`, in the zone. */
  readonly since?: string;
  readonly until?: string;
  readonly order?: UsageOrder;
  readonly prices?: PriceTable;
  readonly palette?: Palette;
}

/** {@link UsageOptions} from a {@link UsageRequest}, or why its zone or a bound is not one. */
export function resolveUsageOptions(request: UsageRequest): UsageTimeResult<UsageOptions> {
  const clock = createWallClock(request.timeZone ?? localTimeZone());
  if (!clock.ok) return clock;
  const since = request.since === undefined ? undefined : parseTimeBound(request.since, 'since');
  if (since !== undefined && !since.ok) return since;
  const until = request.until === undefined ? undefined : parseTimeBound(request.until, 'until');
  if (until !== undefined && !until.ok) return until;
  // Both are wall-clock times written alike (`2026-05-01T09:30:00.000`): their text orders them.
  if (since !== undefined && until !== undefined && since.value > until.value) {
    const message = `--since ${request.since?.trim()} is after --until ${request.until?.trim()}: no session starts between them`;
    return { ok: false, error: { code: 'invalid-time', message } };
  }
  const { by, json, order, prices, palette } = request;
  return {
    ok: true,
    value: {
      by,
      json,
      ...(order === undefined ? {} : { order }),
      ...(prices === undefined ? {} : { prices }),
      ...(palette === undefined ? {} : { palette }),
      clock: clock.value,
      ...(since === undefined ? {} : { since: since.value }),
      ...(until === undefined ? {} : { until: until.value }),
    },
  };
}

/** The text of `usage`, a piece at a time; see {@link createUsageOutput}. */
export interface UsageOutput {
  /** Counts a session that ended; returns the text to write now (its row with `--by session`, else nothing). */
  add(facts: SessionFacts): string;
  /**
   * The rest of the text: the groups and the totals, or the end of the JSON document, which lists the logs left out
   * as not Cursor's (`foreignLogs`; stderr names them in the text form).
   */
  end(foreignLogs?: ForeignLogsFields): string;
}

const NUMBER_WIDTH = 12;
const COST_WIDTH = 11;
const LABEL_WIDTH = 40;
const SESSION_LABEL_WIDTH = 38;
const COLUMNS = ['Sessions', 'No usage', 'Input', 'Output', 'Cache write', 'Cache read', 'Total'] as const;
/** The JSON array and period field each grouping writes, as ccusage names them. */
const JSON_KEYS: Record<UsageGrouping, string> = {
  day: 'daily',
  week: 'weekly',
  month: 'monthly',
  session: 'sessions',
  model: 'models',
};
const ROW_KEYS: Record<UsageGrouping, string> = {
  day: 'date',
  week: 'week',
  month: 'month',
  session: 'sessionId',
  model: 'modelName',
};
const LABELS: Record<UsageGrouping, string> = {
  day: 'Day',
  week: 'Week of',
  month: 'Month',
  session: 'Session',
  model: 'Model',
};

/** Sessions left out by `--since`/`--until`, counted so that none goes missing unsaid. */
interface LeftOut {
  outsideRange: number;
  withoutTime: number;
}

/** The parts of a run of `usage` every grouping shares: the clock, the range, the prices and the styles. */
function createContext(options: UsageOptions) {
  const local = options.clock === undefined ? createWallClock(localTimeZone()) : undefined;
  const clock = options.clock ?? (local?.ok ? local.value : fallbackClock());
  const prices = options.prices ?? BUILT_IN_PRICE_TABLE;
  const palette = options.palette ?? createPalette(false);
  const ranged = options.since !== undefined || options.until !== undefined;
  const leftOut: LeftOut = { outsideRange: 0, withoutTime: 0 };
  return {
    clock,
    prices,
    palette,
    leftOut,
    /** The session's first wall time, or `null` without one; `undefined` when the range leaves it out. */
    admit(facts: SessionFacts): string | null | undefined {
      const wall = facts.firstAtMs === null ? null : clock.wallTime(facts.firstAtMs);
      if (!ranged) return wall;
      if (wall === null) {
        leftOut.withoutTime += 1;
        return undefined;
      }
      if (
        (options.since !== undefined && wall < options.since) ||
        (options.until !== undefined && wall > options.until)
      ) {
        leftOut.outsideRange += 1;
        return undefined;
      }
      return wall;
    },
    /** The JSON members after the rows: totals, the zone, and the range with what it left out. */
    jsonTail(totals: UsageTotals, foreignLogs: ForeignLogsFields = {}): string {
      const range = ranged
        ? `,\n  "range": ${indentJson({ since: options.since ?? null, until: options.until ?? null, sessionsOutsideRange: leftOut.outsideRange, sessionsWithoutTime: leftOut.withoutTime }, '  ')}`
        : '';
      const foreign = Object.entries(foreignLogs)
        .map(([key, value]) => `,\n  ${JSON.stringify(key)}: ${indentJson(value, '  ')}`)
        .join('');
      return `  "totals": ${indentJson(totals, '  ')},\n  "timeZone": ${JSON.stringify(clock.timeZone)}${range}${foreign}\n}\n`;
    },
    /** The line under the table saying what the range left out; empty when nothing. */
    tableNote(): string {
      const parts: string[] = [];
      if (leftOut.outsideRange > 0)
        parts.push(`${plural(leftOut.outsideRange, 'session')} outside the range`);
      if (leftOut.withoutTime > 0) parts.push(`${plural(leftOut.withoutTime, 'session')} without a time`);
      return parts.length === 0 ? '' : `${palette.dim(`Not counted: ${parts.join(', ')}.`)}\n`;
    },
  };
}

/** UTC without Intl: the clock when the runtime cannot name its own zone. */
function fallbackClock(): WallClock {
  return { timeZone: 'UTC', wallTime: (ms) => new Date(ms).toISOString().slice(0, 23) };
}

function indentJson(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replaceAll('\n', `\n${indent}`);
}

/** Indents a JSON value as an element of a top-level array. */
function jsonElement(value: unknown): string {
  return `    ${indentJson(value, '    ')}`;
}

type Context = ReturnType<typeof createContext>;

function numberCells(
  totals: Omit<UsageTotals, 'totalCost'>,
  palette: Palette,
  cost: number | null,
): string[] {
  const counts = [
    totals.sessionCount,
    totals.sessionsWithoutUsage,
    totals.inputTokens,
    totals.outputTokens,
    totals.cacheCreationTokens,
    totals.cacheReadTokens,
    totals.totalTokens,
  ].map((count) => formatCount(count).padStart(NUMBER_WIDTH));
  const costText = formatUsd(cost).padStart(COST_WIDTH);
  return [...counts, cost === null ? palette.yellow(costText) : palette.green(costText)];
}

/**
 * One table line: the label padded to `width`, then the right-aligned numbers. Labels come from the logs (session ids,
 * models, file names): they are escaped here, as every command does what it prints on a terminal.
 */
function tableLine(
  label: string,
  width: number,
  cells: readonly string[],
  style = (text: string) => text,
): string {
  const shown = truncate(escapeControls(label), width).padEnd(width);
  // Each cell after a space of its own: a count wider than its column (a billion tokens and more) pushes the
  // columns after it right rather than running into its neighbour.
  return `${style(shown)}${cells.map((cell) => ` ${cell}`).join('')}`.trimEnd();
}

function headerLine(label: string, width: number, palette: Palette): string {
  const cells = [...COLUMNS.map((column) => column.padStart(NUMBER_WIDTH)), 'Cost'.padStart(COST_WIDTH)];
  return palette.bold(tableLine(label, width, cells));
}

function totalLine(totals: UsageTotals, width: number, palette: Palette): string {
  return tableLine('Total', width, numberCells(totals, palette, totals.totalCost), palette.bold);
}

/** A group's line and, under it, one line per model. */
function groupLines(
  label: string,
  totals: UsageTotals,
  models: readonly ModelBreakdown[],
  width: number,
  palette: Palette,
): string[] {
  const lines = [tableLine(label, width, numberCells(totals, palette, totals.totalCost), palette.cyan)];
  for (const model of models) {
    const name = `  └ ${model.modelName ?? 'model not named'}`;
    lines.push(palette.dim(tableLine(name, width, numberCells(model, createPalette(false), model.cost))));
  }
  return lines;
}

/** Session rows, handed back as each session ends. */
function createSessionRows(options: UsageOptions, context: Context): UsageOutput {
  const totals = emptyTotals();
  const { palette } = context;
  let rows = 0;
  const header = () => `${headerLine(LABELS.session, SESSION_LABEL_WIDTH, palette)}\n`;
  return {
    add(facts) {
      const wall = context.admit(facts);
      if (wall === undefined) return '';
      const priced = pricedUsage(facts, context.prices);
      const row = sessionUsageRow(facts, wall === null ? null : dayOf(wall), priced);
      addUsage(totals, priced);
      const first = rows === 0;
      rows += 1;
      if (options.json) return `${first ? `{\n  "sessions": [\n` : ',\n'}${jsonElement(row)}`;
      const label = row.sessionId ?? `${row.file}:${row.line ?? '?'}`;
      const lines = groupLines(label, row, row.modelBreakdowns, SESSION_LABEL_WIDTH, palette);
      return `${first ? header() : ''}${lines.join('\n')}\n`;
    },
    end(foreignLogs): string {
      if (options.json) {
        const open = rows === 0 ? `{\n  "sessions": [` : '\n  ';
        return `${open}],\n${context.jsonTail(totals, foreignLogs)}`;
      }
      return `${rows === 0 ? header() : ''}${totalLine(totals, SESSION_LABEL_WIDTH, palette)}\n${context.tableNote()}`;
    },
  };
}

/** Period or model rows, summed as sessions end and handed back at the end. */
function createGroupRows(options: UsageOptions, context: Context): UsageOutput {
  const by = options.by;
  const { palette } = context;
  const tally = createUsageTally();
  const keyOf = (wall: string | null, facts: SessionFacts): string | null => {
    if (by === 'model') return facts.summary.model;
    if (wall === null) return null;
    return by === 'week' ? weekOf(wall) : by === 'month' ? monthOf(wall) : dayOf(wall);
  };
  return {
    add(facts) {
      const wall = context.admit(facts);
      if (wall === undefined) return '';
      tally.add(keyOf(wall, facts), facts.summary.model, pricedUsage(facts, context.prices));
      return '';
    },
    end(foreignLogs) {
      const groups = tally.groups(options.order);
      if (options.json) {
        const rows = groups.map(({ key, totals, modelsUsed, modelBreakdowns }) =>
          by === 'model'
            ? { modelName: key, ...totals }
            : { [ROW_KEYS[by]]: key, ...totals, modelsUsed, modelBreakdowns },
        );
        const elements = rows.map(jsonElement).join(',\n');
        return `{\n  "${JSON_KEYS[by]}": [${elements === '' ? '' : `\n${elements}\n  `}],\n${context.jsonTail(tally.totals, foreignLogs)}`;
      }
      const title = by === 'model' ? LABELS.model : `${LABELS[by]} (${context.clock.timeZone})`;
      const labels = groups.map(({ key }) => key ?? (by === 'model' ? 'model not named' : 'no time'));
      // A loop, not a spread into Math.max: a million groups are a million arguments, past any stack.
      let widest = Math.max(title.length, 'Total'.length);
      groups.forEach((group, index) => {
        widest = Math.max(widest, labels[index]?.length ?? 0);
        if (by === 'model') return;
        for (const model of group.modelBreakdowns)
          widest = Math.max(widest, (model.modelName ?? '').length + 4);
      });
      const width = Math.min(LABEL_WIDTH, widest) + 2;
      const lines = [headerLine(title, width, palette)];
      groups.forEach((group, index) => {
        const models = by === 'model' ? [] : group.modelBreakdowns;
        lines.push(...groupLines(labels[index] ?? '', group.totals, models, width, palette));
      });
      lines.push(totalLine(tally.totals, width, palette));
      return `${lines.join('\n')}\n${context.tableNote()}`;
    },
  };
}

/** The output of `usage` grouped as `options.by` asks, fed each session's facts as it ends. */
export function createUsageOutput(options: UsageOptions): UsageOutput {
  const context = createContext(options);
  return options.by === 'session' ? createSessionRows(options, context) : createGroupRows(options, context);
}
