/**
 * The Python wrapper's features that `runAgent` mirrors: a one-shot `query()` over `--output-format json`,
 * `listModels()`, and a failed run that says why in the agent's own words.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentResult, listModels, parseModelList, query, runAgent } from '@cursor-stream/node';
import { CORPUS_DIR, DOCS_EXAMPLE, DOCS_EXAMPLE_SESSION } from '@cursor-stream/test-kit/corpus';
import { installFakeAgent, readCall } from '@cursor-stream/test-kit/fake-agent';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeRun, typesOf } from './support.ts';

const scratch = scratchFolder('node');
let agent = '';

beforeAll(() => {
  agent = installFakeAgent(scratch.dir);
});
afterAll(() => scratch.remove());

const FAILURE_LINE = "RetriableError: [invalid_argument] unknown option '--system-prompt'";

/**
 * A failed run's end: the run's error (with this message and the class of the agent's failure) right before the one
 * finish, marked as an error.
 */
function expectEndsWith(result: AgentResult, code: string, message: string, failure: string): void {
  expect(result.error).toEqual({ code, message, failure });
  expect(result.events.filter((event) => event.type === 'finish')).toHaveLength(1);
  expect(result.events.at(-2)).toMatchObject({ type: 'error', message });
  expect(result.events.at(-1)).toMatchObject({ type: 'finish', isError: true });
}

describe('query()', () => {
  test('runs once with --output-format json, the prompt on standard input, and resolves like collect()', async () => {
    const record = join(scratch.dir, 'query.json');
    const result = await query(
      'Summarize',
      fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_RECORD: record }, { mode: 'ask' }),
    );
    const call = readCall(record);
    expect(call.argv).toEqual(['--print', '--output-format', 'json', '--mode', 'ask']);
    expect(call.stdin).toBe('Summarize');
    const streamed = await runAgent(
      'Summarize',
      fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE }),
    ).collect();
    expect(result).toMatchObject({
      success: true,
      error: null,
      text: streamed.text,
      sessionId: DOCS_EXAMPLE_SESSION,
      requestId: streamed.requestId,
      durationMs: streamed.durationMs,
      durationApiMs: streamed.durationApiMs,
      exitCode: 0,
    });
    expect(typesOf(result.events)).toEqual(['stream-start', 'text-delta', 'finish']);
  });

  test('a failed one-shot run (no JSON, a sentence on stderr, exit 1) resolves with exit-nonzero quoting it', async () => {
    const vars = { FAKE_AGENT_STDERR: 'Error: not authenticated\n', FAKE_AGENT_EXIT: '1' };
    const result = await query('hi', fakeRun(agent, vars));
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe('exit-nonzero');
    expect(result.error?.message).toContain('Error: not authenticated');
  });
});

describe('listModels()', () => {
  test('lists the models --list-models prints, with their marks, past headings, hints and colors', async () => {
    const record = join(scratch.dir, 'models.json');
    const listed = await listModels(fakeRun(agent, { FAKE_AGENT_RECORD: record }));
    expect(readCall(record).argv).toEqual(['--list-models']);
    expect(listed).toEqual({
      ok: true,
      models: [
        { id: 'auto', name: 'Auto', current: false, isDefault: false },
        { id: 'composer-2.5', name: 'Composer 2.5', current: true, isDefault: false },
        { id: 'sonnet-4.5', name: 'Claude 4.5 Sonnet', current: false, isDefault: true },
      ],
    });
  });

  test('output that lists no model (a sign-in prompt) is no-result, naming the last line', async () => {
    const listed = await listModels(fakeRun(agent, { FAKE_AGENT_MODELS: 'Press any key to sign in...\n' }));
    expect(listed).toMatchObject({ ok: false, error: { code: 'no-result' } });
    expect(listed.ok ? '' : listed.error.message).toContain('Press any key to sign in...');
  });

  test('a failing --list-models is a value with the reason from stderr', async () => {
    const vars = { FAKE_AGENT_MODELS: '', FAKE_AGENT_STDERR: 'Not logged in\n', FAKE_AGENT_EXIT: '1' };
    const listed = await listModels(fakeRun(agent, vars));
    expect(listed).toMatchObject({ ok: false, error: { code: 'exit-nonzero' } });
    expect(listed.ok ? '' : listed.error.message).toContain('Not logged in');
  });

  test('parseModelList takes both marks in either order and ids with dots, colons and slashes', () => {
    expect(
      parseModelList([
        'gpt-5.3-codex - GPT-5.3 Codex (default) (current)',
        'vendor/model:1 - Vendor Model',
        'not a model line',
        'auto - Auto',
        'auto - Auto again',
      ]),
    ).toEqual([
      { id: 'gpt-5.3-codex', name: 'GPT-5.3 Codex', current: true, isDefault: true },
      { id: 'vendor/model:1', name: 'Vendor Model', current: false, isDefault: false },
      { id: 'auto', name: 'Auto', current: false, isDefault: false },
    ]);
  });
});

