import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { CLI_BIN, runCli, runCliOnResetInput } from '@cursor-stream/test-kit/run-cli';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startClickHouse, type TestClickHouse } from '../../export/test/clickhouse-server.ts';
import { HOSTILE_LOGS } from '../../export/test/export-fixtures.ts';

let scratch = '';
let logs = '';

/** Bundled recordings with no invalid line: the export of them exits 0. */
const CLEAN_LOGS = [
  'corpus/official/docs-example-zh.ndjson',
  'corpus/official/raw-newline-call-id.ndjson',
  'corpus/python-wrapper/tool-calls-and-error-result.ndjson',
];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-export-'));
  logs = join(scratch, 'logs');
  await mkdir(logs);
  for (const log of CLEAN_LOGS) await cp(join(REPO_ROOT, log), join(logs, log.split('/').join('-')));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function countRows(path: string): Promise<Record<string, number>> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    const counts: Record<string, number> = {};
    for (const table of ['sessions', 'tool_calls', 'events']) {
      const rows = (await connection.runAndReadAll(`SELECT count(*) AS n FROM ${table}`)).getRowObjects();
      counts[table] = Number(rows[0]?.n);
    }
    return counts;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('export --format duckdb', () => {
  test('writes the tables from a directory, and a second export replaces the rows', async () => {
    const database = join(scratch, 'runs.duckdb');
    const first = await runCli(['export', '--format', 'duckdb', '-o', database, logs]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /^cursor-stream: exported 3 logs, 3 sessions, \d+ tool calls, \d+ events to /,
    );
    const counts = await countRows(database);
    expect(counts.sessions).toBe(3);
    const again = await runCli(['export', '--format', 'duckdb', '-o', database, logs]);
    expect(again.code).toBe(0);
    expect(await countRows(database)).toEqual(counts);
  });

  test('runs piped in one after another are logs of their own: the second keeps the rows of the first', async () => {
    const database = join(scratch, 'piped.duckdb');
    for (const log of CLEAN_LOGS.slice(0, 2)) {
      const input = await readFile(join(REPO_ROOT, log));
      const run = await runCli(['export', '--format', 'duckdb', '-o', database, '-'], { input });
      expect(run.code, run.stderr).toBe(0);
    }
    expect((await countRows(database)).sessions).toBe(2);
  });
});

