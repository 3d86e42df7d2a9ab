import { execFileSync } from 'node:child_process';
import { chmodSync, createWriteStream, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { createRelayServer, RelayConfigError, type RelayServer } from '@cursor-stream/relay';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { readSse } from '@cursor-stream/test-kit/sse';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { postRun, runEnded, scratch, serveExit, startRelay, startServe } from './support.ts';

const space = scratch();
afterAll(() => space.remove());
const TOKEN = 'a-long-secret-token-0123456789';

/** A raw request, so that headers fetch would fix (Host, Origin) can be set. */
function raw(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, method: options.method ?? 'GET', path: options.path, headers: options.headers ?? {} },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (text: string) => {
          body += text;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function upgrade(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => resolve(-1));
  });
}

describe('binding', () => {
  test('a non-loopback address without a token refuses to start', () => {
    expect(() => createRelayServer({ dataDir: join(space.dir, 'x'), host: '0.0.0.0' })).toThrow(
      RelayConfigError,
    );
    try {
      createRelayServer({ dataDir: join(space.dir, 'x'), host: '0.0.0.0' });
    } catch (error) {
      expect((error as RelayConfigError).code).toBe('token-required');
    }
  });

  test.each([
    ['of white space only', ' '],
    ['of white space only', '\t'],
    ['of white space only', '\n \n'],
    ['no Authorization header carries', 'abc\n'],
    ['no Authorization header carries', 'two words'],
    ['no Authorization header carries', 'caf\u00e9-token'],
    ['no Authorization header carries', 'tab\tinside'],
  ])('a token %s (%j) refuses to start, on any address', (_what, token) => {
    for (const host of ['0.0.0.0', '127.0.0.1']) {
      let code: string | undefined;
      try {
        void createRelayServer({ dataDir: join(space.dir, 'x'), host, token }).close();
      } catch (error) {
        code = (error as RelayConfigError).code;
      }
      expect(code).toBe('token-required');
    }
  });

  test('`serve --host 0.0.0.0` without a token exits 2 with one line', async () => {
    const { code, stderr } = await serveExit(['--host', '0.0.0.0', '--data-dir', join(space.dir, 'cli')], {
      CURSOR_STREAM_TOKEN: undefined,
    });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      'cursor-stream: listening on 0.0.0.0 (not loopback) requires a token (CURSOR_STREAM_TOKEN, --token-file or --token)',
    ]);
  });
});

