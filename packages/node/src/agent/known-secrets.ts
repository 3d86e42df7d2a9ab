/**
 * The API key a run was given, kept out of what the run says of itself. An agent may quote its key back (an error
 * naming the key it refused); the run's error, its stderr and its noise lines are what a caller logs, a relay sends to
 * its clients and saves, so each quote of the key there is replaced.
 */

import type { AgentProcessOptions } from './agent-options.ts';

/** What stands in for a secret. */
export const REDACTED = '[redacted]';

/** Shorter values are no keys worth masking, and masking them would garble ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** The key the agent process runs with: `apiKey`, else `CURSOR_API_KEY` from the options' or the process's env. */
export function knownSecrets(options: AgentProcessOptions): readonly string[] {
  const env = options.env ?? {};
  const inherited = Object.hasOwn(env, 'CURSOR_API_KEY') ? env.CURSOR_API_KEY : process.env.CURSOR_API_KEY;
  const key = options.apiKey ?? inherited;
  return key !== undefined && key.length >= MIN_SECRET_LENGTH ? [key] : [];
}

/** `text` with every occurrence of each of `secrets` replaced by {@link REDACTED}. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) if (masked.includes(secret)) masked = masked.split(secret).join(REDACTED);
  return masked;
}
