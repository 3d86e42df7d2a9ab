/**
 * Hostile-input runs of the built CLI, each in a fresh process fed by a generator (nothing is written to disk):
 *
 * - `huge-turn [MB]`: one assistant turn of that many MB of 1 KB `--stream-partial-output` deltas, then a final copy
 *   of its last model call, through `normalize`. Checks that the text comes out exactly once.
 * - `keys [N]`: one record of N keys through `normalize` under the default 64 MiB limit, which holds about 5 million.
 * - `resync [MB]`: a line cut inside a string, then that many MB of lines that are more of the string, then a record;
 *   against the same bytes as plain records, to show what the resync costs per byte.
 *
 * Prints wall time, peak RSS of the CLI process (from `/usr/bin/time`) and the machine's load average.
 *
 * Run: `pnpm build`, then `pnpm --filter @cursor-stream/bench run hostile huge-turn 1024`.
 */

import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { CLI_BIN } from '@cursor-stream/test-kit/run-cli';

const MB = 1024 * 1024;

interface Outcome {
  seconds: number;
  peakRssMb: number;
  textChars: number;
  events: number;
}

/** Runs `cursor-stream normalize -` on the generated input, counting the text it emits without keeping it. */
function runNormalize(input: Iterable<string>, args: readonly string[] = []): Promise<Outcome> {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, CLI_BIN, 'normalize', ...args, '-'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // A CLI that stops reading early (a refused option) must not end the benchmark with EPIPE.
  child.stdin.on('error', () => undefined);
  Readable.from(input).pipe(child.stdin);
  let textChars = 0;
  let events = 0;
  // Pieces of the line being read: joining on every chunk would be quadratic on one long event line.
  let pieces: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (!chunk.includes('\n')) {
      pieces.push(chunk);
      return;
    }
    const lines = chunk.split('\n');
    lines[0] = pieces.join('') + lines[0];
    pieces = [lines.pop() ?? ''];
    for (const line of lines) {
      events++;
      if (line.startsWith('{"type":"text-delta"'))
        textChars += (JSON.parse(line) as { text: string }).text.length;
    }
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', () => {
      const peakKb = Number(stderr.trim().split('\n').at(-1));
      resolve({ seconds: (performance.now() - started) / 1000, peakRssMb: peakKb / 1024, textChars, events });
    });
  });
}

const INIT = '{"type":"system","subtype":"init","session_id":"s","model":"m"}\n';

function* hugeTurn(megabytes: number): Generator<string> {
  yield INIT;
  const piece = `${'x'.repeat(1000)}\\n`;
  const count = Math.ceil((megabytes * MB) / 1024);
  for (let i = 0; i < count; i++) {
    yield `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"${piece}"}]},"session_id":"s","timestamp_ms":${i}}\n`;
  }
  // The final copy repeats the turn's last 1,000 deltas (a model call after a tool call), which must not be emitted again.
  yield '{"type":"tool_call","subtype":"started","call_id":"c","session_id":"s","tool_call":{"readToolCall":{"args":{"path":"a"}}}}\n';
  let call = '';
  for (let i = 0; i < 1000; i++) {
    const text = `${'y'.repeat(1000)}\\n`;
    yield `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"${text}"}]},"session_id":"s","timestamp_ms":${i}}\n`;
    call += text;
  }
  yield `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"${call}"}]},"session_id":"s"}\n`;
  yield '{"type":"result","subtype":"success","result":"","session_id":"s","is_error":false}\n';
}

function* manyKeys(count: number): Generator<string> {
  yield '{"type":"x"';
  for (let from = 0; from < count; from += 10_000) {
    let part = '';
    for (let i = from; i < Math.min(count, from + 10_000); i++) part += `,"k${i}":${i % 10}`;
    yield part;
  }
  yield '}\n{"type":"after"}\n';
}

function* resyncLines(megabytes: number, cut: boolean): Generator<string> {
  if (cut) yield '{"type":"assistant","text":"cut\n';
  const line = cut ? `${'more of the string '.repeat(5)}\n` : `{"type":"x","t":"${'more'.repeat(20)}"}\n`;
  for (let bytes = 0; bytes < megabytes * MB; bytes += line.length) yield line;
  yield '{"type":"after"}\n';
}

async function main(): Promise<void> {
  const [command = 'huge-turn', sizeArgument] = process.argv.slice(2);
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  console.log(`${command} ${sizeArgument ?? ''} · load before ${load()}`);
  if (command === 'huge-turn') {
    const megabytes = Number(sizeArgument ?? 64);
    const outcome = await runNormalize(hugeTurn(megabytes));
    const expected = Math.ceil((megabytes * MB) / 1024) * 1001 + 1000 * 1001;
    console.log({ ...outcome, expectedTextChars: expected, exactlyOnce: outcome.textChars === expected });
  } else if (command === 'keys') {
    const count = Number(sizeArgument ?? 1_000_000);
    console.log(await runNormalize(manyKeys(count)));
  } else if (command === 'resync') {
    const megabytes = Number(sizeArgument ?? 64);
    console.log('cut line, then string lines:', await runNormalize(resyncLines(megabytes, true)));
    console.log('plain records, same size:   ', await runNormalize(resyncLines(megabytes, false)));
  } else throw new Error(`unknown run ${command}; use huge-turn, keys or resync`);
  console.log(`load after ${load()}`);
}

await main();
