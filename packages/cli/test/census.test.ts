import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Dialect, type JsonObject, officialDialect, type SchemaIssue } from '@cursor-stream/core';
import { REAL_CORPUS, REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { censusOfLogs } from '../src/census/census-log.ts';
import { formatCensusText } from '../src/census/census-report.ts';
import {
  CENSUS_LIMITS,
  type CensusJson,
  censusFoundDrift,
  createCensusTally,
} from '../src/census/census-tally.ts';
import { censusPointer, recordDrift } from '../src/census/record-drift.ts';
import { createPalette } from '../src/format/colors.ts';

const DRIFT_LOG = 'corpus/census/unknown-fields.ndjson';
const NO_STDIN = { stdin: (async function* () {})() };

function census(paths: string[]): Promise<CensusJson> {
  return censusOfLogs(
    paths.map((path) => join(REPO_ROOT, path)),
    { dialect: 'auto' },
    NO_STDIN,
  );
}

/** Rows as `type/subtype` → row, with paths made relative to the repository. */
function rowsByName(result: CensusJson) {
  return new Map(
    result.rows.map((row) => [`${row.type}${row.subtype === null ? '' : `/${row.subtype}`}`, row]),
  );
}

const INIT: JsonObject = {
  type: 'system',
  subtype: 'init',
  apiKeySource: 'login',
  cwd: '/home/dev/app',
  session_id: 's',
  model: 'Auto',
};

describe('recordDrift', () => {
  test('lists every unknown field of a record, though the validator stops at the first', () => {
    const record = { ...INIT, tools: [], mcp_servers: [], nested: { a: 1 } };
    const drift = recordDrift(officialDialect, record);
    expect(drift.items.map((item) => item.pointer).sort()).toEqual(['/mcp_servers', '/nested', '/tools']);
    expect(drift.violation).toBeNull();
    expect(record.tools).toEqual([]);
  });

  test('a known record has no drift', () => {
    expect(recordDrift(officialDialect, INIT)).toEqual({ items: [], violation: null });
  });

  test('a violation other than drift stops the reading and is returned', () => {
    const drift = recordDrift(officialDialect, { type: 'result', subtype: 'x', is_error: 'no' });
    expect(drift.violation).toMatchObject({ pointer: '/is_error', keyword: 'type' });
  });

  test('an enumerated value the schema does not allow is listed, and the reading goes on past it', () => {
    // A dialect whose schema allows `mode` to be "a" or "b" and knows only `type` and `mode`.
    const validate = (record: JsonObject): SchemaIssue[] => {
      if (!['a', 'b'].includes(String(record.mode)))
        return [{ pointer: '/mode', keyword: 'enum', message: 'must be one of "a", "b"' }];
      const extra = Object.keys(record).find((key) => key !== 'type' && key !== 'mode');
      return extra === undefined
        ? []
        : [
            {
              pointer: `/${extra}`,
              keyword: 'unevaluatedProperties',
              message: 'is not a field the schema knows',
            },
          ];
    };
    const dialect = { name: 'enum-test', validate } as unknown as Dialect;
    const drift = recordDrift(dialect, { type: 't', mode: 'c', extra: 1 });
    expect(drift.items).toEqual([
      { kind: 'value', pointer: '/mode', value: 'c' },
      { kind: 'field', pointer: '/extra' },
    ]);
  });

  const knownKeys = new Set([
    'type',
    'subtype',
    'session_id',
    'timestamp_ms',
    ...Object.keys(INIT),
    'request_id',
  ]);
  propTest.prop([
    fc.uniqueArray(
      fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !knownKeys.has(key) && key !== '__proto__'),
      { maxLength: 8 },
    ),
  ])('lists exactly the fields added to a known record', (extra) => {
    const record: JsonObject = { ...INIT };
    for (const key of extra) record[key] = 1;
    const drift = recordDrift(officialDialect, record);
    const escaped = extra.map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    expect(drift.items.map((item) => item.pointer).sort()).toEqual(escaped.sort());
  });
});

describe('censusPointer', () => {
  test('writes array indices as * and keeps object keys', () => {
    const record = { message: { content: [{ a: 1 }, { a: 2 }] }, map: { '0': { b: 1 } } };
    expect(censusPointer(record, '/message/content/1/a')).toBe('/message/content/*/a');
    expect(censusPointer(record, '/map/0/b')).toBe('/map/0/b');
  });
});

describe('the census tally stays bounded', () => {
  test('record types past the cap are counted, not listed', () => {
    const tally = createCensusTally();
    for (let i = 0; i < CENSUS_LIMITS.rows + 5; i++)
      tally.addRecord({ path: 'a', line: i + 1 }, 'official', { type: `t${i}` });
    const result = tally.result();
    expect(result.rows).toHaveLength(CENSUS_LIMITS.rows);
    expect(result.recordsOmitted).toBe(5);
    expect(result.records).toBe(CENSUS_LIMITS.rows + 5);
    expect(censusFoundDrift(result)).toBe(true);
  });

  test('unknown fields past the cap of a row are counted, not listed', () => {
    const tally = createCensusTally();
    const at = { path: 'a', line: 1 };
    const row = tally.addRecord(at, 'official', { type: 't' });
    if (row === null) throw new Error('no row');
    const items = Array.from({ length: CENSUS_LIMITS.entriesPerRow + 3 }, (_, i) => ({
      kind: 'field' as const,
      pointer: `/f${i}`,
    }));
    tally.addDrift(row, at, { items, violation: null }, (pointer) => pointer);
    const [listed] = tally.result().rows;
    expect(listed?.unknownFields).toHaveLength(CENSUS_LIMITS.entriesPerRow);
    expect(listed?.entriesOmitted).toBe(3);
  });
});

