/**
 * Starting, following and stopping runs. Each run goes through `runAgent`, with its stdout appended to the run's log
 * with backpressure (the agent's output is not read while the log is behind by more than a bound); its events are
 * read back from what was logged, and the run keeps nothing of its output beyond `runAgent`'s bounded summary (its
 * text as head and tail, the first 1,000 tool calls of its last session). On start, runs a previous relay left in
 * flight are marked `interrupted`.
 */

import { basename } from 'node:path';
import { type RunAgentOptions, runAgent } from '@cursor-stream/node';
import { createLiveRun, type LiveRun, type RingLimits } from './live-run.ts';
import type { RunFailure } from './log-events.ts';
import type { RunRecord, RunStatus, RunStore } from './run-store.ts';

/** What a client may ask of a run. */
export interface RunRequest {
  prompt: string;
  chatId?: string;
  model?: string;
  mode?: 'plan' | 'ask';
  /** An absolute path the agent works in, already checked by the caller. */
  workspace?: string;
}

/** The failure of a run the relay stopped while it was in flight. */
export const INTERRUPTED: RunFailure = {
  code: 'interrupted',
  message: 'The relay stopped while the run was in flight; its log ends here.',
};

/**
 * The outcome of a run the relay could not follow to its end (the agent could not be started, its log not written).
 * What went wrong is the relay's own business, said in its log; its clients are told no more than this.
 */
export const RELAY_ERROR: RunFailure = {
  code: 'relay-error',
  message: 'The relay could not follow the run; its log ends here.',
};

/** Runs in flight and the store behind them. */
export interface RunManager {
  start(request: RunRequest): RunRecord;
  /** The run in flight, when it is. */
  live(runId: string): LiveRun | undefined;
  /** Cancels a run in flight; false when it is not running. */
  cancel(runId: string): boolean;
  /** Stops every run in flight (each ends `interrupted`) and waits for them. */
  close(): Promise<void>;
}

interface InFlight {
  live: LiveRun;
  cancel: () => void;
  done: Promise<void>;
}

/** How the relay runs the agent. */
export interface AgentSettings {
  /** Options every run gets (binary, env, trust, timeouts, ...). */
  options: RunAgentOptions;
  ring?: RingLimits;
  /** Bytes of a run's stdout waiting to be written to its log before its output is held back. @defaultValue 4 MiB */
  maxPendingBytes?: number;
  /** Told of an error the relay could not turn into a run's outcome (a record that could not be saved). */
  onError?: (error: unknown) => void;
}

function statusOf(failure: RunFailure | null, stopping: boolean): RunStatus {
  if (failure === null) return 'succeeded';
  if (stopping) return 'interrupted';
  return failure.code === 'cancelled' ? 'cancelled' : 'failed';
}

/** Marks the runs a stopped relay left `running` as `interrupted`. */
function recover(store: RunStore): void {
  for (const record of store.list(Number.MAX_SAFE_INTEGER)) {
    if (record.status !== 'running') continue;
    store.save({ ...record, status: 'interrupted', endedAt: new Date().toISOString(), error: INTERRUPTED });
  }
}

/**
 * `failure` with each path of the agent's executable named by its file name only: the run's error goes to clients
 * and its record, and where the server keeps its programs is no client's business.
 */
function withoutAgentPaths<T extends { message: string }>(
  failure: T | null,
  binary: RunAgentOptions['binary'],
): T | null {
  if (failure === null || binary === undefined) return failure;
  let message = failure.message;
  for (const path of typeof binary === 'string' ? [binary] : binary) {
    const name = basename(path);
    if (name !== path && path !== '') message = message.split(path).join(name);
  }
  return message === failure.message ? failure : { ...failure, message };
}

/** Creates the run manager over `store`. */
export function createRunManager(store: RunStore, agent: AgentSettings): RunManager {
  recover(store);
  const inFlight = new Map<string, InFlight>();
  let stopping = false;

  async function follow(record: RunRecord, request: RunRequest, live: LiveRun): Promise<void> {
    const run = runAgent(request.prompt, {
      ...agent.options,
      ...(request.model === undefined ? {} : { model: request.model }),
      ...(request.chatId === undefined ? {} : { resume: request.chatId }),
      ...(request.workspace === undefined ? {} : { workspace: request.workspace }),
      ...(request.mode === undefined ? {} : { mode: request.mode }),
      // The promise append returns past its bound holds the agent's stdout back until the log catches up.
      onStdout: (chunk) => live.append(chunk),
    });
    const entry = inFlight.get(record.runId);
    if (entry !== undefined) entry.cancel = () => run.cancel();
    // The events are read from the log; the run's own are only drained, so its output never pauses.
    for await (const _ of run);
    const result = await run.collect();
    const failure = stopping ? INTERRUPTED : withoutAgentPaths(result.error, agent.options.binary);
    await live.end(failure);
    store.save({
      ...record,
      chatId: result.sessionId ?? record.chatId,
      status: statusOf(failure, stopping),
      endedAt: new Date().toISOString(),
      error: failure,
    });
    inFlight.delete(record.runId);
  }

  return {
    start(request) {
      const runId = store.newRunId();
      const record: RunRecord = {
        runId,
        chatId: request.chatId ?? null,
        status: 'running',
        createdAt: new Date().toISOString(),
        endedAt: null,
        model: request.model ?? null,
        mode: request.mode ?? null,
        title: request.prompt.slice(0, 200),
        error: null,
      };
      store.save(record);
      const live = createLiveRun(runId, store.createLog(runId), agent.ring, agent.maxPendingBytes);
      const entry: InFlight = { live, cancel: () => {}, done: Promise.resolve() };
      inFlight.set(runId, entry);
      entry.done = follow(record, request, live)
        .catch(async (error: unknown) => {
          agent.onError?.(error);
          // Its clients are not left waiting for an end that would never come, nor its record saying it runs.
          const failure = stopping ? INTERRUPTED : RELAY_ERROR;
          if (!live.ended) await live.end(failure);
          const endedAt = new Date().toISOString();
          store.save({ ...record, status: statusOf(failure, stopping), endedAt, error: failure });
        })
        // What failed was told above; a failure to tell it has no one left to tell.
        .catch(() => {})
        .finally(() => inFlight.delete(runId));
      return record;
    },
    live: (runId) => inFlight.get(runId)?.live,
    cancel(runId) {
      const entry = inFlight.get(runId);
      if (entry === undefined) return false;
      entry.cancel();
      return true;
    },
    async close() {
      stopping = true;
      for (const entry of inFlight.values()) entry.cancel();
      await Promise.allSettled([...inFlight.values()].map((entry) => entry.done));
    },
  };
}
