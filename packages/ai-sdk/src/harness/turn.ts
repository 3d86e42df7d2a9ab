/**
 * One turn of the agent in a sandbox: its command started through the sandbox's own process API, its stdout fed to
 * the normalizer as it arrives, its parts emitted as they come, and its end classified the way `runAgent` classifies
 * a run (the same codes and the agent's own sentence). The process is always ended with the turn: on abort, when the
 * session stops or suspends it, when reading its output fails, when it outlives its result; and once more when the
 * turn is over, so that what it left behind in its process group goes too, as far as the sandbox's `kill` reaches.
 */

import type { HarnessV1StartOptions, HarnessV1StreamPart } from '@ai-sdk/harness';
import {
  type AgentRunError,
  classifyRun,
  createBoundedCapture,
  createRunEvents,
  describeThrown,
  type ProcessExit,
  type StopReason,
  type StreamEnd,
} from '@cursor-stream/node/agent-protocol';
import type { HarnessPackage } from './harness-package.ts';
import { createTurnParts, type TurnPartOptions } from './turn-parts.ts';

/** The sandbox API the harness uses: what every `SandboxSession` has. */
export type SandboxSession = Pick<
  HarnessV1StartOptions['sandboxSession'],
  'spawn' | 'run' | 'writeTextFile' | 'description'
>;

type SandboxProcess = Awaited<ReturnType<SandboxSession['spawn']>>;

/**
 * After the process exits, how long its pipes may stay open with nothing coming before they are let go: a process it
 * left behind can hold them open for ever.
 */
const OUTPUT_DRAIN_MS = 1000;

/** What a shell says by its exit code when the command is not there (127) or cannot be run (126). */
const NOT_STARTED: Readonly<Record<number, string>> = { 127: 'ENOENT', 126: 'EACCES' };

/** How a command in the sandbox ended, as `runAgent` describes a process's end. */
export interface SandboxExit {
  binary: string;
  exitCode: number | null;
  stderr: ProcessExit['stderr'];
  /** Whether it wrote anything on stdout (a shell that could not start it writes nothing there). */
  wroteStdout: boolean;
  stopReason?: StopReason | undefined;
  outputFailure?: string | undefined;
}

/**
 * A sandbox command's end as a `ProcessExit`, for `classifyRun`. A shell's 127 or 126 with nothing on stdout is the
 * agent not starting at all (`spawn-failed`), since a sandbox runs the command line through its shell.
 */
export function processExitOf(exit: SandboxExit): ProcessExit {
  const errno = exit.exitCode === null || exit.wroteStdout ? undefined : NOT_STARTED[exit.exitCode];
  const firstLine = exit.stderr.text.trim().split('\n')[0] ?? '';
  return {
    binary: errno === undefined ? exit.binary : undefined,
    spawnFailures: errno === undefined ? [] : [{ binary: exit.binary, errno, message: firstLine }],
    exitCode: exit.exitCode,
    signal: null,
    stopReason: exit.stopReason,
    outputFailure: exit.outputFailure,
    stderr: exit.stderr,
  };
}

/** One turn's settings; see {@link startTurn}. */
export interface TurnOptions {
  sandbox: SandboxSession;
  harness: HarnessPackage;
  /** The agent's executable, as messages name it. */
  binary: string;
  /** Gives the command line the sandbox's shell runs (it may write the prompt where the command reads it). */
  command: () => Promise<string>;
  workingDirectory: string;
  env: Readonly<Record<string, string>> | undefined;
  /** How long the agent may take to exit after its result before it is stopped. */
  exitGraceMs: number;
  /** Bytes of stderr kept. */
  maxCaptureBytes: number;
  parts: TurnPartOptions;
  abortSignal: AbortSignal | undefined;
  emit: (part: HarnessV1StreamPart) => void;
  /** Hears of the chat the agent's output names (the session follows it). */
  onChatId: (chatId: string) => void;
  /** Why the turn is refused before anything starts, when it is. */
  refusal?: AgentRunError | undefined;
}

/** How a turn is stopped from outside: suspended (its `done` resolves) or ended with `reason` (`done` rejects). */
export type TurnStop = { suspend: true } | { reason: unknown };

/** A running turn; see {@link startTurn}. */
export interface Turn {
  /** Settles once the turn's parts are all emitted and its process is ended: rejects when the turn failed. */
  readonly done: Promise<void>;
  /** Ends the turn's process; see {@link TurnStop}. Settles with the turn. */
  stop(how: TurnStop): Promise<void>;
}

