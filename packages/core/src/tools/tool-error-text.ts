/**
 * Why a tool call failed, in the words its result gives (an error message, a rejection reason, a command's stderr),
 * for every view that shows a failed call: the AI SDK's `errorText`, the live page and the terminal transcript.
 */

import type { ToolResultEvent } from '../events/index.ts';
import { isToolRecord, type ToolRecord } from './tool-values.ts';

/** The longest reason quoted in a tool's error text, so one huge stderr does not become the whole message. */
const MAX_REASON_LENGTH = 2000;

/**
 * Fields that hold a failure's reason in the results of cursor-agent and its wrappers, most specific first; an `error`
 * arm may hold only what the model was shown (`modelVisibleError`, cursor-agent 2026.10).
 */
const REASON_KEYS = ['errorMessage', 'error', 'message', 'reason', 'modelVisibleError', 'stderr'] as const;

function reasonIn(output: ToolRecord, nested: boolean): string | undefined {
  for (const key of REASON_KEYS) {
    const value = output[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    // One level down, as grep's `error: { error }` and an `error: { message }` hold it.
    const inner = !nested && isToolRecord(value) ? reasonIn(value, true) : undefined;
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * The reason a tool's output gives for its failure, trimmed: the output itself when it is text, else the first of
 * `errorMessage`, `error`, `message`, `reason`, `modelVisibleError` and `stderr` that holds text, at the top or one
 * level down (grep's `error: { error }`); `undefined` when none does.
 */
export function toolFailureReason(output: unknown): string | undefined {
  if (typeof output === 'string') return output.trim() === '' ? undefined : output.trim();
  return isToolRecord(output) ? reasonIn(output, false) : undefined;
}

function exitCodeOf(output: unknown): number | undefined {
  if (!isToolRecord(output)) return undefined;
  const code = output.exitCode;
  return typeof code === 'number' && code !== 0 ? code : undefined;
}

function bounded(text: string): string {
  return text.length <= MAX_REASON_LENGTH ? text : `${text.slice(0, MAX_REASON_LENGTH)}…`;
}

/**
 * The error text of a failed tool result: its status, the exit code when a command failed, and the reason the result
 * gives (see {@link toolFailureReason}, at most 2,000 characters of it), e.g.
 * `failure (exit code 127): python: command not found` or `rejected: MCP tool execution rejected by user`.
 *
 * @param result - A `tool-result` event, or its `status` and `output`.
 */
export function toolErrorText(result: Pick<ToolResultEvent, 'status' | 'output'>): string {
  const exitCode = exitCodeOf(result.output);
  const head = exitCode === undefined ? result.status : `${result.status} (exit code ${exitCode})`;
  const reason = toolFailureReason(result.output);
  return reason === undefined ? head : `${head}: ${bounded(reason)}`;
}
