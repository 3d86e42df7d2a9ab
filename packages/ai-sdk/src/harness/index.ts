/**
 * `@cursor-stream/ai-sdk/harness`: cursor-agent as an AI SDK harness (`HarnessV1` of `@ai-sdk/harness`), run in the
 * sandbox session's own process API, whose turns report the CLI's token usage.
 */

export { FORGOTTEN_TOOL_CALLS_RAW_TYPE } from '../open-calls.ts';
export { type CursorBuiltinToolName, cursorBuiltinTools } from './builtin-tools.ts';
export {
  type CursorHarness,
  type CursorHarnessLifecycleData,
  type CursorHarnessOptions,
  createCursorHarness,
} from './harness.ts';
export { CURSOR_HARNESS_ID } from './harness-id.ts';
export type { CursorAgentError } from './harness-package.ts';
export { createTurnParts, type TurnEnding, type TurnPartOptions, type TurnParts } from './turn-parts.ts';
export { cursorUsage, type HarnessUsage, unknownUsage } from './usage.ts';
