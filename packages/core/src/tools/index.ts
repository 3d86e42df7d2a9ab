/**
 * `@cursor-stream/core/tools`: a tool call as text for a person, the same in every view: what it is about (its
 * headline and other arguments), how it ended (the facts of its output), and why it failed (its error text); and how
 * many calls a reader of a stream remembers by id, so that the bridges built on core bound theirs as core does.
 */

export {
  MAX_REMEMBERED_CALLS,
  MAX_REMEMBERED_ID_CHARS,
  rememberCall,
  rememberCallId,
} from '../open-calls.ts';
export { mcpToolName } from './mcp-tool-name.ts';
export { toolErrorText, toolFailureReason } from './tool-error-text.ts';
export { toolArgumentDetails, toolHeadline, toolLabel } from './tool-headline.ts';
export { toolOutcomeDetails } from './tool-outcome.ts';
export { MAX_TOOL_TEXT_LENGTH } from './tool-values.ts';
