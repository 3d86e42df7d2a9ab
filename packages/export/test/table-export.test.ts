import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseClient, createClickHouseExporter } from '../src/clickhouse/index.ts';
import { createDuckDbExporter } from '../src/duckdb/index.ts';
import {
  BATCH_ROWS,
  createTableExporter,
  EXAMPLE_QUERIES,
  type ExportWarning,
  type LogExporter,
  quoteIdentifier,
  type Row,
  TABLES,
  type Table,
} from '../src/index.ts';
import { startClickHouse, type TestClickHouse } from './clickhouse-server.ts';
import { feedLog, HOSTILE_LOGS, NEWLINE_CALL_ID, TWO_SESSIONS_LOG } from './export-fixtures.ts';

type Rows = Record<string, unknown>[];

/** Engines answer with different number types (BIGINT, Int64 as a string, doubles): compare as numbers. */
function plain(rows: Rows): Rows {
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => {
        if (typeof value === 'bigint') return [key, Number(value)];
        if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return [key, Number(value)];
        return [key, value];
      }),
    ),
  );
}

/** A second log: one more session on another day, with another model. */
const OTHER_LOG = TWO_SESSIONS_LOG.replaceAll('aaaaaaaa', 'cccccccc')
  .replaceAll('bbbbbbbb', 'dddddddd')
  .replaceAll('1790000', '1790100')
  .replaceAll('Claude 4 Sonnet', 'GPT-5');

async function exportBoth(exporter: Awaited<ReturnType<typeof createDuckDbExporter>>) {
  await feedLog(exporter, '/logs/one.ndjson', TWO_SESSIONS_LOG);
  await feedLog(exporter, '/logs/two.ndjson', OTHER_LOG);
  // Exported again: its rows are replaced, not added.
  await feedLog(exporter, '/logs/one.ndjson', TWO_SESSIONS_LOG);
  return exporter.close();
}

let dir: string;
let duckDbAnswers: Record<string, Rows>;
let clickHouse: TestClickHouse | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cursor-stream-export-'));
  clickHouse = await startClickHouse();
  if (clickHouse === undefined)
    console.warn('clickhouse-server is not installed: skipping the ClickHouse tests');
});

