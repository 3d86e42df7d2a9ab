/**
 * `@cursor-stream/core/sessions`: canonical events folded into sessions, each in bounded memory: the session reducer
 * and where sessions begin, sessions handed on one at a time as each ends, the facts a report or usage totals read off
 * a session, and the anomalies of a session as a whole. No normalizer, dialect or validator is loaded with it.
 */

export {
  type BoundedSession,
  type BoundedSessionsOptions,
  createBoundedSessions,
  finishedSession,
  isFailedStatus,
  MAX_TOOL_CALLS_LISTED,
} from './bounded-sessions.ts';
export { TEXT_HEAD_LENGTH, TEXT_TAIL_LENGTH, type TextOmission } from './kept-text.ts';
export { isSessionContent, opensNewSession, type SessionProgress } from './session-boundary.ts';
export {
  type FactsTracker,
  MAX_PROBLEMS_PER_SESSION,
  type SessionFacts,
  type SessionFactsOptions,
  trackSessionFacts,
  utcDay,
  type ValueProblem,
} from './session-facts.ts';
export {
  createSessionReducer,
  reduceSessions,
  type SessionFailure,
  type SessionReducer,
  type SessionReducerOptions,
  type SessionSummary,
  type ToolCallSummary,
} from './session-reducer.ts';
export {
  type SessionLocations,
  type StreamAnomaly,
  type StreamAnomalyCode,
  sessionAnomalies,
} from './stream-anomalies.ts';
export { createTextDigest, type TextDigest } from './text-digest.ts';
