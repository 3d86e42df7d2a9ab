import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type CanonicalEvent, createNormalizer } from '@cursor-stream/core';
import {
  expandLogPaths,
  FOREIGN_LOG_LEAD_BYTES,
  readEachLog,
  readLog,
  visitLogSessions,
} from '@cursor-stream/node/logs';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { afterAll, describe, expect, test } from 'vitest';

const scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-read-log-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What the normalizer gives for the whole file at once. */
function normalizedAtOnce(path: string): CanonicalEvent[] {
  const normalizer = createNormalizer();
  return [...normalizer.feed(readFileSync(path)), ...normalizer.end()];
}

async function eventsOf(path: string): Promise<{ events: CanonicalEvent[]; lines: number; bytes: number }> {
  const events: CanonicalEvent[] = [];
  const result = await readLog(path, { onEvents: (batch) => void events.push(...batch) });
  if (!result.ok) throw new Error(result.error.message);
  return { events, lines: result.value.lines, bytes: result.value.bytes };
}

describe('readLog', () => {
  test('gives the events of a log as the normalizer does, and counts its lines and bytes', async () => {
    const bytes = readFileSync(DOCS_EXAMPLE);
    const read = await eventsOf(DOCS_EXAMPLE);
    expect(JSON.stringify(read.events)).toBe(JSON.stringify(normalizedAtOnce(DOCS_EXAMPLE)));
    expect(read.bytes).toBe(bytes.length);
    expect(read.lines).toBe(bytes.toString('utf8').split('\n').length - 1);
  });

  test('reads a gzip log as the text it holds', async () => {
    const path = join(scratch, 'docs-example.ndjson.gz');
    writeFileSync(path, gzipSync(readFileSync(DOCS_EXAMPLE)));
    expect(JSON.stringify((await eventsOf(path)).events)).toBe(
      JSON.stringify(normalizedAtOnce(DOCS_EXAMPLE)),
    );
  });

  test('reads a log that starts like gzip as the text it holds, whatever its name', async () => {
    const path = join(scratch, 'compressed-without-its-name.ndjson');
    writeFileSync(path, gzipSync(readFileSync(DOCS_EXAMPLE)));
    expect(JSON.stringify((await eventsOf(path)).events)).toBe(
      JSON.stringify(normalizedAtOnce(DOCS_EXAMPLE)),
    );
  });

  test('gives a log of many reads the events the normalizer gives for it at once', async () => {
    const path = join(scratch, 'many-reads.ndjson');
    const example = readFileSync(DOCS_EXAMPLE);
    writeFileSync(
      path,
      Buffer.concat(Array.from({ length: Math.ceil((2 << 20) / example.length) }, () => example)),
    );
    const read = await eventsOf(path);
    expect(read.bytes).toBeGreaterThan(2 << 20);
    expect(JSON.stringify(read.events)).toBe(JSON.stringify(normalizedAtOnce(path)));
  });

  test("reads no further into another agent's log than it takes to leave it out, and still counts all of it", async () => {
    // A Claude Code log of 1 MB: its first record names it, far inside the window that decides.
    const path = join(scratch, 'claude-code.ndjson');
    const init = `${JSON.stringify({ type: 'system', subtype: 'init', claude_code_version: '2.1.0', session_id: 's' })}\n`;
    const message = `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'x'.repeat(200) }] }, session_id: 's' })}\n`;
    const count = Math.ceil((1 << 20) / message.length);
    const text = init + message.repeat(count);
    writeFileSync(path, text);
    let recordsRead = 0;
    let eventsDelivered = 0;
    const result = await readLog(path, {
      foreignLogs: 'leave-out',
      onRecord: () => {
        recordsRead++;
      },
      onEvents: (batch) => {
        eventsDelivered += batch.length;
      },
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.leftOut).toBe(true);
    expect(result.value.foreign?.loc.line).toBe(1);
    expect(eventsDelivered).toBe(0);
    expect([result.value.lines, result.value.bytes]).toEqual([count + 1, Buffer.byteLength(text)]);
    // What the normalizer was fed before the log was known to be theirs: the first read, not the megabyte.
    expect(recordsRead).toBeGreaterThan(0);
    expect(recordsRead).toBeLessThan(count / 4);
  });

  test('holds back the lines before the first record no longer than the lead the window allows', async () => {
    // A megabyte of lines that are no records: their events wait for a record, but only through the lead, so that
    // what is held stays bounded whatever a log starts with.
    const path = join(scratch, 'noise-only.ndjson');
    const warning = 'npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.\n';
    writeFileSync(path, warning.repeat(Math.ceil((1 << 20) / warning.length)));
    const batches: CanonicalEvent[][] = [];
    const result = await readLog(path, {
      foreignLogs: 'leave-out',
      onEvents: (batch) => void batches.push([...batch]),
    });
    if (!result.ok) throw new Error(result.error.message);
    const firstHeld = batches[0] ?? [];
    const lastHeldOffset = firstHeld.at(-1)?.loc?.offset ?? 0;
    expect(lastHeldOffset).toBeGreaterThanOrEqual(FOREIGN_LOG_LEAD_BYTES - 64 * 1024);
    expect(lastHeldOffset).toBeLessThan(FOREIGN_LOG_LEAD_BYTES + 64 * 1024);
    expect(batches.flat()).toHaveLength(result.value.lines);
    expect(result.value.leftOut).toBe(false);
  });

  test('says why a log cannot be read, as a value with a code and the path', async () => {
    const missing = join(scratch, 'missing.ndjson');
    const binary = join(scratch, 'binary.ndjson');
    writeFileSync(binary, Uint8Array.of(0x7b, 0x00, 0x7d, 0x0a));
    const results = await Promise.all(
      [missing, binary, scratch].map((path) => readLog(path, { onEvents() {} })),
    );
    expect(results.map((result) => (result.ok ? 'ok' : [result.error.code, result.error.path]))).toEqual([
      ['no-such-file', missing],
      ['not-text', binary],
      ['is-a-directory', scratch],
    ]);
  });
});

describe('visitLogSessions', () => {
  test('hands on each session of the logs under a folder with its events, in order', async () => {
    const folder = join(scratch, 'logs');
    const bytes = readFileSync(DOCS_EXAMPLE);
    mkdirSync(folder);
    for (const name of ['b.ndjson', 'a.ndjson', 'notes.txt']) writeFileSync(join(folder, name), bytes);
    const sessions: { path: string; types: string[] }[] = [];
    const outcome = await visitLogSessions(
      [folder, join(scratch, 'none.ndjson')],
      {},
      {
        start(path) {
          sessions.push({ path, types: [] });
        },
        event(event) {
          sessions.at(-1)?.types.push(event.type);
        },
        end() {},
      },
    );
    const types = normalizedAtOnce(DOCS_EXAMPLE).map((event) => event.type);
    expect(sessions).toEqual([
      { path: join(folder, 'a.ndjson'), types },
      { path: join(folder, 'b.ndjson'), types },
    ]);
    expect([outcome.files, outcome.errors.map((error) => error.code)]).toEqual([2, ['no-such-file']]);
  });
});

describe('readEachLog', () => {
  test('reads the logs in order and adds up their invalid lines, problems and the arguments that name none', async () => {
    const folder = join(scratch, 'each');
    mkdirSync(folder);
    const clean = readFileSync(DOCS_EXAMPLE);
    writeFileSync(join(folder, 'a.ndjson'), clean);
    writeFileSync(
      join(folder, 'b.ndjson'),
      Buffer.concat([Buffer.from('echo\n'), clean, Buffer.from('echo\n')]),
    );
    writeFileSync(join(folder, 'c.ndjson'), Buffer.concat([clean, Buffer.from('echo\n')]));
    const read: string[] = [];
    const outcome = await readEachLog(
      await expandLogPaths([join(scratch, 'none.ndjson'), folder]),
      (path) => {
        read.push(path);
        return readLog(path, { onEvents() {} });
      },
    );
    expect(read).toEqual(
      ['none.ndjson', 'a.ndjson', 'b.ndjson', 'c.ndjson'].map((name, at) =>
        join(at === 0 ? scratch : folder, name),
      ),
    );
    expect(outcome).toEqual({
      files: 3,
      invalidLines: 3,
      logsWithInvalidLines: 2,
      firstLogWithInvalidLines: join(folder, 'b.ndjson'),
      errors: [{ code: 'no-such-file', message: 'no such file', path: join(scratch, 'none.ndjson') }],
      inputProblems: [],
    });
  });
});

describe('the README example of reading logs', () => {
  const example = join(import.meta.dirname, '../examples/count-events.ts');

  test('is the example file, word for word', () => {
    const readme = readFileSync(join(import.meta.dirname, '../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('Count the events of a log'));
    expect(/```ts\n([\s\S]*?)```/.exec(section)?.[1]).toBe(readFileSync(example, 'utf8'));
  });

  test('counts the events of a log, and says why a log cannot be read', () => {
    const tsx = createRequire(import.meta.url).resolve('tsx/cli');
    const run = (path: string) =>
      spawnSync(process.execPath, [tsx, '--conditions=@cursor-stream/source', example, path], {
        encoding: 'utf8',
        timeout: 60_000,
      });
    const counted = run(DOCS_EXAMPLE);
    expect(counted.stdout).toBe(`${normalizedAtOnce(DOCS_EXAMPLE).length} events, 0 invalid lines\n`);
    const missing = join(scratch, 'missing.ndjson');
    expect(run(missing).stderr).toBe(`${missing}: no such file\n`);
  });
});
