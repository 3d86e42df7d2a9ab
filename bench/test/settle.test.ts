/** Waiting for the load to settle before a run: it waits while the load is high, and never longer than its bound. */

import { describe, expect, it } from 'vitest';
import { type Clock, MAX_SETTLE_MS, SETTLED_LOAD, settledLoad } from '../src/settle.ts';

/** A clock whose load falls by `fall` a second from `start`; it counts the time slept. */
function fallingLoad(start: number, fall: number): Clock & { slept: number } {
  const clock = {
    slept: 0,
    load: () => start - (fall * clock.slept) / 1000,
    sleep: async (ms: number) => {
      clock.slept += ms;
    },
  };
  return clock;
}

describe('settledLoad', () => {
  it('does not wait on a quiet machine', async () => {
    const clock = fallingLoad(0.4, 0);
    expect(await settledLoad(clock)).toBe(0.4);
    expect(clock.slept).toBe(0);
  });

  it('waits until the load has fallen to the settled load, and gives it', async () => {
    const clock = fallingLoad(1.5, 0.1);
    const load = await settledLoad(clock);
    expect(load).toBeLessThanOrEqual(SETTLED_LOAD);
    expect(clock.slept).toBe(5000);
  });

  it('stops waiting at its bound when the load stays high, and gives that load', async () => {
    const clock = fallingLoad(3, 0);
    expect(await settledLoad(clock)).toBe(3);
    expect(clock.slept).toBe(MAX_SETTLE_MS);
  });
});
