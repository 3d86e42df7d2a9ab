/**
 * Trace and span ids derived from what identifies a run, so that exporting the same log twice gives the same ids:
 * the session id and a digest of the session's events (without their positions). Runs resumed under one session
 * id are different runs, and their events differ; the conversation is kept in `gen_ai.conversation.id`.
 */

import { createHash, type Hash } from 'node:crypto';
import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import { jsonText } from '../json-text.ts';

/** A running digest of one session's events. */
export interface SessionDigest {
  add(event: CanonicalEvent): void;
  /** The hex digest so far. */
  hex(): string;
}

/** A digest of events as they are, less `loc`: the same run gives the same digest wherever it sits in a file. */
export function createSessionDigest(): SessionDigest {
  const hash: Hash = createHash('sha256');
  return {
    add(event) {
      const { loc: _loc, ...rest } = event;
      hash.update(jsonText(rest));
      hash.update('\n');
    },
    hex() {
      const copy = hash.copy();
      return copy.digest('hex');
    },
  };
}

function derived(kind: string, parts: readonly string[], hexLength: number): string {
  const hash = createHash('sha256').update(kind);
  for (const part of parts) hash.update('\0').update(part);
  const hex = hash.digest('hex').slice(0, hexLength);
  // An all-zero id is invalid in OTLP; one in 2^64 is worth the check.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** The ids of one session's spans. */
export interface SessionSpanIds {
  traceId: string;
  agentSpanId: string;
  toolSpanId(toolCallId: string): string;
}

/** Ids from the session id (`null`: none) and the session's digest. */
export function sessionSpanIds(sessionId: string | null, digest: string): SessionSpanIds {
  const key = [sessionId ?? '', digest];
  return {
    traceId: derived('cursor-stream trace', key, 32),
    agentSpanId: derived('cursor-stream invoke_agent', key, 16),
    toolSpanId: (toolCallId) => derived('cursor-stream execute_tool', [...key, toolCallId], 16),
  };
}
