/**
 * A tool call's arguments or output as the report shows them: strings as they are (a shell's stdout keeps its
 * lines), other values as JSON, cut at a size with the whole size said.
 */

import { safeJsonStringify } from '@cursor-stream/core/normalize';
import { formatBytes } from '@cursor-stream/core/text';
import { escapeHtml } from './html.ts';

/**
 * Bytes of `text` in UTF-8, a lone surrogate counted as the three bytes of the U+FFFD it is written as: what a file
 * of the text takes, counted without encoding it (no `Buffer` in a browser, and no copy of a large output).
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON text of any value, or why it has none (nested too deep to print, a cycle): never a throw. */
function jsonText(value: unknown): string {
  const result = safeJsonStringify(value, 2);
  return result.ok ? result.text : `(not shown: ${result.message})`;
}

/** A value as text: an object field by field, multi-line strings on lines of their own. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return jsonText(value);
  return Object.entries(value)
    .map(([key, field]) =>
      typeof field === 'string' && field.includes('\n')
        ? `${key}:\n${field.endsWith('\n') ? field : `${field}\n`}`
        : `${key}: ${jsonText(field)}\n`,
    )
    .join('');
}

/** Whether there is anything to show: not absent, null, an empty string or an empty object. */
export function hasContent(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !isRecord(value) || Object.keys(value).length > 0;
}

/**
 * A `<details>` block showing `value` under `title`, at most `maxChars` characters of it; when cut, the summary says
 * how much of how much is shown.
 */
export function valueDetails(
  className: string,
  title: string,
  value: unknown,
  maxChars: number,
  open = false,
): string {
  const text = valueText(value);
  const bytes = utf8Length(text);
  const cut = text.length > maxChars;
  const kept = cut ? text.slice(0, maxChars) : text;
  const keptBytes = cut ? utf8Length(kept) : bytes;
  const summary = cut
    ? `${title} · first ${formatBytes(keptBytes)} of ${formatBytes(bytes)}`
    : `${title} · ${formatBytes(bytes)}`;
  const shown = cut ? `${kept}\n… ${formatBytes(bytes - keptBytes)} more not shown` : text;
  return `<details class="${className}"${open ? ' open' : ''}><summary>${escapeHtml(summary)}</summary><pre>${escapeHtml(shown)}</pre></details>`;
}
