/**
 * Logs of other coding agents that look like cursor-agent's: Claude Code's `stream-json` shares the flag name and
 * much of the envelope (`system/init`, `assistant`, `user`, `result`), and Codex and Gemini CLI write JSON lines of
 * their own. A log of theirs must be named as such, never passed as a valid Cursor log, so each is recognised from
 * records only it writes.
 */

import type { JsonObject } from './dialect.ts';
import type { SourceLocation } from './events/index.ts';
import { isJsonObject } from './json-values.ts';

/** An agent whose logs are recognised and refused. */
export type ForeignAgent = 'claude-code' | 'codex' | 'gemini-cli';

/** How each foreign agent's log format is called. */
export const FOREIGN_FORMAT_NAMES: Readonly<Record<ForeignAgent, string>> = {
  'claude-code': 'Claude Code stream-json',
  codex: 'Codex exec --json',
  'gemini-cli': 'Gemini CLI stream-json',
};

/** A log found to be another agent's, where the first record only that agent writes stands. */
export interface ForeignLog {
  agent: ForeignAgent;
  /** One sentence for a person, e.g. "this looks like a Claude Code stream-json log, not cursor-agent". */
  message: string;
  loc: SourceLocation;
}

/**
 * Claude Code: an init naming its version, slash commands or output style, messages that say which tool use they
 * belong to (`parent_tool_use_id`), a result with its cost, or a partial-message event. An init listing `tools` or a
 * result counting `num_turns` is not enough: cursor-agent's documentation announces those too.
 */
function isClaudeCodeRecord(record: JsonObject): boolean {
  switch (record.type) {
    case 'system':
      return (
        record.subtype === 'init' &&
        (typeof record.claude_code_version === 'string' ||
          Array.isArray(record.slash_commands) ||
          typeof record.output_style === 'string')
      );
    case 'assistant':
    case 'user':
      return 'parent_tool_use_id' in record;
    case 'result':
      return typeof record.total_cost_usd === 'number';
    case 'stream_event':
      return isJsonObject(record.event);
    default:
      return false;
  }
}

/** Codex `exec --json`: `thread.started`, `turn.started` / `turn.completed` / `turn.failed`, `item.*`. */
const CODEX_TYPE = /^(?:thread|turn|item)\.[a-z_]+$/;

/** Gemini CLI: `init`, `message` with a `role`, `tool_use` / `tool_result` with a `tool_id`, a `result` with `stats`. */
function isGeminiRecord(record: JsonObject): boolean {
  switch (record.type) {
    case 'init':
      return typeof record.session_id === 'string' || typeof record.model === 'string';
    case 'message':
      return typeof record.role === 'string';
    case 'tool_use':
    case 'tool_result':
      return typeof record.tool_id === 'string';
    case 'result':
      return isJsonObject(record.stats) && record.subtype === undefined;
    default:
      return false;
  }
}

/** The agent that alone writes `record`, or `undefined` for a record cursor-agent (or any agent) may write. */
export function foreignAgentOf(record: JsonObject): ForeignAgent | undefined {
  const type = record.type;
  if (typeof type !== 'string') return undefined;
  if (isClaudeCodeRecord(record)) return 'claude-code';
  if (CODEX_TYPE.test(type)) return 'codex';
  if (isGeminiRecord(record)) return 'gemini-cli';
  return undefined;
}

/** The {@link ForeignLog} of a log whose record at `loc` only `agent` writes. */
export function foreignLog(agent: ForeignAgent, loc: SourceLocation): ForeignLog {
  return { agent, message: `this looks like a ${FOREIGN_FORMAT_NAMES[agent]} log, not cursor-agent`, loc };
}
