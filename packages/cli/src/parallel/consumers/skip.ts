/** Leaving out the items a resumed run repeats. */

/** Counts down the items to leave out: `take()` says whether the next item is kept. */
export function createSkip(skip: number): { take(): boolean } {
  let left = skip;
  return {
    take() {
      if (left === 0) return true;
      left -= 1;
      return false;
    },
  };
}
