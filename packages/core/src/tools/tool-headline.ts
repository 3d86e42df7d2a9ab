/**
 * What a tool call is about, on one line: its headline (what a person looks for in each kind of call: the command,
 * the path and range, the pattern and where) and the arguments the headline leaves out. The same line for every
 * view: the terminal transcript, the report and the live page.
 */

import { ownEntry } from '../json-values.ts';
import { safeJsonStringify } from '../safe-json.ts';
import { codePointCount, escapeControls, plural, truncate, truncateMiddle } from '../text/index.ts';
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

/**
 * A headline and the arguments it already shows. `path` marks the part of `text` that is a file or directory (from
 * `path[0]` to `path[1]`): a headline too long for its line loses that part's middle, never its end (the file name).
 */
interface Headline {
  readonly text: string;
  readonly keys: readonly string[];
  readonly path?: readonly [number, number];
}

const NO_HEADLINE: Headline = { text: '', keys: [] };

function simpleHeadline(input: ToolRecord, keys: readonly string[]): Headline {
  const found = stringArgument(input, keys);
  return found === undefined ? NO_HEADLINE : { text: firstLine(found[1]), keys: [found[0]] };
}

/** A path argument, marked as one. */
function pathHeadline(input: ToolRecord, keys: readonly string[]): Headline {
  const found = simpleHeadline(input, keys);
  return found.text === '' ? found : { ...found, path: [0, found.text.length] };
}

/** `src/a.ts lines 10-59` from a path and the `offset`/`limit` of the lines asked for. */
function readHeadline(input: ToolRecord): Headline {
  const path = pathHeadline(input, PATH_KEYS);
  const offset = numberArgument(input, 'offset');
  const limit = numberArgument(input, 'limit');
  if (offset === undefined && limit === undefined) return path;
  const start = offset ?? 1;
  const range = limit === undefined ? `from line ${start}` : `lines ${start}-${start + limit - 1}`;
  if (path.text === '') return { text: range, keys: ['offset', 'limit'] };
  return {
    text: `${path.text} ${range}`,
    keys: [...path.keys, 'offset', 'limit'],
    path: [0, path.text.length],
  };
}

/** `src/a.ts lines 10-20` from a path and the first and last lines asked for. */
function linesHeadline(input: ToolRecord, keys: readonly string[]): Headline {
  const path = pathHeadline(input, keys);
  const first = numberArgument(input, 'startLine');
  const last = numberArgument(input, 'endLine');
  if (path.text === '' || (first === undefined && last === undefined)) return path;
  const range = `lines ${first ?? 1}-${last ?? 'end'}`;
  return { ...path, text: `${path.text} ${range}`, keys: [...path.keys, 'startLine', 'endLine'] };
}

/** `"pattern" in where`: what is looked for first, then where (absent: the workspace); `where` is a path. */
function searchHeadline(
  input: ToolRecord,
  patternKeys: readonly string[],
  whereKeys: readonly string[],
): Headline {
  const pattern = stringArgument(input, patternKeys);
  const where = stringArgument(input, whereKeys) ?? listArgument(input, whereKeys);
  if (pattern === undefined) return pathHeadline(input, whereKeys);
  const quoted = `"${firstLine(pattern[1])}"`;
  if (where === undefined) return { text: quoted, keys: [pattern[0]] };
  const text = `${quoted} in ${firstLine(where[1])}`;
  return { text, keys: [pattern[0], where[0]], path: [quoted.length + 4, text.length] };
}

/** The first of `keys` that holds a non-empty list of strings, joined with commas. */
function listArgument(input: ToolRecord, keys: readonly string[]): [string, string] | undefined {
  for (const key of keys) {
    const value = input[key];
    if (!Array.isArray(value)) continue;
    const items = value.filter((item): item is string => typeof item === 'string' && item !== '');
    if (items.length > 0) return [key, items.join(', ')];
  }
  return undefined;
}

