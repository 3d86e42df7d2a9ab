// A useChat back end (e.g. a Next.js app/api/chat/route.ts): run cursor-agent on the user's last message and stream
// the run back as the AI SDK's UI message stream.
import { toUIMessageReadableStream } from '@cursor-stream/ai-sdk';
import { runAgent } from '@cursor-stream/node';
import { createUIMessageStreamResponse, type UIMessage } from 'ai';

export async function POST(request: Request): Promise<Response> {
  const { messages } = (await request.json()) as { messages: UIMessage[] };
  const prompt = (messages.at(-1)?.parts ?? [])
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('');
  const run = runAgent(prompt, { trust: true, signal: request.signal });
  return createUIMessageStreamResponse({ stream: toUIMessageReadableStream(run) });
}
