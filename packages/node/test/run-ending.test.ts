import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent } from '@cursor-stream/node';
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

const SESSION = { session_id: 's' };

/** A recording of one answered session followed by `after`: records, or lines of plain text as they are. */
function answeredThen(name: string, after: readonly (object | string)[]): string {
  const path = join(scratch.dir, `${name}.ndjson`);
  const records = [
    { type: 'system', subtype: 'init', model: 'Auto', ...SESSION },
    {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
      ...SESSION,
    },
    { type: 'result', subtype: 'success', is_error: false, result: 'hi', ...SESSION },
    ...after,
  ];
  const lines = records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record)));
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe("a run's ending", () => {
  test.each([
    [
      'a reconnect notice',
      [{ type: 'connection', subtype: 'reconnecting', attempt: 1, timestamp_ms: 1, ...SESSION }],
    ],
    ['an interaction', [{ type: 'interaction_query', subtype: 'response', query_id: 1, ...SESSION }]],
    ['a line of plain output', ['done.']],
  ])('%s after the result stays before the one finish, which ends the run a success', async (name, after) => {
    const replay = answeredThen(name.replaceAll(' ', '-'), after);
    const result = await runAgent(
      'hi',
      fakeRun(agent, { FAKE_AGENT_REPLAY: replay }, { keepEvents: true }),
    ).collect();
    const finishes = result.events.filter((event) => event.type === 'finish');
    expect(finishes).toEqual([expect.objectContaining({ finishReason: 'stop', isError: false })]);
    expect(result.events.at(-1)?.type).toBe('finish');
    expect(result.success).toBe(true);
  });
});