describe('export --format otlp', () => {
  test('writes the same file on every run, one request per session', async () => {
    const out = [join(scratch, 'a.jsonl'), join(scratch, 'b.jsonl')];
    for (const path of out) {
      const run = await runCli(['export', '--format', 'otlp', '-o', path, logs]);
      expect([run.code, run.stdout]).toEqual([0, '']);
    }
    const [a, b] = await Promise.all(out.map((path) => readFile(path, 'utf8')));
    expect(a).toBe(b);
    const lines = (a ?? '').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('resourceSpans');
  });

  test('sends a lone surrogate of a log as U+FFFD, and says so: OTLP strings are UTF-8', async () => {
    const input = [
      '{"type":"system","subtype":"init","session_id":"s-\\ud800-x","model":"m\\udc00"}',
      '{"type":"tool_call","subtype":"started","call_id":"c\\ud83d","session_id":"s-\\ud800-x","tool_call":{"shellToolCall":{"args":{"command":"ls"}}}}',
      '{"type":"result","subtype":"success","result":"","session_id":"s-\\ud800-x","is_error":false}',
      '',
    ].join('\n');
    const run = await runCli(['export', '--format', 'otlp', '-'], { input });
    expect(run.stdout).not.toMatch(/\\ud[89ab]/i);
    expect(run.stdout).toContain('s-\ufffd-x');
    expect(run.stderr).toContain(
      'holds a lone surrogate, which no UTF-8 text can; sent with U+FFFD in its place',
    );
    expect(run.code).toBe(1);
  });

  test('an -o it cannot write (a missing folder, a folder, a full disk) is an I/O error, never a success', async () => {
    const outputs = [join(scratch, 'missing', 'traces.jsonl'), scratch];
    if (process.platform === 'linux') outputs.push('/dev/full');
    for (const output of outputs) {
      const run = await runCli(['export', '--format', 'otlp', '-o', output, logs]);
      expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(/^cursor-stream: .+\n$/)]);
      expect(run.stderr).not.toContain('exported');
    }
  });

  test('writes to standard output without -o', async () => {
    const run = await runCli([
      'export',
      '--format',
      'otlp',
      join(logs, CLEAN_LOGS[1]?.split('/').join('-') ?? ''),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"gen_ai.tool.call.id"');
  });

  test('reads standard input from a pipe as from a file: a pipe does not hide the OpenTelemetry packages', async () => {
    // Pipes (FIFOs) in and out, and -o /dev/null, which stats nothing after them: where Node 20 resolved pnpm's links
    // part-way. Twice: the first run may compile the command anew, and read no code cache between.
    const log = join(logs, CLEAN_LOGS[0]?.split('/').join('-') ?? '');
    for (let run = 0; run < 2; run++) {
      const child = spawn(
        'sh',
        [
          '-c',
          'cat "$1" | { "$2" "$3" export --format otlp -o /dev/null -; echo "exit $?" >&2; } | cat',
          'sh',
          log,
          process.execPath,
          CLI_BIN,
        ],
        // Without the test runner's NODE_PATH, through which pnpm's store would be found whatever the links.
        { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_PATH: '' } },
      );
      let stderr = '';
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
      });
      await new Promise((resolve) => child.once('close', resolve));
      expect(stderr).toMatch(/^cursor-stream: exported 1 logs, 1 sessions, .* to \/dev\/null\nexit 0\n$/);
    }
  });

  test('counts in its closing line the logs it read, not standard input that could not be read', async () => {
    const log = join(logs, CLEAN_LOGS[0]?.split('/').join('-') ?? '');
    const { openSync, closeSync } = await import('node:fs');
    const folder = openSync(scratch, 'r');
    try {
      const child = spawn(process.execPath, [CLI_BIN, 'export', '--format', 'otlp', log, '-'], {
        stdio: [folder, 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
      });
      const code = await new Promise((resolve) => child.once('close', resolve));
      expect(code).toBe(2);
      expect(stderr).toContain('cursor-stream: <stdin>: is a directory');
      expect(stderr).toMatch(/^cursor-stream: exported 1 logs, 1 sessions, /m);
    } finally {
      closeSync(folder);
    }
  });

  test('counts standard input whose reading failed part-way, whose sessions it exported', async () => {
    const recording = await readFile(join(REPO_ROOT, CLEAN_LOGS[0] ?? ''), 'utf8');
    const run = await runCliOnResetInput(['export', '--format', 'otlp', '-'], recording.repeat(2));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cursor-stream: exported 1 logs, 2 sessions, /m);
  });

  test("exports a @cursor/sdk store's runs once, from its events, and says the rows beside them are left out", async () => {
    const store = join(scratch, 'sdk-store');
    await mkdir(store, { recursive: true });
    const sdk = join(REPO_ROOT, 'corpus', 'cursor-sdk');
    await cp(join(sdk, 'store-run-events.ndjson'), join(store, 'run_events.ndjson'));
    await cp(join(sdk, 'store-runs.ndjson'), join(store, 'runs.ndjson'));
    const run = await runCli(['export', '--format', 'otlp', store]);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(
      `cursor-stream: ${join(store, 'runs.ndjson')}: left out: the @cursor/sdk store rows`,
    );
  });
});

