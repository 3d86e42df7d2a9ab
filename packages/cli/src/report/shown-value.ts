/**
 * A tool call's arguments or output as the report shows them: strings as they are (a shell's stdout keeps its
 * lines), other values as JSON, cut at a size with the whole size said.
 */

import { safeJsonStringify } from '@cursor-stream/core/normalize';
import { formatBytes } from '@cursor-stream/core/text';
import { escapeHtml } from './html.ts';

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
export function valueDetails(className: string, title: string, value: unknown, maxChars: number): string {
  const text = valueText(value);
  const bytes = Buffer.byteLength(text);
  const cut = text.length > maxChars;
  const kept = cut ? text.slice(0, maxChars) : text;
  const keptBytes = cut ? Buffer.byteLength(kept) : bytes;
  const summary = cut
    ? `${title} · first ${formatBytes(keptBytes)} of ${formatBytes(bytes)}`
    : `${title} · ${formatBytes(bytes)}`;
  const shown = cut ? `${kept}\n… ${formatBytes(bytes - keptBytes)} more not shown` : text;
  return `<details class="${className}"><summary>${escapeHtml(summary)}</summary><pre>${escapeHtml(shown)}</pre></details>`;
}