function listHeadline(input: ToolRecord, keys: readonly string[]): Headline {
  const found = listArgument(input, keys);
  return found === undefined ? NO_HEADLINE : { text: firstLine(found[1]), keys: [found[0]] };
}

/** `3 todos`: how many items a list argument holds. */
function countHeadline(input: ToolRecord, key: string, noun: string): Headline {
  const value = input[key];
  return Array.isArray(value) ? { text: plural(value.length, noun), keys: [key] } : NO_HEADLINE;
}

/** Which of a protobuf oneof's cases the arguments hold (`createPr`, `updatePr`, ...): the call's kind of action. */
function presentCase(input: ToolRecord, keys: readonly string[]): Headline {
  const key = keys.find((candidate) => isToolRecord(input[candidate]));
  return key === undefined ? NO_HEADLINE : { text: key, keys: [key] };
}

/** The case an enum-like object argument holds (`mode: {start: {}}` is `start`). */
function innerCase(input: ToolRecord, key: string): Headline {
  const value = input[key];
  const cases = isToolRecord(value) ? Object.keys(value) : [];
  return cases.length === 1 && cases[0] !== undefined ? { text: cases[0], keys: [key] } : NO_HEADLINE;
}

/** The first of several headlines that says something. */
function firstOf(...headlines: readonly (() => Headline)[]): Headline {
  for (const headline of headlines) {
    const found = headline();
    if (found.text !== '') return found;
  }
  return NO_HEADLINE;
}

/** `what for whom`: a text and who it concerns (an agent, a server), when both are given. */
function aboutHeadline(input: ToolRecord, whatKeys: readonly string[], whoKeys: readonly string[]): Headline {
  const what = stringArgument(input, whatKeys);
  const who = stringArgument(input, whoKeys);
  if (what === undefined) return simpleHeadline(input, whoKeys);
  if (who === undefined) return { text: firstLine(what[1]), keys: [what[0]] };
  return { text: `${firstLine(what[1])} (${firstLine(who[1])})`, keys: [what[0], who[0]] };
}

type HeadlineOf = (input: ToolRecord) => Headline;

const first =
  (...keys: readonly string[]): HeadlineOf =>
  (input) =>
    simpleHeadline(input, keys);
const path =
  (...keys: readonly string[]): HeadlineOf =>
  (input) =>
    pathHeadline(input, keys);

/**
 * The headline of every kind of tool call the CLI's protocol has (its 69 kinds in 2026.10, by canonical tool name:
 * `shellToolCall` is `shell`, `getMcpToolsToolCall` is `getMcpTools`), and of the wrappers' names for the same tools.
 * Each says what a person looks for in that kind of call.
 */
