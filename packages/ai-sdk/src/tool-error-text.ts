/**
 * The `errorText` of a failed tool call. The AI SDK shows a failed tool part by this one string, so it carries what
 * the result says went wrong in the agent's own words (an error message, a rejection reason, a command's stderr)
 * rather than the raw result object.
 */

import type { ToolResultEvent } from '@cursor-stream/core/normalize';

/** The longest detail quoted from a result, so one huge stderr does not become the whole message. */
const MAX_DETAIL_CHARS = 2000;

/** Fields that hold a failure's reason in the results of cursor-agent and its wrappers, most specific first. */
const DETAIL_FIELDS = ['errorMessage', 'error', 'message', 'reason', 'stderr'] as const;

function nonEmptyText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'object' && value !== null && 'message' in value) return nonEmptyText(value.message);
  return undefined;
}

function detailOf(output: unknown): string | undefined {
  if (typeof output === 'string') return nonEmptyText(output);
  if (typeof output !== 'object' || output === null) return undefined;
  for (const field of DETAIL_FIELDS) {
    const text = nonEmptyText((output as Record<string, unknown>)[field]);
    if (text !== undefined) return text;
  }
  return undefined;
}

function exitCodeOf(output: unknown): number | undefined {
  if (typeof output !== 'object' || output === null) return undefined;
  const code = (output as Record<string, unknown>).exitCode;
  return typeof code === 'number' && code !== 0 ? code : undefined;
}

function bounded(text: string): string {
  return text.length <= MAX_DETAIL_CHARS ? text : `${text.slice(0, MAX_DETAIL_CHARS)}…`;
}

/**
 * The error text of a failed tool result: its status, the exit code when a command failed, and the reason the result
 * gives, e.g. `failure (exit code 127): python: command not found` or `rejected: MCP tool execution rejected by user`.
 *
 * @param result - A `tool-result` event; its `output` is searched for `errorMessage`, `error`, `message`, `reason`
 *   and `stderr`, in that order.
 */
export function toolErrorText(result: Pick<ToolResultEvent, 'status' | 'output'>): string {
  const exitCode = exitCodeOf(result.output);
  const head = exitCode === undefined ? result.status : `${result.status} (exit code ${exitCode})`;
  const detail = detailOf(result.output);
  return detail === undefined ? head : `${head}: ${bounded(detail)}`;
}
