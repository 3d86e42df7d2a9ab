/**
 * HTML text from untrusted input: every log value is escaped, and the transcript's terminal styling becomes spans of
 * a fixed set of classes, so that no log content can ever become markup.
 */

import { escapeControlsKeepingLines } from '@cursor-stream/core/text';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for an HTML element or a quoted attribute value. Control and bidirectional formatting characters are
 * shown as their escapes (`\u202e`), line feeds and tabs kept, exactly as the terminal output shows them: a page, like
 * a terminal, would otherwise show a file name or a command in another order than it is stored.
 */
export function escapeHtml(text: string): string {
  return escapeControlsKeepingLines(text).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** The SGR codes the transcript's palette writes, as the classes they become. */
const SGR_CLASSES: Readonly<Record<string, { slot: 'weight' | 'color'; value: string | null }>> = {
  '1': { slot: 'weight', value: 'b' },
  '2': { slot: 'weight', value: 'dim' },
  '22': { slot: 'weight', value: null },
  '31': { slot: 'color', value: 'red' },
  '32': { slot: 'color', value: 'green' },
  '33': { slot: 'color', value: 'yellow' },
  '34': { slot: 'color', value: 'blue' },
  '35': { slot: 'color', value: 'magenta' },
  '36': { slot: 'color', value: 'cyan' },
  '39': { slot: 'color', value: null },
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character starts the sequences matched.
const SGR = /\u001b\[(\d+)m/g;

/**
 * Turns text styled with ANSI SGR codes (as the `render` palette writes it) into escaped HTML with spans. Only the
 * palette's codes are read; anything else stays text. The spans never nest, so the markup is always well formed.
 */
export function ansiToHtml(text: string): string {
  const style: { weight: string | null; color: string | null } = { weight: null, color: null };
  let html = '';
  let from = 0;
  const emit = (piece: string): void => {
    if (piece === '') return;
    const classes = [style.weight, style.color].filter((name) => name !== null).join(' ');
    // An escape character the palette did not write (a sequence it does not know) is shown, not kept.
    const escaped = escapeHtml(piece);
    html += classes === '' ? escaped : `<span class="${classes}">${escaped}</span>`;
  };
  for (const match of text.matchAll(SGR)) {
    const code = SGR_CLASSES[match[1] ?? ''];
    if (code === undefined) continue;
    emit(text.slice(from, match.index));
    style[code.slot] = code.value;
    from = match.index + match[0].length;
  }
  emit(text.slice(from));
  return html;
}
