/**
 * The small model of a session that the generator builds before writing any record: turns, reasoning tokens,
 * assistant texts and tool calls, with their timing. Writers turn it into the records of one dialect, so the same
 * session can be written as the official stream or, through canonical events, as any other dialect.
 */

/** A JSON object, as a record or part of one. */
export type JsonObject = { [key: string]: JsonValue };
/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** The tool kinds the generator writes (the `<kind>ToolCall` key of the official stream). */
export type ToolKind = 'shell' | 'read' | 'ls' | 'edit' | 'grep' | 'glob' | 'write' | 'mcp';

/** How a tool call ended: the name of the arm of its `result`. */
export type ToolOutcome = 'success' | 'failure' | 'error' | 'rejected';

/** A text with the time it arrived. */
export interface TimedText {
  text: string;
  timestampMs: number;
}

/** One tool call, from start to completion. */
export interface ToolCallModel {
  /** The id as the agent writes it; composite ids hold a line feed. */
  callId: string;
  kind: ToolKind;
  args: JsonObject;
  /** The one-line description the recent CLI puts beside `args`. */
  description?: string;
  outcome: ToolOutcome;
  /** The payload of the outcome arm. */
  result: JsonObject;
  /** Keys the CLI writes beside the arm inside `result` (e.g. shell's `isBackground`). */
  resultSiblings?: JsonObject;
  /** False where the real completion carries no `args` (a read error, a rejected MCP call). */
  argsOnCompletion: boolean;
  startedMs: number;
  completedMs: number;
}

/** An assistant message: its whole text, and how it arrives as deltas under `--stream-partial-output`. */
export interface AssistantMessageModel {
  text: string;
  /** Pieces that concatenate to `text`; the first is the opening delta that the agent repeats. */
  pieces: TimedText[];
  timestampMs: number;
}

/** One model step: reasoning, an optional message, tool calls. */
export interface TurnModel {
  /** `<request id>-<step>-<4 chars>`, shared by every call of the step. */
  modelCallId: string;
  thinking: TimedText[];
  thinkingCompletedMs: number;
  message?: AssistantMessageModel;
  calls: ToolCallModel[];
  /** Whether the calls run at once (all start, then complete in `completionOrder`) or one after the other. */
  parallel: boolean;
  /** Indexes into `calls`, in the order the completions arrive. */
  completionOrder: number[];
}

/** Token counts of the result. */
export interface UsageModel {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** One agent run, from `system/init` to `result`. */
export interface SessionModel {
  sessionId: string;
  requestId: string;
  model: string;
  cwd: string;
  apiKeySource: string;
  permissionMode: string;
  prompt: string;
  /** Run with `--stream-partial-output`. */
  partialOutput: boolean;
  /** Written by a CLI of 2026.08 or later: tool-call siblings and `usage`. */
  recentCli: boolean;
  turns: TurnModel[];
  /** The answer that ends the session, after the last turn. */
  finalMessage: AssistantMessageModel;
  durationMs: number;
  usage: UsageModel;
}
