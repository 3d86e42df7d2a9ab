/**
 * `runAgent`: cursor-agent as an async iterable of canonical events. Every failure path ends the same way, with an
 * `error` event then the one `finish`, and a coded {@link AgentRunError} in the result; the process is always reaped.
 */

import type { CanonicalEvent, FinishEvent } from '@cursor-stream/core/normalize';
import { agentArgs, type OutputFormat, promptProblem } from './agent-argv.ts';
import { DEFAULT_EXIT_GRACE_MS, type RunAgentOptions } from './agent-options.ts';
import { type AgentRunError, classifyRun, describeThrown, type StreamEnd } from './agent-outcome.ts';
import { type AgentProcess, type ProcessExit, startAgentProcess } from './agent-process.ts';
import { type AgentResult, buildResult } from './agent-result.ts';
import { createEventQueue } from './event-queue.ts';
import { knownSecrets, withoutSecrets } from './known-secrets.ts';
import { createRunEvents } from './run-events.ts';

/** Events held for a consumer that is not reading before stdout is paused (the agent then waits on its pipe). */
const HIGH_WATER_MARK = 1024;

/**
 * A running agent: iterate it (once) for its events, or {@link AgentRun.collect} them.
 *
 * Leaving a `for await` loop early (`break`, `return`, a throw) cancels the run, and the loop's exit waits until the
 * process has been reaped.
 */
export interface AgentRun extends AsyncIterable<CanonicalEvent> {
  /** The process id once started (`undefined` before, or when nothing could start). */
  readonly pid: number | undefined;
  /** The arguments passed to the executable. */
  readonly args: readonly string[];
  /**
   * Stops the run (outcome `cancelled`): sends `signal`, then `SIGKILL` after `killGraceMs`. A run that already
   * ended keeps its outcome.
   *
   * @param signal - @defaultValue `'SIGTERM'`
   */
  cancel(signal?: NodeJS.Signals): void;
  /**
   * Resolves once the process is reaped, with every event of the run, whether or not a loop read them (one may still
   * be reading: it loses nothing).
   */
  collect(): Promise<AgentResult>;
}

/** Hooks a caller inside the package uses to follow a run it does not iterate (the session helper). */
export interface RunObserver {
  onSessionId?(sessionId: string): void;
  onSettled?(result: AgentResult): void;
}

const NOTHING_STARTED: ProcessExit = {
  binary: undefined,
  spawnFailures: [],
  exitCode: null,
  signal: null,
  stopReason: undefined,
  outputFailure: undefined,
  stderr: { text: '', totalBytes: 0, truncated: false },
};

/** A process stand-in for a run refused before anything started. */
function notStarted(): AgentProcess {
  return {
    pid: undefined,
    stop() {},
    stopLater() {},
    pauseOutput() {},
    resumeOutput() {},
    exited: Promise.resolve(NOTHING_STARTED),
  };
}

/**
 * Starts a run, or refuses it with `refusal` (nothing is started; the run still ends with `error` then `finish`).
 * {@link runAgent} is this with no observer.
 */
