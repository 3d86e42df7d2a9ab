/**
 * Where one model call's output ends and the next one's begins, as the AI SDK's steps count them: both bridges (the
 * UI message stream and the harness) cut a run into the same steps.
 */

/** What is known of the open step. */
export interface ModelStep {
  /** The model call the step's latest output came from, once a part of it named one. */
  modelCallId: string | undefined;
  hadToolCall: boolean;
  hadToolResult: boolean;
}

/** A step with nothing in it yet. */
export function newModelStep(): ModelStep {
  return { modelCallId: undefined, hadToolCall: false, hadToolResult: false };
}

/**
 * Whether the model's output (text, reasoning or a tool call) under `modelCallId` begins a new step: it does when, after tool
 * calls, the model writes again under another `model_call_id`, or (where the log names none) once every call has
 * completed (`openCalls` is 0).
 */
export function startsNewStep(step: ModelStep, modelCallId: string | undefined, openCalls: number): boolean {
  if (!step.hadToolCall) return false;
  return modelCallId !== undefined && step.modelCallId !== undefined
    ? modelCallId !== step.modelCallId
    : openCalls === 0 && step.hadToolResult;
}

/**
 * Notes the model's output (text, reasoning or a tool call) under `modelCallId` in the open step: the call its latest
 * output came from, so that parallel calls of one model call, after text of another, stay in one step.
 */
export function noteModelOutput(step: ModelStep, modelCallId: string | undefined): void {
  if (modelCallId !== undefined) step.modelCallId = modelCallId;
}
