/**
 * The canonical event union: one typed stream for every dialect of cursor-agent output. This is the public contract;
 * names are fixed. Discriminant `type` in kebab-case, fields in camelCase.
 */

import type { FailureCode } from '../failures/index.ts';

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
  /**
   * The run the event belongs to, when the source names one apart from the session (`@cursor/sdk`'s `run_id`: one
   * prompt of an agent): with `requestId`, what joins one run's records across channels.
   */
  runId?: string;
  /** The agent the event belongs to, when the source names one apart from the session (`@cursor/sdk`'s `agent_id`). */
  agentId?: string;
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
  /** The agent, when the source names it (ACP's `agentInfo.name` from `initialize`); absent means Cursor's CLI. */
  agent?: string;
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
  /** What the source calls the call for a person (ACP's `title`: `Read file`, the command line, ...). */
  title?: string;
  /** The source's own class of the tool, when it sends one beside the name (ACP's `kind`: `read`, `edit`, ...). */
  kind?: string;
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
  /**
   * The call's arguments as the completion repeats them, present only when its start was not seen (an orphan), so that
   * what the call was stays known; a completion after its start leaves them to the `tool-call`.
   */
  input?: unknown;
}

/** The token counts of a {@link Usage}, by name. */
export type UsageCountField = 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens';

/** Token counts, when the source reports them. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /**
   * The counts the source gave in a form no count is read from (`true`, `[5]`, `"0x10"`), by field, each as the start
   * of its JSON text: a tool summing counts names them (`checkUsage`), rather than count them as none without a word.
   */
  unreadable?: Partial<Record<UsageCountField, string>>;
}

/** Why a session ended: a `result` event (`stop` or `error`), or input that ended without one (`incomplete`). */
export type FinishReason = 'stop' | 'error' | 'incomplete';

/**
 * Why a session failed, in the agent's own words: the failed `result`'s text when it has one, else the nearest line of
 * non-JSON output before the end of the session (the CLI writes `RetriableError: ...` there).
 */
