/**
 * Logs of other coding agents that look like cursor-agent's: Claude Code's `stream-json` shares the flag name and
 * much of the envelope (`system/init`, `assistant`, `user`, `result`), its session transcripts the `assistant` and
 * `user` records, and Qwen Code, Amp and others write the same records; Codex, Gemini CLI, GitHub Copilot CLI,
 * Factory's droid, Kimi CLI, Trae CLI, opencode, pi and Letta Code write JSON lines of their own, Grok CLI keeps its
 * chat history as OpenAI-style messages; other agents speak the Agent Client Protocol too. A log of theirs must be named as such, never passed as a valid Cursor log, so each is
 * recognised from records only it writes. A log none of whose records any dialect explains is no Cursor log either
 * (see {@link unknownFormatLog}).
 */

import type { JsonObject } from './dialect.ts';
import type { SourceLocation } from './events/index.ts';
import { isJsonObject } from './json-values.ts';

/**
 * An agent whose logs are recognised and refused: `acp-agent` is another agent's Agent Client Protocol traffic (the
 * message names it), `unknown` a log of JSON records no dialect explains, or the JSON-RPC of a protocol not ACP (the
 * message names its method).
 */
export type ForeignAgent =
  | 'claude-code'
  | 'qwen-code'
  | 'amp'
  | 'codex'
  | 'gemini-cli'
  | 'copilot-cli'
  | 'droid'
  | 'kimi-cli'
  | 'trae-cli'
  | 'letta-code'
  | 'grok'
  | 'opencode'
  | 'pi'
  | 'acp-agent'
  | 'unknown';

/** How each foreign agent's log format is called. */
export const FOREIGN_FORMAT_NAMES: Readonly<Record<ForeignAgent, string>> = {
  'claude-code': 'Claude Code stream-json',
  'qwen-code': 'Qwen Code stream-json',
  amp: 'Amp stream-json',
  codex: 'Codex exec --json',
  'gemini-cli': 'Gemini CLI stream-json',
  'copilot-cli': 'GitHub Copilot CLI JSON',
  droid: 'Factory droid exec',
  'kimi-cli': 'Kimi CLI wire',
  'trae-cli': 'Trae CLI stream-json',
  'letta-code': 'Letta Code stream-json',
  grok: 'Grok CLI chat history',
  opencode: 'opencode run --format json',
  pi: 'pi --mode json',
  'acp-agent': 'Agent Client Protocol',
  unknown: 'JSON',
};

/** Formats of an agent besides the one {@link FOREIGN_FORMAT_NAMES} names. */
const CLAUDE_CODE_TRANSCRIPT = 'Claude Code session';
const CODEX_ROLLOUT = 'Codex session';
const KIMI_PRINT = 'Kimi CLI stream-json';

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
      return (
        'parent_tool_use_id' in record ||
        (!isSdkMessage(record) && (hasBlock(record, 'tool_use', 'id') || isAnthropicMessage(record.message)))
      );
    case 'user':
      return (
        'parent_tool_use_id' in record ||
        (!isSdkMessage(record) && hasBlock(record, 'tool_result', 'tool_use_id'))
      );
    case 'result':
      // `total_cost_usd` now, `cost_usd` in its first stream-json. Not `num_turns`: a field cursor-agent, whose
      // records follow Claude Code's, may well take up.
      return (
        typeof record.total_cost_usd === 'number' ||
        typeof record.cost_usd === 'number' ||
        isJsonObject(record.modelUsage)
      );
    case 'stream_event':
      return isJsonObject(record.event);
    default:
      return false;
  }
}

/**
 * A message as Anthropic's API gives it, which Claude Code passes on whole: an id of its own (`msg_…`) and the reason
 * it stopped. cursor-agent writes a role and content only.
 */
function isAnthropicMessage(message: unknown): boolean {
  return (
    isJsonObject(message) &&
    message.type === 'message' &&
    typeof message.id === 'string' &&
    'stop_reason' in message
  );
}

/** An SDK message of `@cursor/sdk`, which has `tool_use` blocks too, beside the ids of its agent and run. */
function isSdkMessage(record: JsonObject): boolean {
  return record.agent_id !== undefined || record.run_id !== undefined;
}

/**
 * Whether the record's message holds a content block of `type` with a string `field`: Claude's tool use and its
 * result, where cursor-agent writes its tool calls as records of their own.
 */
