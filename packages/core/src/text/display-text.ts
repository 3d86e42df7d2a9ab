/**
 * Text for a person, from values a log holds: escaped onto one line, cut to a length, and numbers, sizes and durations
 * in words. Shared by every view (the terminal's, the pages', the tools' headlines) so that each shows a value alike.
 */

// C0 controls, DEL and C1 controls, the Unicode line and paragraph separators, and the bidirectional formatting
// characters (marks, embeddings, overrides, isolates): anything that would break a one-line message, move the
// terminal cursor, or make a file name or a message read in another order than it is stored.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControl(char: string): string {
  return NAMED_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Escapes control and bidirectional formatting characters (`\n`, `\t`, `\u001b`, `\u202e`, ...) so that a value
 * prints on one line, cannot move the cursor and reads in its stored order: for every file name and every piece of
 * untrusted text a view shows, on a terminal or a page.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL_CHARACTERS, escapeControl);
}

/**
 * How a log's path appears in messages and pages: `-` (standard input, as every reader of logs takes it) is
 * `<stdin>`, and control and bidi characters are escaped as {@link escapeControls} does.
 */
export function displayPath(path: string): string {
  return path === '-' ? '<stdin>' : escapeControls(path);
}

/**
 * How a log's path appears in the JSON a command writes (the `file` of a session, an event, a usage row): as it is,
 * since JSON escapes any character and a program reading it must be able to open the file, with `-` (standard input)
 * as `<stdin>`, as {@link displayPath} names it. A view prints it through `escapeControls`.
 */
export function jsonPath(path: string): string {
  return path === '-' ? '<stdin>' : path;
}

/**
 * How a URL appears in messages: each query parameter's value masked (`?api-key=***`), as some services take their
 * key there, and so are a user name and a password, as messages are printed and logged. Text that is no URL is
 * returned as it is.
 */
export function displayUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.search === '' && parsed.username === '' && parsed.password === '') return url;
  for (const name of new Set(parsed.searchParams.keys())) parsed.searchParams.set(name, '***');
  // A user name may be a token (`https://glc_…@host`), as a password is.
  if (parsed.username !== '') parsed.username = '***';
  if (parsed.password !== '') parsed.password = '***';
  return parsed.href;
}

/** Like {@link escapeControls}, but keeps line feeds and tabs: for multi-line text such as assistant messages. */
export function escapeControlsKeepingLines(text: string): string {
  return text
    .replaceAll('\r\n', '\n')
    .replace(CONTROL_CHARACTERS, (char) => (char === '\n' || char === '\t' ? char : escapeControl(char)));
}

/** Collapses every run of whitespace (line breaks included) to one space: a paragraph folded to one line. */
export function foldToOneLine(text: string): string {
  return escapeControls(text.replace(/\s+/g, ' ').trim());
}

/** UTF-16 units of the code point at `index`: 2 for a surrogate pair, else 1. */
function codePointWidth(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0xd800 || code > 0xdbff) return 1;
  const next = text.charCodeAt(index + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** Characters (code points) in `text`, counted without splitting it into an array, which costs ~30x its size. */
export function codePointCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += codePointWidth(text, index)) count++;
  return count;
}

/** Cuts text to at most `max` characters (code points), ending with `…` when cut. Reads only what it keeps. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let kept = 0; kept < max - 1 && end < text.length; kept++) end += codePointWidth(text, end);
  // The text fits if at most one code point is left after the first max - 1.
  if (end >= text.length || end + codePointWidth(text, end) >= text.length) return text;
  return `${text.slice(0, end)}…`;
}

/** Index of the start of the last `count` code points of `text` (0 when it has fewer). Reads only what it keeps. */
function startOfLast(text: string, count: number): number {
  let start = text.length;
  for (let kept = 0; kept < count && start > 0; kept++) {
    const low = text.charCodeAt(start - 1);
    const high = start > 1 ? text.charCodeAt(start - 2) : 0;
    start -= low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
  }
  return start;
}

/**
 * Cuts a path (or any text whose end matters most) to at most `max` characters (code points) by taking out its
 * middle: `/home/dev/…/src/main.ts`. The last segment (after the last `/` or `\`) is kept whole when it fits, so
 * that the file name survives; the rest goes to the start.
 */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const length = codePointCount(text);
  if (length <= max) return text;
  if (max <= 1) return max === 1 ? '…' : '';
  const budget = max - 1;
  const separator = Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\'));
  const nameLength = separator === -1 ? 0 : codePointCount(text.slice(separator));
  const tail = Math.min(budget, Math.max(nameLength, Math.ceil(budget / 2)));
  const head = truncate(text, budget - tail + 1).slice(0, -1);
  return `${budget - tail === 0 ? '' : head}…${text.slice(startOfLast(text, tail))}`;
}

/** The longest span a JavaScript `Date` holds, from its earliest time to its latest (ECMAScript's time values). */
const LONGEST_DATE_SPAN_MS = 2 * 8.64e15;

/**
 * A duration for a person: `850 ms`, `5.2 s`, `3 min 04 s`, `1 h 02 min`. One longer than any span of dates is no
 * time a run took (a log's `duration_ms` of `1e300` would read `2.7e+293 h`): it is said as written,
 * `1e+300 ms, past any time`, as the exports name it.
 */
export function formatDuration(ms: number): string {
  if (ms > LONGEST_DATE_SPAN_MS) return `${ms} ms, past any time`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** A byte count for a person, in decimal units: `512 B`, `2.3 KB`, `200.1 MB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/**
 * An integer with comma thousands separators (`12,345`), as `toLocaleString('en-US')` writes it, without its cost:
 * the first locale call loads ICU data, some 15 ms of a small command's start-up.
 */
export function formatCount(count: number): string {
  return String(Math.round(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `1 line`, `2 lines`: a count with its noun, pluralized with `s` unless a plural is given. */
export function plural(count: number, noun: string, nounPlural = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : nounPlural}`;
}
