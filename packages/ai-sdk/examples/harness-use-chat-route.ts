// A useChat back end (e.g. a Next.js app/api/chat/route.ts) that runs each message as a turn of cursor-agent
// through the AI SDK's HarnessAgent. Each conversation is one chat of the agent: the state its session leaves is
// kept under the conversation's id and the next message's session resumes it.
import { basename, dirname } from 'node:path';
import { HarnessAgent, type HarnessAgentResumeSessionState } from '@ai-sdk/harness/agent';
import { createCursorHarness } from '@cursor-stream/ai-sdk/harness';
import type { UIMessage } from 'ai';
import { createLocalSandboxSession } from './local-sandbox-session.ts';

// The agent works in this folder, on this machine: the local sandbox session isolates nothing.
const here = process.cwd();
const agent = new HarnessAgent({
  harness: createCursorHarness(),
  sandboxConfig: { workDir: basename(here) },
});

/** Each conversation's state between messages; an app would keep it in its database. */
const conversations = new Map<string, HarnessAgentResumeSessionState>();

export async function POST(request: Request): Promise<Response> {
  const { id, messages } = (await request.json()) as { id: string; messages: UIMessage[] };
  const prompt = (messages.at(-1)?.parts ?? [])
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('');
  const resumeFrom = conversations.get(id);
  const session = await agent.createSession({
    sandboxSession: createLocalSandboxSession(dirname(here)),
    ...(resumeFrom === undefined ? {} : { resumeFrom }),
  });
  const result = await agent.stream({ session, prompt, abortSignal: request.signal });
  return result.toUIMessageStreamResponse({
    onEnd: async () => {
      conversations.set(id, await session.stop());
    },
  });
}