describe('serve, its token from a file', () => {
  test('`--token-file` gives the token off the command line: its first line, without its line break', async () => {
    const file = join(space.dir, 'token-file.txt');
    // A byte order mark, a lone CR for a line break, and notes past 4 KiB after the line, as a password manager keeps.
    writeFileSync(file, `\uFEFF${TOKEN}\rnot part of it\n${'notes '.repeat(2000)}`);
    const server = await startServe(
      ['--host', '0.0.0.0', '--data-dir', join(space.dir, 'file-token'), '--token-file', file],
      {
        CURSOR_STREAM_TOKEN: undefined,
      },
    );
    try {
      const url = server.url.replace('0.0.0.0', '127.0.0.1');
      expect((await fetch(`${url}/api/runs`)).status).toBe(401);
      expect((await fetch(`${url}/api/runs`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
        200,
      );
      expect(server.stderr()).not.toContain('warning');
      expect(server.stderr()).not.toContain(TOKEN);
    } finally {
      server.child.kill('SIGTERM');
    }
  });

  test.skipIf(process.platform === 'win32')(
    '`--token-file` reads a pipe up to its first line break, while its writer keeps it open',
    async () => {
      const fifo = join(space.dir, 'token.fifo');
      execFileSync('mkfifo', [fifo]);
      const writer = createWriteStream(fifo);
      writer.write(`${TOKEN}\n`);
      try {
        const server = await startServe(['--data-dir', join(space.dir, 'pipe-token'), '--token-file', fifo]);
        try {
          const headers = { authorization: `Bearer ${TOKEN}` };
          expect((await fetch(`${server.url}/api/runs`, { headers })).status).toBe(200);
          expect((await fetch(`${server.url}/api/runs`)).status).toBe(401);
        } finally {
          server.child.kill('SIGTERM');
        }
      } finally {
        writer.end();
      }
    },
  );

  test('`--token` works, and says once that every user of the machine can read it', async () => {
    const server = await startServe(['--data-dir', join(space.dir, 'flag-token'), '--token', TOKEN]);
    try {
      expect((await fetch(`${server.url}/api/runs`)).status).toBe(401);
      expect(server.stderr().match(/warning: --token is visible to every user/g)).toHaveLength(1);
      expect(server.stderr()).not.toContain(TOKEN);
    } finally {
      server.child.kill('SIGTERM');
    }
  });

  test.each([
    [
      'both flags',
      (file: string) => ['--token', TOKEN, '--token-file', file],
      'give --token or --token-file, not both',
    ],
    ['a missing file', (file: string) => ['--token-file', `${file}.missing`], 'cannot read it: ENOENT'],
    [
      'an empty first line',
      (file: string) => ['--token-file', `${file}.empty`],
      'no token on its first line',
    ],
    ['a folder', (file: string) => ['--token-file', join(file, '..')], 'cannot read it: EISDIR'],
    [
      'a first line past 4 KiB',
      (file: string) => ['--token-file', `${file}.big`],
      'its first line is over 4096 bytes: not a token',
    ],
    [
      'a first line of control characters or bytes not UTF-8 (a UTF-16 file)',
      (file: string) => ['--token-file', `${file}.utf16`],
      'not UTF-8: not a token',
    ],
  ])('%s exits 2 with one line, before listening', async (_name, args, message) => {
    const file = join(space.dir, 'misused-token');
    writeFileSync(file, TOKEN);
    writeFileSync(`${file}.empty`, '\nsecond line');
    writeFileSync(`${file}.big`, 'x'.repeat(5000));
    writeFileSync(`${file}.utf16`, Buffer.from(`\uFEFF${TOKEN}`, 'utf16le'));
    const { code, stderr } = await serveExit([
      ...args(file),
      '--port',
      '0',
      '--data-dir',
      join(space.dir, 'm'),
    ]);
    expect(code).toBe(2);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
    expect(stderr).not.toContain(TOKEN);
  });
});

test("a failed run's error names the agent's program, not where the server keeps it", async () => {
  const { relay, url } = await startRelay({
    dataDir: join(space.dir, 'agent-paths'),
    agent: { binary: space.agent, env: { FAKE_AGENT_STDERR: 'Error: boom\n', FAKE_AGENT_EXIT: '3' } },
  });
  try {
    const runId = await postRun(url, { prompt: 'fail' });
    await runEnded(url, runId);
    const record = (await (await fetch(`${url}/api/runs/${runId}`)).json()) as { error: { message: string } };
    const events = await readSse(`${url}/api/runs/${runId}/events`);
    for (const said of [record.error.message, JSON.stringify(events.messages)]) {
      expect(said).toContain(`${basename(space.agent)} exited with code 3: Error: boom`);
      expect(said).not.toContain(dirname(space.agent));
    }
  } finally {
    await relay.close();
  }
});

describe('serve, misused', () => {
  test('`--data-dir` naming a file exits 2 with one line', async () => {
    const file = join(space.dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const { code, stderr } = await serveExit(['--data-dir', file, '--port', '0']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      `cursor-stream: cannot keep runs in ${file}: it (or a folder in it) is a file, not a folder`,
    ]);
  });

  test('a second relay on the data folder of one that runs is refused, leaving its runs alone; freed at close', async () => {
    const dataDir = join(space.dir, 'one-relay');
    const first = await startServe(['--data-dir', dataDir, '--agent', space.agent], {
      FAKE_AGENT_REPLAY: DOCS_EXAMPLE,
      FAKE_AGENT_HANG: 'after',
    });
    try {
      const runId = await postRun(first.url, { prompt: 'hang' });
      const { code, stderr } = await serveExit(['--data-dir', dataDir, '--port', '0']);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([
        `cursor-stream: another relay (process ${first.child.pid}) keeps its runs in ${dataDir}: give each relay a data folder of its own`,
      ]);
      const record = (await (await fetch(`${first.url}/api/runs/${runId}`)).json()) as { status: string };
      expect(record.status).toBe('running');
    } finally {
      first.child.kill('SIGTERM');
      await new Promise((resolve) => first.child.once('close', resolve));
    }
    // Stopped, it holds the folder no more; killed, the lock it leaves names a process that is gone.
    const again = createRelayServer({ port: 0, dataDir, log: () => {} });
    await again.close();
    writeFileSync(join(dataDir, 'relay.lock'), `${deadPid()}\n`);
    const taken = createRelayServer({ port: 0, dataDir, log: () => {} });
    try {
      expect(() => createRelayServer({ port: 0, dataDir, log: () => {} })).toThrow(
        expect.objectContaining({ code: 'data-dir-in-use' }),
      );
    } finally {
      await taken.close();
    }
  });

  test('an empty `--data-dir` exits 2 with one line, where it kept runs in the working directory', async () => {
    const { code, stderr } = await serveExit(['--data-dir', '', '--port', '0']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('must name a directory');
  });

  test('an empty `--agent` exits 2 with one line, where every run failed to start', async () => {
    const { code, stderr } = await serveExit(['--agent', '', '--port', '0']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('must name the agent executable');
  });

  test.each(['--max-runs', '--max-connections', '--max-pending-bytes'])(
    '%s takes a positive integer only',
    async (flag) => {
      for (const value of ['0', '-1', '1.5', 'many']) {
        const { code, stderr } = await serveExit([flag, value, '--data-dir', join(space.dir, 'limits')]);
        expect(code).toBe(2);
        expect(stderr.trim().split('\n')).toHaveLength(1);
      }
    },
  );
});

/** Whether this machine can listen on the IPv6 loopback address. */
const hasIpv6Loopback = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

describe.skipIf(!hasIpv6Loopback)(
  `--host [::1]${hasIpv6Loopback ? '' : ' (skipped: this machine has no IPv6 loopback)'}`,
  () => {
    test('listens on ::1 and answers there', async () => {
      const server = await startServe(['--host', '[::1]', '--data-dir', join(space.dir, 'ipv6')]);
      try {
        expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
        expect((await fetch(`${server.url}/api/runs`)).status).toBe(200);
      } finally {
        server.child.kill('SIGTERM');
      }
    });
  },
);

describe('with a token', () => {
  let relay: RelayServer;
  let url = '';
  let lines: string[] = [];
  beforeAll(async () => {
    ({ relay, url, lines } = await startRelay({
      dataDir: join(space.dir, 'token'),
      host: '0.0.0.0',
      token: TOKEN,
      agent: { binary: space.agent, env: { FAKE_AGENT_REPLAY: DOCS_EXAMPLE } },
    }));
    url = url.replace('0.0.0.0', '127.0.0.1');
  });
  afterAll(() => relay.close());

  test('a request without it, or with a wrong one, gets 401', async () => {
    const refused = await fetch(`${url}/api/runs`);
    expect([refused.status, refused.headers.get('x-content-type-options')]).toEqual([401, 'nosniff']);
    expect((await fetch(`${url}/api/runs`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await readSse(`${url}/api/runs/0000000aa-0123456789ab/events`)).status).toBe(401);
    expect(await upgrade(`${url.replace('http', 'ws')}/api/runs/0000000aa-0123456789ab/ws`, {})).toBe(401);
  });

  test('with it, the API answers; the page sets it as a cookie its own requests carry', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const runId = await postRun(url, { prompt: 'hi' }, auth);
    const { messages } = await readSse(`${url}/api/runs/${runId}/events`, { headers: auth });
    expect(messages.at(-1)?.event).toBe('end');
    const opened = await fetch(`${url}/?token=${TOKEN}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(opened.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await fetch(`${url}/api/runs`, { headers: { cookie } })).status).toBe(200);
    // Another service on the host may set a cookie of the same name with a longer path, which a browser sends first.
    const shadowed = `cursor_stream_token=junk; cursor_stream_token=%ZZ; ${cookie}`;
    expect((await fetch(`${url}/api/runs`, { headers: { cookie: shadowed } })).status).toBe(200);
    const junkOnly = 'cursor_stream_token=junk; cursor_stream_token=%ZZ';
    expect((await fetch(`${url}/api/runs`, { headers: { cookie: junkOnly } })).status).toBe(401);
    expect(lines.join('\n')).not.toContain(TOKEN);
    // A link with another token sets no cookie: it is refused, or, to a page that has the right one, leaves it be.
    const wrong = await fetch(`${url}/?token=wrong`, { redirect: 'manual' });
    expect([wrong.status, wrong.headers.get('set-cookie')]).toEqual([401, null]);
    const kept = await fetch(`${url}/?token=wrong`, { redirect: 'manual', headers: { cookie } });
    expect([kept.status, kept.headers.get('set-cookie')]).toEqual([303, null]);
  });
});

describe('on loopback', () => {
  let relay: RelayServer;
  let url = '';
  beforeAll(async () => {
    ({ relay, url } = await startRelay({
      dataDir: join(space.dir, 'loopback'),
      agent: { binary: space.agent, env: { FAKE_AGENT_REPLAY: DOCS_EXAMPLE } },
      maxPromptBytes: 1000,
      workspaceRoot: space.dir,
    }));
  });
  afterAll(() => relay.close());

  test('a run id with ../ (or anything not a run id) is refused before it names a file', async () => {
    for (const path of [
      '/api/runs/..%2F..%2Fetc%2Fpasswd/events',
      '/api/runs/../../etc/passwd',
      '/api/runs/%2e%2e/events',
    ]) {
      const { status } = await raw(url, { path });
      expect([400, 404]).toContain(status);
    }
    expect((await raw(url, { path: '/api/runs/..%2Fdata/events' })).status).toBe(400);
  });

  test('a WebSocket upgrade from a foreign Origin is refused; the page’s own origin is not', async () => {
    const runId = await postRun(url, { prompt: 'ws' });
    const ws = `${url.replace('http', 'ws')}/api/runs/${runId}/ws`;
    expect(await upgrade(ws, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgrade(ws, { origin: url })).toBe(101);
  });

  test('a foreign Host (DNS rebinding) and a cross-origin POST are refused', async () => {
    expect((await raw(url, { path: '/api/runs', headers: { host: 'evil.example:80' } })).status).toBe(403);
    const post = await raw(url, {
      method: 'POST',
      path: '/api/runs',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{"prompt":"x"}',
    });
    expect(post.status).toBe(403);
  });

  test('bodies and prompts are bounded, and fields checked', async () => {
    const post = (body: string, type = 'application/json') =>
      raw(url, { method: 'POST', path: '/api/runs', headers: { 'content-type': type }, body });
    expect((await post(JSON.stringify({ prompt: 'x'.repeat(2000) }))).status).toBe(400);
    expect((await post(JSON.stringify({ prompt: 'x'.repeat(200_000) }))).status).toBe(413);
    expect((await post('{"prompt":')).status).toBe(400);
    expect((await post('prompt=x', 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await post(JSON.stringify({ prompt: 'x' }), 'application/json-evil')).status).toBe(415);
    expect((await post(JSON.stringify({ prompt: 'x' }), 'Application/JSON; charset=utf-8')).status).toBe(201);
    const encoded = await raw(url, {
      method: 'POST',
      path: '/api/runs',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: JSON.stringify({ prompt: 'x' }),
    });
    expect(encoded.status).toBe(415);
    expect((await post(JSON.stringify({ prompt: 'x', mode: 'yolo' }))).status).toBe(400);
    expect((await post(JSON.stringify({ prompt: 'x', chatId: '../x' }))).status).toBe(400);
    expect((await post(JSON.stringify({ prompt: 'x', workspace: '/etc' }))).status).toBe(400);
    expect((await post(JSON.stringify({ prompt: 'x', workspace: '.' }))).status).toBe(201);
  });

  test('a workspace is checked as the file system names it: a link out of the root is refused', async () => {
    mkdirSync(join(space.dir, 'ws-inside'), { recursive: true });
    symlinkSync('/', join(space.dir, 'ws-link-out'));
    symlinkSync(join(space.dir, 'ws-inside'), join(space.dir, 'ws-link-in'));
    const post = async (workspace: string) => {
      const answer = await raw(url, {
        method: 'POST',
        path: '/api/runs',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'x', workspace }),
      });
      return { status: answer.status, body: JSON.parse(answer.body) as { error?: { message: string } } };
    };
    const out = await post('ws-link-out');
    expect(out.status).toBe(400);
    expect(out.body.error?.message).toBe("workspace must be inside the relay's workspace root");
    const missing = await post('ws-missing');
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toBe('workspace does not exist');
    expect((await post('ws-link-in')).status).toBe(201);
    expect((await post('ws-inside')).status).toBe(201);
  });

  test('a bad after or format is refused', async () => {
    const runId = await postRun(url, { prompt: 'q' });
    expect((await fetch(`${url}/api/runs/${runId}/events?after=abc`)).status).toBe(400);
    expect((await fetch(`${url}/api/runs/${runId}/events?format=xml`)).status).toBe(400);
    expect((await fetch(`${url}/api/runs/0000000aa-0123456789ab/events`)).status).toBe(404);
  });
});

describe('the agent’s environment', () => {
  test('is the server’s without the relay’s token; a request cannot change it', async () => {
    const dump = join(space.dir, 'agent-env.txt');
    const agent = join(space.dir, 'env-agent.sh');
    writeFileSync(
      agent,
      `#!/bin/sh\nenv > ${JSON.stringify(dump)}\nexec ${JSON.stringify(space.agent)} "$@"\n`,
    );
    chmodSync(agent, 0o755);
    const server = await startServe(['--data-dir', join(space.dir, 'env'), '--agent', agent], {
      CURSOR_STREAM_TOKEN: TOKEN,
      FAKE_AGENT_REPLAY: DOCS_EXAMPLE,
      RELAY_TEST_MARK: 'kept',
    });
    try {
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await fetch(`${server.url}/api/runs`)).status).toBe(401);
      const runId = await postRun(server.url, { prompt: 'env', env: { EVIL: '1' } }, auth);
      await readSse(`${server.url}/api/runs/${runId}/events`, { headers: auth });
      const env = readFileSync(dump, 'utf8');
      expect(env).toContain('RELAY_TEST_MARK=kept');
      expect(env).not.toContain('CURSOR_STREAM_TOKEN');
      expect(env).not.toContain(TOKEN);
      expect(env).not.toContain('EVIL');
      expect(server.stderr()).not.toContain(TOKEN);
    } finally {
      server.child.kill('SIGTERM');
    }
  });
});

/** The pid of a process that has exited: a lock naming it is one no relay holds. */
function deadPid(): number {
  const pid = Number(
    execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }),
  );
  return pid;
}
