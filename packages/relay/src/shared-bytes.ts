/**
 * Bytes made from an event once and shared by whoever uses them at the same time: the clients sending the event (in
 * each transport and format that depends on the event alone) and the journal writing it. They are kept only while
 * someone holds them, so an event costs its bytes once however many use it, and nothing once nobody does (the ring
 * keeps the event itself).
 */

import type { RunEvent } from './log-events.ts';

/** Shared bytes, until {@link SharedLease.release}. */
export interface SharedLease<T> {
  readonly value: T;
  /** Done with them; the last holder's release lets them go. */
  release(): void;
}

interface Entry {
  value: unknown;
  holders: number;
  /** Called when the last holder is done (releases what the value itself holds). */
  dispose: (() => void) | undefined;
}

const SHARED = new WeakMap<RunEvent, Map<string, Entry>>();

/**
 * Holds the bytes `key` of `event`, making them with `make` unless someone holds them already. `make` may return a
 * `dispose` to call once the last holder is done.
 */
export function holdShared<T>(
  event: RunEvent,
  key: string,
  make: () => { value: T; dispose?: () => void },
): SharedLease<T> {
  let byKey = SHARED.get(event);
  if (byKey === undefined) {
    byKey = new Map();
    SHARED.set(event, byKey);
  }
  let entry = byKey.get(key);
  if (entry === undefined) {
    const made = make();
    entry = { value: made.value, holders: 0, dispose: made.dispose };
    byKey.set(key, entry);
  }
  entry.holders += 1;
  const held = entry;
  const keys = byKey;
  let released = false;
  return {
    value: held.value as T,
    release() {
      if (released) return;
      released = true;
      held.holders -= 1;
      if (held.holders > 0) return;
      keys.delete(key);
      held.dispose?.();
    },
  };
}

/** The UTF-8 bytes of an event's JSON, held. */
export function holdJsonBytes(event: RunEvent): SharedLease<Buffer> {
  return holdShared(event, 'json', () => ({ value: Buffer.from(event.json) }));
}
