/** Cheap looks at the first bytes of an input: is it gzip, is it text at all. */

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;
const NUL = 0x00;

/** Whether the bytes start with the gzip magic number. */
export function startsLikeGzip(chunk: Uint8Array): boolean {
  return chunk[0] === GZIP_MAGIC_0 && chunk[1] === GZIP_MAGIC_1;
}

/**
 * Where the first NUL byte is, or -1. A UTF-8 log never holds one (JSON escapes U+0000), while binary files and
 * UTF-16 text almost always do near the start, so one in the first chunk means "not a text log".
 */
export function firstNulByte(chunk: Uint8Array): number {
  return chunk.indexOf(NUL);
}
