/** Cheap looks at the first bytes of an input: is it gzip, is it text at all. */

import { isUtf8 } from 'node:buffer';

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;
const NUL = 0x00;
const LINE_FEED = 0x0a;

/** Whether the bytes start with the gzip magic number. */
export function startsLikeGzip(chunk: Uint8Array): boolean {
  return chunk[0] === GZIP_MAGIC_0 && chunk[1] === GZIP_MAGIC_1;
}

/** Where the first NUL byte is, or -1. A UTF-8 log never holds one: JSON escapes U+0000. */
export function firstNulByte(chunk: Uint8Array): number {
  return chunk.indexOf(NUL);
}

/** Undecodable sequences in the sniffed prefix past which an input is not UTF-8 text, rather than text with a bad byte. */
const MAX_INVALID_SEQUENCES = 8;

/**
 * Bytes at the start of an input that decide whether it is a text log: the size of a file's first read, so that a
 * file is judged on exactly what it always was, and a pipe, however it is cut into chunks, on the same bytes.
 */
export const SNIFF_PREFIX_BYTES = 64 * 1024;

const GENUINE_REPLACEMENT = [0xef, 0xbf, 0xbd] as const;

/** Looks at an input's first bytes, chunk by chunk; see {@link createTextSniffer}. */
export interface TextSniffer {
  /** Looks at the next chunk; returns why the input is not a text log, or `null` while it may be one. */
  check(chunk: Uint8Array): string | null;
}

/** Whether the first two bytes of an input are a UTF-16 byte order mark (FF FE, or FE FF). */
function isUtf16Mark(first: number | undefined, second: number | undefined): boolean {
  return (first === 0xff && second === 0xfe) || (first === 0xfe && second === 0xff);
}

/**
 * Judges whether an input is a text log from its first {@link SNIFF_PREFIX_BYTES}, chunk by chunk: the verdict (and
 * the offset it names) depends on those bytes only, never on how they were cut. Binary files and UTF-16 text almost
 * always hold a NUL before their first line feed (UTF-16 with its byte order mark is named so, with how to convert
 * it); random bytes without one have many undecodable sequences. A log
 * with one corrupt byte stays a log (its line is reported as invalid), and so does a log whose lines are followed by
 * NULs (what a crash or a power loss leaves at a file's end): its records are read, the NULs reported as an invalid
 * line. A real U+FFFD (EF BF BD), which tool output often carries, or a sequence cut by the end of the prefix, is not
 * counted.
 */
export function createTextSniffer(prefixBytes = SNIFF_PREFIX_BYTES): TextSniffer {
  const decoder = new TextDecoder('utf-8');
  let seen = 0;
  let replacements = 0;
  let genuine = 0;
  // The last two bytes seen, for a genuine U+FFFD cut between chunks.
  let carry: number[] = [];

  function countGenuine(part: Uint8Array): void {
    const bytes = [...carry, ...part.subarray(0, 2)];
    // Only the sequences that start in the carried bytes: the loop below counts those that start in this part.
    for (let at = 0; at < carry.length && at + 2 < bytes.length; at++) {
      if (GENUINE_REPLACEMENT.every((byte, i) => bytes[at + i] === byte)) genuine++;
    }
    for (let at = part.indexOf(0xef); at !== -1; at = part.indexOf(0xef, at + 1)) {
      if (part[at + 1] === 0xbf && part[at + 2] === 0xbd) genuine++;
    }
    carry = [...carry, ...part.subarray(Math.max(0, part.length - 2))].slice(-2);
  }

  // Whether every part so far was whole UTF-8: the decoder then holds nothing, and no carried byte starts a U+FFFD.
  let whole = true;
  // Whether a line has ended: a NUL after that is damage to a text log, not a sign of a binary file.
  let lineEnded = false;
  // The input's first two bytes, for a UTF-16 byte order mark.
  let head: number[] = [];

  return {
    check(chunk: Uint8Array): string | null {
      if (seen >= prefixBytes) return null;
      const part = chunk.subarray(0, prefixBytes - seen);
      if (head.length < 2) head = [...head, ...part.subarray(0, 2 - head.length)];
      if (!lineEnded) {
        const nul = firstNulByte(part);
        const lineFeed = part.indexOf(LINE_FEED);
        if (nul !== -1 && (lineFeed === -1 || nul < lineFeed)) {
          const where = `NUL byte at offset ${seen + nul}`;
          // What Windows PowerShell's `>` writes: said, with its mend, rather than left for a binary file.
          return isUtf16Mark(head[0], head[1])
            ? `UTF-16 text, ${where}; convert it to UTF-8 first, e.g. with iconv -f UTF-16 -t UTF-8`
            : where;
        }
        lineEnded = lineFeed !== -1;
      }
      // Whole UTF-8 decodes to no replacement but its genuine U+FFFD, which would count as many as it adds: checked
      // without decoding, as most logs' parts are.
      if (whole && isUtf8(part)) {
        seen += part.length;
        return null;
      }
      whole = false;
      const text = decoder.decode(part, { stream: true });
      for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) replacements++;
      countGenuine(part);
      seen += part.length;
      return replacements - genuine > MAX_INVALID_SEQUENCES ? 'not UTF-8' : null;
    },
  };
}

/** Whether bytes (an input's start) are mostly not UTF-8; see {@link createTextSniffer}. */
export function looksLikeBinary(chunk: Uint8Array): boolean {
  return createTextSniffer(chunk.length).check(chunk) === 'not UTF-8';
}
