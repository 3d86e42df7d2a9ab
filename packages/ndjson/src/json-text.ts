/**
 * Character-level helpers for the tokenizer's slow path: they run only on lines that `JSON.parse` rejected, so the
 * common case never pays for a scan in JavaScript.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CONTROL_LIMIT = 0x20;

/** Scan position: outside any string. */
export const OUTSIDE = 0;
/** Scan position: inside a string. */
export const INSIDE = 1;
/** Scan position: inside a string, right after a backslash. */
export const AFTER_BACKSLASH = 2;
/** Where a scan of JSON text stopped. */
export type StringState = typeof OUTSIDE | typeof INSIDE | typeof AFTER_BACKSLASH;

/**
 * Scans `text` from `state` and returns the string state at its end. It jumps from quote to quote with `indexOf`
 * (native, many times faster than a character loop in JavaScript) and looks back at the backslashes before a quote
 * only to tell whether it is escaped.
 */
export function scanStringState(text: string, state: StringState): StringState {
  let index = 0;
  if (state === AFTER_BACKSLASH) {
    if (text.length === 0) return AFTER_BACKSLASH;
    index = 1;
    state = INSIDE;
  }
  for (;;) {
    if (state === OUTSIDE) {
      const opening = text.indexOf('"', index);
      if (opening === -1) return OUTSIDE;
      index = opening + 1;
      state = INSIDE;
    }
    const closing = closingQuote(text, index);
    if (closing === -1) return endsOnBackslash(text, index) ? AFTER_BACKSLASH : INSIDE;
    index = closing + 1;
    state = OUTSIDE;
  }
}

/** Index of the quote that ends the string whose content starts at `from`, or -1. */
function closingQuote(text: string, from: number): number {
  let quote = text.indexOf('"', from);
  while (quote !== -1 && backslashesBefore(text, quote, from) % 2 === 1) quote = text.indexOf('"', quote + 1);
  return quote;
}

/** How many backslashes stand right before `index`, not looking before `floor`. */
function backslashesBefore(text: string, index: number, floor: number): number {
  let at = index - 1;
  while (at >= floor && text.charCodeAt(at) === BACKSLASH) at--;
  return index - 1 - at;
}

/** Whether the string content from `from` to the end of `text` ends with an escape still waiting for its character. */
function endsOnBackslash(text: string, from: number): boolean {
  return backslashesBefore(text, text.length, from) % 2 === 1;
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = { 8: 'b', 9: 't', 10: 'n', 12: 'f', 13: 'r' };

function escapeLetters(code: number): string {
  return SHORT_ESCAPES[code] ?? `u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Returns `text` with every raw control character inside a string replaced by its JSON escape, so that a record
 * whose strings hold raw line breaks parses to the same value as its escaped form. A raw control character right
 * after a backslash becomes that escape (`\` then LF reads as `\n`). Control characters outside strings are
 * whitespace or errors, and are left for `JSON.parse` to judge.
 */
export function escapeControlCharacters(text: string): string {
  let state: StringState = OUTSIDE;
  let escaped = '';
  let copiedUpTo = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (state === OUTSIDE) {
      if (code === QUOTE) state = INSIDE;
    } else if (state === AFTER_BACKSLASH) {
      if (code < CONTROL_LIMIT) {
        escaped += text.slice(copiedUpTo, index) + escapeLetters(code);
        copiedUpTo = index + 1;
      }
      state = INSIDE;
    } else if (code === QUOTE) {
      state = OUTSIDE;
    } else if (code === BACKSLASH) {
      state = AFTER_BACKSLASH;
    } else if (code < CONTROL_LIMIT) {
      escaped += `${text.slice(copiedUpTo, index)}\\${escapeLetters(code)}`;
      copiedUpTo = index + 1;
    }
  }
  return copiedUpTo === 0 ? text : escaped + text.slice(copiedUpTo);
}

/** Longest excerpt a problem carries, in UTF-16 code units before escaping. */
export const EXCERPT_LENGTH = 120;

/** The start of `text` for an error message: at most {@link EXCERPT_LENGTH} characters, control characters escaped. */
export function excerptOf(text: string): string {
  const cut = text.length > EXCERPT_LENGTH;
  let head = cut ? text.slice(0, EXCERPT_LENGTH) : text;
  // A cut between the halves of a surrogate pair would leave a lone surrogate in the message.
  const last = head.charCodeAt(head.length - 1);
  if (cut && last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is escaped here.
  const shown = head.replace(/[\u0000-\u001f]/g, (char) => `\\${escapeLetters(char.charCodeAt(0))}`);
  return cut ? `${shown}…` : shown;
}

/** Whether `text` holds only JSON whitespace (space, tab, CR, LF), the empty string included. */
export function isJsonWhitespace(text: string): boolean {
  return /^[ \t\r\n]*$/.test(text);
}

/** First character of `text` that is not JSON whitespace, or `''`. */
export function firstSignificantChar(text: string): string {
  const match = /[^ \t\r\n]/.exec(text);
  return match === null ? '' : match[0];
}

/** Whether `value` is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
