/**
 * `--redact`: the secrets of what a command reads replaced by typed placeholders before it writes anything, and one
 * line on stderr saying how many of each kind went. The redaction code is loaded only when asked for.
 */

import type { Redactor } from '@cursor-stream/core/redact';
import type { CliIo } from './cli-io.ts';

/** The redactor a command reads with (none without `--redact`), and the line that reports its counts. */
export interface Redaction {
  readonly redactor: Redactor | undefined;
  /** Writes `cursor-stream: redacted 3 secrets (2 email, 1 github-token)` to stderr; nothing without `--redact`. */
  report(): void;
}

/** The home directories of the user the command runs as, from its environment. */
function homeDirectories(env: CliIo['env']): string[] {
  return [env.HOME, env.USERPROFILE].filter(
    (home): home is string => home !== undefined && home.length > 1 && home !== '/',
  );
}

/** A redaction for one command run: a redactor when `enabled`, counting over everything the run reads. */
export async function startRedaction(enabled: boolean | undefined, io: CliIo): Promise<Redaction> {
  if (enabled !== true) return { redactor: undefined, report() {} };
  const { createRedactor } = await import('@cursor-stream/core/redact');
  const redactor = createRedactor({ homeDirectories: homeDirectories(io.env) });
  return {
    redactor,
    report() {
      const kinds = Object.entries(redactor.counts).sort(([a], [b]) => a.localeCompare(b));
      const total = kinds.reduce((sum, [, count]) => sum + (count ?? 0), 0);
      const detail = kinds.map(([kind, count]) => `${count} ${kind}`).join(', ');
      io.stderr.write(
        total === 0
          ? 'cursor-stream: redacted nothing: no secret found\n'
          : `cursor-stream: redacted ${total} secret${total === 1 ? '' : 's'} (${detail})\n`,
      );
    },
  };
}
