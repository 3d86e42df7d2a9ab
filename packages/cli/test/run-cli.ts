import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sharedFolder } from '../../../tools/shared-material.ts';

/** The repository root: commands run from here, as a user following the README would. */
export const REPO_ROOT = join(import.meta.dirname, '../../..');
/** Real recorded streams, read in place; the suites that need them skip when they are missing. */
export const REAL_CORPUS = sharedFolder('real-corpus');
/** The bundled recording the README's main job runs on. */
export const RECORDING = 'corpus/official/docs-example-zh.ndjson';

/** The range worker as the CLI ships it: a worker thread runs plain JavaScript. */
export const BUNDLED_RANGE_WORKER = new URL('../bundle/range-worker.js', import.meta.url);

const BIN = join(REPO_ROOT, 'packages/cli/bin/cursor-stream.js');

/** How one CLI run ended. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Variables that change what a command does, which each test decides. */
const DECIDED_BY_TESTS = new Set([
  'FORCE_COLOR',
  'NO_COLOR',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
]);

/** The environment without the variables each test decides. */
function cleanEnv(env: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !DECIDED_BY_TESTS.has(key)) result[key] = value;
  }
  return { ...result, ...env };
}

/**
 * Spawns the built CLI with plain `node` (not through vitest's module runner), feeding `input` to its stdin.
 */
export function runCli(
  args: readonly string[],
  options: { input?: string | Buffer; env?: Record<string, string> } = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: cleanEnv(options.env ?? {}) });
  return collect(child, options.input);
}

/** Spawns the CLI and returns while it runs, for tests that talk to it (`--follow`). */
export function startCli(args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: cleanEnv({}) });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    /** Resolves once stdout contains `text`; rejects if the CLI exits first. */
    waitFor(text: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const onExit = (code: number | null): void => {
          if (!stdout.includes(text))
            reject(new Error(`exited (${code}) before printing ${text}: ${stderr}`));
        };
        const check = (): void => {
          if (!stdout.includes(text)) return;
          child.stdout.off('data', check);
          child.off('exit', onExit);
          resolve();
        };
        child.stdout.on('data', check);
        child.once('exit', onExit);
        check();
      });
    },
    exited(): Promise<number | null> {
      return new Promise((resolve) => {
        if (child.exitCode !== null) resolve(child.exitCode);
        else child.once('exit', (code) => resolve(code));
      });
    },
  };
}

function collect(child: ReturnType<typeof spawn>, input: string | Buffer | undefined): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  child.stdin?.end(input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
