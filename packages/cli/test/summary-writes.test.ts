import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PENDING_OUTPUT_CHARS, runSummary } from '../src/commands/summary/run.ts';
import type { CliIo } from '../src/io/cli-io.ts';
import { captureStream } from './support.ts';

const LOGS = 300;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'cursor-stream-summary-writes-'));
  const log = readFileSync(join(REPO_ROOT, 'corpus/official/docs-example-zh.ndjson'));
  for (let index = 0; index < LOGS; index++)
    await writeFile(join(folder, `log-${String(index).padStart(3, '0')}.ndjson`), log);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Runs `summary` in process on the folder, its standard output a terminal or not, counting the writes. */
async function summaryWrites(json: boolean, isTTY: boolean): Promise<{ text: string; writes: number }> {
  const stdout = captureStream(isTTY);
  let writes = 0;
  const counted = {
    isTTY,
    write(chunk: string | Uint8Array) {
      writes += 1;
      return stdout.write(chunk);
    },
    once: stdout.once,
  };
  const io: CliIo = {
    stdin: { async *[Symbol.asyncIterator]() {} },
    stdout: counted,
    stderr: captureStream(),
    // Color would set a terminal's text apart.
    env: { NO_COLOR: '1' },
  };
  const code = await runSummary([folder], { json, jobs: 1, dialect: 'auto' }, io);
  expect(code).toBe(0);
  return { text: stdout.text, writes };
}

describe('summary over a folder of small logs', () => {
  for (const json of [true, false]) {
    test(`writes a pipe in few large writes, a terminal as it goes, the same ${json ? 'JSON' : 'text'}`, async () => {
      const piped = await summaryWrites(json, false);
      const terminal = await summaryWrites(json, true);
      expect(terminal.text).toBe(piped.text);
      expect(piped.text.length).toBeGreaterThan(4 * PENDING_OUTPUT_CHARS);
      // One write per PENDING_OUTPUT_CHARS gathered, and the last; not one per log.
      expect(piped.writes).toBeLessThanOrEqual(Math.ceil(piped.text.length / PENDING_OUTPUT_CHARS) + 1);
      expect(piped.writes).toBeLessThan(LOGS / 4);
      expect(terminal.writes).toBeGreaterThanOrEqual(LOGS);
    });
  }
});
