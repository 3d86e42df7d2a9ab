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

/** Undecodable sequences in the first chunk past which an input is not UTF-8 text, rather than text with a bad byte. */
const MAX_INVALID_SEQUENCES = 8;

/**
 * Whether the bytes are mostly not UTF-8: more than a few undecodable sequences. A log with one corrupt byte stays a
 * log (its line is reported as invalid); random bytes without a NUL are not read. A sequence cut by the end of the
 * chunk is not counted, nor is a real U+FFFD (EF BF BD), which tool output often carries.
 */
export function looksLikeBinary(chunk: Uint8Array): boolean {
  const text = new TextDecoder('utf-8').decode(chunk, { stream: true });
  let replacements = 0;
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) replacements++;
  if (replacements <= MAX_INVALID_SEQUENCES) return false;
  let genuine = 0;
  for (let at = chunk.indexOf(0xef); at !== -1; at = chunk.indexOf(0xef, at + 1)) {
    if (chunk[at + 1] === 0xbf && chunk[at + 2] === 0xbd) genuine++;
  }
  return replacements - genuine > MAX_INVALID_SEQUENCES;
}