afterAll(async () => {
  await clickHouse?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('DuckDB export', () => {
  it('writes the three tables, replacing a re-exported log, and answers the documented queries', async () => {
    const path = join(dir, 'runs.duckdb');
    const totals = await exportBoth(await createDuckDbExporter({ path }));
    expect(totals).toMatchObject({ logs: 3, sessions: 6 });

    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    const read = async (sql: string) => plain((await connection.runAndReadAll(sql)).getRowObjects() as Rows);
    try {
      expect(await read('SELECT file, count(*) AS n FROM sessions GROUP BY file ORDER BY file')).toEqual([
        { file: '/logs/one.ndjson', n: 2 },
        { file: '/logs/two.ndjson', n: 2 },
      ]);
      const [events] = await read(
        `SELECT count(*) AS n, count(DISTINCT "offset") AS offsets FROM events WHERE file = '/logs/one.ndjson'`,
      );
      expect(events?.n).toBe(14);
      const ids = await read(`SELECT tool_call_id FROM tool_calls WHERE status = 'failure' ORDER BY file`);
      expect(ids.map((row) => row.tool_call_id)).toEqual([NEWLINE_CALL_ID, NEWLINE_CALL_ID]);
      const [session] = await read(
        `SELECT * FROM sessions WHERE file = '/logs/one.ndjson' AND session_index = 1`,
      );
      expect(session).toMatchObject({
        status: 'error',
        failure: 'The agent could not finish: permission denied.',
        day: null,
      });

      duckDbAnswers = {};
      for (const [name, sql] of Object.entries(EXAMPLE_QUERIES)) duckDbAnswers[name] = await read(sql);
      expect(duckDbAnswers.slowestTools?.map((row) => row.duration_ms)).toEqual([1500, 1500, 250, 250]);
      expect(duckDbAnswers.failureRate).toEqual([
        { tool_name: 'shell', model: 'GPT-5', calls: 6, failed: 3, failed_percent: 50 },
        { tool_name: 'shell', model: 'Claude 4 Sonnet', calls: 2, failed: 1, failed_percent: 50 },
      ]);
      expect(duckDbAnswers.tokensPerDay?.map((row) => [row.day, row.sessions, row.input_tokens])).toEqual([
        ['2026-09-21', 1, 1200],
        ['2026-09-22', 1, 1200],
        [null, 2, null],
      ]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});

describe('ClickHouse export', () => {
  it('gives the same answers as DuckDB to the documented queries', async (context) => {
    if (clickHouse === undefined) return context.skip('clickhouse-server is not installed');
    const url = clickHouse.url;
    const totals = await exportBoth(await createClickHouseExporter({ url }));
    expect(totals).toMatchObject({ logs: 3, sessions: 6 });
    const client = createClickHouseClient({ url });
    const read = async (sql: string) =>
      plain(
        (await client.query(`${sql} FORMAT JSONEachRow`))
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
    expect(await read(`SELECT count(*) AS n FROM events WHERE file = '/logs/one.ndjson'`)).toEqual([
      { n: 14 },
    ]);
    for (const [name, sql] of Object.entries(EXAMPLE_QUERIES)) {
      expect(await read(sql), name).toEqual(duckDbAnswers[name]);
    }
  });

  it('reads a bounded part of what a server answers, and says what it refused', async () => {
    let sent = 0;
    const server = createServer((_request, response) => {
      response.writeHead(500);
      // Far more than any answer the export needs; the client stops reading at its bound.
      const chunk = `Code: 62, e.displayText() = DB::Exception: Syntax error ${'x'.repeat(64 * 1024)}`;
      const write = () => {
        while (sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', write);
        }
        response.end();
      };
      write();
      response.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const failure = await createClickHouseExporter({ url: `http://127.0.0.1:${port}/` }).catch(
        (error) => error,
      );
      expect(failure).toMatchObject({ code: 'server-error' });
      expect(String(failure.message)).toMatch(
        /^ClickHouse: Code: 62, e\.displayText\(\) = DB::Exception: Syntax error x+… \(HTTP 500 Internal Server Error\)$/,
      );
      expect(String(failure.message).length).toBeLessThan(600);
      expect(sent).toBeLessThan(64 * 1024 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('says the status of a refusal with no text, and never the password a proxy echoes back', async () => {
    const server = createServer((request, response) => {
      if (request.url === '/empty/') return void response.writeHead(404).end();
      response.writeHead(401).end(`Unauthorized. You sent: ${request.headers['x-clickhouse-key']}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const refused = (path: string) =>
        createClickHouseExporter({ url: `http://127.0.0.1:${port}${path}`, password: 'hunter2' }).catch(
          (error) => error,
        );
      expect((await refused('/empty/')).message).toBe('ClickHouse: HTTP 404 Not Found');
      expect((await refused('/')).message).toBe(
        'ClickHouse: Unauthorized. You sent: *** (HTTP 401 Unauthorized)',
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('gives up on a server that does not answer, saying how long it waited', async () => {
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const failure = await createClickHouseExporter({
        url: `http://127.0.0.1:${port}/`,
        requestTimeoutMs: 200,
      }).catch((error) => error);
      expect(failure).toMatchObject({
        code: 'connection-failed',
        message: `cannot reach ClickHouse at http://127.0.0.1:${port}: no answer within 0.2 s`,
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([
    ['password', { password: 'TopSecret\rpw' }],
    ['password', { password: 'TopSecret\npw' }],
    ['user', { user: 'me\u20ac' }],
  ])('refuses a %s no header carries, without saying it', async (name, credentials) => {
    const failure = await createClickHouseExporter({ url: 'http://127.0.0.1:1/', ...credentials }).catch(
      (error) => error,
    );
    expect(failure).toMatchObject({ code: 'invalid-credentials' });
    expect(failure.message).toContain(`the ClickHouse ${name} holds`);
    for (const secret of Object.values(credentials)) expect(failure.message).not.toContain(secret);
  });

  it('names the server it cannot reach', async () => {
    await expect(createClickHouseExporter({ url: 'http://127.0.0.1:1/' })).rejects.toMatchObject({
      code: 'connection-failed',
    });
  });
});

/** Exports logs into a fresh DuckDB file and a fresh ClickHouse database; the documented queries' answers of each. */
async function answersOf(name: string, logs: readonly [string, string][]) {
  const exportTo = async (exporter: LogExporter) => {
    for (const [file, text] of logs) await feedLog(exporter, file, text);
    return exporter.close();
  };
  const path = join(dir, `${name}.duckdb`);
  await exportTo(await createDuckDbExporter({ path }));
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  const duckDb: Record<string, Rows> = {};
  try {
    for (const [query, sql] of Object.entries(EXAMPLE_QUERIES)) {
      duckDb[query] = plain((await connection.runAndReadAll(sql)).getRowObjects() as Rows);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  if (clickHouse === undefined) return { duckDb, clickHouse: undefined };
  await createClickHouseClient({ url: clickHouse.url }).query(`CREATE DATABASE IF NOT EXISTS ${name}`);
  const url = `${clickHouse.url}?database=${name}`;
  await exportTo(await createClickHouseExporter({ url }));
  const client = createClickHouseClient({ url });
  const answers: Record<string, Rows> = {};
  for (const [query, sql] of Object.entries(EXAMPLE_QUERIES)) {
    const text = await client.query(`${sql} FORMAT JSONEachRow`);
    answers[query] = plain(
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    );
  }
  return { duckDb, clickHouse: answers };
}

describe('DuckDB and ClickHouse on other logs', () => {
  it.skipIf(!REAL_CORPUS.present)(
    `give the same answers on the real recordings ${REAL_CORPUS.needs}`,
    async (context) => {
      const logs = REAL_CORPUS.ndjsonFiles().map((path): [string, string] => [
        path,
        readFileSync(path, 'utf8'),
      ]);
      const answers = await answersOf('real', logs);
      expect(answers.duckDb.failureRate?.length).toBeGreaterThan(0);
      if (answers.clickHouse === undefined) return context.skip('clickhouse-server is not installed');
      expect(answers.clickHouse).toEqual(answers.duckDb);
    },
  );

  it('replace the rows of a log whose name holds quotes and backslashes', async (context) => {
    const odd = '/logs/it\'s a \\ "log".ndjson';
    const answers = await answersOf('odd', [
      [odd, TWO_SESSIONS_LOG],
      [odd, TWO_SESSIONS_LOG],
    ]);
    expect(answers.duckDb.tokensPerDay?.map((row) => row.sessions)).toEqual([1, 1]);
    if (answers.clickHouse === undefined) return context.skip('clickhouse-server is not installed');
    expect(answers.clickHouse).toEqual(answers.duckDb);
  });
});

describe('table export batches', () => {
  it('writes every row in batches of at most BATCH_ROWS', async () => {
    const inserts: { table: string; rows: number }[] = [];
    let removed = 0;
    const exporter = createTableExporter({
      removeLog: async () => void removed++,
      insert: async (table: Table, rows: readonly Row[]) =>
        void inserts.push({ table: table.name, rows: rows.length }),
      close: async () => {},
    });
    const many = Array.from({ length: 400 }, () => TWO_SESSIONS_LOG).join('');
    await feedLog(exporter, 'many.ndjson', many);
    const totals = await exporter.close();
    expect(removed).toBe(1);
    expect(totals.sessions).toBe(800);
    for (const insert of inserts) expect(insert.rows).toBeLessThanOrEqual(BATCH_ROWS);
    const sum = (table: string) =>
      inserts.filter((insert) => insert.table === table).reduce((n, i) => n + i.rows, 0);
    expect(sum('events')).toBe(totals.events);
    expect(sum('sessions')).toBe(800);
    expect(sum('tool_calls')).toBe(totals.toolCalls);
    expect(inserts.filter((insert) => insert.table === 'events').length).toBeGreaterThan(1);
  });
});

/** Every row of the three tables, in a fixed order, as plain values. */
async function allRows(read: (sql: string) => Promise<Rows>): Promise<Record<string, Rows>> {
  const tables: Record<string, Rows> = {};
  for (const table of TABLES) {
    const order = table.orderBy.map(quoteIdentifier).join(', ');
    tables[table.name] = await read(`SELECT * FROM ${quoteIdentifier(table.name)} ORDER BY ${order}`);
  }
  return tables;
}

describe('values outside their columns’ types', () => {
  it('are stored as NULL or cut to fit, each with a warning naming its log and line, and every log is exported', async () => {
    const warnings: ExportWarning[] = [];
    const path = join(dir, 'hostile.duckdb');
    const exporter = await createDuckDbExporter({ path, onWarning: (warning) => warnings.push(warning) });
    for (const [file, text] of HOSTILE_LOGS) await feedLog(exporter, file, text);
    expect(await exporter.close()).toMatchObject({ logs: 3, sessions: 4 });
    const said = warnings.map((warning) => `${warning.file}:${warning.line}: ${warning.message}`);
    expect(said).toEqual(
      expect.arrayContaining([
        '/logs/times.ndjson:1: timestamp_ms 1e+300 is after 2554-07-21, the latest time a record may name; left out',
        '/logs/times.ndjson:2: timestamp_ms 8640000000000001 is after 2554-07-21, the latest time a record may name; left out',
        '/logs/times.ndjson:2: tool_call.startedAtMs "9999999999999999" is after 2554-07-21, the latest time a record may name; left out',
        "/logs/times.ndjson:4: sessions.duration_ms 1e+308 is outside the column's range; stored as NULL",
        '/logs/times.ndjson:2: tool_calls.started_at_ms 1790000000000.25 is not a whole number; stored as 1790000000000',
        '/logs/times.ndjson:3: tool_calls.duration_ms 1.25 is not a whole number; stored as 1',
        '/logs/values.ndjson:3: usage.inputTokens 1e+308 is more tokens than can be counted exactly; left out',
        '/logs/values.ndjson:3: usage.outputTokens 1.5 is not a whole number of tokens; left out',
        '/logs/values.ndjson:3: sessions.duration_ms 5.5 is not a whole number; stored as 5',
        '/logs/values.ndjson:1: sessions.model holds a lone surrogate, which no UTF-8 text can; stored with U+FFFD in its place',
        '/logs/values.ndjson:2: tool_calls.tool_call_id holds a lone surrogate, which no UTF-8 text can; stored with U+FFFD in its place',
        '/logs/values.ndjson:3: events.session_id holds a lone surrogate, which no UTF-8 text can; stored with U+FFFD in its place',
      ]),
    );
    for (const warning of warnings) expect(warning.file).not.toBe('/logs/clean.ndjson');

    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    try {
      duckDbHostileRows = await allRows(async (sql) =>
        plain((await connection.runAndReadAll(sql)).getRowObjects() as Rows),
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    const sessionOf = (file: string) => duckDbHostileRows.sessions?.find((row) => row.file === file);
    const hostile = sessionOf('/logs/times.ndjson');
    const values = sessionOf('/logs/values.ndjson');
    expect(hostile).toMatchObject({
      file: '/logs/times.ndjson',
      started_at_ms: 1790000000000,
      duration_ms: null,
    });
    expect(values).toMatchObject({
      session_id: 's-\ufffd',
      model: 'model \ufffd \u0000 end',
      duration_ms: 5,
      input_tokens: null,
      output_tokens: null,
      cache_read_tokens: 7,
    });
    expect(duckDbHostileRows.sessions?.filter((row) => row.file === '/logs/clean.ndjson')).toHaveLength(2);
  });

  it('are stored the same by ClickHouse as by DuckDB', async (context) => {
    if (clickHouse === undefined) return context.skip('clickhouse-server is not installed');
    const client = createClickHouseClient({ url: clickHouse.url });
    await client.query('CREATE DATABASE IF NOT EXISTS hostile');
    const url = `${clickHouse.url}?database=hostile`;
    const warnings: ExportWarning[] = [];
    const exporter = await createClickHouseExporter({ url, onWarning: (warning) => warnings.push(warning) });
    for (const [file, text] of HOSTILE_LOGS) await feedLog(exporter, file, text);
    expect(await exporter.close()).toMatchObject({ logs: 3, sessions: 4 });
    expect(warnings.length).toBeGreaterThan(10);
    const reader = createClickHouseClient({ url });
    const rows = await allRows(async (sql) =>
      plain(
        (await reader.query(`${sql} FORMAT JSONEachRow`))
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      ),
    );
    expect(rows).toEqual(duckDbHostileRows);
  });
});

let duckDbHostileRows: Record<string, Rows> = {};
