/** `runAgent`'s error says which kind of failure the agent's own words report, for a program to act on. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent } from '@cursor-stream/node';
import { CORPUS_DIR, DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { installFakeAgent } from '@cursor-stream/test-kit/fake-agent';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeRun } from './support.ts';

const scratch = scratchFolder('node');
let agent = '';

beforeAll(() => {
  agent = installFakeAgent(scratch.dir);
});
afterAll(() => scratch.remove());

describe('the class of a failed run', () => {
  test('the trust gate, whose sentence is below a banner on stderr, with nothing on stdout', async () => {
    const stderr = readFileSync(
      join(CORPUS_DIR, 'captures/harness-cli-normalizer__2026.09.15__trust-01.stderr.txt'),
      'utf8',
    );
    const result = await runAgent(
      'hi',
      fakeRun(agent, { FAKE_AGENT_STDERR: stderr, FAKE_AGENT_EXIT: '1' }),
    ).collect();
    expect([result.error?.code, result.error?.failure]).toEqual(['exit-nonzero', 'trust-required']);
  });

  test('an unknown model, refused before the run starts', async () => {
    const stderr = readFileSync(
      join(CORPUS_DIR, 'captures/satelle__2026.10.01__1g-fail.stderr.excerpt.txt'),
      'utf8',
    );
    const result = await runAgent(
      'hi',
      fakeRun(agent, { FAKE_AGENT_STDERR: stderr, FAKE_AGENT_EXIT: '1' }),
    ).collect();
    expect(result.error?.failure).toBe('model-unavailable');
  });

  test.each([
    [
      'an uncaught error, below the place it was thrown',
      'file:///usr/lib/cursor-agent/index.js:3\n  throw new Error(message);\n  ^\n\nError: read ECONNRESET\n    at TLSWrap.onStreamRead (node:internal/stream_base_commons:217:20)\n',
      'Error: read ECONNRESET',
    ],
    [
      'a sign-in error below the update notice',
      'A new version of Cursor Agent is available (2026.10.01)\nError: Authentication required. Please run cursor-agent login first.\n',
      'Error: Authentication required. Please run cursor-agent login first.',
    ],
    [
      'an error of no known class below a line that names none',
      'Loading configuration\nSomethingError: the thing broke\n',
      'SomethingError: the thing broke',
    ],
  ])("the error's message quotes the agent's sentence: %s", async (_, stderr, sentence) => {
    const result = await runAgent(
      'hi',
      fakeRun(agent, { FAKE_AGENT_STDERR: stderr, FAKE_AGENT_EXIT: '1' }),
    ).collect();
    expect(result.error?.message).toMatch(
      new RegExp(`: ${sentence.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    );
  });

  test('a run that succeeds has no error at all', async () => {
    const result = await runAgent('hi', fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE })).collect();
    expect(result.error).toBeNull();
  });
});
