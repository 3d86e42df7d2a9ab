/**
 * One supervised child process: started from the first executable found, stopped on a timeout or an abort (a stop
 * signal, then `SIGKILL` after a grace period), and always waited for, so it never outlives its run as a zombie.
 * Every timer and listener it adds is removed when the process is gone, and nothing thrown while reading its output
 * escapes: it becomes the run's `output-failed` outcome.
 *
 * On POSIX systems the process leads a process group of its own, and every signal goes to the whole group: a tool
 * the agent started (a shell running `sleep 300`, a dev server) ends with the run, whether the run timed out, was
 * cancelled or ended normally, instead of living on with the run's pipes. On Linux, what left the group is found
 * too, and a watchdog ends the run's processes if the host itself is killed (see `process-tree.ts`).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { delimiter, join, resolve, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AgentProcessOptions, DEFAULT_BINARIES, DEFAULT_KILL_GRACE_MS } from './agent-options.ts';
import { describeThrown } from './agent-outcome.ts';
import { type CapturedText, createBoundedCapture } from './bounded-capture.ts';
import {
  descendantsOf,
  isSameProcess,
  type KnownProcess,
  markedProcesses,
  newRunMarker,
  RUN_MARKER_VARIABLE,
  signalProcess,
  startWatchdog,
} from './process-tree.ts';

/**
 * Why the process was stopped by its supervisor rather than ending by itself. `output-failed`: reading its output
 * threw (a callback of the caller's, or the output could not be processed).
 */
export type StopReason = 'timeout' | 'cancelled' | 'after-result' | 'output-failed';

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
  /** Why reading the output failed, when it did; what came after the failure was not read. */
  outputFailure: string | undefined;
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
  /**
   * Receives stdout as it arrives. A promise it returns holds reading back until it settles (the agent then waits
   * on its pipe); a throw or a rejection stops the run with {@link ProcessExit.outputFailure}.
   */
  onStdout: (chunk: Uint8Array) => void | PromiseLike<void>;
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

/** How often what is left of a run's processes is checked while they are given time to exit. */
const TREE_POLL_MS = 25;

/** Rounds of `SIGKILL` for processes that are still found (one may have forked meanwhile). */
const KILL_ROUNDS = 3;

/** Everything a run started, as far as it can be found; see `process-tree.ts`. */
interface RunTree {
  /** The group the agent leads. */
  group: number | undefined;
  /** In the environment of each of the run's processes. */
  marker: string | undefined;
  /** Descendants found by ancestry while the agent was alive. */
  known: KnownProcess[];
}

/** The run's processes outside its group that are still alive: marked ones, and known ones not yet gone. */
async function strays(tree: RunTree): Promise<number[]> {
  const found = new Set(tree.marker === undefined ? [] : await markedProcesses(tree.marker));
  for (const known of tree.known) if (await isSameProcess(known)) found.add(known.pid);
  return [...found];
}

/** The longest wait `setTimeout` keeps (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Ends what is left of a run whose agent has exited: its group and its strays get `SIGTERM`, then `SIGKILL` once
 * `graceMs` have passed with one still there. Resolves at once when nothing is left.
 */
async function endTree(tree: RunTree, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  const termed = new Set<number>();
  let groupTermed = false;
  let killRounds = 0;
  for (;;) {
    const group = tree.group !== undefined && signalGroup(tree.group, 0);
    const left = await strays(tree);
    if (!group && left.length === 0) break;
    const late = Date.now() >= deadline;
    if (tree.group !== undefined && group && (late || !groupTermed)) {
      signalGroup(tree.group, late ? 'SIGKILL' : 'SIGTERM');
      groupTermed = true;
    }
    for (const pid of left) {
      if (late) signalProcess(pid, 'SIGKILL');
      else if (!termed.has(pid)) signalProcess(pid, 'SIGTERM');
      termed.add(pid);
    }
    if (late && ++killRounds >= KILL_ROUNDS) break;
    await sleep(TREE_POLL_MS);
  }
  if (tree.group !== undefined) untrackGroup(tree.group);
}

function trackGroup(pid: number): void {
  if (liveGroups.size === 0) process.on('exit', killLiveGroups);
  liveGroups.add(pid);
}

function candidatesOf(binary: AgentProcessOptions['binary']): readonly string[] {
  if (binary === undefined) return DEFAULT_BINARIES;
  return typeof binary === 'string' ? [binary] : binary;
}

