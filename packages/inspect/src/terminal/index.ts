/**
 * `@cursor-stream/inspect/terminal`: text for a terminal. A palette of ANSI styles, on or off as the output stream and
 * the `NO_COLOR`/`FORCE_COLOR` conventions ask, which every formatter of the package takes as a parameter; and tables
 * whose columns stay aligned with wide characters and styles.
 */

export { type ColorContext, createPalette, type Palette, shouldUseColor } from './palette.ts';
export { type Cell, displayWidth, formatTable } from './table.ts';