function hasBlock(record: JsonObject, type: string, field: string): boolean {
  const content = isJsonObject(record.message) ? record.message.content : undefined;
  return (
    Array.isArray(content) &&
    content.some((block) => isJsonObject(block) && block.type === type && typeof block[field] === 'string')
  );
}

/**
 * Claude Code's session transcripts (`~/.claude/projects/…/*.jsonl`): every message linked to its parent by uuid, in
 * or out of a side chain, and the file-history snapshots between them.
 */
function isClaudeCodeTranscriptRecord(record: JsonObject): boolean {
  if ('parentUuid' in record && typeof record.isSidechain === 'boolean') return true;
  // A resumed session's transcript opens with the summaries of the conversations it continues.
  if (record.type === 'summary') return typeof record.leafUuid === 'string';
  return record.type === 'file-history-snapshot' && isJsonObject(record.snapshot);
}

/** Codex `exec --json`: `thread.started`, `turn.started` / `turn.completed` / `turn.failed`, `item.*`. */
const CODEX_TYPE = /^(?:thread|turn|item)\.[a-z_]+$/;

/** Codex's session rollouts (`~/.codex/sessions/…/rollout-*.jsonl`): a timestamp, a type and its `payload`. */
const CODEX_ROLLOUT_TYPES = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
]);

function isCodexRolloutRecord(record: JsonObject): boolean {
  return (
    CODEX_ROLLOUT_TYPES.has(record.type as string) &&
    typeof record.timestamp === 'string' &&
    isJsonObject(record.payload)
  );
}

/**
 * The namespaces of GitHub Copilot CLI's session events (`session.start`, `assistant.message_delta`,
 * `tool.execution_complete`, ...), which `copilot -p --output-format json` prints and its session journal
 * (`~/.copilot/session-state/<id>/events.jsonl`) keeps: none of Cursor's formats names a type with a dot.
 */
const COPILOT_TYPE =
  /^(?:session|user|assistant|tool|model|subagent|hook|skill|system|permission|user_input|elicitation|sampling|mcp|external_tool|command|exit_plan_mode|pending_messages|capabilities)\.[a-z_.]+$/;

/**
 * GitHub Copilot CLI: a session event (a dotted type with its `data`), or the run's closing `result` counting the
 * premium requests it billed.
 */
function isCopilotRecord(record: JsonObject, type: string): boolean {
  if (type === 'result')
    return isJsonObject(record.usage) && typeof record.usage.premiumRequests === 'number';
  return COPILOT_TYPE.test(type) && isJsonObject(record.data);
}

/**
 * Qwen Code (`qwen -p --output-format stream-json`), a fork of Gemini CLI that writes Claude Code's records: its
 * `system/init` names its version, and so may any record.
 */
function isQwenCodeRecord(record: JsonObject): boolean {
  return typeof record.qwen_code_version === 'string';
}

/** An Amp thread id (`T-` and a UUID), which names the session of every record `amp --execute --stream-json` writes. */
const AMP_THREAD_ID = /^T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Amp (`amp --execute --stream-json`): Claude Code's records, in a session named by an Amp thread id. */
function isAmpRecord(record: JsonObject): boolean {
  const id = record.session_id;
  // Every record of a Cursor log names its session too: a look at two characters keeps the pattern off its ids.
  return typeof id === 'string' && id.startsWith('T-') && AMP_THREAD_ID.test(id);
}

/**
 * Factory's droid (`droid exec --output-format stream-json`, `debug` or `stream-jsonrpc`): messages with their `text`,
 * tool calls named by `toolId` with their `parameters`, a `completion` with its `finalText`, and JSON-RPC stamped
 * with `factoryApiVersion`.
 */
function isDroidRecord(record: JsonObject, type: string): boolean {
  if (typeof record.factoryApiVersion === 'string') return true;
  switch (type) {
    case 'message':
      return typeof record.role === 'string' && typeof record.text === 'string' && !('content' in record);
    case 'tool_call':
      return isDroidToolCall(record);
    case 'tool_result':
      return typeof record.toolId === 'string' && 'value' in record;
    case 'completion':
      return typeof record.finalText === 'string';
    default:
      return false;
  }
}

/** A droid tool call: cursor-agent's holds its call in `tool_call`, droid's names the tool's id and parameters. */
function isDroidToolCall(record: JsonObject): boolean {
  return typeof record.toolId === 'string' && 'parameters' in record && record.tool_call === undefined;
}

/** Trae CLI's stream-json: a `stream_event` that holds its `delta` itself, where Claude Code's holds an `event`. */
function isTraeRecord(record: JsonObject): boolean {
  return record.type === 'stream_event' && isJsonObject(record.delta) && record.event === undefined;
}

