/**
 * Session mixes. `mixed` reproduces the corpus of the project's performance notes: about half the bytes in tool
 * results of 10 KB and more, hundreds of one-token reasoning deltas per turn, 8 % non-ASCII bytes. The others stress
 * one path each.
 */

/** An inclusive integer range. */
export type Range = readonly [min: number, max: number];

/** The numbers that shape generated sessions. */
export interface Profile {
  /** Model steps per session. */
  turns: Range;
  /** One-token `thinking/delta` records per turn. */
  thinkingDeltas: Range;
  /** Share of sessions run with `--stream-partial-output` (assistant text arrives as deltas). */
  partialOutputShare: number;
  /** Small assistant deltas per message in a partial-output session. */
  partialDeltas: Range;
  /** Tool calls per turn (the last turn has none: it answers). */
  toolCalls: Range;
  /** Share of multi-call turns whose calls run in parallel (shared `model_call_id`, completions out of order). */
  parallelShare: number;
  /** Share of tool results that are large. */
  largeResultShare: number;
  /** Size of a large result in bytes, drawn log-uniformly. */
  largeResultBytes: Range;
  /** Share of results that are not `success` (failure, error or rejected arms). */
  unsuccessfulShare: number;
  /** Share of sessions whose call ids are composite `call_…` LF `fc_…` values. */
  compositeIdShare: number;
  /** Share of sessions written by a CLI of 2026.08 or later (tool-call siblings, `usage` on the result). */
  recentCliShare: number;
}

/** The names accepted by `--profile`. */
export const PROFILE_NAMES = [
  'mixed',
  'thinking-heavy',
  'tool-output-heavy',
  'partial-output',
  'parallel-tools',
  'small',
] as const;

/** One of {@link PROFILE_NAMES}. */
export type ProfileName = (typeof PROFILE_NAMES)[number];

const MIXED: Profile = {
  turns: [2, 10],
  thinkingDeltas: [20, 250],
  partialOutputShare: 0.5,
  partialDeltas: [10, 120],
  toolCalls: [0, 4],
  parallelShare: 0.5,
  largeResultShare: 0.3,
  largeResultBytes: [10_000, 200_000],
  unsuccessfulShare: 0.1,
  compositeIdShare: 0.25,
  recentCliShare: 0.5,
};

/** Every profile by name. */
export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  mixed: MIXED,
  'thinking-heavy': { ...MIXED, thinkingDeltas: [300, 1500], toolCalls: [0, 2], largeResultShare: 0.05 },
  'tool-output-heavy': { ...MIXED, thinkingDeltas: [5, 40], toolCalls: [2, 4], largeResultShare: 0.7 },
  'partial-output': { ...MIXED, partialOutputShare: 1, partialDeltas: [50, 400] },
  'parallel-tools': { ...MIXED, toolCalls: [2, 8], parallelShare: 1, compositeIdShare: 0.5 },
  // Short sessions with small tool results: per-line overhead, and corpora small enough to feed in tiny chunks.
  small: {
    ...MIXED,
    turns: [2, 4],
    thinkingDeltas: [20, 120],
    partialDeltas: [10, 60],
    toolCalls: [0, 3],
    largeResultShare: 0,
  },
};

/** Whether a string names a profile. */
export function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}