export interface FailureReason {
  message: string;
  /** The class of the failure, read from `message` by the table of the CLI's sentences (`classifyFailure`). */
  code: FailureCode;
  /** Where the sentence is: the `result` record, or the output line. */
  loc?: SourceLocation;
}

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
  /**
   * Tool calls started but not completed when the session ended, in start order: the latest 1,024 left open, ids of
   * at most 4,096 characters (a real session has a few open at once; see `open-calls.ts`).
   */
  pendingToolCallIds: string[];
  /**
   * On a failed or incomplete session, the agent's sentence saying why, when the log holds one (the normalizer fills
   * it in). A synthesized finish of a session cut by a new `system/init` has the cut's `loc`.
   */
  failure?: FailureReason;
  /** Why the source says the session stopped, as it says it (ACP's `stopReason`, `@cursor/sdk`'s run status). */
  stopReason?: string;
  /**
   * The agent process's exit code, when the log records it: a WebSocket app's `result` says it, and closes each run
   * with it (`{type: "result", exitCode}`). A code other than 0 makes the session a failure.
   */
  exitCode?: number;
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
 * What a {@link StatusEvent} reports:
 * - `reconnecting` / `reconnected`: the connection to the agent's backend dropped and is being (or was) restored
 *   (`connection` records);
 * - `retry-starting` / `retry-resuming`: the agent retries a failed model call, possibly resuming from a checkpoint
 *   (`retry` records); `retry-scheduled`: a retry is planned for later (`retry/scheduled`, named by the 2026.10 CLI);
 * - `compacting`: the conversation is being summarized to fit the context window (`system/status`);
 * - `compact-boundary`: where the compacted conversation starts (`system/compact_boundary`);
 * - `background-shell-timeout`: a background shell command ran out of time (`system/background_shell_timeout`);
 * - `task-notification`: a background task reported (`system/task_notification`);
 * - `status`: another `system/status` value, named in `status`; or `exited`, how the agent's process ended when its
 *   session had already ended (a wrapper's closing record), with the code in `extraFields.exitCode`.
 */
export type StatusKind =
  | 'reconnecting'
  | 'reconnected'
  | 'retry-starting'
  | 'retry-resuming'
  | 'retry-scheduled'
  | 'compacting'
  | 'compact-boundary'
  | 'background-shell-timeout'
  | 'task-notification'
  | 'status';

/** Every {@link StatusKind}. */
export const STATUS_KINDS = [
  'reconnecting',
  'reconnected',
  'retry-starting',
  'retry-resuming',
  'retry-scheduled',
  'compacting',
  'compact-boundary',
  'background-shell-timeout',
  'task-notification',
  'status',
] as const satisfies readonly StatusKind[];

/**
 * Something happened to the run itself rather than in the conversation: a reconnect, a retry, a compaction, a
 * background task. Part of the current session; never an error.
 */
export interface StatusEvent extends CanonicalEventBase {
  type: 'status';
  kind: StatusKind;
  /** Which attempt this is (reconnects and retries count from 1). */
  attempt?: number;
  /** The backend being reconnected to. */
  endpointUrl?: string;
  /** Whether a retry resumes the interrupted turn. */
  isResume?: boolean;
  /** The turns kept from the checkpoint a retry resumes from. */
  checkpointTurnCount?: number;
  /** The raw value of a `system/status` record (`compacting`, ...). */
  status?: string;
  /** What a notification or timeout says, when it says it in words. */
  message?: string;
  /** When the agent wrote the record (`timestamp_ms`). */
  timestampMs?: number;
  /** The record's other fields, as they came, so that nothing it said is lost. */
  extraFields?: Record<string, unknown>;
}

/**
 * The agent asks its client something (`interaction_query/request`: approve a command, a web fetch, a plan) or records
 * the answer (`interaction_query/response`; headless runs answer themselves, rejecting questions). In `--mode plan`
 * the plan arrives only here, as `plan`.
 */
export interface InteractionEvent extends CanonicalEventBase {
  type: 'interaction';
  /** `request` or `response` (the record's subtype as sent, when it is another). */
  phase: 'request' | 'response' | (string & {});
  /** What is asked: `createPlanRequestQuery`, `shellRequestQuery`, `webFetchRequestQuery`, ... */
  queryType?: string;
  /** The query's id (`query.id`, or `response.id` of an answer), pairing a request with its response. */
  queryId?: number | string;
  /** The tool call the query is about. */
  toolCallId?: string;
  /** The plan's text (markdown), for a plan request. */
  plan?: string;
  /** How a response answered: its result arm (`rejected`, `success`, `error`, ...). */
  outcome?: string;
  /** The answer's reason or error text (`Questions skipped by the user, ...`). */
  reason?: string;
  /** The `query` object as sent. */
  query?: unknown;
  /** The answer's `response` object as sent (`{id, <kind>Response: ...}`; the CLI writes this since 2026.09). */
  response?: unknown;
  /** The answer's `result` object as sent (older builds). */
  result?: unknown;
  timestampMs?: number;
  /** The record's other fields, as they came. */
  extraFields?: Record<string, unknown>;
}

/** Token counts of one turn as a source reports them; a count the source does not give is `null`, never 0. */
export interface TurnTokens {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  /** Output spent reasoning (part of `outputTokens` where the source says so). */
  reasoningTokens: number | null;
  /** The source's own total, as it counts it (`@cursor/sdk`'s leaves reasoning out). */
  totalTokens: number | null;
}

/** How full the model's context window is (ACP's `usage_update`); an unknown figure is `null`. */
export interface ContextOccupancy {
  /** Tokens in the context now. */
  used: number | null;
  /** Tokens the context holds at most. */
  size: number | null;
}

/** What the session cost so far, as the source reports it. */
export interface UsageCost {
  amount: number | null;
  /** ISO 4217 code (`USD`), or `cents` for a source that counts in cents. */
  currency?: string;
}

/**
 * Usage reported during a session, between its `finish`es' totals: a turn's token counts (`@cursor/sdk`'s `usage`
 * message, ACP's prompt response `usage`), the context's occupancy and the cost so far (ACP's `usage_update`).
 */
export interface UsageEvent extends CanonicalEventBase {
  type: 'usage';
  /** The turn's token counts. */
  tokens?: TurnTokens;
  context?: ContextOccupancy;
  cost?: UsageCost;
}

/** One entry of a plan or todo list. */
export interface PlanEntry {
  content: string;
  /** As the source says it (`pending`, `in_progress`, `completed`, `TODO_STATUS_PENDING`, ...). */
  status: string;
  /** ACP's `high`, `medium`, `low`, when given. */
  priority?: string;
}

/**
 * The agent's plan or todo list, whole as it stands now (each update replaces the last): ACP's `plan` update, Cursor's
 * `cursor/update_todos` and `cursor/create_plan` requests.
 */
export interface PlanEvent extends CanonicalEventBase {
  type: 'plan';
  entries: PlanEntry[];
  /** The record that said it: `plan`, `cursor/update_todos`, `cursor/create_plan`, ... */
  source: string;
  /** The plan as markdown, when the source writes one. */
  markdown?: string;
}

/**
 * A well-formed event of a type not modelled here (future ones, subtypes nobody has seen). Never an error by
 * default.
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
  | 'non-json-output'
  | 'not-an-object'
  | 'unterminated-string'
  | 'truncated'
  | 'oversize'
  | 'too-deep'
  | 'unrecognized-record'
  | 'schema-violation';

/**
 * Input that produced no event: a tokenizer problem, or a record that matches no dialect. A line of the agent's plain
 * text output (`non-json-output`) is one too: its `message` is the line itself, up to a bound, so that the sentence a
 * failed run ends with is kept (see {@link FinishEvent.failure}).
 */
export interface InvalidLineEvent extends CanonicalEventBase {
  type: 'invalid-line';
  code: InvalidLineCode;
  /** What is wrong, for a person; for `non-json-output`, the output line. */
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
  | StatusEvent
  | InteractionEvent
  | UsageEvent
  | PlanEvent
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
  'status',
  'interaction',
  'usage',
  'plan',
  'unknown',
  'invalid-line',
] as const satisfies readonly CanonicalEventType[];
