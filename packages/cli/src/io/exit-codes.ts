/** The process exit codes of every command; `--help` and the README document them. */
export const EXIT_OK = 0;
/** The input had problems: invalid lines, or (for `validate`) schema problems. */
export const EXIT_PROBLEMS = 1;
/** A usage error (unknown option, bad value, unknown command) or an I/O error (missing, unreadable, not text). */
export const EXIT_USAGE_OR_IO = 2;

/**
 * The command failed in a way no input should make it fail: a bug of its own, said in one line (as `sysexits.h`'s
 * `EX_SOFTWARE`), never a stack trace.
 */
export const EXIT_INTERNAL = 70;

/** One of {@link EXIT_OK}, {@link EXIT_PROBLEMS}, {@link EXIT_USAGE_OR_IO}, {@link EXIT_INTERNAL}. */
export type ExitCode = typeof EXIT_OK | typeof EXIT_PROBLEMS | typeof EXIT_USAGE_OR_IO | typeof EXIT_INTERNAL;
