/**
 * Random logs read in ranges on worker threads give what one thread gives. The logs are built to trap a reader that
 * cuts where a line merely looks like a session start: call ids with a raw line feed (a record over two lines), a
 * line left open inside a string, a string whose second line is a session start's text, broken session starts,
 * invalid lines, another agent's record, and tool calls completed in a later session than the one that started them.
 */

import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { fc } from '@fast-check/vitest';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SPLIT_BYTES_ENV } from '../src/io/cli-io.ts';
import { normalizeInRanges } from './normalize-in-ranges.ts';

const COMMANDS: readonly (readonly string[])[] = [
  ['summary', '--json'],
  ['summary'],
  ['normalize'],
  ['validate', '--json'],
  ['usage', '--json', '--by', 'session'],
];

const FOREIGN_RECORD = `${readFileSync(join(REPO_ROOT, 'corpus/foreign/claude-code-stream-json.ndjson'), 'utf8').split('\n')[0]}\n`;

/** A JSON string whose `|` characters are raw line feeds, as the CLI writes composite call ids. */
function rawString(value: string): string {
  return JSON.stringify(value).replaceAll('|', '\n');
}

const callId = fc
  .tuple(fc.nat(4), fc.boolean())
  .map(([n, composite]) => (composite ? `call_${n}|fc_${n}` : `call_${n}`));

const words = fc.constantFrom(
  'hello',
  'naïve 日本',
  'a "quoted" word',
  'back\\slash',
  '{"type":"system"}',
  '',
);

function toolCall(subtype: 'started' | 'completed', id: string, session: string): string {
  const body =
    subtype === 'started'
      ? '{"args":{"path":"f.txt"}}'
      : '{"args":{"path":"f.txt"},"result":{"success":{"content":"x"}}}';
  return `{"type":"tool_call","subtype":"${subtype}","call_id":${rawString(id)},"tool_call":{"readToolCall":${body}},"model_call_id":"m-1","session_id":"${session}","timestamp_ms":1770000000000}\n`;
}

/** One step of a session, as its lines; `session` is the session's id. */
const step = (session: string) =>
  fc.oneof(
    words.map(
      (text) =>
        `{"type":"user","message":{"role":"user","content":[{"type":"text","text":${JSON.stringify(text)}}]},"session_id":"${session}"}\n`,
    ),
    words.map(
      (text) =>
        `{"type":"thinking","subtype":"delta","text":${JSON.stringify(text)},"session_id":"${session}","timestamp_ms":1770000000001}\n`,
    ),
    fc
      .tuple(words, fc.boolean())
      .map(
        ([text, modelCall]) =>
          `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":${JSON.stringify(text)}}]},${modelCall ? '"model_call_id":"m-1",' : ''}"session_id":"${session}"}\n`,
      ),
    fc
      .tuple(callId, fc.boolean())
      .map(
        ([id, completed]) =>
          toolCall('started', id, session) + (completed ? toolCall('completed', id, session) : ''),
      ),
    // A completion whose start is in an earlier session, or nowhere.
    callId.map((id) => toolCall('completed', id, session)),
    fc.constantFrom(
      'Error: the agent wrote this line\n',
      '{"broken": \n',
      '{"type":"system","subtype":"init"\n',
      '[1,2]\n',
      '\n',
      // A line that ends inside a string: the next line cuts it short, or continues it.
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"unfinished\n',
      // A string whose second line is a session start's text.
      `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"see\n{"type":"system","subtype":"init","session_id":"fake"}"}]},"session_id":"${session}"}\n`,
      FOREIGN_RECORD,
    ),
  );

const result = (session: string) =>
  fc.constantFrom(
    `{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"${session}","duration_ms":5}\n`,
    `{"type":"result","subtype":"error","is_error":true,"result":"failed","session_id":"${session}","duration_ms":5}\n`,
    '',
  );

const session = fc
  .constantFrom('s-1', 's-2', 's-3')
  .chain((id) =>
    fc
      .tuple(fc.array(step(id), { maxLength: 8 }), result(id))
      .map(
        ([steps, end]) =>
          `{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/w","session_id":"${id}","model":"Auto","permissionMode":"default"}\n${steps.join('')}${end}`,
      ),
  );

/** A log whose first session locks the dialect at once (a tool call), as the split needs, then random sessions. */
const log = fc
  .array(session, { minLength: 2, maxLength: 8 })
  .map((sessions) => `${toolCall('started', 'call_first', 's-0')}${sessions.join('')}`);

let scratch = '';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-ranges-fuzz-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function outcome(args: readonly string[], jobs: string, path: string) {
  const run = await runCli([...args, '--jobs', jobs, path], { env: { [SPLIT_BYTES_ENV]: '1' } });
  return { args, code: run.code, stdout: run.stdout, stderr: run.stderr };
}

/** Each command on one job and on two, a command at a time, so that the suite stays light on a shared machine. */
async function expectSameOnOneAndTwoJobs(path: string): Promise<void> {
  for (const args of COMMANDS) {
    const [one, two] = await Promise.all([outcome(args, '1', path), outcome(args, '2', path)]);
    expect(two).toEqual(one);
  }
}

test('random logs give the same output on one job and on two, and the traps are met', async () => {
  const seen = { cases: 0, split: 0, accepted: 0, refused: 0, resumed: 0 };
  await fc.assert(
    fc.asyncProperty(log, async (text) => {
      seen.cases += 1;
      const path = join(scratch, `log-${seen.cases}.ndjson`);
      await writeFile(path, text);
      await expectSameOnOneAndTwoJobs(path);
      const read = await normalizeInRanges(path);
      if (read === null) return;
      const { ranges, written, resumed } = read.counts;
      seen.split += 1;
      seen.accepted += written - 1;
      seen.refused += ranges - written;
      seen.resumed += resumed;
    }),
    { numRuns: 12 },
  );
  // The property held on logs that were really cut, at cuts both taken and refused. A call completed in a later
  // session than its start pairs with nothing on one thread either (the CLI's calls end with their session), so no
  // run from a cut is read again.
  expect(seen.split).toBeGreaterThan(seen.cases / 2);
  expect(seen.accepted).toBeGreaterThan(0);
  expect(seen.refused).toBeGreaterThan(0);
  expect(seen.resumed).toBe(0);
}, 300_000);
