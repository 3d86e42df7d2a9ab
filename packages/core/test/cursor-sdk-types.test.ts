/**
 * The cursor-sdk schema held against `@cursor/sdk`'s own types and decoder. The type checks are compile-time: the
 * declarations generated from `schemas/cursor-sdk.schema.json` and the SDK's published types must be assignable both
 * ways and name the same fields, or `tsc -b` fails here; the `@ts-expect-error` probes prove the check can fail.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createSdkMessageRunStreamEvent,
  decodeLocalRunStreamEvent,
  type LocalRunStreamEvent,
  type SDKMessage,
  type TokenUsage,
} from '@cursor/sdk';
import { cursorSdkDialect, type JsonObject } from '@cursor-stream/core';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';
import type * as FromSchema from '../src/generated/cursor-sdk.types.ts';

/** `true` when each type is assignable to the other. */
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** `true` when both name the same fields: mutual assignability misses an optional field only one side has. */
type SameFields<A, B> = MutuallyAssignable<keyof A, keyof B>;

/** `true` when the members of two unions told by `type` agree, member by member. */
type MembersAgree<A extends { type: string }, B extends { type: string }> = {
  [T in A['type'] | B['type']]: [
    MutuallyAssignable<Extract<A, { type: T }>, Extract<B, { type: T }>>,
    SameFields<Extract<A, { type: T }>, Extract<B, { type: T }>>,
  ] extends [true, true]
    ? true
    : false;
}[A['type'] | B['type']];

type Expect<T extends true> = T;

type Member<T extends SDKMessage['type']> = Extract<SDKMessage, { type: T }>;
type SchemaMember<T extends SDKMessage['type']> = Extract<FromSchema.SdkMessage, { type: T }>;

/** One entry per check; a disagreement fails to compile at its line. */
export type CursorSdkSchemaMatchesSdk = [
  Expect<MutuallyAssignable<FromSchema.SdkMessage, SDKMessage>>,
  Expect<MembersAgree<FromSchema.SdkMessage, SDKMessage>>,
  Expect<MutuallyAssignable<FromSchema.Envelope, LocalRunStreamEvent>>,
  Expect<MembersAgree<FromSchema.Envelope, LocalRunStreamEvent>>,
  Expect<MutuallyAssignable<FromSchema.TokenUsage, TokenUsage>>,
  Expect<SameFields<FromSchema.TokenUsage, TokenUsage>>,
  // Nested objects field by field: an optional field inside `message` or `model` does not show at the top.
  Expect<SameFields<SchemaMember<'user'>['message'], Member<'user'>['message']>>,
  Expect<SameFields<SchemaMember<'assistant'>['message'], Member<'assistant'>['message']>>,
  Expect<SameFields<NonNullable<SchemaMember<'system'>['model']>, NonNullable<Member<'system'>['model']>>>,
  Expect<
    SameFields<
      NonNullable<SchemaMember<'tool_call'>['truncated']>,
      NonNullable<Member<'tool_call'>['truncated']>
    >
  >,
];

/** The schema's messages with the status message's statuses replaced. */
type WithStatus<Status extends string> =
  | Exclude<FromSchema.SdkMessage, { type: 'status' }>
  | (Omit<SchemaMember<'status'>, 'status'> & { status: Status });

/** The probes: each line compiles only because the check it makes fails. */
export type ChecksCanFail = [
  // The probe's construction agrees when it adds no status, so that below only `PAUSED` fails it.
  Expect<MembersAgree<WithStatus<SchemaMember<'status'>['status']>, SDKMessage>>,
  // @ts-expect-error A usage without its total is no `TokenUsage`.
  Expect<MutuallyAssignable<Omit<FromSchema.TokenUsage, 'totalTokens'>, TokenUsage>>,
  // @ts-expect-error A field the SDK does not name is found, though it is optional.
  Expect<SameFields<FromSchema.TokenUsage & { cachedTokens?: number }, TokenUsage>>,
  // @ts-expect-error A status the SDK does not have is found.
  Expect<MembersAgree<WithStatus<SchemaMember<'status'>['status'] | 'PAUSED'>, SDKMessage>>,
  // @ts-expect-error A member the SDK does not have is found.
  Expect<MutuallyAssignable<FromSchema.Envelope | { schemaVersion: 1; type: 'cancel' }, LocalRunStreamEvent>>,
];

/** Every record of a recording, parsed. */
function records(name: string): JsonObject[] {
  return readFileSync(join(CORPUS_DIR, 'cursor-sdk', name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JsonObject);
}

/** The run stream event a record is or holds: an envelope, a store row's payload, or a message in the SDK's envelope. */
function runStreamEvent(record: JsonObject): unknown {
  if (record.eventType === 'run_stream_event') return record.payload;
  if (typeof record.schemaVersion === 'number') return record;
  return createSdkMessageRunStreamEvent(record as unknown as SDKMessage);
}

describe('the SDK reads the cursor-sdk recordings', () => {
  const recordings = readdirSync(join(CORPUS_DIR, 'cursor-sdk')).filter((name) => name.endsWith('.ndjson'));

  test('decodeLocalRunStreamEvent reads every run stream event of every recording as it is', () => {
    let decoded = 0;
    for (const name of recordings) {
      // The store's runs.ndjson holds run documents, not run stream events.
      const events = records(name).filter((record) => typeof record.turnNumber !== 'number');
      for (const record of events) {
        const event = runStreamEvent(record);
        expect(decodeLocalRunStreamEvent(event), `${name}: ${JSON.stringify(record)}`).toEqual(event);
        decoded += 1;
      }
    }
    expect(decoded).toBeGreaterThanOrEqual(40);
  });

  test('every record of every recording is valid for the dialect schema, strictly', () => {
    for (const name of recordings)
      for (const record of records(name))
        expect(
          cursorSdkDialect.validate(record, { strict: true }),
          `${name}: ${JSON.stringify(record)}`,
        ).toEqual([]);
  });
});
