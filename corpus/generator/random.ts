/**
 * A small seeded pseudo-random source. mulberry32 is tiny, fast and good enough for test data; what matters here is
 * that the same seed gives the same sequence on every machine and Node version, so a corpus is reproducible.
 */

/** Deterministic random helpers over one mulberry32 sequence. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** A number drawn log-uniformly from [min, max], so small and large sizes are equally likely per decade. */
  logUniform(min: number, max: number): number;
  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string;
}

/**
 * Creates a {@link Random} from a 32-bit seed.
 *
 * @param seed - Any integer; only its low 32 bits count.
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    logUniform: (min, max) => Math.exp(Math.log(min) + next() * (Math.log(max) - Math.log(min))),
    chars: (alphabet, length) => {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
  };
}

/**
 * Derives an independent seed for a second sequence, so that drawing from it never shifts the main sequence (the
 * raw-newline choice must leave the generated values exactly as in the clean corpus).
 */
export function deriveSeed(seed: number, stream: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + stream) >>> 0;
}
