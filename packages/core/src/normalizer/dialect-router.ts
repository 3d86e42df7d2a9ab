import type { Detection, Dialect, JsonObject } from '../dialect.ts';

/** Chooses, per record, the dialect that normalizes it, and holds each dialect's state for the stream. */
export interface DialectRouter {
  /** The dialect for `record`, or `undefined` when none explains it. May lock detection onto a dialect. */
  route(record: JsonObject): Dialect | undefined;
  /** The stream's state of `dialect`, made on first use. */
  stateOf(dialect: Dialect): unknown;
  /** Each state made so far, with the dialect that made it, in the order they were made. */
  states(): readonly (readonly [Dialect, unknown])[];
  /** The dialect detected (or forced), if any. */
  readonly locked: Dialect | undefined;
  /** The dialect that explained the first shared record: the best answer for a stream with none distinctive. */
  readonly fallback: Dialect | undefined;
}

function detectSafely(dialect: Dialect, record: JsonObject): Detection {
  try {
    return dialect.detect(record);
  } catch {
    // A third-party `detect` that throws explains nothing; the stream goes on.
    return 'foreign';
  }
}

/**
 * A router over `dialects`. Before detection, the first dialect that finds a record distinctive locks the stream;
 * a shared record goes to the first dialect that explains it, without locking. After detection, the locked dialect
 * takes every record it explains, and a record it does not goes to the dialect that does, rather than being lost.
 */
export function createDialectRouter(
  dialects: readonly Dialect[],
  forced: Dialect | undefined,
): DialectRouter {
  const states = new Map<unknown, unknown>();
  const madeBy: [Dialect, unknown][] = [];

  /** Set by {@link firstExplaining}: whether the dialect it returned found the record distinctive. */
  let foundDistinctive = false;

  function firstExplaining(record: JsonObject, except: Dialect | undefined): Dialect | undefined {
    let shared: Dialect | undefined;
    for (const dialect of dialects) {
      if (dialect === except) continue;
      const detection = detectSafely(dialect, record);
      if (detection === 'distinctive') {
        foundDistinctive = true;
        return dialect;
      }
      if (detection === 'shared') shared ??= dialect;
    }
    foundDistinctive = false;
    return shared;
  }

  // `locked` and `fallback` are fields the router sets, not getters: a getter in an object literal gives every
  // router a hidden class of its own, which keeps the normalizer it belongs to until a full collection.
  const router: { -readonly [K in keyof DialectRouter]: DialectRouter[K] } = {
    locked: forced,
    fallback: undefined,
    route(record) {
      const locked = router.locked;
      if (locked !== undefined) {
        return detectSafely(locked, record) === 'foreign' ? firstExplaining(record, locked) : locked;
      }
      const chosen = firstExplaining(record, undefined);
      if (foundDistinctive) router.locked = chosen;
      else router.fallback ??= chosen;
      return chosen;
    },
    stateOf(dialect) {
      const key = dialect.stateKey ?? dialect;
      if (!states.has(key)) {
        const state = dialect.createState();
        states.set(key, state);
        madeBy.push([dialect, state]);
      }
      return states.get(key);
    },
    states: () => madeBy,
  };
  return router;
}
