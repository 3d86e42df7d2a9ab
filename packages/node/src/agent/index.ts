/** Running `cursor-agent`: streaming runs, one-shot queries, the model list and chats resumed by id. */

export { agentArgs, type OutputFormat } from './agent-argv.ts';
export {
  type AgentProcessOptions,
  DEFAULT_BINARIES,
  DEFAULT_EXIT_GRACE_MS,
  DEFAULT_KILL_GRACE_MS,
  type RunAgentOptions,
} from './agent-options.ts';
export type { AgentRunError, AgentRunErrorCode } from './agent-outcome.ts';
export type { AgentResult } from './agent-result.ts';
export { type AgentSession, createSession, type SendOptions, type SessionOptions } from './agent-session.ts';
export { DEFAULT_CAPTURE_BYTES } from './bounded-capture.ts';
export { type CreateChatResult, createChat } from './create-chat.ts';
export { type AgentModel, type ListModelsResult, listModels, parseModelList } from './list-models.ts';
export { type AgentRun, query, runAgent } from './run-agent.ts';
export type { SessionChange } from './run-events.ts';
