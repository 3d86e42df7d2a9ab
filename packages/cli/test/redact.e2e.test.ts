import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// Put together here, so that no scanner takes the test for a leak.
const alnum = (n: number) => 'Zq4Rt8Wm2Xv6Kp0Ls3'.repeat(Math.ceil(n / 18)).slice(0, n);
const USER = 'gracehopper';
const SECRETS = {
  openai: `sk-proj-${alnum(40)}`,
  anthropic: `sk-ant-api03-${alnum(40)}`,
  github: `ghp_${alnum(36)}`,
  cursor: `key_${'0123456789abcdef'.repeat(4)}`,
  aws: 'AKIAIOSFODNN7EXAMPLE',
  slack: `xoxb-1234567890-${alnum(24)}`,
  google: `AIza${alnum(35)}`,
  bearer: `tok${alnum(30)}`,
  password: 'correct-horse-battery-staple',
  envValue: `envsecret${alnum(12)}`,
  keyBody: `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${alnum(40)}`,
  email: 'grace.hopper@example.com',
  user: USER,
};
const SESSION = 'f00dbabe-0000-4000-8000-000000000001';
const PRIVATE_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRETS.keyBody}\n-----END OPENSSH PRIVATE KEY-----\n`;

/** A log with a secret in every kind of field a record has, and in the lines that are not records. */
function plantedLog(): string {
  const shell = {
    command: `curl -H "Authorization: Bearer ${SECRETS.bearer}" https://api.example.com`,
    env: { OPENAI_API_KEY: SECRETS.openai, SOME: SECRETS.envValue },
    workingDirectory: `/home/${USER}/work`,
    nested: [{ deeper: [{ db_password: SECRETS.password }] }],
  };
  const records = [
    {
      type: 'system',
      subtype: 'init',
      apiKeySource: 'env',
      cwd: `/home/${USER}/work`,
      session_id: SESSION,
      model: 'Claude 4.5 Sonnet',
      permissionMode: 'default',
    },
    {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'text', text: `use ${SECRETS.openai}, mail ${SECRETS.email}` }],
      },
      session_id: SESSION,
    },
    {
      type: 'thinking',
      subtype: 'delta',
      text: `the key ${SECRETS.anthropic}`,
      session_id: SESSION,
      timestamp_ms: 1770823434041,
    },
    { type: 'thinking', subtype: 'completed', session_id: SESSION, timestamp_ms: 1770823435070 },
    {
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: `export GITHUB_TOKEN=${SECRETS.github}` }],
      },
      session_id: SESSION,
    },
    {
      type: 'tool_call',
      subtype: 'started',
      call_id: 'call-1',
      tool_call: { shellToolCall: { args: shell } },
      session_id: SESSION,
    },
    {
      type: 'tool_call',
      subtype: 'completed',
      call_id: 'call-1',
      tool_call: {
        shellToolCall: {
          args: shell,
          result: {
            success: {
              command: shell.command,
              exitCode: 0,
              stdout: `SHELL=/bin/bash\nUSER=${USER}\nPATH=/usr/bin\nHOME=/home/${USER}\nX=${SECRETS.envValue}\n`,
              stderr: `warning: ${SECRETS.slack} ${SECRETS.aws}\n${PRIVATE_KEY}`,
            },
          },
        },
      },
      session_id: SESSION,
    },
    {
      type: 'tool_call',
      subtype: 'started',
      call_id: 'call-2',
      tool_call: { readToolCall: { args: { path: `/Users/${USER}/.cursor/key` } } },
      session_id: SESSION,
    },
    {
      type: 'tool_call',
      subtype: 'completed',
      call_id: 'call-2',
      tool_call: {
        readToolCall: {
          args: { path: `/Users/${USER}/.cursor/key` },
          result: { error: { errorMessage: `denied: ${SECRETS.cursor}` } },
        },
      },
      session_id: SESSION,
    },
    {
      type: 'mystery',
      subtype: 'new',
      payload: { token: SECRETS.password, note: SECRETS.email },
      session_id: SESSION,
    },
  ];
  return [
    ...records.map((record) => JSON.stringify(record)),
    `{"type":"assistant","broken": "${SECRETS.github}`,
    `RetriableError: auth failed for ${SECRETS.email} with ${SECRETS.google}`,
    JSON.stringify({
      type: 'result',
      subtype: 'error',
      is_error: true,
      duration_ms: 10,
      result: `failed: ${SECRETS.google}`,
      session_id: SESSION,
      usage: { inputTokens: 5, outputTokens: 2 },
    }),
  ].join('\n');
}

