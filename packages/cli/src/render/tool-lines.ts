/**
 * One-line descriptions of a tool call's arguments and outcome. They read the canonical `input` and `output`, which
 * keep each dialect's own field names, so they look for the names the known formats use rather than switch on tools.
 */

import { safeJsonStringify } from '@cursor-stream/core/normalize';
import { escapeControls, truncate } from '../format/text.ts';

/** Argument names that say what a call is about, most telling first (shell command, file path, search pattern...). */
const HEADLINE_KEYS = [
  'command',
  'cmd',
  'path',
  'file_path',
  'filePath',
  'globPattern',
  'pattern',
  'searchTerm',
  'query',
  'url',
  'name',
] as const;

/** Arguments that repeat the call id or restate the command in parsed form: noise in a transcript. */
const NOISE_KEYS = new Set([
  'toolCallId',
  'simpleCommands',
  'parsingResult',
  'hasInputRedirect',
  'hasOutputRedirect',
  'skipApproval',
  'timeoutBehavior',
  'fileOutputThresholdBytes',
]);

/** Longest argument or outcome text on one line. */
const MAX_DETAIL_LENGTH = 160;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? text : `${text.slice(0, end)} …`;
}

/** What a call is about, e.g. the shell command or the file path; empty when no argument says so. */
export function toolHeadline(input: unknown): string {
  if (!isRecord(input)) return '';
  for (const key of HEADLINE_KEYS) {
    const value = input[key];
    if (typeof value === 'string' && value !== '')
      return truncate(escapeControls(firstLine(value)), MAX_DETAIL_LENGTH);
  }
  return '';
}

function describeValue(value: unknown): string {
  if (typeof value === 'string' && value.includes('\n')) return `(${value.split('\n').length} lines)`;
  const written = safeJsonStringify(value);
  return written.ok ? written.text : `(${written.message})`;
}

/** The other arguments, as `key=value` pairs on one line; empty when there are none. */
export function toolArgumentDetails(input: unknown): string {
  if (!isRecord(input))
    return input === undefined || input === null ? '' : truncate(describeValue(input), MAX_DETAIL_LENGTH);
  const headline = HEADLINE_KEYS.find((key) => typeof input[key] === 'string' && input[key] !== '');
  const pairs = Object.entries(input)
    .filter(([key, value]) => key !== headline && !NOISE_KEYS.has(key) && value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${describeValue(value)}`);
  return truncate(escapeControls(pairs.join(' ')), MAX_DETAIL_LENGTH);
}

function countFact(output: Record<string, unknown>, key: string, noun: string): string | null {
  const value = output[key];
  return typeof value === 'number' ? `${value} ${noun}` : null;
}

function successFacts(output: Record<string, unknown>): string[] {
  const facts = [
    typeof output.exitCode === 'number' ? `exit ${output.exitCode}` : null,
    countFact(output, 'totalLines', 'lines'),
    countFact(output, 'linesCreated', 'lines written'),
    typeof output.linesAdded === 'number' || typeof output.linesRemoved === 'number'
      ? `+${String(output.linesAdded ?? 0)} -${String(output.linesRemoved ?? 0)}`
      : null,
    countFact(output, 'totalFiles', 'files'),
    countFact(output, 'totalMatchedLines', 'matching lines'),
    Array.isArray(output.references) ? `${output.references.length} results` : null,
  ];
  return facts.filter((fact) => fact !== null);
}

const FAILURE_MESSAGE_KEYS = ['errorMessage', 'error', 'message', 'reason', 'stderr'] as const;

function failureMessage(output: Record<string, unknown>): string | null {
  for (const key of FAILURE_MESSAGE_KEYS) {
    const value = output[key];
    if (typeof value === 'string' && value.trim() !== '') return firstLine(value.trim());
    if (isRecord(value) && typeof value.message === 'string') return firstLine(value.message);
  }
  return null;
}

/** The outcome's facts (`exit 0`, `54 lines`, `+3 -1`) or, for a failure, its message; empty when there are none. */
export function toolOutcomeDetails(output: unknown, isError: boolean): string {
  if (typeof output === 'string') return truncate(escapeControls(firstLine(output)), MAX_DETAIL_LENGTH);
  if (!isRecord(output)) return '';
  const facts = successFacts(output);
  const message = isError ? failureMessage(output) : null;
  if (message !== null) facts.push(message);
  return truncate(escapeControls(facts.join(', ')), MAX_DETAIL_LENGTH);
}
