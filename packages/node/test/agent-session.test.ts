import { join } from 'node:path';
import { createChat, createSession, type SessionChange } from '@cursor-stream/node';
import { DOCS_EXAMPLE, DOCS_EXAMPLE_SESSION } from '@cursor-stream/test-kit/corpus';
import { installFakeAgent, readCall } from '@cursor-stream/test-kit/fake-agent';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeRun } from './support.ts';

const scratch = scratchFolder('node');
let agent = '';

beforeAll(() => {
  agent = installFakeAgent(scratch.dir);
});
afterAll(() => scratch.remove());

describe('createChat', () => {
  test('returns the id the CLI prints for create-chat', async () => {
    const record = join(scratch.dir, 'create-chat.json');
    const chat = await createChat(
      fakeRun(agent, { FAKE_AGENT_CHAT_ID: 'chat-42', FAKE_AGENT_RECORD: record }),
    );
    expect(chat).toEqual({ ok: true, chatId: 'chat-42' });
    expect(readCall(record).argv).toEqual(['create-chat']);
  });

  test('reports a failing create-chat as a value with the reason from stderr', async () => {
    const vars = { FAKE_AGENT_STDERR: 'Not logged in\n', FAKE_AGENT_EXIT: '1' };
    const chat = await createChat(fakeRun(agent, vars));
    expect(chat).toEqual({
      ok: false,
      error: { code: 'exit-nonzero', message: expect.stringContaining('Not logged in'), failure: 'unknown' },
    });
  });

  test('reports output that holds no id as no-result', async () => {
    const chat = await createChat(fakeRun(agent, { FAKE_AGENT_CHAT_ID: 'Press any key to sign in...' }));
    expect(chat).toMatchObject({ ok: false, error: { code: 'no-result' } });
  });

  test('reports a missing executable as spawn-failed', async () => {
    const chat = await createChat({ binary: join(scratch.dir, 'missing-agent') });
    expect(chat).toMatchObject({ ok: false, error: { code: 'spawn-failed' } });
  });
});

describe('createSession', () => {
  test('the first message starts a chat and the next one resumes it by id', async () => {
    const record = join(scratch.dir, 'session.json');
    const session = createSession(
      fakeRun(agent, {
        FAKE_AGENT_REPLAY: DOCS_EXAMPLE,
        FAKE_AGENT_RECORD: record,
        FAKE_AGENT_KNOWN_SESSIONS: DOCS_EXAMPLE_SESSION,
      }),
    );
    const first = await session.send('hello').collect();
    expect(readCall(record).argv).not.toContain('--resume');
    expect(session.id).toBe(DOCS_EXAMPLE_SESSION);

    const second = await session.send('and then?').collect();
    expect(readCall(record).argv).toContain('--resume');
    expect(second.sessionChange).toBeNull();
    expect([first.success, second.success]).toEqual([true, true]);
    expect(session.changes).toEqual([]);
  });

  test('reports and follows a new session when the agent does not know the resumed one', async () => {
    const changes: SessionChange[] = [];
    const session = createSession({
      ...fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE }),
      sessionId: 'unknown-chat',
      onSessionChange: (change) => changes.push(change),
    });
    const result = await session.send('hello').collect();

    const change = { requested: 'unknown-chat', actual: DOCS_EXAMPLE_SESSION };
    expect(result.sessionChange).toEqual(change);
    expect(changes).toEqual([change]);
    expect(session.changes).toEqual([change]);
    expect(session.id).toBe(DOCS_EXAMPLE_SESSION);
  });

  test('a message sent while another runs is refused with session-busy, and the first is unharmed', async () => {
    const session = createSession(
      fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_DELAY_MS: '5' }),
    );
    const first = session.send('one');
    expect(session.busy).toBe(true);
    const refused = await session.send('two').collect();
    expect(refused.error?.code).toBe('session-busy');
    expect(refused.events.map((event) => event.type)).toEqual(['error', 'finish']);

    expect((await first.collect()).success).toBe(true);
    expect(session.busy).toBe(false);
  });
});
