import { runAgent } from '@cursor-stream/node';

const run = runAgent(process.argv[2] ?? 'Summarize README.md', { trust: true, timeoutMs: 300_000 });
for await (const event of run) {
  if (event.type === 'text-delta') process.stdout.write(event.text);
  if (event.type === 'tool-call') process.stdout.write(`\n[${event.toolName}] `);
}
const { success, durationMs, error } = await run.collect();
console.log(success ? `\ndone in ${durationMs} ms` : `\n${error?.code}: ${error?.message}`);
process.exitCode = success ? 0 : 1;
