/**
 * Cursor's own tools as `HarnessV1` builtin tools, as data: the key a `tool-call` part names (`bash`, `read`, ...),
 * the kind the CLI names it by in stream-json (`shellToolCall`, `readToolCall`, ...), what it does and the arguments
 * the CLI has been seen to send. Keys follow the AI SDK's Cursor adapter where it has one. `commonName` is set only
 * where Cursor's arguments are a superset of the common tool's (`bash` takes `command`, `grep` takes `pattern`);
 * `read`, `edit`, `write` and `glob` take `path`/`globPattern`, not the common `file_path`/`pattern`, so they claim
 * no common name. MCP tools are not builtins: each call names its server's tool, as a dynamic tool.
 */

import type {
  HarnessV1BuiltinTool,
  HarnessV1BuiltinToolName,
  HarnessV1BuiltinToolUseKind,
} from '@ai-sdk/harness';
import { describedObject, type JsonSchemaField } from './described-object.ts';

const text = (description: string): JsonSchemaField => ({ type: 'string', description });
const count = (description: string): JsonSchemaField => ({ type: 'number', description });
const flag = (description: string): JsonSchemaField => ({ type: 'boolean', description });

interface ToolSpec {
  nativeName: string;
  description: string;
  properties: Record<string, JsonSchemaField>;
  toolUseKind?: HarnessV1BuiltinToolUseKind;
  commonName?: HarnessV1BuiltinToolName;
}

/** A builtin tool of Cursor's: always named by its stream-json kind. */
export type CursorBuiltinTool<Input = Record<string, unknown>> = HarnessV1BuiltinTool<Input> & {
  readonly nativeName: string;
};

function cursorTool<Input = Record<string, unknown>>(spec: ToolSpec): CursorBuiltinTool<Input> {
  return {
    description: spec.description,
    inputSchema: describedObject<Input>(spec.properties),
    nativeName: spec.nativeName,
    ...(spec.commonName === undefined ? {} : { commonName: spec.commonName }),
    ...(spec.toolUseKind === undefined ? {} : { toolUseKind: spec.toolUseKind }),
  } as CursorBuiltinTool<Input>;
}

/**
 * Cursor's builtin tools, keyed as `tool-call` parts name them. A call of a kind not listed here (Cursor adds kinds
 * between releases) or of an MCP tool goes out as a dynamic tool named by its kind (`createPlan`) or its MCP name.
 */
