/**
 * Turns records into NDJSON lines, optionally writing the line breaks inside ids and texts as raw LF bytes.
 *
 * A raw line break replaces exactly the two characters of a `\n` escape, so joining a record's physical lines with
 * `\n` gives back the clean line: the values are identical to the clean corpus of the same seed.
 */

import type { JsonObject } from '@cursor-stream/core';

/** Keys whose string values get raw line breaks: the composite call ids and the texts. */
const RAW_NEWLINE_KEYS: ReadonlySet<string> = new Set(['call_id', 'toolCallId', 'text']);
/**
 * Stands in for a line break during `JSON.stringify` (which would escape a real one). A private-use character that
 * the vocabulary never produces, so it cannot collide with content.
 */
const PLACEHOLDER = '\uE000';
const ESCAPED_LINE_FEED = '\\n';

/** One record as written. */
export interface SerializedRecord {
  /** The line as written, without its terminator; it may hold raw LF bytes. */
  written: string;
  /** The clean line, every line break escaped: what `JSON.stringify` of the parsed value gives. */
  clean: string;
}

/**
 * Serializes records, choosing per record whether to write its line breaks raw.
 *
 * @param rawNewlines - Share of eligible records (those with a line break in a call id or a text) written raw.
 * @param draw - A random draw in [0, 1), called once per eligible record only, so the choice never disturbs the
 *   source of the content.
 */
export function createRecordSerializer(
  rawNewlines: number,
  draw: () => number,
): (record: JsonObject) => SerializedRecord {
  if (rawNewlines <= 0) {
    return (record) => {
      const clean = JSON.stringify(record);
      return { written: clean, clean };
    };
  }
  return (record) => {
    let eligible = false;
    const marked = JSON.stringify(record, (key, value: unknown) => {
      if (typeof value !== 'string' || !RAW_NEWLINE_KEYS.has(key) || !value.includes('\n')) return value;
      eligible = true;
      return value.replaceAll('\n', PLACEHOLDER);
    });
    if (!eligible) return { written: marked, clean: marked };
    const clean = marked.replaceAll(PLACEHOLDER, ESCAPED_LINE_FEED);
    const written = draw() < rawNewlines ? marked.replaceAll(PLACEHOLDER, '\n') : clean;
    return { written, clean };
  };
}