function childEnv(options: AgentProcessOptions, marker: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  if (options.apiKey !== undefined) env.CURSOR_API_KEY = options.apiKey;
  if (marker !== undefined) env[RUN_MARKER_VARIABLE] = marker;
  return env;
}

/** Whether `binary` names a file as `spawn` looks for it: a path from `cwd`, or a name in a folder of `PATH`. */
function isFileOnPath(binary: string, cwd: string | undefined, path: string | undefined): boolean {
  const isFile = (candidate: string) => statSync(candidate, { throwIfNoEntry: false })?.isFile() === true;
  if (binary.includes(sep)) return isFile(resolve(cwd ?? '.', binary));
  return (path ?? '').split(delimiter).some((folder) => folder !== '' && isFile(join(folder, binary)));
}

function failureOf(binary: string, error: unknown): SpawnFailure {
  const errno = (error as { code?: unknown }).code;
  return { binary, errno: typeof errno === 'string' ? errno : undefined, message: String(error) };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Starts the first executable that exists; resolves with the child, or `undefined` when none started. */
function spawnFirst(
  candidates: readonly string[],
  args: readonly string[],
  options: AgentProcessOptions,
  failures: SpawnFailure[],
  stopped: () => boolean,
  input: string | undefined,
  marker: string | undefined,
): Promise<{ child: ChildProcess; binary: string } | undefined> {
  // A folder that is not there fails every start with ENOENT, which would read as no agent installed.
  if (options.cwd !== undefined && !isFolder(options.cwd)) {
    const message = `its working folder ${options.cwd} is not a folder that exists`;
    failures.push({ binary: candidates[0] ?? 'the agent', errno: undefined, message });
    return Promise.resolve(undefined);
  }
  const env = childEnv(options, marker);
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
    // A script that exists but whose `#!` interpreter does not fails as a missing file would: it is the answer, not
    // a reason to run the next candidate (another program, named `agent`, with the prompt).
    if (started.errno === 'ENOENT' && isFileOnPath(binary, options.cwd, env.PATH)) {
      failures.push({
        binary,
        errno: undefined,
        message: 'it exists, but the interpreter its #! line names does not',
      });
      return undefined;
    }
    failures.push(started);
    // Only a missing executable moves on to the next candidate; any other failure is the answer.
    return started.errno === 'ENOENT' ? tryAt(index + 1) : undefined;
  };
  if (candidates.length === 0)
    failures.push({ binary: 'nothing', errno: undefined, message: 'no executable was given' });
  return tryAt(0);
}

/**
 * The grace a stop gives the process before `SIGKILL`: the default for a value that is no length of time (`NaN`, as
 * `Number()` of a missing variable gives, or a negative one), at most as long as a timer holds, so that a stop always
 * ends: a grace that never ran out would leave a process that ignores `SIGTERM` running for good.
 */
function killGraceOf(value: number | undefined): number {
  return typeof value === 'number' && value >= 0 ? Math.min(value, MAX_TIMER_MS) : DEFAULT_KILL_GRACE_MS;
}

