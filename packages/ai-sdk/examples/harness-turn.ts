import { basename, dirname } from 'node:path';
import { getHarnessErrorMessage, HarnessAgent } from '@ai-sdk/harness/agent';
import { createCursorHarness } from '@cursor-stream/ai-sdk/harness';
import { createLocalSandboxSession } from './local-sandbox-session.ts';

// The agent works in this folder, on this machine: the local sandbox session isolates nothing.
const here = process.cwd();
const agent = new HarnessAgent({
  harness: createCursorHarness(),
  sandboxConfig: { workDir: basename(here) },
});
const session = await agent.createSession({ sandboxSession: createLocalSandboxSession(dirname(here)) });
const result = await agent.stream({ session, prompt: process.argv[2] ?? 'Summarize README.md' });
let failure: unknown;
for await (const part of result.fullStream) {
  if (part.type === 'text-delta') process.stdout.write(part.text);
  if (part.type === 'tool-call') process.stdout.write(`\n[${part.toolName}] `);
  if (part.type === 'error') failure = part.error;
}
if (failure === undefined) {
  const { inputTokens, inputTokenDetails, outputTokens } = await result.totalUsage;
  console.log(
    `\n${inputTokens} input tokens (${inputTokenDetails.cacheReadTokens} cached), ${outputTokens} output`,
  );
} else {
  console.log(`\n${getHarnessErrorMessage(failure)}`);
  process.exitCode = 1;
}
await session.stop();
