/** Bytes per read: large enough to amortize the per-chunk work, small enough to keep memory flat. */
export const READ_CHUNK_BYTES = 64 * 1024;
