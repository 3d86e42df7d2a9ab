/**
 * `@cursor-stream/node/agent-protocol`: what the agent runner knows about cursor-agent, without starting a process:
 * the arguments of a run, its events as they come, how it ended (a code and the agent's own sentence), the chat id
 * `create-chat` prints. For running the agent through another process API (a sandbox's, a remote machine's) the way
 * `runAgent` runs it here. Nothing in it imports a Node built-in.
 */

export { agentArgs, type OutputFormat, promptProblem } from './agent-argv.ts';
export {
  type AgentProcessOptions,
  DEFAULT_BINARIES,
  DEFAULT_EXIT_GRACE_MS,
  type RunAgentOptions,
} from './agent-options.ts';
export {
  type AgentRunError,
  type AgentRunErrorCode,
  classifyRun,
  describeThrown,
  reasonOf,
  type StreamEnd,
} from './agent-outcome.ts';
export type { ProcessExit, SpawnFailure, StopReason } from './agent-process.ts';
export {
  type BoundedCapture,
  type CapturedText,
  createBoundedCapture,
  DEFAULT_CAPTURE_BYTES,
} from './bounded-capture.ts';
export { chatIdOf, isChatId } from './chat-id.ts';
export { type CommandOutcome, commandOutcome } from './command-outcome.ts';
export {
  createRunEvents,
  type RunEventHooks,
  type RunEventOptions,
  type RunEvents,
  type SessionChange,
} from './run-events.ts';
