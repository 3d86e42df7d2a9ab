/**
 * What `cursor-stream bench` and the project's benchmark measure with alike: the machine, the median of the runs, and
 * one run in a fresh Node process. The benchmark reads it through this package's workspace-internal `./measurement`
 * entry, which is not published.
 */

import { execFile } from 'node:child_process';
import { cpus, release, totalmem, type } from 'node:os';

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

/**
 * Runs `script` with `args` in a fresh Node process, so that no run inherits another's JIT state, heap or caches,
 * and reads back the JSON object on the last line it prints.
 */
export function runInFreshProcess(
  script: string,
  args: readonly string[],
  options: FreshProcessOptions = {},
): Promise<FreshProcessOutcome> {
  const { nodeFlags = [], cwd, timeoutMs = 0 } = options;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeFlags, script, ...args],
      { cwd, timeout: timeoutMs, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        const value = error === null ? lastJsonLine(stdout) : undefined;
        resolve(value !== undefined ? { ok: true, value } : { ok: false, failure: error?.message, stderr });
      },
    );
  });
}
