/**
 * `@cursor-stream/core/normalize`: the whole API of `@cursor-stream/core` without its generated schema validators
 * loaded, for tools whose start-up matters (a command-line run on a small log). Validation works once
 * {@link loadSchemaValidators} has resolved, or once anything has imported `@cursor-stream/core`.
 */

export { createNormalizer, normalizeStream } from './create-normalizer.ts';
export type {
  Detection,
  Dialect,
  DialectContext,
  JsonObject,
  RecordName,
  RecordNamer,
  SchemaIssue,
  ValidateOptions,
} from './dialect.ts';
export { type AcpState, acpDialect } from './dialects/acp.ts';
export { BUILT_IN_DIALECTS } from './dialects/built-in.ts';
export { type CursorSdkState, cursorSdkDialect } from './dialects/cursor-sdk.ts';
export { officialDialect } from './dialects/official.ts';
export { payloadEnvelopeDialect } from './dialects/payload-envelope.ts';
export { pythonWrapperDialect } from './dialects/python-wrapper.ts';
export { BUILT_IN_DIALECT_NAMES, type BuiltInDialectName } from './dialects/registry.ts';
export {
  type AgentErrorEvent,
  CANONICAL_EVENT_TYPES,
  type CanonicalEvent,
  type CanonicalEventBase,
  type CanonicalEventType,
  type ContextOccupancy,
  EVENT_TRAITS,
  type EventTraits,
  eventTraits,
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
  unreachable,
} from './events/index.ts';
export {
  FOREIGN_FORMAT_NAMES,
  type ForeignAgent,
  type ForeignLog,
  foreignAgentOf,
} from './foreign-agents.ts';
export type { Normalizer, NormalizerOptions } from './normalizer/normalizer-types.ts';
export type {
  ConditionalRequirement,
  ObjectShape,
  RecordShape,
  ValueShape,
} from './record-readers/record-shape.ts';
export { createRecordReader, type RecordReader } from './record-readers/record-templates.ts';
export {
  createRecordTimeIndex,
  eventTimes,
  MAX_RECORD_TIME_MS,
  type RecordTime,
  type RecordTimeIndex,
  type RecordTimeProblem,
  type RecordTimes,
  readRecordTime,
  recordTimes,
} from './record-times.ts';
export {
  exceedsJsonDepth,
  type JsonWriteProblem,
  MAX_JSON_DEPTH,
  MAX_SERIALIZED_DEPTH,
  type SafeJsonResult,
  safeJsonStringify,
  stringifyEvent,
  unwritableEvent,
} from './safe-json.ts';
export {
  createSessionReducer,
  isSessionContent,
  opensNewSession,
  reduceSessions,
  type SessionFailure,
  type SessionProgress,
  type SessionReducer,
  type SessionReducerOptions,
  type SessionSummary,
  TEXT_HEAD_LENGTH,
  TEXT_TAIL_LENGTH,
  type TextDigest,
  type TextOmission,
  type ToolCallSummary,
} from './sessions/index.ts';
export { type EventPiece, stringifyEventPieces } from './spliced-event.ts';
export {
  type DialectEncoderOptions,
  DialectEncoderTransformStream,
} from './streams/dialect-encoder-transform-stream.ts';
export { NormalizerTransformStream } from './streams/normalizer-transform-stream.ts';
export { allInputTokens, type CheckedUsage, checkUsage, isTokenCount } from './token-counts.ts';
export { loadSchemaValidators } from './validation/load-schema-validators.ts';
export { toSchemaIssues, type ValidatorError } from './validation/schema-issues.ts';
export {
  type SchemaValidatorKind,
  TOO_DEEP_KEYWORD,
  validateCanonicalEvent,
  validateDialectRecord,
} from './validation/validator-registry.ts';
