/**
 * One supervised child process: started from the first executable found, stopped on a timeout or an abort (a stop
 * signal, then `SIGKILL` after a grace period), and always waited for, so it never outlives its run as a zombie.
 * Every timer and listener it adds is removed when the process is gone.
 *
 * On POSIX systems the process leads a process group of its own, and every signal goes to the whole group: a tool
 * the agent started (a shell running `sleep 300`, a dev server) ends with the run, whether the run timed out, was
 * cancelled or ended normally, instead of living on with the run's pipes.
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
  /** Written to the process's standard input, which is then closed; without it, standard input is empty. */
  stdin?: string | undefined;
}

/** Whether children get a process group of their own (Windows has none; there the agent alone is signalled). */
const GROUPS = process.platform !== 'win32';

/** Sends `signal` (0: none, only the check) to the process group led by `pid`; `false` when the group is gone. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Groups of runs still going, so that the parent's own exit can end them (their leaders are detached). */
const liveGroups = new Set<number>();

function killLiveGroups(): void {
  for (const group of liveGroups) signalGroup(group, 'SIGKILL');
}

/** Forgets a group that is gone; the exit hook goes with the last one, so an idle process holds no listener. */
function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
  if (liveGroups.size === 0) process.off('exit', killLiveGroups);
}

/** How often a group that got `SIGTERM` is checked for members left. */
const GROUP_POLL_MS = 25;

/**
 * Ends what is left of the group of an agent that has exited: `SIGTERM`, then `SIGKILL` once `graceMs` have passed
 * with a member still there. Resolves at once when the group is empty.
 */
async function endGroup(pid: number, graceMs: number): Promise<void> {
  if (signalGroup(pid, 'SIGTERM')) {
    const deadline = Date.now() + graceMs;
    while (signalGroup(pid, 0)) {
      if (Date.now() >= deadline) {
        signalGroup(pid, 'SIGKILL');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
    }
  }
  untrackGroup(pid);
}

function trackGroup(pid: number): void {
  if (liveGroups.size === 0) process.on('exit', killLiveGroups);
  liveGroups.add(pid);
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
  input: string | undefined,
): Promise<{ child: ChildProcess; binary: string } | undefined> {
  const env = childEnv(options);
  const tryAt = async (index: number): Promise<{ child: ChildProcess; binary: string } | undefined> => {
    const binary = candidates[index];
    if (binary === undefined || stopped()) return undefined;
    const started = await new Promise<ChildProcess | SpawnFailure>((resolve) => {
      let child: ChildProcess;
      try {
        child = spawn(binary, args, {
          cwd: options.cwd,
          env,
          stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
          detached: GROUPS,
        });
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

  /** Signals the agent and, where there are groups, everything it started. */
  function kill(target: ChildProcess, signal: NodeJS.Signals): void {
    if (GROUPS && target.pid !== undefined && signalGroup(target.pid, signal)) return;
    target.kill(signal);
  }

  function signalChild(): void {
    if (child === undefined || hasExited(child)) return;
    // A paused pipe would keep the process's last output, and so its `close`, from ever arriving.
    child.stdout?.resume();
    kill(child, stopSignal);
    if (stopSignal !== 'SIGKILL') {
      const target = child;
      later(killGraceMs, () => {
        if (!hasExited(target)) kill(target, 'SIGKILL');
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
      kill(child, 'SIGKILL');
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
      spec.stdin,
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
    if (GROUPS && running.pid !== undefined) trackGroup(running.pid);
    if (running.stdin !== null) {
      // An agent that exits without reading its input closes the pipe; that is its outcome to report, not ours.
      running.stdin.on('error', () => {});
      running.stdin.end(spec.stdin);
    }
    running.stdout?.on('data', (chunk: Uint8Array) => onStdout(chunk));
    running.stderr?.on('data', (chunk: Uint8Array) => stderr.write(chunk));
    if (stopReason !== undefined) signalChild();
    const closed = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      running.once('close', (code, signal) => resolve({ code, signal }));
      // A grandchild that inherited the pipes can hold them open after the agent is gone; don't wait for it forever.
      running.once('exit', () => {
        // What the agent started goes with it; its pipes then close, which ends the wait below.
        if (GROUPS && running.pid !== undefined) signalGroup(running.pid, 'SIGTERM');
        later(killGraceMs, () => {
          running.stdout?.destroy();
          running.stderr?.destroy();
        });
      });
    });
    if (GROUPS && running.pid !== undefined) await endGroup(running.pid, killGraceMs);
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
