/**
 * How a finding's message reads on one line, shared by the validation report and the transcript's invalid lines:
 * escaped, and the agent's own output line quoted as written.
 */

import { escapeControls } from '@cursor-stream/core/text';

/** Codes whose message is a line of the input itself (the agent's plain-text output), shown in quotes. */
const QUOTED_LINE_CODES: ReadonlySet<string> = new Set(['non-json-output']);

/** A finding's message on one line; the agent's own output line is quoted as written. */
export function findingMessage(finding: { readonly code: string; readonly message: string }): string {
  const message = escapeControls(finding.message);
  return QUOTED_LINE_CODES.has(finding.code) ? `"${message}"` : message;
}