const HEADLINES: Readonly<Record<string, HeadlineOf>> = {
  shell: first('command', 'cmd'),
  read: readHeadline,
  grep: (input) => searchHeadline(input, ['pattern', 'query', 'regex'], [...PATH_KEYS, 'glob']),
  glob: (input) =>
    searchHeadline(input, ['globPattern', 'pattern', 'glob_pattern'], ['targetDirectory', ...PATH_KEYS]),
  ls: path(...PATH_KEYS, 'directory'),
  edit: path(...PATH_KEYS),
  write: path(...PATH_KEYS),
  delete: path(...PATH_KEYS),
  'web-search': first('searchTerm', 'query'),
  'web-fetch': first('url'),
  mcp: first('name', 'toolName'),
  todo: (input) => countHeadline(input, 'todos', 'todo'),
  readTodos: (input) =>
    firstOf(
      () => listHeadline(input, ['idFilter']),
      () => countHeadline(input, 'statusFilter', 'status'),
    ),
  readLints: (input) => listHeadline(input, ['paths']),
  semSearch: (input) => {
    // A question in words, not a pattern: unquoted.
    const query = simpleHeadline(input, ['query']);
    const where = listArgument(input, ['targetDirectories']);
    if (query.text === '' || where === undefined) return query;
    return { text: `${query.text} in ${firstLine(where[1])}`, keys: ['query', 'targetDirectories'] };
  },
  createPlan: (input) =>
    firstOf(
      () => simpleHeadline(input, ['name', 'overview']),
      () => simpleHeadline(input, ['plan']),
    ),
  task: first('description', 'prompt'),
  listMcpResources: first('server'),
  readMcpResource: (input) => aboutHeadline(input, ['uri'], ['server']),
  applyAgentDiff: first('agentId'),
  askQuestion: (input) =>
    firstOf(
      () => simpleHeadline(input, ['title']),
      () => countHeadline(input, 'questions', 'question'),
    ),
  fetch: first('url'),
  switchMode: first('targetModeId'),
  generateImage: (input) =>
    firstOf(path('filePath').bind(null, input), first('description').bind(null, input)),
  recordScreen: (input) =>
    firstOf(
      () => pathHeadline(input, ['saveAsFilename']),
      () => innerCase(input, 'mode'),
    ),
  computerUse: (input) =>
    firstOf(
      () => simpleHeadline(input, ['description']),
      () => countHeadline(input, 'actions', 'action'),
    ),
  writeShellStdin: (input) => {
    const shell = numberArgument(input, 'shellId');
    const chars = simpleHeadline(input, ['chars']);
    if (shell === undefined) return chars;
    return {
      text: `shell ${shell}${chars.text === '' ? '' : `: ${chars.text}`}`,
      keys: ['shellId', 'chars'],
    };
  },
  reflect: first('nextSteps', 'criticalSynthesis', 'scenarioAnalysis', 'unexpectedActionOutcomes'),
  setupVmEnvironment: first('installCommand', 'startCommand'),
  // Not a tool: the CLI's stand-in for a call cut off on its way, with no arguments of its own.
  truncated: () => ({ text: 'a call cut off on its way', keys: [] }),
  startGrindExecution: first('explanation'),
  startGrindPlanning: first('explanation'),
  reportBugfixResults: (input) =>
    firstOf(
      () => simpleHeadline(input, ['summary']),
      () => countHeadline(input, 'results', 'result'),
    ),
  aiAttribution: (input) => listHeadline(input, ['filePaths', 'commitHashes']),
  prManagement: (input) =>
    presentCase(input, [
      'createPr',
      'updatePr',
      'postComment',
      'resolveComment',
      'getCiStatus',
      'setPrStatus',
    ]),
  mcpAuth: first('serverIdentifier'),
  await: first('taskId'),
  blameByFilePath: (input) => linesHeadline(input, ['filePath']),
  getMcpTools: (input) => {
    const server = stringArgument(input, ['server']);
    const tool = firstOf(
      () => simpleHeadline(input, ['toolName']),
      () => searchHeadline(input, ['pattern'], []),
    );
    if (server === undefined) return tool;
    if (tool.text === '') return { text: firstLine(server[1]), keys: ['server'] };
    const separator = tool.keys[0] === 'toolName' ? ': ' : ' in ';
    const text =
      separator === ': '
        ? `${firstLine(server[1])}: ${tool.text}`
        : `${tool.text} in ${firstLine(server[1])}`;
    return { text, keys: [...tool.keys, 'server'] };
  },
  reportBug: (input) => aboutHeadline(input, ['title', 'description'], ['file']),
  setActiveBranch: (input) => aboutHeadline(input, ['branchName'], ['path']),
  communicateUpdate: first('currentStep', 'finalSummary', 'completedSubtitle'),
  sendFinalSummary: first('finalSummary'),
  updatePrCodeTour: first('heading', 'feedback', 'explicitUserPrompt'),
  replaceEnv: (input) => innerCase(input, 'mode'),
  editPrLabels: first('prUrl'),
  recordCiInvestigationFindings: (input) => countHeadline(input, 'findings', 'finding'),
  sendMessage: (input) =>
    firstOf(
      () => simpleHeadline(input, ['text']),
      () => presentCase(input, ['text', 'attachment']),
    ),
  fetchCloudAgentData: (input) => listHeadline(input, ['bcIds', 'sources', 'statuses']),
  sendToUser: first('message'),
  piRead: readHeadline,
  piBash: first('command'),
  piEdit: path('path'),
  piWrite: path('path'),
  piGrep: (input) => searchHeadline(input, ['pattern'], ['path', 'glob']),
  piFind: (input) => searchHeadline(input, ['pattern'], ['path']),
  piLs: path('path'),
  connectScm: (input) => presentCase(input, ['github', 'gitlab', 'bitbucket']),
  searchConversations: first('query'),
  createGoal: first('objective'),
  updateGoal: (input) =>
    firstOf(
      () => simpleHeadline(input, ['status']),
      () => innerCase(input, 'status'),
    ),
  adopt: first('sourceAgentId'),
  getAgentStatus: (input) => listHeadline(input, ['agentIds']),
  sendToAgent: (input) => aboutHeadline(input, ['title', 'message'], ['agentId']),
  readAgentTranscript: first('agentId'),
  createAgent: first('name', 'prompt'),
  stopAgent: first('agentId'),
  getPrCodeTour: first('revisionId'),
  writeCanvas: first('title', 'canvasId'),
  readCanvas: first('canvasId', 'url'),
};