export const cursorBuiltinTools = {
  bash: cursorTool<{ command: string; [field: string]: unknown }>({
    nativeName: 'shellToolCall',
    commonName: 'bash',
    toolUseKind: 'bash',
    description: 'Runs a shell command in the workspace.',
    properties: {
      command: text('The command line.'),
      workingDirectory: text('Where it runs; empty for the workspace.'),
      timeout: count('Milliseconds before it is stopped or moved to the background.'),
      isBackground: flag('Whether it runs in the background.'),
    },
  }),
  read: cursorTool({
    nativeName: 'readToolCall',
    toolUseKind: 'readonly',
    description: 'Reads a file.',
    properties: {
      path: text('The file.'),
      offset: count('The first line to read.'),
      limit: count('How many lines to read.'),
    },
  }),
  edit: cursorTool({
    nativeName: 'editToolCall',
    toolUseKind: 'edit',
    description: 'Edits a file.',
    properties: { path: text('The file.'), streamContent: text('The new content, as the model wrote it.') },
  }),
  write: cursorTool({
    nativeName: 'writeToolCall',
    toolUseKind: 'edit',
    description: 'Writes a whole file.',
    properties: { path: text('The file.'), fileText: text('Its content.') },
  }),
  grep: cursorTool<{ pattern: string; [field: string]: unknown }>({
    nativeName: 'grepToolCall',
    commonName: 'grep',
    toolUseKind: 'readonly',
    description: 'Searches file contents with a regular expression (ripgrep).',
    properties: {
      pattern: text('The regular expression.'),
      path: text('Where to search.'),
      outputMode: text('`content`, `files_with_matches` or `count`.'),
      caseInsensitive: flag('Ignore case.'),
      multiline: flag('Let the pattern span lines.'),
    },
  }),
  glob: cursorTool({
    nativeName: 'globToolCall',
    toolUseKind: 'readonly',
    description: 'Finds files by a glob pattern.',
    properties: { globPattern: text('The pattern.'), targetDirectory: text('Where to look.') },
  }),
  ls: cursorTool({
    nativeName: 'lsToolCall',
    toolUseKind: 'readonly',
    description: 'Lists a directory.',
    properties: {
      path: text('The directory.'),
      ignore: { type: 'array', items: { type: 'string' }, description: 'Glob patterns to leave out.' },
    },
  }),
  delete: cursorTool({
    nativeName: 'deleteToolCall',
    toolUseKind: 'edit',
    description: 'Deletes a file.',
    properties: { path: text('The file.') },
  }),
  webSearch: cursorTool({
    nativeName: 'webSearchToolCall',
    toolUseKind: 'readonly',
    description: 'Searches the web.',
    properties: { searchTerm: text('The query.') },
  }),
  webFetch: cursorTool({
    nativeName: 'webFetchToolCall',
    toolUseKind: 'readonly',
    description: 'Fetches a web page as markdown.',
    properties: { url: text('The page.') },
  }),
  semanticSearch: cursorTool({
    nativeName: 'semSearchToolCall',
    toolUseKind: 'readonly',
    description: 'Searches the codebase by meaning.',
    properties: { query: text('What to look for.') },
  }),
  readLints: cursorTool({
    nativeName: 'readLintsToolCall',
    toolUseKind: 'readonly',
    description: "Reads the linter's diagnostics.",
    properties: { paths: { type: 'array', items: { type: 'string' }, description: 'The files.' } },
  }),
  updateTodos: cursorTool({
    nativeName: 'updateTodosToolCall',
    description: "Updates the agent's to-do list.",
    properties: {
      todos: { type: 'array', description: 'Items: `id`, `content`, `status` (`TODO_STATUS_PENDING`, ...).' },
      merge: flag('Merge into the list rather than replace it.'),
    },
  }),
  readTodos: cursorTool({
    nativeName: 'readTodosToolCall',
    toolUseKind: 'readonly',
    description: "Reads the agent's to-do list.",
    properties: {},
  }),
  task: cursorTool({
    nativeName: 'taskToolCall',
    description: 'Runs a subagent on a task.',
    properties: {
      prompt: text("The subagent's prompt."),
      description: text('A short description.'),
      subagentType: text('Which subagent.'),
    },
  }),
  listMcpResources: cursorTool({
    nativeName: 'listMcpResourcesToolCall',
    toolUseKind: 'readonly',
    description: "Lists an MCP server's resources.",
    properties: { server: text('The server.') },
  }),
  readMcpResource: cursorTool({
    nativeName: 'readMcpResourceToolCall',
    toolUseKind: 'readonly',
    description: 'Reads an MCP resource.',
    properties: { server: text('The server.'), uri: text('The resource.') },
  }),
} as const;

/** The keys of {@link cursorBuiltinTools}. */
export type CursorBuiltinToolName = keyof typeof cursorBuiltinTools;

/** Each builtin's key by the kind stream-json names it by. */
const KEY_BY_KIND: ReadonlyMap<string, CursorBuiltinToolName> = new Map(
  Object.entries(cursorBuiltinTools).map(([key, tool]) => [tool.nativeName, key as CursorBuiltinToolName]),
);

/** The builtin a tool kind (`shellToolCall`) is, or `undefined` for a kind that is not one. */
export function builtinToolOfKind(kind: string): CursorBuiltinToolName | undefined {
  return KEY_BY_KIND.get(kind);
}