/** Starts one `--print --output-format stream-json` turn. */
export function startTurn(options: TurnOptions): Turn {
  const parts = createTurnParts(options.parts);
  const readers = new Set<ReadableStreamDefaultReader<Uint8Array>>();
  let proc: SandboxProcess | undefined;
  let stopReason: StopReason | undefined;
  let outputFailure: string | undefined;
  let stopped: TurnStop | undefined;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;

  function emitAll(list: readonly HarnessV1StreamPart[]): void {
    if (stopped === undefined) for (const part of list) options.emit(part);
  }

  function letPipesGo(): void {
    for (const reader of readers) reader.cancel().catch(() => {});
  }

  function halt(reason: StopReason): void {
    stopReason ??= reason;
    proc?.kill().then(undefined, () => {});
  }

  function stop(how: TurnStop): void {
    stopped ??= how;
    halt('cancelled');
    letPipesGo();
  }

  const onAbort = () => stop({ reason: options.abortSignal?.reason });

  /** Reads a stream to its end (or until it is let go); a throw of `onChunk` stops the turn as an output failure. */
  async function pump(
    stream: ReadableStream<Uint8Array>,
    onChunk: (chunk: Uint8Array) => void,
  ): Promise<void> {
    const reader = stream.getReader();
    readers.add(reader);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        try {
          onChunk(value);
        } catch (thrown) {
          outputFailure ??= describeThrown(thrown);
          halt('output-failed');
          letPipesGo();
          return;
        }
      }
    } catch {
      // A pipe that breaks ends what can be read of it; the process's exit says the rest.
    } finally {
      readers.delete(reader);
    }
  }

  /** Ends the turn as failed: its parts end with one `error`, and `done` rejects with the same value. */
  function fail(error: AgentRunError): never {
    const value = options.harness.agentError(error);
    emitAll(parts.end({ ok: false, error: value }));
    throw value;
  }

  async function run(): Promise<void> {
    if (options.refusal !== undefined) fail(options.refusal);
    options.abortSignal?.throwIfAborted();
    options.abortSignal?.addEventListener('abort', onAbort, { once: true });
    try {
      proc = await options.sandbox.spawn({
        command: await options.command(),
        workingDirectory: options.workingDirectory,
        ...(options.env === undefined ? {} : { env: { ...options.env } }),
        ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
      });
    } catch (thrown) {
      if (stopped !== undefined) return settleStopped();
      fail({
        code: 'spawn-failed',
        message: `Could not start ${options.binary} in the sandbox: ${describeThrown(thrown)}`,
      });
    }
    const started = proc;
    if (stopped !== undefined) halt('cancelled');
    const stderr = createBoundedCapture(options.maxCaptureBytes);
    let wroteStdout = false;
    const events = createRunEvents({
      resume: options.parts.resume,
      keep: false,
      hooks: {
        onResult: () => {
          graceTimer ??= setTimeout(() => halt('after-result'), options.exitGraceMs);
        },
      },
    });
    let gone = false;
    /** Once the process is gone, its pipes are let go after a while with nothing on them. */
    const drainLater = () => {
      if (!gone) return;
      clearTimeout(drainTimer);
      drainTimer = setTimeout(letPipesGo, OUTPUT_DRAIN_MS);
    };
    const exited = Promise.resolve(started.wait()).then(
      ({ exitCode }) => ({ exitCode, lost: undefined }),
      (thrown: unknown) => ({ exitCode: null, lost: describeThrown(thrown) }),
    );
    void exited.then(() => {
      gone = true;
      drainLater();
    });
    await Promise.all([
      pump(started.stderr, (chunk) => {
        drainLater();
        stderr.write(chunk);
      }),
      pump(started.stdout, (chunk) => {
        drainLater();
        wroteStdout = true;
        emitAll(events.feed(chunk).flatMap((event) => parts.map(event)));
      }),
    ]);
    const { exitCode, lost } = await exited;
    if (stopped !== undefined) return settleStopped();
    if (lost !== undefined) outputFailure ??= `the sandbox lost the process: ${lost}`;

    let stream: StreamEnd;
    try {
      const end = events.end();
      stream = end.stream;
      emitAll(end.events.flatMap((event) => parts.map(event)));
    } catch (thrown) {
      outputFailure ??= describeThrown(thrown);
      stream = {
        sawResult: false,
        agentFailed: false,
        agentError: undefined,
        stdoutNoise: events.stdoutNoise,
      };
    }
    const exit = processExitOf({
      binary: options.binary,
      exitCode,
      stderr: stderr.read(),
      wroteStdout,
      stopReason,
      outputFailure,
    });
    const error = classifyRun(exit, stream);
    const finish = events.close(error).findLast((event) => event.type === 'finish');
    if (events.sessionId !== undefined) options.onChatId(events.sessionId);
    if (error !== null) fail(error);
    emitAll(
      parts.end({
        ok: true,
        finish: finish?.type === 'finish' ? finish : undefined,
        chatId: events.sessionId ?? options.parts.resume,
      }),
    );
  }

  function settleStopped(): void {
    if (stopped !== undefined && 'reason' in stopped) throw stopped.reason;
  }

  const done = run().finally(async () => {
    options.abortSignal?.removeEventListener('abort', onAbort);
    clearTimeout(graceTimer);
    clearTimeout(drainTimer);
    letPipesGo();
    // Whatever the agent left in its process group goes with the turn, as far as the sandbox's kill reaches.
    await proc?.kill().then(undefined, () => {});
  });
  done.catch(() => {});

  return {
    done,
    async stop(how) {
      stop(how);
      await done.catch(() => {});
    },
  };
}
