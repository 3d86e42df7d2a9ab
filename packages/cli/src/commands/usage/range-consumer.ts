/** `usage` on a worker: each session's facts, from its events and its records' times, as it ends. */

import { type CanonicalEvent, createRecordTimeIndex, eventTimes } from '@cursor-stream/core/normalize';
import { type FactsTracker, type SessionFacts, trackSessionFacts } from '@cursor-stream/core/sessions';
import { USAGE_FACTS } from '@cursor-stream/inspect/usage';
import { createSessionCutter } from '@cursor-stream/node/logs';
import { type CreateConsumerFactory, createSkip, type RangeConsumer } from '@cursor-stream/node/ranges';

/** Bytes a session's facts are counted as in memory: a summary with a few tool calls. */
const FACTS_BYTES = 2048;

/** What `usage`'s output on a worker depends on. */
export interface UsageRangeSetup {
  /** The log as its sessions' facts name it. */
  readonly file: string;
}

/** A range's result besides its sessions. */
export interface UsageRangeResult {
  readonly eventsOutsideSessions: number;
}

/**
 * Each session's facts are an item, summed or written by the main thread in order. A session is cut at its finish,
 * which the normalizer puts before every session start: at an accepted cut, none is open.
 */
export function usageConsumer(setup: UsageRangeSetup, skip: number): RangeConsumer {
  const times = createRecordTimeIndex();
  const outcome = { eventsOutsideSessions: 0 };
  const skipped = createSkip(skip);
  let tracker: FactsTracker | undefined;
  let items: SessionFacts[] = [];
  const cutter = createSessionCutter(
    setup.file,
    {
      start(file) {
        tracker = trackSessionFacts(file, USAGE_FACTS);
      },
      event(event, at) {
        tracker?.push(event, at);
      },
    },
    outcome,
  );
  function endSession(): void {
    const facts = tracker?.facts();
    tracker = undefined;
    if (facts !== undefined && skipped.take()) items.push(facts);
  }
  return {
    onRecord(record) {
      times.observe(record.line, record.value, record.offset);
    },
    onDialect() {},
    onEvents(events: readonly CanonicalEvent[]) {
      for (const event of events) {
        if (cutter.push(event, eventTimes(times, event))) endSession();
      }
    },
    end(_where, _step, atEndOfInput) {
      if (atEndOfInput && cutter.close()) endSession();
    },
    take() {
      // A session's problems (at most MAX_PROBLEMS_PER_SESSION short messages) come on top of its facts.
      const bytes = items.reduce(
        (sum, facts) =>
          sum + FACTS_BYTES + facts.problems.reduce((size, problem) => size + 2 * problem.message.length, 0),
        0,
      );
      const taken = { items, count: items.length, bytes };
      items = [];
      return taken;
    },
    result: (): UsageRangeResult => ({ eventsOutsideSessions: outcome.eventsOutsideSessions }),
  };
}

/** `usage`'s consumers, for a range worker. */
export const createConsumerFactory: CreateConsumerFactory<UsageRangeSetup> = (setup) => (skip) =>
  usageConsumer(setup, skip);