/** Starts the agent process and supervises it until it is gone. */
export function startAgentProcess(spec: ProcessSpec): AgentProcess {
  const { args, options, onStdout } = spec;
  const killGraceMs = killGraceOf(options.killGraceMs);
  const stderr = createBoundedCapture(options.maxCaptureBytes);
  const failures: SpawnFailure[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const tree: RunTree = { group: undefined, marker: GROUPS ? newRunMarker() : undefined, known: [] };
  // Started before the agent, so that no moment of the run is left without it.
  const watchdog = tree.marker === undefined ? undefined : startWatchdog(tree.marker);
  let child: ChildProcess | undefined;
  let stopReason: StopReason | undefined;
  let stopSignal: NodeJS.Signals = 'SIGTERM';
  let outputFailure: string | undefined;
  // Why stdout is not read: the consumer asked (backpressure), and promises of `onStdout` not yet settled.
  let consumerPaused = false;
  let heldByCallback = 0;
  // Set once the process is gone: no timer may be added after the clean-up.
  let gone = false;

  const later = (ms: number, action: () => void) => {
    // Node fires a timer of more than 2^31 - 1 ms (`Infinity` among them) after 1 ms; so long a wait is no limit.
    if (gone || !(ms <= MAX_TIMER_MS)) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  };
  const hasExited = (proc: ChildProcess) => proc.exitCode !== null || proc.signalCode !== null;

  /** Reads stdout or not, as the holds say; a stopping process is always read, or its `close` would never come. */
  function applyFlow(): void {
    const stdout = child?.stdout;
    if (stdout === null || stdout === undefined) return;
    if (stopReason === undefined && (consumerPaused || heldByCallback > 0)) stdout.pause();
    else stdout.resume();
  }

  /** Signals the agent and, where there are groups, everything it started. */
  function kill(target: ChildProcess, signal: NodeJS.Signals): void {
    if (GROUPS && target.pid !== undefined && signalGroup(target.pid, signal)) return;
    try {
      target.kill(signal);
    } catch {
      // An unknown signal name: nothing was sent; the SIGKILL after the grace period still comes.
    }
  }

  /** Signals the agent's group and its descendants outside it, found while the agent is still their ancestor. */
  async function signalTree(target: ChildProcess, signal: NodeJS.Signals): Promise<void> {
    const found = target.pid === undefined ? [] : await descendantsOf(target.pid);
    tree.known.push(...found);
    if (!hasExited(target)) kill(target, signal);
    for (const known of found) signalProcess(known.pid, signal);
  }

  function signalChild(): void {
    if (child === undefined || hasExited(child)) return;
    applyFlow();
    const target = child;
    void signalTree(target, stopSignal).catch(() => kill(target, stopSignal));
    if (stopSignal !== 'SIGKILL') {
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

  /** Reading the output failed: the rest of it is not read, and the run is stopped. */
  function failOutput(thrown: unknown): void {
    if (outputFailure !== undefined) return;
    outputFailure = describeThrown(thrown);
    stop('output-failed');
    // Whatever holds reading back no longer matters: the output is drained so the process can end.
    heldByCallback = 0;
    applyFlow();
  }

  function takeStdout(chunk: Uint8Array): void {
    if (outputFailure !== undefined) return;
    let held: void | PromiseLike<void>;
    try {
      held = onStdout(chunk);
    } catch (thrown) {
      failOutput(thrown);
      return;
    }
    if (held === undefined || held === null || typeof held.then !== 'function') return;
    heldByCallback += 1;
    applyFlow();
    const release = () => {
      if (heldByCallback > 0) heldByCallback -= 1;
      applyFlow();
    };
    try {
      held.then(release, (thrown: unknown) => {
        release();
        failOutput(thrown);
      });
    } catch (thrown) {
      release();
      failOutput(thrown);
    }
  }

  function takeStderr(chunk: Uint8Array): void {
    try {
      stderr.write(chunk);
    } catch {
      // The capture is a diagnostic; losing a piece of it is no reason to end the run.
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
    watchdog?.done();
  }

  const exited = (async (): Promise<ProcessExit> => {
    const started = await spawnFirst(
      candidatesOf(options.binary),
      args,
      options,
      failures,
      () => stopReason !== undefined,
      spec.stdin,
      tree.marker,
    );
    if (started === undefined) {
      cleanUp();
      return {
        binary: undefined,
        spawnFailures: failures,
        exitCode: null,
        signal: null,
        stopReason,
        outputFailure,
        stderr: stderr.read(),
      };
    }
    child = started.child;
    const running = child;
    // After the start, an error of the process (a signal it could not be sent) is no reason to end the host.
    running.on('error', () => {});
    if (GROUPS && running.pid !== undefined) {
      tree.group = running.pid;
      trackGroup(running.pid);
      watchdog?.group(running.pid);
    }
    if (running.stdin !== null) {
      // An agent that exits without reading its input closes the pipe; that is its outcome to report, not ours.
      running.stdin.on('error', () => {});
      running.stdin.end(spec.stdin);
    }
    running.stdout?.on('data', takeStdout);
    running.stdout?.on('error', failOutput);
    running.stderr?.on('data', takeStderr);
    running.stderr?.on('error', () => {});
    applyFlow();
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
    await endTree(tree, killGraceMs).catch(() => {});
    cleanUp();
    return {
      binary: started.binary,
      spawnFailures: failures,
      exitCode: closed.code,
      signal: closed.signal,
      stopReason,
      outputFailure,
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
      consumerPaused = true;
      applyFlow();
    },
    resumeOutput() {
      consumerPaused = false;
      applyFlow();
    },
    exited,
  };
}