function headlineOf(toolName: string, input: unknown): Headline {
  const specific = ownEntry(HEADLINES, toolName);
  if (!isToolRecord(input))
    return toolName === 'truncated' && specific !== undefined ? specific({}) : NO_HEADLINE;
  const found = specific?.(input) ?? NO_HEADLINE;
  return found.text === '' ? simpleHeadline(input, GENERIC_HEADLINE_KEYS) : found;
}

/** A headline on one line, cut to `maxLength`: from the middle of its path when it has one, so the end is kept. */
function fitted(headline: Headline, prefix: string, maxLength: number): string {
  const whole = `${prefix}${escapeControls(headline.text)}`;
  if (codePointCount(whole) <= maxLength || headline.path === undefined) return truncate(whole, maxLength);
  const [start, end] = headline.path;
  const before = `${prefix}${escapeControls(headline.text.slice(0, start))}`;
  const pathText = escapeControls(headline.text.slice(start, end));
  const after = escapeControls(headline.text.slice(end));
  const room = maxLength - codePointCount(before) - codePointCount(after);
  // Too little room for a useful path: the path keeps its end, and the whole is cut as any text.
  const shortened = truncateMiddle(
    pathText,
    Math.max(room, Math.min(MIN_PATH_LENGTH, codePointCount(pathText))),
  );
  return truncate(`${before}${shortened}${after}`, maxLength);
}

/** The fewest characters of a path kept when a headline is cut: enough for a file name. */
const MIN_PATH_LENGTH = 24;

/**
 * What a call is about, e.g. the shell command, or the grep pattern and where; empty when no argument says so.
 * Control characters are escaped, so it is one line whatever the log holds. A path too long loses its middle, so
 * that the file name stays.
 *
 * @param toolName - The canonical tool name (`shell`, `read`, `grep`, ...), which picks the arguments shown.
 * @param input - The call's arguments.
 * @param maxLength - The longest headline, in characters; a longer one ends with `…` (or has it in its path).
 */
export function toolHeadline(toolName: string, input: unknown, maxLength = MAX_TOOL_TEXT_LENGTH): string {
  return fitted(headlineOf(toolName, input), '', maxLength);
}

/**
 * A tool call in one line: its name, then its {@link toolHeadline} when it has one (`read README.md lines 1-40`),
 * cut to `maxLength` characters as the headline is. The name is as given: a view escapes it as it escapes any text.
 */
export function toolLabel(toolName: string, input: unknown, maxLength: number): string {
  const headline = headlineOf(toolName, input);
  if (headline.text === '') return truncate(toolName, maxLength);
  return fitted(headline, `${toolName} `, maxLength);
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
