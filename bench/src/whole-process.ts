/**
 * Runs a command as a user does, in a fresh Node process from start to exit, and reads back the process's own
 * resource usage: a tiny module loaded before the command writes it to file descriptor 3 as the process exits,
 * since Node gives a parent no way to read a child's.
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { REPOSITORY_ROOT } from './spawn-run.ts';

const REPORT_USAGE = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => writeSync(3, JSON.stringify(process.resourceUsage())));",
)}`;

/** One whole-process run. */
export interface WholeProcessRun {
  /** Wall time from spawn to exit. */
  ms: number;
  /** The process's own resource usage as it exited. */
  usage: NodeJS.ResourceUsage;
  code: number | null;
  /** What it printed, when asked to keep it; otherwise its output went to `/dev/null`. */
  stdout?: string;
}

/** Where a run's standard output goes: `/dev/null`, as users time output-heavy commands, or kept. */
export type StdoutTarget = 'dev-null' | 'keep';

/**
 * Runs `node [...nodeFlags] SCRIPT [...args]`, with `env` over the bench's own variables, and waits for it to exit.
 *
 * @throws Error when the process exits without reporting its resource usage (it did not start, or was killed).
 */
export async function runWholeProcess(
  script: string,
  args: readonly string[],
  nodeFlags: readonly string[],
  stdout: StdoutTarget,
  env: Readonly<Record<string, string>> = {},
): Promise<WholeProcessRun> {
  const devNull = await open('/dev/null', 'w');
  try {
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeFlags, '--import', REPORT_USAGE, script, ...args], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', stdout === 'keep' ? 'pipe' : devNull.fd, 'inherit', 'pipe'],
    });
    let printed = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      printed += text;
    });
    let report = '';
    (child.stdio[3] as Readable).setEncoding('utf8').on('data', (text: string) => {
      report += text;
    });
    const [code] = (await once(child, 'close')) as [number | null];
    const ms = performance.now() - started;
    if (!report.startsWith('{'))
      throw new Error(`${script} exited ${code} without reporting its resource usage`);
    const usage = JSON.parse(report) as NodeJS.ResourceUsage;
    return stdout === 'keep' ? { ms, usage, code, stdout: printed } : { ms, usage, code };
  } finally {
    await devNull.close();
  }
}

/** Peak resident set size from a resource usage, MB (10^6 bytes). */
export function peakRssMbOf(usage: NodeJS.ResourceUsage): number {
  return (usage.maxRSS * 1024) / 1e6;
}
