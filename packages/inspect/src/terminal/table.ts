/** Plain-text tables with left-aligned columns, styled after alignment so escape codes never skew the widths. */

/** A table cell: its text, and an optional style applied after padding. */
export interface Cell {
  readonly text: string;
  readonly style?: (text: string) => string;
}

/** Lays out rows of cells in columns two spaces apart; trailing spaces are trimmed. */
export function formatTable(rows: readonly (readonly Cell[])[], indent = ''): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, displayWidth(cell.text));
    });
  }
  return rows.map((row) => {
    const cells = row.map((cell, column) => {
      const last = column === row.length - 1;
      const padded = last
        ? cell.text
        : cell.text + ' '.repeat((widths[column] ?? 0) - displayWidth(cell.text));
      return cell.style ? cell.style(padded) : padded;
    });
    return `${indent}${cells.join('  ')}`.trimEnd();
  });
}

// East Asian wide and fullwidth ranges, enough for table alignment of CJK text and common emoji.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/** A combining mark, which takes no column: made once, not for every character of every cell. */
const MARK = /\p{M}/u;

/** The first combining mark; below it no character is a mark or wide. */
const FIRST_MARK = 0x300;

/** Terminal columns a string takes: wide characters count two, combining marks none. */
export function displayWidth(text: string): number {
  // Most of what a table holds is ASCII: one column a character, without a test of each against two patterns.
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) >= FIRST_MARK) return index + widthOfCharacters(text.slice(index));
  }
  return text.length;
}

function widthOfCharacters(text: string): number {
  let width = 0;
  for (const char of text) {
    if (MARK.test(char)) continue;
    width += WIDE.test(char) ? 2 : 1;
  }
  return width;
}
