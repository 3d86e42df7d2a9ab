/**
 * `@cursor-stream/core/events`: the canonical event union and what each type means to its consumers, without the
 * normalizer, the dialects or the validators, so that a tool may list or filter event types at start-up for free.
 */

export { EVENT_TRAITS, type EventTraits, eventTraits } from './event-traits.ts';
export {
  type AgentErrorEvent,
  CANONICAL_EVENT_TYPES,
  type CanonicalEvent,
  type CanonicalEventBase,
  type CanonicalEventType,
  type ContextOccupancy,
  type FailureReason,
  type FinishEvent,
  type FinishReason,
  type InteractionEvent,
  type InvalidLineCode,
  type InvalidLineEvent,
  KNOWN_TOOL_NAMES,
  type KnownToolName,
  type PlanEntry,
  type PlanEvent,
  type ReasoningDeltaEvent,
  type ReasoningEndEvent,
  type SourceLocation,
  STATUS_KINDS,
  type StatusEvent,
  type StatusKind,
  type StreamStartEvent,
  type TextDeltaEvent,
  type ToolCallEvent,
  type ToolName,
  type ToolResultEvent,
  type ToolResultStatus,
  type TurnTokens,
  type UnknownEvent,
  type Usage,
  type UsageCost,
  type UsageCountField,
  type UsageEvent,
  type UserMessageEvent,
} from './events.ts';
export { unreachable } from './unreachable.ts';
