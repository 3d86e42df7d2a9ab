/** Leaving out the items a resumed run repeats. */

/** Says, item by item, whether a consumer keeps it; see {@link createSkip}. */
export interface Skip {
  /** Whether the next item is kept: false for the first `skip` items, true after. */
  take(): boolean;
}

/**
 * Counts down the items to leave out, for a consumer that makes items as the run goes: the `skip` a consumer
 * factory is given is how many of its items a resumed run repeats.
 */
export function createSkip(skip: number): Skip {
  let left = skip;
  return {
    take() {
      if (left === 0) return true;
      left -= 1;
      return false;
    },
  };
}
