/**
 * The harness examples against the fake agent: the console turn as the README shows it, run as a user runs it, and
 * the useChat route answering two messages of one conversation, as useChat's transport reads them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from 'ai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAKE_CHAT_ID, harnessScratch, readCall } from './harness-support.ts';
import { CORPUS_DIR, partText, readRecording, toolParts } from './support.ts';

const EXAMPLE = join(import.meta.dirname, '../examples/harness-turn.ts');
const README = join(import.meta.dirname, '../README.md');
const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');
const PARALLEL = join(CORPUS_DIR, 'official/parallel-tools-out-of-order.ndjson');
const FAILED_RESULT = join(CORPUS_DIR, 'official/failure-line-before-error-result.ndjson');

const scratch = harnessScratch();
const project = join(scratch.dir, 'project');
mkdirSync(project);
afterAll(() => scratch.remove());

/** Runs the console example in `project`, with the fake agent as the only cursor-agent on the PATH. */
function runExample(vars: Record<string, string>, prompt: string) {
  const args = [TSX_CLI, '--conditions=@cursor-stream/source', EXAMPLE, prompt];
  const env = {
    ...process.env,
    PATH: `${dirname(scratch.agent)}${delimiter}${process.env.PATH ?? ''}`,
    FAKE_AGENT_KNOWN_SESSIONS: FAKE_CHAT_ID,
    TMPDIR: scratch.tmp,
    ...vars,
  };
  return spawnSync(process.execPath, args, { cwd: project, env, encoding: 'utf8', timeout: 60_000 });
}

describe('the console example', () => {
  test('is in the README word for word', () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(readme.indexOf('### A turn in the console'));
    expect(/```ts\n([\s\S]*?)```/.exec(section)?.[1]).toBe(readFileSync(EXAMPLE, 'utf8'));
  });

  test('streams the turn in the project folder, then its usage', () => {
    const record = join(scratch.dir, 'console.json');
    const { stdout, stderr, status } = runExample(
      { FAKE_AGENT_REPLAY: PARALLEL, FAKE_AGENT_RECORD: record },
      'Check the build',
    );
    expect(stderr).toBe('');
    expect(stdout).toContain('Running both commands in parallel.');
    expect(stdout).toContain('[bash]');
    expect(stdout).toContain('[docs-search]');
    // 5230 input, 4096 read from the cache, none written: the log's result.usage.
    expect(stdout).toContain('9326 input tokens (4096 cached), 212 output');
    expect(status).toBe(0);
    expect(readCall(record)).toMatchObject({ cwd: project, stdin: 'Check the build' });
  });

  test('prints the agent’s own sentence and exits 1 when the turn fails', () => {
    const { stdout, status } = runExample({ FAKE_AGENT_REPLAY: FAILED_RESULT }, 'Summarize the changelog.');
    expect(stdout).toContain("RetriableError: [invalid_argument] unknown option '--system-prompt'");
    expect(status).toBe(1);
  });
});

describe('the useChat route', () => {
  const saved = {
    cwd: process.cwd(),
    env: Object.fromEntries(
      [
        'PATH',
        'FAKE_AGENT_REPLAY',
        'FAKE_AGENT_RECORD',
        'FAKE_AGENT_KNOWN_SESSIONS',
        'FAKE_AGENT_CHAT_ID',
        'TMPDIR',
      ].map((name) => [name, process.env[name]]),
    ),
  };
  // The route runs cursor-agent from the PATH, in the folder the server runs in, as it would in an app.
  beforeAll(() => {
    process.chdir(project);
    process.env.PATH = `${dirname(scratch.agent)}${delimiter}${process.env.PATH ?? ''}`;
    process.env.FAKE_AGENT_REPLAY = PARALLEL;
    process.env.FAKE_AGENT_KNOWN_SESSIONS = FAKE_CHAT_ID;
    process.env.TMPDIR = scratch.tmp;
  });
  afterAll(() => {
    process.chdir(saved.cwd);
    for (const [name, value] of Object.entries(saved.env)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** Posts one message of the conversation `id` and reads the answer as useChat's default transport does. */
  async function chat(id: string, text: string): Promise<UIMessage | undefined> {
    const { POST } = await import('../examples/harness-use-chat-route.ts');
    const messages: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }];
    const response = await POST(
      new Request('http://localhost/api/chat', { method: 'POST', body: JSON.stringify({ id, messages }) }),
    );
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    if (response.body === null) throw new Error('no body');
    const chunks = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream<{ success: boolean; value?: UIMessageChunk }, UIMessageChunk>({
        transform(parsed, controller) {
          if (!parsed.success || parsed.value === undefined) throw new Error('a chunk the AI SDK rejects');
          controller.enqueue(parsed.value);
        },
      }),
    );
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: chunks, terminateOnError: true }))
      message = snapshot;
    return message;
  }

  test('answers each message with the turn, and the next message of the conversation resumes its chat', async () => {
    const [session] = readRecording(PARALLEL).sessions;
    const record = join(scratch.dir, 'route.json');
    process.env.FAKE_AGENT_RECORD = record;
    const first = await chat('conversation-1', 'Check the build');
    expect(partText(first, 'text')).toBe(session?.text);
    expect(
      toolParts(first)
        .map(({ toolCallId }) => toolCallId)
        .sort(),
    ).toEqual(session?.toolCalls.map(({ toolCallId }) => toolCallId).sort());

    // A new chat now would get another id: the second message resumes the first one's.
    process.env.FAKE_AGENT_CHAT_ID = 'another-chat';
    const second = await chat('conversation-1', 'And now?');
    expect(partText(second, 'text')).toBe(session?.text);
    expect(readCall(record).argv).toEqual(expect.arrayContaining(['--resume', FAKE_CHAT_ID]));
    expect(readCall(record).stdin).toBe('And now?');
  });
});
