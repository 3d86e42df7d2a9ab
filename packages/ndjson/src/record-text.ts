/**
 * Parsing a record's text on the slow path, where its strings may hold raw control characters (a producer that did
 * not escape a line break, a tab or a CR). Never throws: a failure is a value naming the error.
 */

import {
  escapeControlCharacters,
  firstSignificantChar,
  INSIDE,
  OUTSIDE,
  scanStringState,
} from './json-text.ts';
import { startsLikeJson } from './line-kind.ts';

/** What parsing a record's text gave: its value, or the error and the text that was given to `JSON.parse`. */
export type ParsedText = { ok: true; value: unknown } | { ok: false; error: unknown; parsed: string };

/**
 * Parses `text` after escaping the raw control characters inside its strings. `parseError` is what `JSON.parse`
 * already said about `text` as it is, if it was tried: text that repair leaves unchanged is not parsed again.
 */
export function parseRepaired(text: string, parseError?: unknown): ParsedText {
  let repaired = text;
  try {
    repaired = escapeControlCharacters(text);
    if (repaired === text && parseError !== undefined) return { ok: false, error: parseError, parsed: text };
    return { ok: true, value: JSON.parse(repaired) };
  } catch (error) {
    // A RangeError here is the runtime's string limit, reached by escaping; it is as final as a syntax error.
    return { ok: false, error, parsed: repaired };
  }
}

/** A physical line read on its own while a record is open: a whole JSON text, the start of one, or neither. */
export type OwnLine = { kind: 'value'; value: unknown } | { kind: 'opens' } | { kind: 'neither' };

const NEITHER: OwnLine = { kind: 'neither' };
const OPENS: OwnLine = { kind: 'opens' };

/**
 * Reads one physical line as if nothing were open before it: a complete JSON text (raw control characters inside
 * its strings allowed), the first line of a record that goes on over raw line breaks (it starts like JSON and ends
 * inside a string), or neither. Blank lines are neither.
 */
export function readOwnLine(text: string): OwnLine {
  const first = firstSignificantChar(text);
  // A line of prose is more of the string without a parse attempt, whose throw is costly.
  if (first === '' || !startsLikeJson(text)) return NEITHER;
  let parseError: unknown;
  try {
    return { kind: 'value', value: JSON.parse(text) };
  } catch (error) {
    parseError = error;
  }
  if (scanStringState(text, OUTSIDE) !== OUTSIDE) return mayOpenInString(first) ? OPENS : NEITHER;
  const parsed = parseRepaired(text, parseError);
  return parsed.ok ? { kind: 'value', value: parsed.value } : NEITHER;
}

/** Whether a line starting with `first` can begin a JSON text that is open in a string at its end. */
export function mayOpenInString(first: string): boolean {
  return first === '{' || first === '[' || first === '"';
}

/** The string state at the end of a line that follows a line feed inside a string (which the line then continues). */
export function stateAfterContinuation(text: string): typeof OUTSIDE | 'inside' {
  return scanStringState(text, INSIDE) === OUTSIDE ? OUTSIDE : 'inside';
}
