import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type JsonObject, officialDialect } from '@cursor-stream/core';
import {
  type CensusJson,
  censusDriftSummary,
  censusFoundDrift,
  censusPointer,
  formatCensusText,
} from '@cursor-stream/inspect/census';
import { createPalette } from '@cursor-stream/inspect/terminal';
import { REAL_CORPUS, REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';
import { censusOfLogs } from '../src/commands/census/run.ts';

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

test("knows every field of the CLI's task notification, as a 2026.09 print-mode run writes it", async () => {
  const folder = mkdtempSync(join(tmpdir(), 'cursor-stream-census-'));
  const log = join(folder, 'task.ndjson');
  const notification = {
    type: 'system',
    subtype: 'task_notification',
    task_id: '5139d3d6-9f4a-4c53-a3c4-2b6f1c1f0e11',
    status: 'success',
    title: 'count files',
    detail: 'There are 2 files: a.txt and b.txt.',
  };
  const init = { type: 'system', subtype: 'init', session_id: 's-1', model: 'GPT-5.4 Mini', cwd: '/work' };
  writeFileSync(log, `${JSON.stringify(init)}\n${JSON.stringify(notification)}\n`);
  try {
    const result = await censusOfLogs([log], { dialect: 'auto' }, NO_STDIN);
    expect(rowsByName(result).get('system/task_notification')).toMatchObject({
      count: 1,
      unknownFields: [],
      violations: null,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('says where the first thing it found unknown is: a line that is no record before an unknown field', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-census-first-'));
  try {
    const path = join(scratch, 'noise-then-drift.ndjson');
    const drifted = {
      ...JSON.parse(
        readFileSync(join(REPO_ROOT, 'corpus/official/docs-example-zh.ndjson'), 'utf8').split(
          '\n',
        )[0] as string,
      ),
      zzz: 1,
    };
    writeFileSync(path, `hello\n${JSON.stringify(drifted)}\n`);
    const drift = censusDriftSummary(await censusOfLogs([path], { dialect: 'auto' }, NO_STDIN));
    expect(drift?.first).toEqual({ path, line: 1 });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('a file named twice is counted once, and the second name said', async () => {
  const notes: string[] = [];
  const log = join(REPO_ROOT, 'corpus/official/event-reference-session.ndjson');
  const once = await censusOfLogs([log], { dialect: 'auto' }, NO_STDIN);
  const twice = await censusOfLogs(
    [log, log],
    { dialect: 'auto' },
    {
      ...NO_STDIN,
      onCountedElsewhere: (note) => void notes.push(`${note.code}: ${note.message}`),
    },
  );
  expect([twice.files, twice.records]).toEqual([once.files, once.records]);
  expect(notes).toEqual(['counted-elsewhere: named twice: read once']);
});

describe('census of the other channels', () => {
  test('names every ACP and SDK record as a reader of the traffic does, and finds nothing unknown in them', async () => {
    const result = await census(['corpus/acp', 'corpus/cursor-sdk']);
    expect(result.rows.filter((row) => row.type === null)).toEqual([]);
    expect(censusFoundDrift(result)).toBe(false);
    const names = (dialect: string) =>
      result.rows.filter((row) => row.dialect === dialect).map((row) => [row.type, row.subtype]);
    expect(names('acp')).toEqual(
      expect.arrayContaining([
        ['session/update', 'agent_message_chunk'],
        ['session/update', 'tool_call_update'],
        ['initialize', null],
        ['initialize', 'response'],
        ['session/prompt', 'response'],
        ['session/request_permission', 'response'],
        ['session/new', 'error'],
        ['note', 'summary'],
      ]),
    );
    expect(names('cursor-sdk')).toEqual(
      expect.arrayContaining([
        ['tool_call', 'completed'],
        ['sdk_message', 'system/init'],
        ['sdk_message', 'tool_call/error'],
        ['result', 'finished'],
        ['run_stream_event', 'sdk_message assistant'],
        ['run', 'finished'],
      ]),
    );
    const text = formatCensusText(result, createPalette(false)).join('\n');
    expect(text).toMatch(/^ {2}session\/update agent_message_chunk +\d+ /m);
    expect(text).toMatch(/^ {2}run_stream_event sdk_message system\/init +1 /m);
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
