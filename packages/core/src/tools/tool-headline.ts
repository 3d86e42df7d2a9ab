/**
 * What a tool call is about, on one line: its headline (what a person looks for in each kind of call: the command,
 * the path and range, the pattern and where) and the arguments the headline leaves out. The same line for every
 * view: the terminal transcript, the report and the live page.
 */

import { safeJsonStringify } from '../safe-json.ts';
import { escapeControls, plural, truncate } from '../text/index.ts';
import { firstLine, isToolRecord, MAX_TOOL_TEXT_LENGTH, type ToolRecord } from './tool-values.ts';

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

/** Arguments that repeat the call id, restate the command in parsed form, or tune the runner: shown with `verbose`. */
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

/** The first of `keys` that holds a non-empty string, with its value. */
function stringArgument(input: ToolRecord, keys: readonly string[]): [string, string] | undefined {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === 'string' && value !== '') return [key, value];
  }
  return undefined;
}

function numberArgument(input: ToolRecord, key: string): number | undefined {
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

function simpleHeadline(input: ToolRecord, keys: readonly string[]): Headline {
  const found = stringArgument(input, keys);
  return found === undefined ? NO_HEADLINE : { text: firstLine(found[1]), keys: [found[0]] };
}

/** `src/a.ts lines 10-59` from a path and the `offset`/`limit` of the lines asked for. */
function readHeadline(input: ToolRecord): Headline {
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
  input: ToolRecord,
  patternKeys: readonly string[],
  whereKeys: readonly string[],
): Headline {
  const pattern = stringArgument(input, patternKeys);
  const where = stringArgument(input, whereKeys);
  if (pattern === undefined) return simpleHeadline(input, whereKeys);
  const text = `"${firstLine(pattern[1])}"${where === undefined ? '' : ` in ${firstLine(where[1])}`}`;
  return { text, keys: where === undefined ? [pattern[0]] : [pattern[0], where[0]] };
}

const HEADLINES: Readonly<Record<string, (input: ToolRecord) => Headline>> = {
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
  if (!isToolRecord(input)) return NO_HEADLINE;
  const specific = HEADLINES[toolName]?.(input) ?? NO_HEADLINE;
  return specific.text === '' ? simpleHeadline(input, GENERIC_HEADLINE_KEYS) : specific;
}

/**
 * What a call is about, e.g. the shell command, or the grep pattern and where; empty when no argument says so.
 * Control characters are escaped, so it is one line whatever the log holds.
 *
 * @param toolName - The canonical tool name (`shell`, `read`, `grep`, ...), which picks the arguments shown.
 * @param input - The call's arguments.
 * @param maxLength - The longest headline, in characters; a longer one ends with `…`.
 */
export function toolHeadline(toolName: string, input: unknown, maxLength = MAX_TOOL_TEXT_LENGTH): string {
  return truncate(escapeControls(headlineOf(toolName, input).text), maxLength);
}

/**
 * A tool call in one line: its name, then its {@link toolHeadline} when it has one (`read README.md lines 1-40`),
 * cut to `maxLength` characters. The name is as given: a view escapes it as it escapes any text.
 */
export function toolLabel(toolName: string, input: unknown, maxLength: number): string {
  const headline = toolHeadline(toolName, input, maxLength);
  return truncate(headline === '' ? toolName : `${toolName} ${headline}`, maxLength);
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
  if (!isToolRecord(input))
    return input === undefined || input === null
      ? ''
      : truncate(describeValue('', input), MAX_TOOL_TEXT_LENGTH);
  const shown = new Set(headlineOf(toolName, input).keys);
  const pairs = Object.entries(input)
    .filter(([key]) => !shown.has(key) && (verbose || !PLUMBING_KEYS.has(key)))
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${describeValue(key, value)}`);
  return truncate(escapeControls(pairs.join(' ')), MAX_TOOL_TEXT_LENGTH);
}
