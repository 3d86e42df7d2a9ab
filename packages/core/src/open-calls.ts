/**
 * What a stream remembers of a call by its id, between its start and its end (a dialect's started calls, the
 * normalizer's open and completed calls): bounded, so that a session of endless starts that never complete, or of
 * ids as long as a record, holds no more than {@link MAX_REMEMBERED_CALLS} ids of at most
 * {@link MAX_REMEMBERED_ID_CHARS} characters each. A real session has a few open calls at a time and ids of some 100
 * characters; past the bound the oldest id is forgotten first, and an id longer than the bound is not kept: its end
 * then reads as the end of a call whose start was not seen, which every reader already handles.
 */

/** The most ids kept by one map or set of calls: far more calls than a session keeps open at once. */
export const MAX_REMEMBERED_CALLS = 1024;

/** The longest id kept: a real one (two ids joined by a newline) is some 100 characters. */
export const MAX_REMEMBERED_ID_CHARS = 4096;

/**
 * Remembers `value` under `id`, in place when the id is known, else as the newest entry, forgetting the oldest past
 * {@link MAX_REMEMBERED_CALLS}.
 */
export function rememberCall<V>(calls: Map<string, V>, id: string, value: V): void {
  if (id.length > MAX_REMEMBERED_ID_CHARS) return;
  const known = calls.has(id);
  calls.set(id, value);
  if (known) return;
  if (calls.size > MAX_REMEMBERED_CALLS) calls.delete(calls.keys().next().value as string);
}

/** Remembers `id` (where it was, when known), forgetting the oldest past {@link MAX_REMEMBERED_CALLS}. */
export function rememberCallId(ids: Set<string>, id: string): void {
  if (id.length > MAX_REMEMBERED_ID_CHARS || ids.has(id)) return;
  ids.add(id);
  if (ids.size > MAX_REMEMBERED_CALLS) ids.delete(ids.values().next().value as string);
}
