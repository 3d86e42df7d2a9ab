/**
 * Lines of a failed run's output that never say why it failed, though they may come after (or before) the line that
 * does: the frames and markers of a stack trace, and the CLI's notice that a newer version is out.
 */

/** A frame of a stack trace: `at` and a place, `file:line:column` or `(file:line:column)`. */
const STACK_FRAME = /^\s*at\s+(?:\S.*\(.+:\d+:\d+\)|\S+:\d+:\d+)$/;

/** Where Node says an uncaught error was thrown (`file:///app/cli.js:3`), and the caret under the line it quotes. */
const THROW_SITE = /^\s*(?:(?:file:\/\/)?\/\S*:\d+|\^+)\s*$/;

/** The CLI's notice of a newer version, which it prints as it exits, after the failure. */
const UPDATE_NOTICE = /^\s*A new version of Cursor Agent is available\b/;

/**
 * Whether `line` (trimmed or not) is one that never says why a run failed: a stack frame, the place and caret of an
 * uncaught error, or the CLI's update notice.
 */
export function saysNothing(line: string): boolean {
  return STACK_FRAME.test(line) || THROW_SITE.test(line) || UPDATE_NOTICE.test(line);
}
