/**
 * Compile-time proof that `schemas/canonical-event.schema.json` and the hand-written union in `events.ts` describe the
 * same events. `canonical-event.types.ts` is generated from the schema at build time; `tsc -b` fails here when the two
 * disagree. Types only: nothing of this module exists at run time.
 */

import type {
  CanonicalEvent,
  CanonicalEventType,
  ContextOccupancy,
  FailureReason,
  PlanEntry,
  SourceLocation,
  TurnTokens,
  Usage,
  UsageCost,
} from '../events/index.ts';
import type * as FromSchema from '../generated/canonical-event.types.ts';

/** `true` when each type is assignable to the other. */
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * `true` when both name the same fields. Mutual assignability alone misses an optional field that only one side has
 * (`{a}` and `{a, b?}` are assignable both ways).
 */
type SameFields<A, B> = MutuallyAssignable<keyof A, keyof B>;

/** `true` when the member of `type` agrees with the schema's definition of it. */
type MemberAgrees<T extends CanonicalEventType> = [
  MutuallyAssignable<Extract<CanonicalEvent, { type: T }>, Extract<FromSchema.CanonicalEvent, { type: T }>>,
  SameFields<Extract<CanonicalEvent, { type: T }>, Extract<FromSchema.CanonicalEvent, { type: T }>>,
] extends [true, true]
  ? true
  : false;

type Expect<T extends true> = T;

/**
 * One entry per check; a disagreement fails to compile at its line. Nested objects are checked field by field too,
 * since an optional field inside `usage?` or `loc?` would not show at the event level.
 */
export type CanonicalTypesMatchSchema = [
  Expect<MutuallyAssignable<CanonicalEventType, FromSchema.CanonicalEvent['type']>>,
  Expect<MemberAgrees<'stream-start'>>,
  Expect<MemberAgrees<'user-message'>>,
  Expect<MemberAgrees<'reasoning-delta'>>,
  Expect<MemberAgrees<'reasoning-end'>>,
  Expect<MemberAgrees<'text-delta'>>,
  Expect<MemberAgrees<'tool-call'>>,
  Expect<MemberAgrees<'tool-result'>>,
  Expect<MemberAgrees<'finish'>>,
  Expect<MemberAgrees<'error'>>,
  Expect<MemberAgrees<'status'>>,
  Expect<MemberAgrees<'interaction'>>,
  Expect<MemberAgrees<'usage'>>,
  Expect<MemberAgrees<'plan'>>,
  Expect<MemberAgrees<'unknown'>>,
  Expect<MemberAgrees<'invalid-line'>>,
  Expect<MutuallyAssignable<Usage, FromSchema.Usage>>,
  Expect<SameFields<Usage, FromSchema.Usage>>,
  Expect<MutuallyAssignable<FailureReason, FromSchema.FailureReason>>,
  Expect<SameFields<FailureReason, FromSchema.FailureReason>>,
  Expect<MutuallyAssignable<TurnTokens, FromSchema.TurnTokens>>,
  Expect<SameFields<TurnTokens, FromSchema.TurnTokens>>,
  Expect<MutuallyAssignable<ContextOccupancy, FromSchema.ContextOccupancy>>,
  Expect<MutuallyAssignable<UsageCost, FromSchema.UsageCost>>,
  Expect<SameFields<UsageCost, FromSchema.UsageCost>>,
  Expect<MutuallyAssignable<PlanEntry, FromSchema.PlanEntry>>,
  Expect<SameFields<PlanEntry, FromSchema.PlanEntry>>,
  Expect<MutuallyAssignable<SourceLocation, FromSchema.SourceLocation>>,
  Expect<SameFields<SourceLocation, FromSchema.SourceLocation>>,
];
