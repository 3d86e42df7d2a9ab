import { type CanonicalEvent, createNormalizer, reduceSessions } from '@cursor-stream/core';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { createTableExporter, fitRow, type Row, TABLES, type Table } from '../src/index.ts';
import { createOtlpExporter } from '../src/otlp/index.ts';
import { feedLog, init, ndjson, result, shellDone, shellStart } from './export-fixtures.ts';

const ARMS = ['success', 'failure', 'rejected', 'timeout', 'pending'] as const;

const callArbitrary = fc.record({
  arm: fc.constantFrom(...ARMS),
  rawNewline: fc.boolean(),
  times: fc.option(fc.tuple(fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }), fc.nat(100_000))),
});

const sessionArbitrary = fc.record({
  // Few ids, so that resumed runs sharing one id come up.
  sessionId: fc.constantFrom('s-1', 's-2', 's-3'),
  model: fc.constantFrom('Auto', 'GPT-5', 'Claude 4 Sonnet'),
  calls: fc.array(callArbitrary, { maxLength: 5 }),
  isError: fc.boolean(),
  usage: fc.option(fc.record({ inputTokens: fc.nat(1e6), outputTokens: fc.nat(1e6) })),
});

type GeneratedSession = typeof sessionArbitrary extends fc.Arbitrary<infer T> ? T : never;

function logOf(sessions: readonly GeneratedSession[]): string {
  const records: object[] = [];
  for (const [index, session] of sessions.entries()) {
    records.push(init(session.sessionId, session.model));
    for (const [callIndex, call] of session.calls.entries()) {
      const id = `call_${index}_${callIndex}${call.rawNewline ? '\nfc_x' : ''}`;
      const times =
        call.times === null
          ? undefined
          : ([call.times[0], call.times[0] + call.times[1]] as [number, number]);
      records.push(shellStart(session.sessionId, id, 'true', times?.[0]));
      if (call.arm !== 'pending') records.push(shellDone(session.sessionId, id, call.arm, times));
    }
    records.push(result(session.sessionId, session.isError, `run ${index}`, session.usage ?? undefined));
  }
  return ndjson(records);
}

function eventsOf(text: string): CanonicalEvent[] {
  const normalizer = createNormalizer();
  return [...normalizer.feed(text), ...normalizer.end()];
}

const cutsArbitrary = fc.array(fc.nat(5000), { maxLength: 6 });

describe('export invariants', () => {
  test.prop([fc.array(sessionArbitrary, { minLength: 1, maxLength: 6 }), cutsArbitrary])(
    'the tables hold one row per session, per tool call and per event, whatever the chunking',
    async (sessions, cuts) => {
      const text = logOf(sessions);
      const rows: Record<string, Row[]> = { sessions: [], tool_calls: [], events: [] };
      const exporter = createTableExporter({
        removeLog: async () => {},
        insert: async (table: Table, batch: readonly Row[]) => void rows[table.name]?.push(...batch),
        close: async () => {},
      });
      await feedLog(exporter, 'log.ndjson', text, 0, cuts);
      await exporter.close();
      const events = eventsOf(text);
      const summaries = reduceSessions(events);
      expect(rows.sessions).toHaveLength(summaries.length);
      expect(rows.events).toHaveLength(events.length);
      expect(rows.events?.map((row) => row.seq)).toEqual(events.map((_, index) => index));
      const calls = summaries.flatMap((summary) => summary.toolCalls);
      expect(rows.tool_calls?.map((row) => row.tool_call_id)).toEqual(calls.map((call) => call.toolCallId));
      expect(rows.tool_calls?.map((row) => row.status)).toEqual(calls.map((call) => call.status));
      const failed = calls.filter((call) => call.status !== 'success' && call.status !== 'pending').length;
      expect(rows.sessions?.reduce((sum, row) => sum + Number(row.failed_tool_calls), 0)).toBe(failed);
      const input = summaries.reduce((sum, summary) => sum + (summary.usage?.inputTokens ?? 0), 0);
      expect(rows.sessions?.reduce((sum, row) => sum + Number(row.input_tokens ?? 0), 0)).toBe(input);
    },
  );

  test.prop([fc.array(sessionArbitrary, { minLength: 1, maxLength: 6 }), cutsArbitrary, cutsArbitrary], {
    numRuns: 50,
  })(
    'spans: one per session and per call, unique ids, the same on every export and chunking',
    async (sessions, cutsA, cutsB) => {
      const text = logOf(sessions);
      const spansOf = async (cuts: readonly number[]) => {
        const lines: string[] = [];
        const exporter = await createOtlpExporter({
          target: { kind: 'json-lines', writeLine: async (line) => void lines.push(line) },
        });
        await feedLog(exporter, 'log.ndjson', text, 0, cuts);
        await exporter.close();
        type Span = { traceId: string; spanId: string; parentSpanId?: string; name: string };
        return lines.flatMap((line) =>
          (
            JSON.parse(line) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] }
          ).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)),
        );
      };
      const first = await spansOf(cutsA);
      expect(await spansOf(cutsB)).toEqual(first);
      const calls = sessions.reduce((sum, session) => sum + session.calls.length, 0);
      expect(first.filter((span) => span.name.startsWith('invoke_agent'))).toHaveLength(sessions.length);
      expect(first.filter((span) => span.name.startsWith('execute_tool'))).toHaveLength(calls);
      const ids = first.map((span) => `${span.traceId}/${span.spanId}`);
      // Every generated run differs (its result text and call ids hold its position), resumed ids included.
      expect(new Set(ids).size).toBe(ids.length);
      for (const span of first) {
        if (span.name.startsWith('execute_tool')) {
          expect(
            first.some((agent) => agent.spanId === span.parentSpanId && agent.traceId === span.traceId),
          ).toBe(true);
        }
      }
    },
  );
});

describe('rows fitted to their columns', () => {
  const numbers = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.constantFrom(1e308, -1e308, 2 ** 63, -0, 0.5, Number.MAX_SAFE_INTEGER + 2),
  );
  const strings = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({ unit: fc.integer({ min: 0xd7f0, max: 0xe010 }).map((code) => String.fromCharCode(code)) }),
  );
  const WELL_FORMED = /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;
  const tableRow = fc
    .constantFrom(...TABLES)
    .chain((table) =>
      fc
        .tuple(
          ...table.columns.map((column) =>
            fc.option<string | number>(column.type === 'string' ? strings : numbers),
          ),
        )
        .map((values): [Table, Row] => [
          table,
          Object.fromEntries(table.columns.map((column, index) => [column.name, values[index] ?? null])),
        ]),
    );

  test.prop([tableRow])(
    'hold only values every engine stores, the same after a second fitting, and say each change',
    ([table, row]) => {
      const { row: fitted, changes } = fitRow(table, row);
      let changed = 0;
      for (const column of table.columns) {
        const value = fitted[column.name];
        if (!Object.is(value, row[column.name]) && !Object.is(row[column.name], -0)) changed += 1;
        if (value === null) continue;
        if (column.type === 'string') expect(WELL_FORMED.test(String(value))).toBe(true);
        else {
          expect(Number.isSafeInteger(value)).toBe(true);
          if (column.type === 'int32') expect(Math.abs(Number(value))).toBeLessThanOrEqual(2 ** 31);
        }
      }
      expect(changes).toHaveLength(changed);
      expect(fitRow(table, fitted)).toEqual({ row: fitted, changes: [] });
    },
  );
});
