/**
 * One-line descriptions of a tool call's arguments and outcome. The headline is what a person looks for in each kind
 * of call (the command, the path and range, the pattern and where); the outcome's facts are read from the output
 * fields the known formats use, so a tool from another dialect with the same fields reads the same way.
 */

import { safeJsonStringify } from '@cursor-stream/core/normalize';
import { escapeControls, plural, truncate } from '../format/text.ts';

/** Argument names of a file or directory, as the known formats spell them. */
const PATH_KEYS = ['path', 'file_path', 'filePath', 'target_file', 'targetFile'] as const;

/** Argument names that say what an unfamiliar call is about, most telling first. */
const GENERIC_HEADLINE_KEYS = [
  'command',
  'cmd',
  ...PATH_KEYS,
  'globPattern',
  'pattern',
  'searchTerm',
  'query',
  'url',
  'name',
] as const;

/** Arguments that repeat the call id, restate the command in parsed form, or tune the runner: shown with `--verbose`. */
const PLUMBING_KEYS = new Set([
  'toolCallId',
  'simpleCommands',
  'parsingResult',
  'hasInputRedirect',
  'hasOutputRedirect',
  'skipApproval',
  'timeoutBehavior',
  'fileOutputThresholdBytes',
  'hardTimeout',
  'closeStdin',
  'conversationId',
  'requestId',
  'adminCommandDenylist',
  'hookAdditionalContexts',
  'startedAtMs',
  'completedAtMs',
]);

/** Longest argument or outcome text on one line. */
const MAX_DETAIL_LENGTH = 160;

type Input = Record<string, unknown>;

function isRecord(value: unknown): value is Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? text : `${text.slice(0, end)} …`;
}

/** The first of `keys` that holds a non-empty string, with its value. */
function stringArgument(input: Input, keys: readonly string[]): [string, string] | undefined {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === 'string' && value !== '') return [key, value];
  }
  return undefined;
}

