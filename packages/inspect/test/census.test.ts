import { type Dialect, type JsonObject, officialDialect, type SchemaIssue } from '@cursor-stream/core';
import {
  CENSUS_LIMITS,
  censusFoundDrift,
  censusPointer,
  createCensusTally,
  recordDrift,
} from '@cursor-stream/inspect/census';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

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

describe('the census tally', () => {
  const name = fc.option(fc.constantFrom('', 'null', 'a', 'a\u0000b', 'b', '["a"]'), { nil: null });
  propTest.prop([fc.array(fc.tuple(name, name, name), { maxLength: 40 })])(
    'counts each (dialect, type, subtype) in one row of its own, a null apart from any string',
    (names) => {
      const tally = createCensusTally();
      const expected = new Map<string, number>();
      for (const [dialect, type, subtype] of names) {
        tally.addRecord({ path: 'a', line: 1 }, dialect, { type, subtype });
        const key = JSON.stringify([dialect, type, subtype]);
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
      const counted = new Map(
        tally.result().rows.map((row) => [JSON.stringify([row.dialect, row.type, row.subtype]), row.count]),
      );
      expect(counted).toEqual(expected);
    },
  );
});

describe('the census tally stays bounded', () => {
  test('record types past the cap are counted, not listed', () => {
    const tally = createCensusTally();
    for (let i = 0; i < CENSUS_LIMITS.rows + 5; i++)
      tally.addRecord({ path: 'a', line: i + 1 }, 'official', { type: `t${i}`, subtype: null });
    const result = tally.result();
    expect(result.rows).toHaveLength(CENSUS_LIMITS.rows);
    expect(result.recordsOmitted).toBe(5);
    expect(result.records).toBe(CENSUS_LIMITS.rows + 5);
    expect(censusFoundDrift(result)).toBe(true);
  });

  test('unknown fields past the cap of a row are counted, not listed', () => {
    const tally = createCensusTally();
    const at = { path: 'a', line: 1 };
    const row = tally.addRecord(at, 'official', { type: 't', subtype: null });
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