describe('census of the hand-written drift recording', () => {
  test('counts each type and lists each unknown field with its count and first line', async () => {
    const result = await census([DRIFT_LOG]);
    const path = join(REPO_ROOT, DRIFT_LOG);
    const rows = rowsByName(result);
    expect(result.files).toBe(1);
    expect(result.records).toBe(10);
    expect(rows.get('system/init')).toMatchObject({
      count: 2,
      first: { path, line: 1 },
      unknownFields: [{ pointer: '/tools', count: 2, first: { path, line: 1 } }],
    });
    expect(rows.get('tool_call/started')?.unknownFields).toEqual([
      { pointer: '/tool_call/shellToolCall/args/sandboxTier', count: 1, first: { path, line: 3 } },
      { pointer: '/tool_call/shellToolCall/args/stdinPolicy', count: 1, first: { path, line: 3 } },
    ]);
    expect(rows.get('assistant')?.unknownFields).toEqual([
      { pointer: '/message/content/*/annotations', count: 1, first: { path, line: 6 } },
    ]);
    expect(rows.get('result/success')).toMatchObject({
      count: 2,
      unknownFields: [{ pointer: '/num_turns', count: 1, first: { path, line: 10 } }],
      violations: { count: 1, first: { line: 8, pointer: '/duration_ms' } },
    });
    expect(rows.get('user')).toMatchObject({ unknownFields: [], modelled: true, violations: null });
    expect(result.invalidLines).toEqual([{ code: expect.any(String), count: 1, first: { path, line: 7 } }]);
    expect(censusFoundDrift(result)).toBe(true);
  });

  test("marks a record type the canonical events do not model, and judges it by the stream's schema", async () => {
    const rows = rowsByName(await census([DRIFT_LOG]));
    expect(rows.get('telemetry/heartbeat')).toMatchObject({
      dialect: 'official',
      modelled: false,
      unknownFields: [{ pointer: '/seq', count: 1 }],
    });
    expect(rows.get('system/status')?.modelled).toBe(true);
  });

  test('the text form names each unknown field with its first location', async () => {
    const lines = formatCensusText(await census([DRIFT_LOG]), createPalette(false));
    const text = lines.join('\n');
    expect(text).toMatch(
      /unknown field \/tool_call\/shellToolCall\/args\/sandboxTier +1 +first at .*unknown-fields\.ndjson:3/,
    );
    expect(text).toMatch(/telemetry\/heartbeat .*not modelled/);
    expect(lines.at(-1)).toMatch(
      /^1 file, 10 records, 8 record types: \d+ unknown fields, 1 record type not modelled, 1 schema violation, 1 line that is not a record$/,
    );
  });

  test('finds nothing unknown in a recording of known records only', async () => {
    const result = await census(['corpus/official/event-reference-session.ndjson']);
    expect(result.rows.every((row) => row.unknownFields.length === 0 && row.violations === null)).toBe(true);
  });
});

/** Every unknown field strict validation reports on a line of these logs is in the census, first seen no later. */
function expectEveryUnknownFieldListed(result: CensusJson, files: readonly string[]): void {
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, index) => {
        let record: unknown;
        try {
          record = JSON.parse(text);
        } catch {
          return;
        }
        if (
          typeof record !== 'object' ||
          record === null ||
          officialDialect.detect(record as JsonObject) === 'foreign'
        )
          return;
        const value = record as JsonObject;
        const issue = officialDialect.validate(value, { strict: true })[0];
        if (issue === undefined || issue.keyword !== 'unevaluatedProperties') return;
        const pointer = censusPointer(value, issue.pointer);
        const entry = result.rows
          .filter((row) => row.type === value.type && row.dialect === 'official')
          .flatMap((row) => row.unknownFields)
          .find((candidate) => candidate.pointer === pointer);
        expect(entry, `${file}:${index + 1} ${pointer}`).toBeDefined();
      });
  }
}

describe('census on the real corpus', () => {
  const present = REAL_CORPUS.present;
  test.skipIf(!present)(
    'reads every recording, counts every record and lists every unknown field',
    async () => {
      const result = await censusOfLogs([REAL_CORPUS.path], { dialect: 'auto' }, NO_STDIN);
      const files = readdirSync(REAL_CORPUS.path, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ndjson'))
        .map((name) => join(REAL_CORPUS.path, name));
      expect(result.files).toBe(files.length);
      expect(result.unreadable).toEqual([]);
      expect(result.rows.reduce((sum, row) => sum + row.count, 0)).toBe(result.records);
      for (const row of result.rows) {
        for (const entry of [...row.unknownFields, ...row.unknownValues, row]) {
          expect(files).toContain(entry.first.path);
          expect(entry.first.line).toBeGreaterThan(0);
        }
      }
      expectEveryUnknownFieldListed(result, files);
    },
  );
  if (!present) test.skip(`census on the real corpus ${REAL_CORPUS.needs}`, () => {});
});

test('every unknown field of the drift recording is listed', async () => {
  expectEveryUnknownFieldListed(await census([DRIFT_LOG]), [join(REPO_ROOT, DRIFT_LOG)]);
});