describe('the agent’s own sentence for a failure', () => {
  test('an error result without text takes the plain-text line the agent printed before it', async () => {
    const recording = join(CORPUS_DIR, 'official/failure-line-before-error-result.ndjson');
    const vars = { FAKE_AGENT_REPLAY: recording, FAKE_AGENT_EXIT: '1', FAKE_AGENT_STDERR: 'later noise\n' };
    const result = await runAgent('hi', fakeRun(agent, vars)).collect();
    expectEndsWith(result, 'agent-error', FAILURE_LINE, 'unknown-option');
  });

  test('an error result without text and no such line takes stderr', async () => {
    const recording = join(scratch.dir, 'bare-error.ndjson');
    writeFileSync(
      recording,
      readFileSync(join(CORPUS_DIR, 'official/failure-line-before-error-result.ndjson'), 'utf8')
        .split('\n')
        .filter((line) => !line.startsWith('RetriableError'))
        .join('\n'),
    );
    const vars = {
      FAKE_AGENT_REPLAY: recording,
      FAKE_AGENT_STDERR: 'ActionRequiredError: flagged this request\n',
    };
    const result = await runAgent('hi', fakeRun(agent, vars)).collect();
    expectEndsWith(result, 'agent-error', 'ActionRequiredError: flagged this request', 'unknown');
  });

  test('an error result with text keeps its text, said once', async () => {
    const recording = join(scratch.dir, 'worded-error.ndjson');
    const records = [
      { type: 'system', subtype: 'init', session_id: 's-1', model: 'Auto' },
      {
        type: 'result',
        subtype: 'error',
        is_error: true,
        result: 'You have hit your usage limit',
        session_id: 's-1',
      },
    ];
    writeFileSync(recording, ndjson(records));
    const vars = { FAKE_AGENT_REPLAY: recording, FAKE_AGENT_NOISE: `${FAILURE_LINE}\n` };
    const result = await runAgent('hi', fakeRun(agent, vars)).collect();
    expect(result.error).toEqual({
      code: 'agent-error',
      message: 'You have hit your usage limit',
      failure: 'usage-limit',
    });
    expect(result.events.filter((event) => event.type === 'error')).toHaveLength(1);
  });

  test('a run that exits non-zero quotes the last plain-text line it printed, before stderr', async () => {
    const vars = {
      FAKE_AGENT_NOISE: `Loading…\n${FAILURE_LINE}\n`,
      FAKE_AGENT_STDERR: 'at Object.<anonymous> (index.js:1:1)\n',
      FAKE_AGENT_EXIT: '1',
    };
    const result = await runAgent('hi', fakeRun(agent, vars)).collect();
    expect(result.error?.code).toBe('exit-nonzero');
    expect(result.error?.message).toMatch(
      new RegExp(`exited with code 1: ${FAILURE_LINE.replace(/[[\]']/g, '.')}$`),
    );
  });
});

describe('a run whose output holds two sessions', () => {
  test('yields one finish per session, the run’s own last, as the normalizer does for a log', async () => {
    const recording = join(scratch.dir, 'two-sessions.ndjson');
    const second = join(CORPUS_DIR, 'official/parallel-tools-out-of-order.ndjson');
    writeFileSync(recording, readFileSync(DOCS_EXAMPLE, 'utf8') + readFileSync(second, 'utf8'));
    const result = await runAgent('hi', fakeRun(agent, { FAKE_AGENT_REPLAY: recording })).collect();
    const finishes = result.events.filter((event) => event.type === 'finish');
    expect(finishes.map((finish) => finish.sessionId)).toEqual([
      DOCS_EXAMPLE_SESSION,
      '7b0e2c51-3f4a-4d8e-9a61-2c5d8e0f1a93',
    ]);
    expect(result.events.at(-1)).toBe(finishes[1]);
    expect(result.success).toBe(true);
    expect(result.toolCalls).toHaveLength(6);
  });
});