function leaked(text: string): string[] {
  return Object.entries(SECRETS)
    .filter(([, secret]) => text.includes(secret))
    .map(([name]) => name);
}

let scratch = '';
let log = '';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-redact-'));
  log = join(scratch, 'planted.ndjson');
  await writeFile(log, `${plantedLog()}\n`);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const COUNT_LINE = /^cursor-stream: redacted \d+ secrets \((?:\d+ [a-z-]+(?:, )?)+\)$/m;

describe('--redact', () => {
  test('without it every planted secret is in the output, so the checks below can fail', async () => {
    const run = await runCli(['normalize', log]);
    expect(leaked(run.stdout).sort()).toEqual(Object.keys(SECRETS).sort());
  });

  test.each([
    ['normalize', []],
    ['render', []],
    ['render', ['--verbose']],
    ['report', ['-o', '-']],
    ['export', ['--format', 'otlp', '--include-content']],
  ])('%s %s leaves none of the planted secrets and reports what it removed', async (command, args) => {
    const run = await runCli([command, ...args, '--redact', log]);
    expect(run.stdout.length).toBeGreaterThan(0);
    expect(leaked(run.stdout)).toEqual([]);
    expect(leaked(run.stderr)).toEqual([]);
    expect(run.stderr).toMatch(COUNT_LINE);
    expect(run.stdout).toContain('[redacted:');
  });

  test('normalize counts each kind it removed, and keeps the events whole', async () => {
    const run = await runCli(['normalize', '--redact', log]);
    const counts = /redacted \d+ secrets \((.*)\)/.exec(run.stderr)?.[1]?.split(', ');
    expect(counts?.map((part) => part.replace(/^\d+ /, '')).sort()).toEqual(
      [
        'anthropic-api-key',
        'aws-access-key-id',
        'bearer-token',
        'cursor-api-key',
        'email',
        'environment',
        'github-token',
        'google-api-key',
        'home-directory',
        'openai-api-key',
        'private-key',
        'secret-variable',
        'slack-token',
      ].sort(),
    );
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    const plain = (await runCli(['normalize', log])).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events.map((event) => event.type)).toEqual(plain.map((event) => event.type));
  });

  test('every command counts each secret once, however many forms of its record it redacts', async () => {
    const countOf = (stderr: string) => /^cursor-stream: (redacted [^\n]*)$/m.exec(stderr)?.[1];
    const normalized = countOf((await runCli(['normalize', '--redact', log])).stderr);
    expect(normalized).toMatch(/^redacted \d+ secrets/);
    for (const args of [
      ['report', '-o', '-'],
      ['export', '--format', 'otlp', '--include-content'],
    ]) {
      expect(countOf((await runCli([...args, '--redact', log])).stderr)).toBe(normalized);
    }
  });

  test('export to DuckDB leaves none of them in any table, nor in the log names', async () => {
    const database = join(scratch, 'redacted.duckdb');
    const run = await runCli(['export', '--format', 'duckdb', '-o', database, '--redact', log], {
      env: { HOME: scratch },
    });
    expect(run.stderr).toMatch(COUNT_LINE);
    const instance = await DuckDBInstance.create(database);
    const connection = await instance.connect();
    try {
      let dump = '';
      for (const table of ['sessions', 'tool_calls', 'events']) {
        const rows = (await connection.runAndReadAll(`SELECT * FROM ${table}`)).getRowObjectsJson();
        dump += JSON.stringify(rows);
      }
      expect(dump).toContain('[redacted:');
      expect(leaked(dump)).toEqual([]);
      expect(dump).not.toContain(scratch);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    expect((await readFile(log, 'utf8')).includes(SECRETS.github)).toBe(true);
  });
});
