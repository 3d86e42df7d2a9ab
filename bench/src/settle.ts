/**
 * Waiting for a quiet machine before each run. The 1-minute load average still holds the runs that ended within the
 * last minute (a command uses more than one core at times, as V8 collects garbage on helper threads): read as it is
 * right after them, it says how busy the benchmark itself just was, not whether anything else is running. So before
 * each run the benchmark waits for it to fall back to {@link SETTLED_LOAD}, for at most {@link MAX_SETTLE_MS}; each
 * run then starts on a machine as quiet as it gets, and the load read just before and just after it says what else
 * ran. A load that never falls, because something else is running, still ends the wait, and the run is judged by it.
 */

import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** The 1-minute load average a run waits for. */
export const SETTLED_LOAD = 1;
/** The longest a run waits for it. */
export const MAX_SETTLE_MS = 60_000;

/** How {@link settledLoad} reads the load and waits; the machine's own by default. */
export interface Clock {
  load(): number;
  sleep(ms: number): Promise<void>;
}

const MACHINE: Clock = {
  load: () => loadavg()[0] ?? Number.NaN,
  sleep: async (ms) => {
    await sleep(ms);
  },
};

/** Waits until the 1-minute load is at most {@link SETTLED_LOAD}, or {@link MAX_SETTLE_MS} passed; the load then. */
export async function settledLoad(clock: Clock = MACHINE): Promise<number> {
  const step = 1000;
  for (let waited = 0; ; waited += step) {
    const load = clock.load();
    if (!(load > SETTLED_LOAD) || waited >= MAX_SETTLE_MS) return load;
    await clock.sleep(step);
  }
}
