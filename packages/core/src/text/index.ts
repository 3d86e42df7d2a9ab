/**
 * `@cursor-stream/core/text`: values of a log as text for a person, escaped onto one line and cut to a length, with
 * counts, sizes and durations in words. Pure and small, for any view's start-up.
 */

export { detachedText } from './detached-text.ts';
export {
  codePointCount,
  displayPath,
  displayUrl,
  escapeControls,
  escapeControlsKeepingLines,
  foldToOneLine,
  formatBytes,
  formatCount,
  formatDuration,
  jsonPath,
  plural,
  truncate,
  truncateMiddle,
} from './display-text.ts';
