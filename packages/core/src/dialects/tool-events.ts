import type { ToolCallEvent, ToolName, ToolResultEvent, ToolResultStatus } from '../events/index.ts';

/** The fields of a `tool-result`, before `loc` and `sessionId`. */
export interface ToolResultFields {
  toolCallId: string;
  toolName: ToolName;
  providerToolName: string;
  status: ToolResultStatus;
  output: unknown;
  durationMs: number | undefined;
}

/** A `tool-result` whose `isError` follows its status: false only for `success`. */
export function toolResultEvent(fields: ToolResultFields): ToolResultEvent {
  // Named one by one: a rest pattern and a spread take V8's slow path, a microsecond or more per call.
  const event: ToolResultEvent = {
    type: 'tool-result',
    toolCallId: fields.toolCallId,
    toolName: fields.toolName,
    providerToolName: fields.providerToolName,
    status: fields.status,
    output: fields.output,
    isError: fields.status !== 'success',
  };
  if (fields.durationMs !== undefined) event.durationMs = fields.durationMs;
  return event;
}

/** A `tool-call`, with `modelCallId` when the source names one. */
export function toolCallEvent(
  toolCallId: string,
  toolName: ToolName,
  providerToolName: string,
  input: unknown,
  modelCallId: unknown,
): ToolCallEvent {
  const event: ToolCallEvent = { type: 'tool-call', toolCallId, toolName, providerToolName, input };
  if (typeof modelCallId === 'string') event.modelCallId = modelCallId;
  return event;
}
