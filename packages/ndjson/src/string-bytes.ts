/**
 * Where a JSON string ends in UTF-8 bytes, checked to be exactly what `JSON.parse` accepts, four bytes at a time.
 *
 * A long record's strings (a tool's output, a file's contents) are scanned on their bytes so that they need not be
 * decoded (see `lazy-strings.ts`); the scan is then most of what reading such a record costs. Most bytes of a string
 * are plain: not a quote, a backslash or a control byte. A 32-bit word holding none of those is told apart in a few
 * integer operations (the "has a zero byte" and "has a byte less than n" tests), so a run of plain text is passed over
 * a word at a time and the byte loop runs only at the quote, the escape or the bad byte the word holds.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const LETTER_U = 0x75;
const LOWEST_UNESCAPED = 0x20;

/** Length of the escape a backslash followed by this byte starts: 2, 6 for `\u`, 0 when JSON allows none. */
const ESCAPE_LENGTH = new Uint8Array(256);
for (const byte of [QUOTE, BACKSLASH, SLASH, 0x62, 0x66, 0x6e, 0x72, 0x74]) ESCAPE_LENGTH[byte] = 2;
ESCAPE_LENGTH[LETTER_U] = 6;

/** 1 for an ASCII hex digit. */
const HEX_DIGIT = new Uint8Array(256);
for (const digit of '0123456789abcdefABCDEF') HEX_DIGIT[digit.charCodeAt(0)] = 1;

/**
 * The bytes a scan reads, also as the aligned 32-bit words that cover them: a word is read where four bytes lie in
 * one, with `base` the bytes' offset within their first word.
 */
export interface ScannedBytes {
  readonly bytes: Uint8Array;
  readonly words: Int32Array;
  readonly base: number;
}

/** `bytes` with a word view of the same memory, for {@link jsonStringEnd}. Made once per line scanned. */
export function scannedBytes(bytes: Uint8Array): ScannedBytes {
  const base = bytes.byteOffset & 3;
  const words = new Int32Array(bytes.buffer, bytes.byteOffset - base, (base + bytes.length) >>> 2);
  return { bytes, words, base };
}

/**
 * Non-zero when `word` may hold a quote, a backslash or a control byte, 0 when it holds none. A borrow may flag a
 * plain byte beside a special one, and which byte is which depends on the machine's byte order, so a flagged word's
 * bytes are then read one by one.
 */
function specialBytes(word: number): number {
  const quote = word ^ 0x22222222;
  const backslash = word ^ 0x5c5c5c5c;
  return (
    (((word - 0x20202020) & ~word) |
      ((quote - 0x01010101) & ~quote) |
      ((backslash - 0x01010101) & ~backslash)) &
    0x80808080
  );
}

function isSpecialByte(byte: number): boolean {
  return byte === QUOTE || byte === BACKSLASH || byte < LOWEST_UNESCAPED;
}

/** The first quote, backslash or control byte at or after `at`, or `bytes.length`. */
function nextSpecialByte(scanned: ScannedBytes, at: number): number {
  const { bytes, words, base } = scanned;
  const end = bytes.length;
  for (; ((base + at) & 3) !== 0; at++) {
    if (at >= end) return end;
    if (isSpecialByte(bytes[at] as number)) return at;
  }
  const wordEnd = (base + end) >>> 2;
  let word = (base + at) >>> 2;
  while (word < wordEnd && specialBytes(words[word] as number) === 0) word++;
  for (at = (word << 2) - base; at < end; at++) if (isSpecialByte(bytes[at] as number)) return at;
  return end;
}

/** Where a string ends, and whether it is written as `JSON.stringify` writes strings. */
export interface JsonStringEnd {
  /** Index of the closing quote. */
  close: number;
  /**
   * Whether the string holds no `\/` and no `\u` escape, which `JSON.stringify` never writes for the characters they
   * stand for (a copy of the bytes is then what it writes, for valid UTF-8).
   */
  canonical: boolean;
}

/**
 * The quote closing the string opened at `open` (a quote), when everything inside is valid JSON string content (no
 * raw control byte, only the escapes JSON allows); `undefined` otherwise, or when the bytes end first.
 */
export function jsonStringEnd(scanned: ScannedBytes, open: number): JsonStringEnd | undefined {
  const { bytes } = scanned;
  const end = bytes.length;
  let canonical = true;
  for (let at = open + 1; ; ) {
    at = nextSpecialByte(scanned, at);
    if (at >= end) return undefined;
    const byte = bytes[at] as number;
    if (byte === QUOTE) return { close: at, canonical };
    if (byte !== BACKSLASH) return undefined;
    const escaped = at + 1 < end ? (bytes[at + 1] as number) : 0;
    const length = ESCAPE_LENGTH[escaped] as number;
    if (length === 0) return undefined;
    if (length === 6) {
      if (at + 6 > end || !hexDigits(bytes, at + 2)) return undefined;
      canonical = false;
    } else if (escaped === SLASH) canonical = false;
    at += length;
  }
}

/** Whether the four bytes from `at` are hex digits. */
function hexDigits(bytes: Uint8Array, at: number): boolean {
  return (
    ((HEX_DIGIT[bytes[at] as number] as number) &
      (HEX_DIGIT[bytes[at + 1] as number] as number) &
      (HEX_DIGIT[bytes[at + 2] as number] as number) &
      (HEX_DIGIT[bytes[at + 3] as number] as number)) ===
    1
  );
}
