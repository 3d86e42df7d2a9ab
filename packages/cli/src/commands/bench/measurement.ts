/**
 * What `cursor-stream bench` and the project's benchmark measure with alike: the machine, the median of the runs, one
 * run in a fresh Node process, and the reference loop the commands are compared with. The benchmark reads it through
 * this package's workspace-internal `./measurement` entry, which is not published.
 */

import { type ChildProcess, execFile } from 'node:child_process';
import { constants, cpus, release, totalmem, type } from 'node:os';

/** The machine a measurement was taken on, for the report. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  node: string;
  os: string;
  memoryGb: number;
}

/** Describes this machine. */
export function describeMachine(): MachineInfo {
  const processors = cpus();
  return {
    cpu: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    node: process.version,
    os: `${type()} ${release()}`,
    memoryGb: Math.round(totalmem() / 1e9),
  };
}

/** The median of a non-empty list (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

/** The JSON object on the last line a run printed, if that line holds one. */
export function lastJsonLine(stdout: string): object | undefined {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** How to start a fresh process. */
export interface FreshProcessOptions {
  /** Node's own flags, before the script (a loader, conditions); none by default. */
  nodeFlags?: readonly string[];
  cwd?: string;
  /** Past this a run is stuck and is ended; none by default. */
  timeoutMs?: number;
}

/**
 * What a run in a fresh process gave: the JSON object it printed last, or, when it failed or printed none, why
 * (`failure`: the process's own error, if it had one) and what it wrote to stderr.
 */
export type FreshProcessOutcome =
  | { ok: true; value: object }
  | { ok: false; failure: string | undefined; stderr: string };

/** The signals that end a measuring process; its runs in fresh processes end with it. */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The fresh processes running now. */
const running = new Set<ChildProcess>();

/**
 * Ends the runs in fresh processes, then this process as the signal would have. A run is a child of its own: ended
 * by a supervisor, a timeout or `kill` sent to this process alone (not its group, as Ctrl-C is), it would otherwise
 * go on reading a whole log at full speed after the measurement it was for is gone.
 */
function endWithRuns(signal: (typeof ENDING_SIGNALS)[number]): void {
  for (const child of running) child.kill('SIGKILL');
  process.exit(128 + constants.signals[signal]);
}

function track(child: ChildProcess): void {
  if (running.size === 0) for (const signal of ENDING_SIGNALS) process.on(signal, endWithRuns);
  running.add(child);
}

function untrack(child: ChildProcess): void {
  running.delete(child);
  if (running.size === 0) for (const signal of ENDING_SIGNALS) process.off(signal, endWithRuns);
}

/**
 * Runs `script` with `args` in a fresh Node process, so that no run inherits another's JIT state, heap or caches,
 * and reads back the JSON object on the last line it prints. The process ends with this one.
 */
export function runInFreshProcess(
  script: string,
  args: readonly string[],
  options: FreshProcessOptions = {},
): Promise<FreshProcessOutcome> {
  const { nodeFlags = [], cwd, timeoutMs = 0 } = options;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...nodeFlags, script, ...args],
      { cwd, timeout: timeoutMs, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        untrack(child);
        const value = error === null ? lastJsonLine(stdout) : undefined;
        resolve(value !== undefined ? { ok: true, value } : { ok: false, failure: error?.message, stderr });
      },
    );
    track(child);
  });
}

/** One file read by a plain loop: each chunk as it comes (valid only during the call), then the end of the file. */
export interface PlainLoop {
  chunk(bytes: Uint8Array): void;
  end(): void;
}

/**
 * The reference loop's line splitting, made anew for each file: `TextDecoder({stream:true})` per chunk,
 * `String#indexOf('\n')`, each line cut from the decoded text and given to `onLine`. The loop the commands' speed is
 * stated against, in `cursor-stream bench` and in the project's benchmark alike.
 */
export function referenceLoopOf(onLine: (line: string) => void): PlainLoop {
  const decoder = new TextDecoder();
  let tail = '';
  return {
    chunk(bytes) {
      const text = tail + decoder.decode(bytes, { stream: true });
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        onLine(text.slice(start, end));
        start = end + 1;
      }
      tail = text.slice(start);
    },
    end() {
      onLine(tail + decoder.decode());
    },
  };
}