/**
 * Letta Code (`letta -p --output-format stream-json`): its messages are `message` records told apart by
 * `message_type` (`messageType` in its versions before 2026), and its `system/init` names the Letta agent and
 * conversation the run belongs to; the versions before opened with an `init` naming the agent.
 */
function isLettaRecord(record: JsonObject, type: string): boolean {
  switch (type) {
    case 'message':
      return typeof record.message_type === 'string' || typeof record.messageType === 'string';
    case 'system':
      return (
        record.subtype === 'init' &&
        typeof record.agent_id === 'string' &&
        typeof record.conversation_id === 'string'
      );
    case 'init':
      return typeof record.agent_id === 'string';
    default:
      return false;
  }
}

/**
 * A Grok CLI chat history (`chat_history.jsonl`): OpenAI-style messages under a `type`, their `content` at the top and
 * an assistant's `tool_calls` beside it, and `tool_result`s naming their `tool_call_id`. cursor-agent's `user`,
 * `assistant` and `system` records hold a `message` or a `subtype` instead; its wrappers' a `text`, `data` or `payload`.
 */
function isGrokChatRecord(record: JsonObject, type: string): boolean {
  switch (type) {
    case 'user':
    case 'assistant':
    case 'system':
      return (
        'content' in record &&
        record.message === undefined &&
        record.subtype === undefined &&
        record.text === undefined &&
        record.data === undefined &&
        record.payload === undefined &&
        (type !== 'assistant' || record.tool_calls === undefined || Array.isArray(record.tool_calls))
      );
    case 'tool_result':
      return typeof record.tool_call_id === 'string' && 'content' in record;
    default:
      return false;
  }
}

/** Kimi CLI's `--print --output-format stream-json` ends with a hint on how to resume its session. */
function isKimiPrintRecord(record: JsonObject, type: string): boolean {
  return type === 'session.resume_hint' && record.role === 'meta';
}

/** Kimi CLI's wire mode: a `prompt` with its `user_input`, or an `event` or `request` typed in `params.type`. */
function isKimiWireMessage(method: string, params: unknown): boolean {
  if (!isJsonObject(params)) return false;
  if (method === 'prompt') return 'user_input' in params;
  return (method === 'event' || method === 'request') && typeof params.type === 'string';
}

/**
 * A JSON-RPC message of another agent's protocol: Kimi CLI's wire mode (`kimi --wire`: a `prompt` with its
 * `user_input`, its `event`s and `request`s typed in `params.type`), or any method the Agent Client Protocol does not
 * have. ACP's methods are `initialize`, `authenticate`, and names under a namespace (`session/prompt`,
 * `fs/read_text_file`, `cursor/…`), with `_` and `$/` for extensions.
 */
function otherJsonRpcFormat(message: JsonObject): { agent: ForeignAgent; format: string } | undefined {
  if (message.jsonrpc !== '2.0') return undefined;
  const method = message.method;
  if (typeof method !== 'string') return undefined;
  if (isKimiWireMessage(method, message.params))
    return { agent: 'kimi-cli', format: FOREIGN_FORMAT_NAMES['kimi-cli'] };
  if (method.includes('/') || method === 'initialize' || method === 'authenticate' || method.startsWith('_'))
    return undefined;
  return { agent: 'unknown', format: `JSON-RPC (method ${JSON.stringify(method.slice(0, 60))})` };
}

/** opencode `run --format json`: each event names its session as `sessionID` and carries the message `part`. */
function isOpencodeRecord(record: JsonObject): boolean {
  return typeof record.sessionID === 'string' && isJsonObject(record.part);
}

/** pi's JSON mode: a `session` header with its format version, then agent, turn, message and tool events. */
const PI_TYPES = new Set([
  'agent_start',
  'agent_end',
  'turn_start',
  'turn_end',
  'message_start',
  'message_update',
  'message_end',
  'tool_execution_start',
  'tool_execution_update',
  'tool_execution_end',
]);

function isPiRecord(record: JsonObject): boolean {
  if (record.type === 'session') return typeof record.version === 'number' && typeof record.cwd === 'string';
  // Anthropic's API streams a `message_start` too, holding its message whole: no agent's log, and not pi's.
  return PI_TYPES.has(record.type as string) && !isAnthropicMessage(record.message);
}

/**
 * The name another agent gives itself in its answer to ACP's `initialize` (as sent, or in a client's `{dir, msg}`
 * log): cursor-agent names none, so any name but Cursor's is another agent's.
 */