describe('export usage', () => {
  test.each([
    [['export', '--format', 'duckdb', 'x.ndjson'], 'cursor-stream: --format duckdb needs -o FILE.duckdb\n'],
    [
      ['export', '--format', 'clickhouse', 'x.ndjson'],
      'cursor-stream: --format clickhouse needs --url URL\n',
    ],
    [
      ['export', '--format', 'clickhouse', '--url', 'http://me:secret@127.0.0.1:8123/', 'x.ndjson'],
      'cursor-stream: give credentials in the environment, not in the URL\n',
    ],
    [
      ['export', '--format', 'duckdb', '-o', 'x.duckdb', '--include-content', 'x.ndjson'],
      'cursor-stream: --include-content is for --format otlp\n',
    ],
  ])('%j is a usage error', async (args, message) => {
    const run = await runCli(args);
    expect([run.code, run.stderr, run.stdout]).toEqual([2, message, '']);
  });

  test("a server's refusal is one line with its status, no escape of its reaching the terminal, no password", async () => {
    const server = createServer((request, response) => {
      response
        .writeHead(401)
        .end(
          `Unauthorized.\nYou sent: ${request.headers['x-clickhouse-key']} \u001b]0;PWNED\u0007\u001b[31mred`,
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await runCli(
        ['export', '--format', 'clickhouse', '--url', `http://127.0.0.1:${port}/`, logs],
        {
          env: { CLICKHOUSE_USER: 'bob', CLICKHOUSE_PASSWORD: 'hunter2' },
        },
      );
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toBe(
        'cursor-stream: ClickHouse: Unauthorized. You sent: *** \\u001b]0;PWNED\\u0007\\u001b[31mred (HTTP 401 Unauthorized)\n',
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a missing log is reported and the others are still exported', async () => {
    const path = join(scratch, 'partial.jsonl');
    const run = await runCli(['export', '--format', 'otlp', '-o', path, 'missing.ndjson', logs]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cursor-stream: missing.ndjson: no such file\n');
    expect((await readFile(path, 'utf8')).trimEnd().split('\n')).toHaveLength(3);
  });

  /** The shipped bin and bundle, alone in a directory: no node_modules beside them to find DuckDB or OpenTelemetry in. */
  async function aloneCli(): Promise<
    (args: string[], cwd: string) => Promise<{ code: number | null; stderr: string }>
  > {
    const alone = join(scratch, 'alone');
    await cp(join(REPO_ROOT, 'packages/cli/bin'), join(alone, 'bin'), { recursive: true });
    await cp(join(REPO_ROOT, 'packages/cli/bundle'), join(alone, 'bundle'), { recursive: true });
    await writeFile(join(alone, 'package.json'), JSON.stringify({ type: 'module', version: '0.0.0' }));
    return (args, cwd) =>
      new Promise((resolve) => {
        // Without the NODE_PATH that pnpm's command shims (vitest's among them) set, which finds the workspace's packages.
        const { NODE_PATH: _, ...env } = process.env;
        const child = spawn(process.execPath, [join(alone, 'bin/cursor-stream.js'), ...args], { cwd, env });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (text: string) => {
          stderr += text;
        });
        child.on('close', (code) => resolve({ code, stderr }));
      });
  }

  test('names the command that installs an optional package found nowhere', async () => {
    const run = await aloneCli();
    expect(
      await run(['export', '--format', 'duckdb', '-o', join(scratch, 'none.duckdb'), logs], scratch),
    ).toEqual({
      code: 2,
      stderr:
        'cursor-stream: --format duckdb needs @duckdb/node-api, found neither from the working directory up nor ' +
        'beside cursor-stream: run npm install @duckdb/node-api\n',
    });
    const otlp = await run(['export', '--format', 'otlp', logs], scratch);
    expect(otlp.code).toBe(2);
    expect(otlp.stderr).toMatch(
      /^cursor-stream: --format otlp needs @opentelemetry\/api .*: run npm install @opentelemetry\/api [^\n]*\n$/,
    );
  });

  test('finds the optional packages installed in the project it runs in', async () => {
    const run = await aloneCli();
    // A project whose node_modules holds the peers, as `npm install` there leaves them; the command runs in a
    // folder below it.
    const project = join(scratch, 'project');
    const below = join(project, 'logs');
    await mkdir(join(project, 'node_modules/@duckdb'), { recursive: true });
    await mkdir(join(project, 'node_modules/@opentelemetry'), { recursive: true });
    await mkdir(below, { recursive: true });
    const cliModules = join(REPO_ROOT, 'packages/cli/node_modules');
    for (const peer of [
      '@duckdb/node-api',
      '@opentelemetry/api',
      '@opentelemetry/resources',
      '@opentelemetry/otlp-transformer',
    ]) {
      await symlink(await realpath(join(cliModules, peer)), join(project, 'node_modules', peer), 'dir');
    }
    const database = join(scratch, 'project.duckdb');
    const duckdb = await run(['export', '--format', 'duckdb', '-o', database, logs], below);
    expect(duckdb.code, duckdb.stderr).toBe(0);
    expect((await countRows(database)).sessions).toBe(3);
    const traces = join(scratch, 'project.jsonl');
    const otlp = await run(['export', '--format', 'otlp', '-o', traces, logs], below);
    expect(otlp.code, otlp.stderr).toBe(0);
    expect((await readFile(traces, 'utf8')).trimEnd().split('\n')).toHaveLength(3);
  });
});

describe('export --format otlp --endpoint', () => {
  test('sends the traces to a collector, with headers from the environment', async () => {
    const received: { headers: Record<string, unknown>; body: string }[] = [];
    const server = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      received.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await runCli(
        ['export', '--format', 'otlp', '--endpoint', `http://127.0.0.1:${port}/v1/traces`, logs],
        {
          env: { OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20from-env' },
        },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain('from-env');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(received.length).toBeGreaterThan(0);
    expect(received[0]?.headers.authorization).toBe('Bearer from-env');
    const names = received.flatMap(({ body }) =>
      (
        JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] }
      ).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((span) => span.name))),
    );
    expect(names.filter((name) => name.startsWith('invoke_agent'))).toHaveLength(3);
  });
});

describe('export --format otlp and the OpenTelemetry endpoint variables', () => {
  /** Runs `export --format otlp` with `args` and `env` against a collector; the paths it was sent to. */
  async function pathsSentTo(
    args: (port: number) => string[],
    env: (port: number) => Record<string, string>,
  ) {
    const paths: string[] = [];
    const server = createServer(async (request, response) => {
      for await (const _ of request);
      paths.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await runCli(['export', '--format', 'otlp', ...args(port), logs], { env: env(port) });
      expect(run.code, run.stderr).toBe(0);
      return { paths: [...new Set(paths)], run };
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  test('OTEL_EXPORTER_OTLP_ENDPOINT is a base URL: the traces path is added', async () => {
    const { paths, run } = await pathsSentTo(
      () => [],
      (port) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}/collector` }),
    );
    expect(paths).toEqual(['/collector/v1/traces']);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/ to http:\/\/127\.0\.0\.1:\d+\/collector\/v1\/traces\n$/);
  });

  test("a key in the endpoint's query is sent, and masked in what the command says", async () => {
    const { paths, run } = await pathsSentTo(
      (port) => ['--endpoint', `http://127.0.0.1:${port}/v1/traces?api-key=QSECRET5`],
      () => ({}),
    );
    expect(paths).toEqual(['/v1/traces?api-key=QSECRET5']);
    expect(run.stderr).not.toContain('QSECRET5');
    expect(run.stderr).toMatch(/ to http:\/\/127\.0\.0\.1:\d+\/v1\/traces\?api-key=\*\*\*\n$/);
    const refused = await runCli([
      'export',
      '--format',
      'otlp',
      '--endpoint',
      'http://127.0.0.1:9/v1/traces?api-key=QSECRET5',
      logs,
    ]);
    expect([refused.code, refused.stderr]).toEqual([
      2,
      expect.stringMatching(
        /^cursor-stream: OTLP endpoint http:\/\/127\.0\.0\.1:9\/v1\/traces\?api-key=\*\*\*: .+\n$/,
      ),
    ]);
  });

  test('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as it is, before the general one', async () => {
    const { paths } = await pathsSentTo(
      () => [],
      (port) => ({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}/general`,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${port}/traces-here`,
      }),
    );
    expect(paths).toEqual(['/traces-here']);
  });

  test('a flag wins over the variables', async () => {
    const env = (port: number) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}/general` });
    const flagged = await pathsSentTo((port) => ['--endpoint', `http://127.0.0.1:${port}/flag`], env);
    expect(flagged.paths).toEqual(['/flag']);
    const file = join(scratch, 'env-and-file.jsonl');
    const toFile = await pathsSentTo(() => ['-o', file], env);
    expect(toFile.paths).toEqual([]);
    expect((await readFile(file, 'utf8')).trimEnd().split('\n')).toHaveLength(3);
  });

  test('a variable that is not an http(s) URL is a usage error naming it', async () => {
    const run = await runCli(['export', '--format', 'otlp', logs], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
    });
    expect([run.code, run.stderr]).toEqual([
      2,
      'cursor-stream: not an http(s) URL: collector:4318/v1/traces (from OTEL_EXPORTER_OTLP_ENDPOINT)\n',
    ]);
  });
});

describe('export of values outside their columns’ types', () => {
  let clickHouse: TestClickHouse | undefined;
  let hostile = '';

  beforeAll(async () => {
    hostile = join(scratch, 'hostile');
    await mkdir(hostile);
    for (const [file, text] of HOSTILE_LOGS)
      await writeFile(join(hostile, file.split('/').at(-1) ?? ''), text);
    // A log of 30 sessions, each with a duration no integer column takes: the first 20 values are listed.
    const many = Array.from({ length: 30 }, (_, index) =>
      [
        `{"type":"system","subtype":"init","session_id":"m-${index}","model":"m"}`,
        `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"m-${index}","duration_ms":${index}.5}`,
      ].join('\n'),
    );
    await writeFile(join(hostile, 'many.ndjson'), `${many.join('\n')}\n`);
    clickHouse = await startClickHouse();
  });

  afterAll(async () => {
    await clickHouse?.stop();
  });

  function expectEveryLogExported(run: { code: number | null; stderr: string }): void {
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).not.toMatch(/RangeError|out of int64 range|\n\s+at /);
    expect(run.stderr).toContain(
      `cursor-stream: ${join(hostile, 'times.ndjson')}: line 1: timestamp_ms 1e+300 is after 2554-07-21, the latest time a record may name; left out\n`,
    );
    expect(run.stderr).toContain(
      `cursor-stream: ${join(hostile, 'values.ndjson')}: line 1: sessions.model holds a lone surrogate, which no UTF-8 text can; stored with U+FFFD in its place\n`,
    );
    const many = run.stderr.split('\n').filter((line) => line.includes('many.ndjson'));
    expect(many).toHaveLength(21);
    expect(many.at(-1)).toBe(
      `cursor-stream: ${join(hostile, 'many.ndjson')}: 10 more values changed or left out, not listed`,
    );
    expect(run.stderr).toMatch(/exported 4 logs, 34 sessions, /);
  }

  test('DuckDB takes every log, each value changed said with its file and line', async () => {
    const database = join(scratch, 'hostile.duckdb');
    const run = await runCli(['export', '--format', 'duckdb', '-o', database, hostile]);
    expectEveryLogExported(run);
    expect(await countRows(database)).toMatchObject({ sessions: 34 });
  });

  test('ClickHouse takes every log the same way', async (context) => {
    if (clickHouse === undefined) return context.skip('clickhouse-server is not installed');
    const run = await runCli(['export', '--format', 'clickhouse', '--url', clickHouse.url, hostile]);
    expectEveryLogExported(run);
  });

  test('OTLP takes the attribute length limit of the OpenTelemetry environment', async () => {
    const run = await runCli(
      [
        'export',
        '--format',
        'otlp',
        '--include-content',
        join(logs, CLEAN_LOGS[0]?.split('/').join('-') ?? ''),
      ],
      {
        env: { OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '40' },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const values = [...run.stdout.matchAll(/"stringValue":"((?:[^"\\]|\\.)*)"/g)].map(
      ([, value]) => JSON.parse(`"${value}"`) as string,
    );
    expect(values.some((value) => /… \[\d+ more characters cut\]$/.test(value))).toBe(true);
    for (const value of values) expect(value.length).toBeLessThanOrEqual(40);
  });
});
