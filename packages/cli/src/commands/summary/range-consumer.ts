/** `summary` on a worker: sessions reduced and rendered as they end, invalid lines listed. */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import { type BoundedSession, createBoundedSessions } from '@cursor-stream/core/sessions';
import {
  createInvalidLineList,
  type InvalidLinesJson,
  sessionJson,
  sessionJsonBlock,
  sessionTextBlock,
  type UsageLeftOut,
  usageLeftOut,
} from '@cursor-stream/inspect/summary';
import { createPalette } from '@cursor-stream/inspect/terminal';
import { type CreateConsumerFactory, createSkip, type RangeConsumer } from '@cursor-stream/node/ranges';
// The digest alone, without the rest of the package (child processes), which a command's start-up need not load.
import { createNodeTextDigest } from '@cursor-stream/node/text-digest';

/** What `summary`'s output on a worker depends on. */
export interface SummaryRangeSetup {
  readonly json: boolean;
  readonly color: boolean;
  /** The dialect the user forced, which each session reports; `undefined` for `auto`. */
  readonly dialect: string | undefined;
}

/** What a range's run gives besides its blocks: its invalid lines, and what its sessions' usage left out. */
export type SummaryRangeResult = InvalidLinesJson & { readonly usageLeftOut: UsageLeftOut };

/**
 * Each session's block, as the chosen form prints it, is an item; the main thread adds what separates blocks. A
 * session reports the dialect that read it, as on one thread. The result is the range's
 * invalid lines, listed up to the bound, and what its sessions' usage left out.
 */
export function summaryConsumer(setup: SummaryRangeSetup, skip: number): RangeConsumer {
  const palette = createPalette(setup.color);
  const invalidLines = createInvalidLineList();
  const leftOut = usageLeftOut();
  const finished: BoundedSession[] = [];
  const sessions = createBoundedSessions(
    { ...(setup.dialect === undefined ? {} : { dialect: setup.dialect }), textDigest: createNodeTextDigest },
    (session) => finished.push(session),
  );
  const skipped = createSkip(skip);
  let dialect: string | null = null;
  let items: string[] = [];
  let bytes = 0;
  function render(): void {
    for (const session of finished.splice(0)) {
      if (!skipped.take()) continue;
      leftOut.add(session);
      const json = sessionJson(session, dialect);
      const block = setup.json ? sessionJsonBlock(json) : sessionTextBlock(json, palette);
      items.push(block);
      bytes += block.length;
    }
  }
  return {
    onDialect(name) {
      dialect = name;
    },
    onEvents(events: readonly CanonicalEvent[]) {
      for (const event of events) {
        sessions.push(event);
        invalidLines.add(event);
      }
      render();
    },
    end() {
      sessions.end();
      render();
    },
    take() {
      const taken = { items, count: items.length, bytes };
      items = [];
      bytes = 0;
      return taken;
    },
    result: (): SummaryRangeResult => ({ ...invalidLines.json(), usageLeftOut: leftOut.json() }),
  };
}

/** `summary`'s consumers, for a range worker. */
export const createConsumerFactory: CreateConsumerFactory<SummaryRangeSetup> = (setup) => (skip) =>
  summaryConsumer(setup, skip);