function acpAgentName(record: JsonObject): string | undefined {
  const message = isJsonObject(record.msg) ? record.msg : record;
  if (hasOpencodeSessionId(message)) return 'opencode';
  if (message.jsonrpc !== '2.0') return undefined;
  if (hasClaudeMeta(message)) return 'Claude Code';
  if (!isJsonObject(message.result)) return undefined;
  const info = message.result.agentInfo;
  const name = isJsonObject(info) ? info.name : undefined;
  if (typeof name === 'string') return /cursor/i.test(name) ? undefined : name;
  if (hasGeminiAuthMethod(message.result.authMethods)) return 'Gemini CLI';
  return hasQwenAuthMethod(message.result.authMethods) ? 'Qwen Code' : undefined;
}

/**
 * An opencode session id (`ses_`, 12 hex digits of its time, 14 base-62 characters), where `opencode acp` names its
 * session: a message's parameters or result, or a bare update or answer as a client logs them. Cursor's sessions are
 * UUIDs, so the id names the agent where no `initialize` answer is in the log.
 */
const OPENCODE_SESSION_ID = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;

function hasOpencodeSessionId(message: JsonObject): boolean {
  const params = isJsonObject(message.params) ? message.params : undefined;
  const result = isJsonObject(message.result) ? message.result : undefined;
  return [message.sessionId, params?.sessionId, result?.sessionId].some(
    (id) => typeof id === 'string' && id.startsWith('ses_') && OPENCODE_SESSION_ID.test(id),
  );
}

/**
 * Claude Code's ACP adapter marks its messages' `_meta` with keys of its own (`_claude/model`, `_claude/origin`,
 * `claudeCode`), in a notification's update or parameters, or in a result.
 */
function hasClaudeMeta(message: JsonObject): boolean {
  const params = isJsonObject(message.params) ? message.params : undefined;
  const update = params !== undefined && isJsonObject(params.update) ? params.update : undefined;
  const result = isJsonObject(message.result) ? message.result : undefined;
  return [update?._meta, params?._meta, result?._meta].some(
    (meta) =>
      isJsonObject(meta) &&
      Object.keys(meta).some((key) => key.startsWith('_claude/') || key === 'claudeCode'),
  );
}

/** The sign-in a Qwen Code agent offers in its answer to `initialize`: a terminal command with `--auth-type`. */
function hasQwenAuthMethod(methods: unknown): boolean {
  return (
    Array.isArray(methods) &&
    methods.some((method) => {
      if (!isJsonObject(method)) return false;
      if (method.id === 'qwen-oauth') return true;
      const meta = method._meta;
      const args = isJsonObject(meta) ? meta.args : undefined;
      return (
        Array.isArray(args) && args.some((arg) => typeof arg === 'string' && arg.startsWith('--auth-type='))
      );
    })
  );
}

/** The ways Gemini CLI offers to sign in (its `AuthType`s), which it lists in its answer to `initialize`. */
const GEMINI_AUTH_METHODS = new Set(['oauth-personal', 'gemini-api-key', 'vertex-ai', 'cloud-shell']);

/** Whether an `initialize` answer offers Gemini CLI's ways to sign in: its older versions send no `agentInfo`. */
function hasGeminiAuthMethod(methods: unknown): boolean {
  return (
    Array.isArray(methods) &&
    methods.some((method) => isJsonObject(method) && GEMINI_AUTH_METHODS.has(method.id as string))
  );
}

