/**
 * What a line that is not a record is: a broken record (`invalid-json`), or text the producer wrote between its
 * records (`non-json-output`). The agent writes its failure reason, banners and notices as plain lines on the same
 * stream, and those lines carry the one sentence a reader needs, so they are told apart from broken JSON.
 */

/** The longest stretch of a non-JSON line a problem quotes; longer lines are cut, so noise cannot hold memory. */
export const MAX_OUTPUT_LINE_LENGTH = 4096;

/** JSON's literal names: a line starting with one of them as a whole word starts like JSON. */
const LITERAL_START = /^(?:true|false|null)(?![A-Za-z0-9_$])/;

/**
 * Whether a line starts the way a JSON text can: an object, array, string or number, or a literal name as a whole
 * word. `null-pointer exception` starts like `null`; `nothing to do` does not.
 */
export function startsLikeJson(text: string): boolean {
  // A byte order mark before a record is a broken record, not output.
  const start = text.search(/[^ \t\r\n\uFEFF]/);
  if (start === -1) return false;
  const code = text.charCodeAt(start);
  // { [ " - and the digits.
  if (code === 0x7b || code === 0x5b || code === 0x22 || code === 0x2d || (code >= 0x30 && code <= 0x39))
    return true;
  return LITERAL_START.test(text.slice(start, start + 6));
}

/**
 * The message of a `non-json-output` problem: the line itself without its surrounding whitespace, cut at
 * {@link MAX_OUTPUT_LINE_LENGTH} characters (never inside a surrogate pair) and marked with `…` when cut.
 */
export function outputLineMessage(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= MAX_OUTPUT_LINE_LENGTH) return trimmed;
  let end = MAX_OUTPUT_LINE_LENGTH;
  const last = trimmed.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${trimmed.slice(0, end)}…`;
}
