/**
 * `@cursor-stream/export/clickhouse`: logs into ClickHouse through its HTTP interface only, with the SQL that
 * ClickHouse 18.16 (Debian's) and current releases share: plain `MergeTree` tables, `JSONEachRow` inserts, and
 * `ALTER TABLE ... DELETE` (a mutation, awaited) to remove a log's old rows before it is written again.
 */

import { ExportFailure, type ExportWarningListener, type LogExporter } from '../log-exporter.ts';
import { createTableExporter, type TableWriter } from '../tables/table-export.ts';
import { TABLES } from '../tables/table-schema.ts';
import { createTableSql, quoteIdentifier } from '../tables/table-sql.ts';

/** Options of {@link createClickHouseExporter}. */
export interface ClickHouseExportOptions {
  /** The HTTP interface, e.g. `http://127.0.0.1:8123/`; a `database` search parameter selects the database. */
  url: string;
  /** Sent as `X-ClickHouse-User` / `X-ClickHouse-Key`, never in the URL (e.g. from `CLICKHOUSE_USER`). */
  user?: string;
  password?: string;
  /** How long to wait for the removal of a log's old rows; default 60 s. */
  mutationTimeoutMs?: number;
  /** How long to wait for the server's answer to one statement; default 60 s. */
  requestTimeoutMs?: number;
  /** Hears of each value changed to fit its column or left out; see `createTableExporter`. */
  onWarning?: ExportWarningListener;
}

/** Characters of a server's error answer kept in a message. */
const MAX_ERROR_TEXT = 500;

/** A string literal in ClickHouse SQL (backslash escapes, as 18.16 reads them). */
export function clickHouseString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** What talks to the server: one statement per request, its answer as text. */
export interface ClickHouseClient {
  query(sql: string, body?: string): Promise<string>;
}

/** Bytes of an answer read: the export asks only for counts, and a server's error text is cut anyway. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The answer's text, up to {@link MAX_ANSWER_BYTES}; the rest is not read. */
async function boundedText(response: Response): Promise<string> {
  if (response.body === null) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of response.body) {
    const room = MAX_ANSWER_BYTES - bytes;
    text += decoder.decode(chunk.subarray(0, room), { stream: true });
    bytes += chunk.length;
    // Leaving the loop cancels the body.
    if (bytes >= MAX_ANSWER_BYTES) break;
  }
  return text + decoder.decode();
}

function bounded(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_ERROR_TEXT ? `${line.slice(0, MAX_ERROR_TEXT)}…` : line;
}

/** What a refusal says: the status, and the server's text with the password taken out (a proxy may echo headers). */
function refusal(response: Response, text: string, password: string | undefined): string {
  const status = `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  const said = bounded(password === undefined || password === '' ? text : text.replaceAll(password, '***'));
  return said === '' ? `ClickHouse: HTTP ${status}` : `ClickHouse: ${said} (HTTP ${status})`;
}

/**
 * A credential goes in a header, whose value may hold tabs and printable Latin-1 only: fetch refuses any other, in an
 * error that quotes the value whole.
 */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A client for the HTTP interface at `options.url`. */
export function createClickHouseClient(options: ClickHouseExportOptions): ClickHouseClient {
  for (const [name, value] of [
    ['user', options.user],
    ['password', options.password],
  ] as const) {
    if (value !== undefined && !HEADER_VALUE.test(value))
      throw new ExportFailure({
        code: 'invalid-credentials',
        message: `the ClickHouse ${name} holds a line break, a control character or a character past Latin-1, which no header carries (a file saved with Windows line endings?)`,
      });
  }
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (options.user !== undefined) headers['x-clickhouse-user'] = options.user;
  if (options.password !== undefined) headers['x-clickhouse-key'] = options.password;
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  return {
    async query(sql, body) {
      const url = new URL(options.url);
      // With a body, the statement goes in the URL and the rows in the body; otherwise the statement is the body.
      if (body !== undefined) url.searchParams.set('query', sql);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers,
          body: body ?? sql,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const timedOut = (error as { name?: unknown }).name === 'TimeoutError';
        const said = timedOut
          ? `no answer within ${timeoutMs / 1000} s`
          : (cause?.code ?? cause?.message ?? String(error));
        // What fetch says may quote what was sent: never the credentials.
        let why = said;
        for (const secret of [options.password, options.user])
          if (secret !== undefined && secret !== '') why = why.replaceAll(secret, '***');
        throw new ExportFailure({
          code: 'connection-failed',
          message: `cannot reach ClickHouse at ${url.origin}: ${why}`,
        });
      }
      const text = await boundedText(response);
      if (!response.ok) {
        throw new ExportFailure({ code: 'server-error', message: refusal(response, text, options.password) });
      }
      return text;
    },
  };
}

async function waitForMutations(client: ClickHouseClient, timeoutMs: number): Promise<void> {
  const names = TABLES.map((table) => clickHouseString(table.name)).join(', ');
  const pending = `SELECT count() FROM system.mutations WHERE database = currentDatabase() AND table IN (${names}) AND is_done = 0`;
  const deadline = Date.now() + timeoutMs;
  while (Number((await client.query(pending)).trim()) > 0) {
    if (Date.now() > deadline) {
      throw new ExportFailure({
        code: 'write-failed',
        message: 'ClickHouse: removing old rows did not finish in time',
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function clickHouseWriter(client: ClickHouseClient, timeoutMs: number): TableWriter {
  return {
    async removeLog(file) {
      const where = `file = ${clickHouseString(file)}`;
      let mutated = false;
      for (const table of TABLES) {
        const name = quoteIdentifier(table.name);
        // A mutation rewrites data parts: worth it only when the log is there, not on a first export.
        if (Number((await client.query(`SELECT count() FROM ${name} WHERE ${where}`)).trim()) === 0) continue;
        await client.query(`ALTER TABLE ${name} DELETE WHERE ${where}`);
        mutated = true;
      }
      // Mutations run in the background; later inserts are not touched by them, but queries would see old rows.
      if (mutated) await waitForMutations(client, timeoutMs);
    },
    async insert(table, rows) {
      const body = rows.map((row) => JSON.stringify(row)).join('\n');
      await client.query(`INSERT INTO ${quoteIdentifier(table.name)} FORMAT JSONEachRow`, body);
    },
    async close() {},
  };
}

/**
 * Creates the tables `sessions`, `tool_calls` and `events` when missing and returns an exporter writing into them.
 * Fails with `connection-failed` when the server cannot be reached and `server-error` when it refuses a statement.
 */
export async function createClickHouseExporter(options: ClickHouseExportOptions): Promise<LogExporter> {
  const client = createClickHouseClient(options);
  for (const table of TABLES) await client.query(createTableSql('clickhouse', table));
  return createTableExporter(
    clickHouseWriter(client, options.mutationTimeoutMs ?? 60_000),
    options.onWarning === undefined ? {} : { onWarning: options.onWarning },
  );
}
