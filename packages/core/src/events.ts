/**
 * The canonical event union: one typed stream for every dialect of cursor-agent output. This is the public contract;
 * names are fixed. Discriminant `type` in kebab-case, fields in camelCase.
 */

/** Where the record that produced an event starts in the input. */
export interface SourceLocation {
  /** 1-based physical line. */
  line: number;
  /** Byte offset. */
  offset: number;
}

/** Fields every canonical event may carry. */
export interface CanonicalEventBase {
  /** Where the event's record starts in the input; absent on synthesized events that no record produced. */
  loc?: SourceLocation;
  /** The agent session the event belongs to, when the source names one. */
  sessionId?: string;
}

/** A session begins (`system/init`). */
export interface StreamStartEvent extends CanonicalEventBase {
  type: 'stream-start';
  /** Model display name, e.g. `"Auto"` or `"Claude 4 Sonnet"`. */
  model?: string;
  /** Working directory of the agent. */
  cwd?: string;
  /** Where the API key came from: `env`, `flag` or `login`. */
  apiKeySource?: string;
  /** Permission mode, e.g. `default`. */
  permissionMode?: string;
  /** Request id, when the init event carries one. */
  requestId?: string;
}

/** The user's prompt, as the agent echoes it. */
export interface UserMessageEvent extends CanonicalEventBase {
  type: 'user-message';
  text: string;
}

/** A piece of the model's reasoning. */
export interface ReasoningDeltaEvent extends CanonicalEventBase {
  type: 'reasoning-delta';
  text: string;
}

/** The end of a reasoning phase. */
export interface ReasoningEndEvent extends CanonicalEventBase {
  type: 'reasoning-end';
}

/**
 * A piece of assistant text. Concatenating every `text-delta` of a session gives the assistant text exactly once:
 * the duplicate forms of `--stream-partial-output` are removed.
 */
export interface TextDeltaEvent extends CanonicalEventBase {
  type: 'text-delta';
  text: string;
  /** The model call that produced the text, when the source names it. */
  modelCallId?: string;
}

/**
 * Canonical lowercase tool names. Any other tool is named by its kind without the `ToolCall` suffix
 * (`semSearchToolCall` → `semSearch`), and a completion that names no tool is `unknown`.
 */
export type KnownToolName =
  | 'shell'
  | 'read'
  | 'write'
  | 'edit'
  | 'ls'
  | 'glob'
  | 'grep'
  | 'delete'
  | 'mcp'
  | 'web-search'
  | 'web-fetch'
  | 'todo'
  | 'unknown';

/** Every {@link KnownToolName}. */
export const KNOWN_TOOL_NAMES = [
  'shell',
  'read',
  'write',
  'edit',
  'ls',
  'glob',
  'grep',
  'delete',
  'mcp',
  'web-search',
  'web-fetch',
  'todo',
  'unknown',
] as const satisfies readonly KnownToolName[];

/** A tool name: one of {@link KnownToolName}, or another tool's kind without its `ToolCall` suffix. */
export type ToolName = KnownToolName | (string & {});

/** The agent invokes a tool. */
export interface ToolCallEvent extends CanonicalEventBase {
  type: 'tool-call';
  /** The call id exactly as sent: never trimmed or split (real ids hold a newline). */
  toolCallId: string;
  toolName: ToolName;
  /** The tool's name as the source sent it (`shellToolCall`, `Shell`, ...). */
  providerToolName: string;
  /** The tool's arguments. */
  input: unknown;
  modelCallId?: string;
}

/**
 * How a tool call ended: the source's result arm (`success`, `failure`, `error`, `rejected`, `timeout`, ...), or
 * `success`/`failure` where the source has no arms.
 */
export type ToolResultStatus = 'success' | 'failure' | 'error' | 'rejected' | 'timeout' | (string & {});

/** A tool call completes. */
export interface ToolResultEvent extends CanonicalEventBase {
  type: 'tool-result';
  toolCallId: string;
  toolName: ToolName;
  providerToolName: string;
  status: ToolResultStatus;
  /** False only when `status` is `success`. */
  isError: boolean;
  /** The result arm's payload. */
  output: unknown;
  durationMs?: number;
}

/** Token counts, when the source reports them. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** Why a session ended: a `result` event (`stop` or `error`), or input that ended without one (`incomplete`). */
export type FinishReason = 'stop' | 'error' | 'incomplete';

/** The end of a session: exactly one per session, synthesized with `incomplete` when the input has no result. */
export interface FinishEvent extends CanonicalEventBase {
  type: 'finish';
  finishReason: FinishReason;
  isError: boolean;
  /** The final text the source reports (`result.result`). */
  text?: string;
  durationMs?: number;
  durationApiMs?: number;
  usage?: Usage;
  requestId?: string;
  /** Tool calls started but not completed when the session ended. */
  pendingToolCallIds: string[];
}

/** An error the source reports (a wrapper's `error` event, the error text of a failed result). */
export interface AgentErrorEvent extends CanonicalEventBase {
  type: 'error';
  message: string;
  /**
   * Why, for a program, when whoever raised the error knows (e.g. `timeout`, `exit-nonzero` or `cancelled` from
   * `runAgent`); absent on errors a log reports in words only.
   */
  code?: string;
}

/**
 * A well-formed event of a type not modelled here (`interaction_query`, `connection`, `retry`,
 * `system/compact_boundary`, future ones). Never an error by default.
 */
export interface UnknownEvent extends CanonicalEventBase {
  type: 'unknown';
  rawType: string;
  rawSubtype?: string;
  /** The record as it was. */
  raw: unknown;
}

/** Why a line became an `invalid-line` event: a tokenizer problem, or a record no dialect explains. */
export type InvalidLineCode =
  | 'invalid-json'
  | 'not-an-object'
  | 'unterminated-string'
  | 'truncated'
  | 'oversize'
  | 'too-deep'
  | 'unrecognized-record'
  | 'schema-violation';

/** Input that produced no event: a tokenizer problem, or a record that matches no dialect. */
export interface InvalidLineEvent extends CanonicalEventBase {
  type: 'invalid-line';
  code: InvalidLineCode;
  message: string;
  excerpt: string;
}

/** Every canonical event. Narrow on `type`. */
export type CanonicalEvent =
  | StreamStartEvent
  | UserMessageEvent
  | ReasoningDeltaEvent
  | ReasoningEndEvent
  | TextDeltaEvent
  | ToolCallEvent
  | ToolResultEvent
  | FinishEvent
  | AgentErrorEvent
  | UnknownEvent
  | InvalidLineEvent;

/** The `type` of a canonical event. */
export type CanonicalEventType = CanonicalEvent['type'];

/** Every canonical event type, in the order the union lists them. */
export const CANONICAL_EVENT_TYPES = [
  'stream-start',
  'user-message',
  'reasoning-delta',
  'reasoning-end',
  'text-delta',
  'tool-call',
  'tool-result',
  'finish',
  'error',
  'unknown',
  'invalid-line',
] as const satisfies readonly CanonicalEventType[];