/** Gemini CLI: `init`, `message` with a `role`, `tool_use` / `tool_result` with a `tool_id`, a `result` with `stats`. */
function isGeminiRecord(record: JsonObject): boolean {
  switch (record.type) {
    case 'init':
      return typeof record.session_id === 'string' || typeof record.model === 'string';
    case 'message':
      return typeof record.role === 'string' && 'content' in record;
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
  return foreignFormatOf(record)?.agent;
}

/**
 * Types only Cursor's formats write, most of a log's records: no other agent's record is of one, so the tests below
 * are not run on them.
 */
const CURSOR_ONLY_TYPES = new Set(['thinking', 'tool_call', 'connection', 'retry', 'interaction_query']);

/** The agent that alone writes `record` and the name of its format. */
function foreignFormatOf(record: JsonObject): { agent: ForeignAgent; format: string } | undefined {
  const type = record.type;
  if (CURSOR_ONLY_TYPES.has(type as string)) {
    // droid writes a `tool_call` too, of its own shape.
    return type === 'tool_call' && isDroidToolCall(record)
      ? { agent: 'droid', format: FOREIGN_FORMAT_NAMES.droid }
      : undefined;
  }
  if (typeof type !== 'string') {
    const name = acpAgentName(record);
    if (name === undefined) return otherJsonRpcFormat(isJsonObject(record.msg) ? record.msg : record);
    return {
      agent: 'acp-agent',
      format: `${FOREIGN_FORMAT_NAMES['acp-agent']} (agent ${JSON.stringify(name.slice(0, 60))})`,
    };
  }
  const known = (agent: ForeignAgent, format = FOREIGN_FORMAT_NAMES[agent]) => ({ agent, format });
  // Agents that write Claude Code's records, named by what only they add, before Claude Code itself.
  if (isQwenCodeRecord(record)) return known('qwen-code');
  if (isAmpRecord(record)) return known('amp');
  if (isDroidRecord(record, type)) return known('droid');
  if (isTraeRecord(record)) return known('trae-cli');
  if (isClaudeCodeRecord(record)) return known('claude-code');
  if (isClaudeCodeTranscriptRecord(record)) return known('claude-code', CLAUDE_CODE_TRANSCRIPT);
  if (CODEX_TYPE.test(type)) return known('codex');
  if (isCodexRolloutRecord(record)) return known('codex', CODEX_ROLLOUT);
  // Letta's first versions opened with an `init`, as Gemini CLI does: told apart by the Letta agent it names.
  if (isLettaRecord(record, type)) return known('letta-code');
  if (isGeminiRecord(record)) return known('gemini-cli');
  if (isCopilotRecord(record, type)) return known('copilot-cli');
  if (isOpencodeRecord(record)) return known('opencode');
  if (isPiRecord(record)) return known('pi');
  if (isGrokChatRecord(record, type)) return known('grok');
  if (isKimiPrintRecord(record, type)) return known('kimi-cli', KIMI_PRINT);
  return undefined;
}

/** The {@link ForeignLog} of a log whose `record` at `loc` only another agent writes; `undefined` for any other. */
export function foreignLogOf(record: JsonObject, loc: SourceLocation): ForeignLog | undefined {
  const found = foreignFormatOf(record);
  return found === undefined ? undefined : foreignLogAs(found.agent, found.format, loc);
}

/** The {@link ForeignLog} of a log whose record at `loc` only `agent` writes. */
export function foreignLog(agent: ForeignAgent, loc: SourceLocation): ForeignLog {
  return foreignLogAs(agent, FOREIGN_FORMAT_NAMES[agent], loc);
}

function foreignLogAs(agent: ForeignAgent, format: string, loc: SourceLocation): ForeignLog {
  const article = /^[aeiou]/i.test(format) ? 'an' : 'a';
  return { agent, message: `this looks like ${article} ${format} log, not cursor-agent`, loc };
}

/**
 * Whether `record` is a line of a Cursor agent transcript (`~/.cursor/projects/<slug>/agent-transcripts/*.jsonl`, which
 * the IDE and the CLI keep): a message as `{role, message}` with no `type`, or the `turn_ended` mark closing a turn.
 * The conversation as Cursor keeps it, not a run's stream: no ids, no times, no tool results, no usage.
 */
function isCursorTranscriptRecord(record: JsonObject): boolean {
  if (record.type === 'turn_ended') return typeof record.status === 'string';
  return (
    record.type === undefined &&
    (record.role === 'user' || record.role === 'assistant') &&
    isJsonObject(record.message) &&
    'content' in record.message
  );
}

/**
 * The {@link ForeignLog} of a log that ended with no record any dialect explains, named at its first such `record`:
 * whatever wrote it, it was not cursor-agent's stream or a wrapper's. Cursor's own agent transcript is named as such.
 */
export function unknownFormatLog(record: JsonObject, loc: SourceLocation): ForeignLog {
  if (isCursorTranscriptRecord(record))
    return {
      agent: 'unknown',
      message:
        "this looks like a Cursor agent transcript (agent-transcripts/*.jsonl: the conversation Cursor keeps, without a run's events), not a stream cursor-stream reads",
      loc,
    };
  const type = typeof record.type === 'string' ? record.type : undefined;
  const first =
    type === undefined
      ? 'its first record has no `type`'
      : `its first record is of type ${JSON.stringify(type.slice(0, 60))}`;
  return {
    agent: 'unknown',
    message: `no record of this log is one cursor-agent or its wrappers write (${first}): not a Cursor log`,
    loc,
  };
}
