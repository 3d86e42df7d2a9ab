/**
 * `@cursor-stream/ai-sdk`: cursor-stream's canonical events as the Vercel AI SDK's UI message stream, so a `useChat`
 * front end can show a cursor-agent run (text, reasoning, tool calls and their outcomes) with no adapter of its own.
 */

export { toolErrorText } from '@cursor-stream/core/tools';
export { FORGOTTEN_TOOL_CALLS_CHUNK_TYPE, forgottenToolCallsText } from './open-calls.ts';
export {
  type CanonicalEventSource,
  toUIMessageReadableStream,
  toUIMessageStream,
} from './to-ui-message-stream.ts';
export {
  createUIMessageEncoder,
  type UIMessageEncoder,
  type UIMessageEncoderOptions,
  UNFINISHED_TOOL_ERROR_TEXT,
} from './ui-message-encoder.ts';
