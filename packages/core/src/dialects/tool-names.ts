/**
 * Canonical tool names (see {@link KnownToolName}): the official CLI's kinds (`shellToolCall`), the Python
 * wrapper's names (`Shell`, `StrReplace`) and the payload envelope's kinds (`writeFileToolCall`) all map here.
 */

import { KNOWN_TOOL_NAMES, type ToolName } from '../events/index.ts';
import { ownEntry } from '../json-values.ts';

const TOOL_CALL_SUFFIX = 'ToolCall';

const KIND_NAMES: Readonly<Record<string, ToolName>> = {
  shellToolCall: 'shell',
  readToolCall: 'read',
  writeToolCall: 'write',
  // The payload envelope's name for the same tool.
  writeFileToolCall: 'write',
  editToolCall: 'edit',
  lsToolCall: 'ls',
  globToolCall: 'glob',
  grepToolCall: 'grep',
  deleteToolCall: 'delete',
  mcpToolCall: 'mcp',
  webSearchToolCall: 'web-search',
  webFetchToolCall: 'web-fetch',
  updateTodosToolCall: 'todo',
  todoToolCall: 'todo',
};

const WRAPPER_NAMES: Readonly<Record<string, ToolName>> = {
  Shell: 'shell',
  Read: 'read',
  Write: 'write',
  StrReplace: 'edit',
  Edit: 'edit',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'ls',
  Delete: 'delete',
  WebSearch: 'web-search',
  WebFetch: 'web-fetch',
  TodoWrite: 'todo',
  // `@cursor/sdk`'s name of the CLI's `updateTodosToolCall`.
  updateTodos: 'todo',
};

/** Canonical names as written in other case styles (`web_search`, `Web Search`), after lowercasing and hyphenating. */
const CANONICAL_SPELLINGS: Readonly<Record<string, ToolName>> = Object.fromEntries(
  KNOWN_TOOL_NAMES.filter((name) => name !== 'unknown').map((name) => [name, name]),
);

/** Whether `key` names a tool kind (`shellToolCall`, `semSearchToolCall`, ...). */
export function isToolKind(key: string): boolean {
  return key.length > TOOL_CALL_SUFFIX.length && key.endsWith(TOOL_CALL_SUFFIX);
}

/** The canonical name of a tool kind: a known name, else the kind without its `ToolCall` suffix. */
export function toolNameOfKind(kind: string): ToolName {
  const known = ownEntry(KIND_NAMES, kind);
  if (known !== undefined) return known;
  return isToolKind(kind) ? kind.slice(0, -TOOL_CALL_SUFFIX.length) : kind;
}

/**
 * The canonical name of a tool the Python wrapper (or an OpenAI-style `function`) names: a known name, a tool kind
 * (a wrapper passing the CLI's `shellToolCall` on), else the name with a lowercase first letter, like the kinds
 * (`SemanticSearch` → `semanticSearch`).
 */
export function toolNameOfLabel(label: string): ToolName {
  const known =
    ownEntry(WRAPPER_NAMES, label) ??
    ownEntry(CANONICAL_SPELLINGS, label.toLowerCase().replace(/[_\s]/g, '-'));
  if (known !== undefined) return known;
  if (isToolKind(label)) return toolNameOfKind(label);
  if (label.length === 0) return 'unknown';
  return label.charAt(0).toLowerCase() + label.slice(1);
}
