/**
 * One supervised child process: started from the first executable found, stopped on a timeout or an abort (a stop
 * signal, then `SIGKILL` after a grace period), and always waited for, so it never outlives its run as a zombie.
 * Every timer and listener it adds is removed when the process is gone.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { type AgentProcessOptions, DEFAULT_BINARIES, DEFAULT_KILL_GRACE_MS } from './agent-options.ts';
import { type CapturedText, createBoundedCapture } from './bounded-capture.ts';

/** Why the process was stopped by its supervisor rather than ending by itself. */
export type StopReason = 'timeout' | 'cancelled' | 'after-result';

/** An executable that could not be started. */
export interface SpawnFailure {
  binary: string;
  /** The system error code, e.g. `ENOENT` (not found) or `EACCES` (not executable). */
  errno: string | undefined;
  message: string;
}

/** How the process ended. */
export interface ProcessExit {
  /** The executable that ran; `undefined` when none could start. */
  binary: string | undefined;
  /** Every executable tried and why it failed to start (empty when one started). */
  spawnFailures: SpawnFailure[];
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the supervisor stopped the process; the first reason wins. */
  stopReason: StopReason | undefined;
  stderr: CapturedText;
}

/** A running (or starting) process; see {@link startAgentProcess}. */
export interface AgentProcess {
  /** The process id once started. */
  readonly pid: number | undefined;
  /** Stops the process with `signal` (then `SIGKILL` after the grace period). Later calls keep the first reason. */
  stop(reason: StopReason, signal?: NodeJS.Signals): void;
  /** Stops the process after `ms` unless it has exited by then (the timer goes when the process does). */
  stopLater(reason: StopReason, ms: number): void;
  /** Stops reading stdout while the consumer catches up (backpressure). Ignored once the process is stopping. */
  pauseOutput(): void;
  /** Reads stdout again. */
  resumeOutput(): void;
  /** Settles once the process has exited and its pipes are closed, with no timer or listener left. */
  readonly exited: Promise<ProcessExit>;
}

/** What {@link startAgentProcess} needs besides the options. */
export interface ProcessSpec {
  args: readonly string[];
  options: AgentProcessOptions;
  /** Receives stdout as it arrives. */
  onStdout: (chunk: Uint8Array) => void;
}

function candidatesOf(binary: AgentProcessOptions['binary']): readonly string[] {
  if (binary === undefined) return DEFAULT_BINARIES;
  return typeof binary === 'string' ? [binary] : binary;
}

function childEnv(options: AgentProcessOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  if (options.apiKey !== undefined) env.CURSOR_API_KEY = options.apiKey;
  return env;
}

function failureOf(binary: string, error: unknown): SpawnFailure {
  const errno = (error as { code?: unknown }).code;
  return { binary, errno: typeof errno === 'string' ? errno : undefined, message: String(error) };
}

/** Starts the first executable that exists; resolves with the child, or `undefined` when none started. */
function spawnFirst(
  candidates: readonly string[],
  args: readonly string[],
  options: AgentProcessOptions,
  failures: SpawnFailure[],
  stopped: () => boolean,
): Promise<{ child: ChildProcess; binary: string } | undefined> {
  const env = childEnv(options);
  const tryAt = async (index: number): Promise<{ child: ChildProcess; binary: string } | undefined> => {
    const binary = candidates[index];
    if (binary === undefined || stopped()) return undefined;
    const started = await new Promise<ChildProcess | SpawnFailure>((resolve) => {
      let child: ChildProcess;
      try {
        child = spawn(binary, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (error) {
        resolve(failureOf(binary, error));
        return;
      }
      const onSpawn = () => {
        child.off('error', onError);
        resolve(child);
      };
      const onError = (error: Error) => {
        child.off('spawn', onSpawn);
        resolve(failureOf(binary, error));
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    });
    if (!('errno' in started)) return { child: started, binary };
    failures.push(started);
    // Only a missing executable moves on to the next candidate; any other failure is the answer.
    return started.errno === 'ENOENT' ? tryAt(index + 1) : undefined;
  };
  return tryAt(0);
}

/** Starts the agent process and supervises it until it is gone. */
export function startAgentProcess(spec: ProcessSpec): AgentProcess {
  const { args, options, onStdout } = spec;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const stderr = createBoundedCapture(options.maxCaptureBytes);
  const failures: SpawnFailure[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let child: ChildProcess | undefined;
  let stopReason: StopReason | undefined;
  let stopSignal: NodeJS.Signals = 'SIGTERM';
  // Set once the process is gone: no timer may be added after the clean-up.
  let gone = false;

  const later = (ms: number, action: () => void) => {
    if (gone) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  };
  const hasExited = (proc: ChildProcess) => proc.exitCode !== null || proc.signalCode !== null;

  function signalChild(): void {
    if (child === undefined || hasExited(child)) return;
    // A paused pipe would keep the process's last output, and so its `close`, from ever arriving.
    child.stdout?.resume();
    child.kill(stopSignal);
    if (stopSignal !== 'SIGKILL') {
      const target = child;
      later(killGraceMs, () => {
        if (!hasExited(target)) target.kill('SIGKILL');
      });
    }
  }

  function stop(reason: StopReason, signal: NodeJS.Signals = 'SIGTERM'): void {
    // A process that already ended by itself keeps its own outcome.
    if (child !== undefined && hasExited(child)) return;
    if (stopReason === undefined) {
      stopReason = reason;
      stopSignal = signal;
      signalChild();
    } else if (signal === 'SIGKILL' && child !== undefined && !hasExited(child)) {
      child.kill('SIGKILL');
    }
  }

  const onAbort = () => stop('cancelled');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.timeoutMs !== undefined) later(options.timeoutMs, () => stop('timeout'));
  if (options.signal?.aborted === true) stop('cancelled');

  function cleanUp(): void {
    gone = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    options.signal?.removeEventListener('abort', onAbort);
  }

  const exited = (async (): Promise<ProcessExit> => {
    const started = await spawnFirst(
      candidatesOf(options.binary),
      args,
      options,
      failures,
      () => stopReason !== undefined,
    );
    if (started === undefined) {
      cleanUp();
      return {
        binary: undefined,
        spawnFailures: failures,
        exitCode: null,
        signal: null,
        stopReason,
        stderr: stderr.read(),
      };
    }
    child = started.child;
    const running = child;
    running.stdout?.on('data', (chunk: Uint8Array) => onStdout(chunk));
    running.stderr?.on('data', (chunk: Uint8Array) => stderr.write(chunk));
    if (stopReason !== undefined) signalChild();
    const closed = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      running.once('close', (code, signal) => resolve({ code, signal }));
      // A grandchild that inherited the pipes can hold them open after the agent is gone; don't wait for it forever.
      running.once('exit', () => {
        later(killGraceMs, () => {
          running.stdout?.destroy();
          running.stderr?.destroy();
        });
      });
    });
    cleanUp();
    return {
      binary: started.binary,
      spawnFailures: failures,
      exitCode: closed.code,
      signal: closed.signal,
      stopReason,
      stderr: stderr.read(),
    };
  })();

  return {
    get pid() {
      return child?.pid;
    },
    stop,
    stopLater(reason, ms) {
      later(ms, () => stop(reason));
    },
    pauseOutput() {
      if (stopReason === undefined) child?.stdout?.pause();
    },
    resumeOutput() {
      child?.stdout?.resume();
    },
    exited,
  };
}