export function startAgentRun(
  prompt: string,
  options: RunAgentOptions,
  observer: RunObserver = {},
  refusal?: AgentRunError,
  outputFormat: OutputFormat = 'stream-json',
): AgentRun {
  const problem = promptProblem(prompt, options.promptVia);
  const refused =
    refusal ?? (problem === undefined ? undefined : { code: 'invalid-prompt', message: problem });
  const args = agentArgs(prompt, options, outputFormat);
  const stdin = options.promptVia === 'argv' ? undefined : prompt;
  let proc: AgentProcess | undefined;
  const events = createRunEvents({
    dialect: options.dialect,
    resume: options.resume,
    keep: true,
    hooks: {
      onSessionId: (sessionId) => observer.onSessionId?.(sessionId),
      onResult: () => proc?.stopLater('after-result', options.exitGraceMs ?? DEFAULT_EXIT_GRACE_MS),
    },
  });
  const queue = createEventQueue<CanonicalEvent>({
    highWaterMark: HIGH_WATER_MARK,
    pause: () => proc?.pauseOutput(),
    resume: () => proc?.resumeOutput(),
  });
  const push = (list: readonly CanonicalEvent[]) => {
    for (const event of list) queue.push(event);
  };
  proc =
    refused === undefined
      ? startAgentProcess({
          args,
          options,
          stdin,
          onStdout: (chunk) => {
            const held = options.onStdout?.(chunk);
            try {
              push(events.feed(chunk));
            } catch (thrown) {
              // The run stops on the throw; a promise of the caller's must still not reject unheard.
              if (held !== undefined) Promise.resolve(held).catch(() => {});
              throw thrown;
            }
            return held;
          },
        })
      : notStarted();
  const running = proc;

  /** What the run says of itself, from the agent's stderr and noise, without the key it was given (`known-secrets.ts`). */
  function maskSecrets(stream: StreamEnd, exit: ProcessExit): { stream: StreamEnd; exit: ProcessExit } {
    const secrets = knownSecrets(options);
    if (secrets.length === 0) return { stream, exit };
    const mask = (text: string) => withoutSecrets(text, secrets);
    return {
      stream: {
        ...stream,
        agentError: stream.agentError === undefined ? undefined : mask(stream.agentError),
        stdoutNoise: stream.stdoutNoise.map(mask),
      },
      exit: { ...exit, stderr: { ...exit.stderr, text: mask(exit.stderr.text) } },
    };
  }

  /** The end of the stream, and a failure to read it (the normalizer's end throwing) as the run's output failure. */
  function endStream(exit: ProcessExit): { stream: StreamEnd; exit: ProcessExit } {
    try {
      const { stream, events: last } = events.end();
      push(last);
      return { stream, exit };
    } catch (thrown) {
      const stream = {
        sawResult: false,
        agentFailed: false,
        agentError: undefined,
        stdoutNoise: events.stdoutNoise,
      };
      return { stream, exit: { ...exit, outputFailure: exit.outputFailure ?? describeThrown(thrown) } };
    }
  }

  async function settle(): Promise<AgentResult> {
    const ended = endStream(await running.exited);
    const { stream, exit } = maskSecrets(ended.stream, ended.exit);
    const error = refused ?? classifyRun(exit, stream);
    const final = events.close(error);
    push(final);
    queue.close();
    const result = buildResult({
      events: events.kept,
      session: events.session,
      finish: final.findLast((event): event is FinishEvent => event.type === 'finish'),
      error,
      exit,
      stdoutNoise: stream.stdoutNoise,
      sessionId: events.sessionId,
      sessionChange: events.sessionChange,
    });
    observer.onSettled?.(result);
    return result;
  }

  /** What a run comes to when settling it threw: still an error result, and still a `finish` at the end. */
  function settleFailed(thrown: unknown): AgentResult {
    const error: AgentRunError = {
      code: 'output-failed',
      message: `The run could not be settled: ${describeThrown(thrown)}`,
    };
    const finish: FinishEvent = {
      type: 'finish',
      finishReason: 'incomplete',
      isError: true,
      pendingToolCallIds: [],
    };
    push([{ type: 'error', message: error.message, code: error.code }, finish]);
    queue.close();
    const result = buildResult({
      events: [],
      session: undefined,
      finish,
      error,
      exit: NOTHING_STARTED,
      stdoutNoise: [],
      sessionId: undefined,
      sessionChange: null,
    });
    try {
      observer.onSettled?.(result);
    } catch {
      // The result stands whatever an observer does with it.
    }
    return result;
  }

  const settled = settle().catch(settleFailed);

  let iterated = false;
  let collecting = false;
  const run: AgentRun = {
    get pid() {
      return running.pid;
    },
    args,
    cancel(signal) {
      running.stop('cancelled', signal);
    },
    collect() {
      collecting = true;
      // The result holds every event already, so collect need not read the queue; it only must not let a queue
      // that no loop drains hold the agent back. A loop still reading loses nothing.
      queue.unbound();
      return settled;
    },
    [Symbol.asyncIterator]() {
      if (iterated)
        throw new TypeError('An agent run can be iterated only once; collect() gives all its events.');
      iterated = true;
      // A run that is only iterated keeps nothing: its consumer has the events already.
      if (!collecting && options.keepEvents !== true) events.stopKeeping();
      return {
        next: () => queue.next(),
        async return() {
          running.stop('cancelled');
          await settled;
          return { value: undefined, done: true };
        },
      };
    },
  };
  return run;
}

/**
 * Runs `cursor-agent --print --output-format stream-json` on `prompt` and yields its canonical events.
 *
 * Every run ends with exactly one `finish`, as its last event. A failed run has `isError: true` on it and an `error`
 * event right before it (unless the agent reported the error itself), and `collect()` gives the code:
 * `spawn-failed`, `invalid-prompt`, `timeout`, `cancelled`, `signal`, `agent-error`, `exit-nonzero` or `no-result`
 * (see {@link AgentRunErrorCode}). Stderr and non-JSON stdout are kept (bounded) in the result, and the first line
 * of them is quoted in the error's message.
 *
 * @example
 * ```ts
 * const run = runAgent('Summarize README.md', { workspace: '.', trust: true, timeoutMs: 120_000 });
 * for await (const event of run) if (event.type === 'text-delta') process.stdout.write(event.text);
 * const { success, error } = await run.collect();
 * ```
 */
export function runAgent(prompt: string, options: RunAgentOptions = {}): AgentRun {
  return startAgentRun(prompt, options);
}

/**
 * Runs the agent once with `--output-format json` (one JSON object with the final result, no events on the way) and
 * resolves to the same result as {@link AgentRun.collect}: `success`, `text`, `sessionId`, durations, `error` with
 * its code, and `events` (the result's `finish`, and the run's `error` before it when it failed). For progress as it
 * happens, use {@link runAgent}.
 *
 * @example
 * ```ts
 * const { success, text, error } = await query('What does this repository do?', { mode: 'ask', trust: true });
 * ```
 */
export function query(prompt: string, options: RunAgentOptions = {}): Promise<AgentResult> {
  return startAgentRun(prompt, options, {}, undefined, 'json').collect();
}