function numberArgument(input: Input, key: string): number | undefined {
  const value = input[key];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** A headline and the arguments it already shows. */
interface Headline {
  readonly text: string;
  readonly keys: readonly string[];
}

const NO_HEADLINE: Headline = { text: '', keys: [] };

function simpleHeadline(input: Input, keys: readonly string[]): Headline {
  const found = stringArgument(input, keys);
  return found === undefined ? NO_HEADLINE : { text: firstLine(found[1]), keys: [found[0]] };
}

/** `src/a.ts lines 10-59` from a path and the `offset`/`limit` of the lines asked for. */
function readHeadline(input: Input): Headline {
  const path = simpleHeadline(input, PATH_KEYS);
  const offset = numberArgument(input, 'offset');
  const limit = numberArgument(input, 'limit');
  if (offset === undefined && limit === undefined) return path;
  const start = offset ?? 1;
  const range = limit === undefined ? `from line ${start}` : `lines ${start}-${start + limit - 1}`;
  return { text: `${path.text} ${range}`.trim(), keys: [...path.keys, 'offset', 'limit'] };
}

/** `"pattern" in where`: what is looked for first, then where (absent: the workspace). */
function searchHeadline(
  input: Input,
  patternKeys: readonly string[],
  whereKeys: readonly string[],
): Headline {
  const pattern = stringArgument(input, patternKeys);
  const where = stringArgument(input, whereKeys);
  if (pattern === undefined) return simpleHeadline(input, whereKeys);
  const text = `"${firstLine(pattern[1])}"${where === undefined ? '' : ` in ${firstLine(where[1])}`}`;
  return { text, keys: where === undefined ? [pattern[0]] : [pattern[0], where[0]] };
}

const HEADLINES: Readonly<Record<string, (input: Input) => Headline>> = {
  shell: (input) => simpleHeadline(input, ['command', 'cmd']),
  read: readHeadline,
  grep: (input) => searchHeadline(input, ['pattern', 'query', 'regex'], [...PATH_KEYS, 'glob']),
  glob: (input) =>
    searchHeadline(input, ['globPattern', 'pattern', 'glob_pattern'], ['targetDirectory', ...PATH_KEYS]),
  ls: (input) => simpleHeadline(input, [...PATH_KEYS, 'directory']),
  edit: (input) => simpleHeadline(input, PATH_KEYS),
  write: (input) => simpleHeadline(input, PATH_KEYS),
  delete: (input) => simpleHeadline(input, PATH_KEYS),
  'web-search': (input) => simpleHeadline(input, ['searchTerm', 'query']),
  'web-fetch': (input) => simpleHeadline(input, ['url']),
  mcp: (input) => simpleHeadline(input, ['name', 'toolName']),
};

function headlineOf(toolName: string, input: unknown): Headline {
  if (!isRecord(input)) return NO_HEADLINE;
  const specific = HEADLINES[toolName]?.(input) ?? NO_HEADLINE;
  return specific.text === '' ? simpleHeadline(input, GENERIC_HEADLINE_KEYS) : specific;
}

/** What a call is about, e.g. the shell command, or the grep pattern and where; empty when no argument says so. */
export function toolHeadline(toolName: string, input: unknown): string {
  return truncate(escapeControls(headlineOf(toolName, input).text), MAX_DETAIL_LENGTH);
}

/**
 * An argument as a person reads it: text as written (a Windows path keeps its single backslashes), quoted when it
 * holds spaces; multi-line text as its line count; anything else as JSON.
 */
function describeValue(key: string, value: unknown): string {
  if (typeof value === 'string') {
    // Text (a file's content) is summed up as its lines; an id holding a line feed is shown escaped.
    if (value.includes('\n') && !/id$/i.test(key)) return `(${plural(value.split('\n').length, 'line')})`;
    return value === '' || /[ "]/.test(value) ? `"${value}"` : value;
  }
  const written = safeJsonStringify(value);
  return written.ok ? written.text : `(${written.message})`;
}

/**
 * The arguments the headline does not show, as `key=value` pairs on one line; empty when there are none. Plumbing
 * fields (the call id echo, the parsed command, runner settings) are left out unless `verbose`.
 */
export function toolArgumentDetails(toolName: string, input: unknown, verbose = false): string {
  if (!isRecord(input))
    return input === undefined || input === null ? '' : truncate(describeValue('', input), MAX_DETAIL_LENGTH);
  const shown = new Set(headlineOf(toolName, input).keys);
  const pairs = Object.entries(input)
    .filter(([key]) => !shown.has(key) && (verbose || !PLUMBING_KEYS.has(key)))
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${describeValue(key, value)}`);
  return truncate(escapeControls(pairs.join(' ')), MAX_DETAIL_LENGTH);
}

function countFact(output: Input, key: string, noun: string): string | null {
  const value = output[key];
  return typeof value === 'number' ? plural(value, noun) : null;
}

/** `lines 10-59 of 120` from a read's `readRange` and `totalLines`, or `120 lines`. */
function readRangeFact(output: Input): string | null {
  const range = output.readRange;
  const total = typeof output.totalLines === 'number' ? output.totalLines : undefined;
  if (isRecord(range) && typeof range.startLine === 'number' && typeof range.endLine === 'number') {
    return `lines ${range.startLine}-${range.endLine}${total === undefined ? '' : ` of ${total}`}`;
  }
  return total === undefined ? null : plural(total, 'line');
}

/** A grep's counts, summed over its `workspaceResults` roots: matching lines and files, or files. */
function grepFact(output: Input): string | null {
  const roots = output.workspaceResults;
  if (!isRecord(roots)) return null;
  let matchedLines = 0;
  let files = 0;
  let listsFiles = false;
  for (const root of Object.values(roots)) {
    if (!isRecord(root)) continue;
    if (isRecord(root.content)) {
      matchedLines += typeof root.content.totalMatchedLines === 'number' ? root.content.totalMatchedLines : 0;
      files += Array.isArray(root.content.matches) ? root.content.matches.length : 0;
    } else if (isRecord(root.files)) {
      listsFiles = true;
      files += typeof root.files.totalFiles === 'number' ? root.files.totalFiles : 0;
    } else if (isRecord(root.count)) {
      matchedLines += typeof root.count.totalMatches === 'number' ? root.count.totalMatches : 0;
    }
  }
  if (listsFiles) return plural(files, 'file');
  return files === 0
    ? plural(matchedLines, 'matching line')
    : `${plural(matchedLines, 'matching line')} in ${plural(files, 'file')}`;
}

/** An ls's entries: the directories and files right under the listed one. */
function lsFact(output: Input): string | null {
  const root = output.directoryTreeRoot;
  if (!isRecord(root)) return null;
  const dirs = Array.isArray(root.childrenDirs) ? root.childrenDirs.length : 0;
  const files = Array.isArray(root.childrenFiles) ? root.childrenFiles.length : 0;
  return plural(dirs + files, 'entry', 'entries');
}

function successFacts(output: Input): string[] {
  const facts = [
    typeof output.exitCode === 'number' ? `exit ${output.exitCode}` : null,
    readRangeFact(output),
    typeof output.linesCreated === 'number' ? `${plural(output.linesCreated, 'line')} written` : null,
    typeof output.linesAdded === 'number' || typeof output.linesRemoved === 'number'
      ? `+${String(output.linesAdded ?? 0)} -${String(output.linesRemoved ?? 0)}`
      : null,
    grepFact(output),
    lsFact(output),
    'workspaceResults' in output ? null : countFact(output, 'totalFiles', 'file'),
    'workspaceResults' in output ? null : countFact(output, 'totalMatchedLines', 'matching line'),
    Array.isArray(output.references) ? plural(output.references.length, 'result') : null,
  ];
  return facts.filter((fact) => fact !== null);
}

const FAILURE_MESSAGE_KEYS = ['errorMessage', 'error', 'message', 'reason', 'stderr'] as const;

/** The failure's own words: a message field, or one nested a level down (grep's `error: { error }`). */
function failureMessage(output: Input, nested = false): string | null {
  for (const key of FAILURE_MESSAGE_KEYS) {
    const value = output[key];
    if (typeof value === 'string' && value.trim() !== '') return firstLine(value.trim());
    const inner = !nested && isRecord(value) ? failureMessage(value, true) : null;
    if (inner !== null) return inner;
  }
  return null;
}

/**
 * The outcome's facts (`exit 0`, `lines 1-54 of 54`, `+3 -1`, `12 matching lines in 3 files`) or, for a failure,
 * its message too; empty when there are none.
 */
export function toolOutcomeDetails(output: unknown, isError: boolean): string {
  if (typeof output === 'string') return truncate(escapeControls(firstLine(output)), MAX_DETAIL_LENGTH);
  if (!isRecord(output)) return '';
  const facts = successFacts(output);
  const message = isError ? failureMessage(output) : null;
  if (message !== null) facts.push(message);
  return truncate(escapeControls(facts.join(', ')), MAX_DETAIL_LENGTH);
}
