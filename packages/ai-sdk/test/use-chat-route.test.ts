import { delimiter } from 'node:path';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { installFakeAgent } from '@cursor-stream/test-kit/fake-agent';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from 'ai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { POST } from '../examples/use-chat-route.ts';
import { partText, readRecording, toolParts } from './support.ts';

const scratch = scratchFolder('ai-sdk');
const saved = { PATH: process.env.PATH, FAKE_AGENT_REPLAY: process.env.FAKE_AGENT_REPLAY };

// The example runs `cursor-agent` from the PATH with the environment it inherits, as it would in an app.
beforeAll(() => {
  installFakeAgent(scratch.dir);
  process.env.PATH = `${scratch.dir}${delimiter}${process.env.PATH ?? ''}`;
  process.env.FAKE_AGENT_REPLAY = DOCS_EXAMPLE;
});
afterAll(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  scratch.remove();
});

test("the README's useChat back end answers a chat request with the run, as useChat's transport reads it", async () => {
  const messages: UIMessage[] = [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'List the files' }] },
  ];
  const response = await POST(
    new Request('http://localhost/api/chat', { method: 'POST', body: JSON.stringify({ messages }) }),
  );
  expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
  if (response.body === null) throw new Error('no body');

  // What DefaultChatTransport does with the response body: parse the SSE chunks, then build the message.
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

  const [session] = readRecording(DOCS_EXAMPLE).sessions;
  expect(partText(message, 'text')).toBe(session?.text);
  expect(toolParts(message).map(({ toolCallId, state }) => ({ toolCallId, state }))).toEqual(
    session?.toolCalls.map(({ toolCallId }) => ({ toolCallId, state: 'output-available' })),
  );
});
