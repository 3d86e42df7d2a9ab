/**
 * `@cursor-stream/relay`: serve cursor-agent runs to browsers over SSE and WebSocket, each event's id the byte offset
 * of its record in the run's log, so a client resumes exactly, even after the relay restarts.
 */

export { type ClientQueueLimits, RESUME_CLOSE_CODE, RESUME_CLOSE_REASON } from './client-queue.ts';
export { compareEventIds, type EventId, formatEventId, parseEventId } from './event-ids.ts';
export { isRelayFormat, RELAY_FORMATS, type RelayFormat } from './formats.ts';
export type { RingLimits } from './live-run.ts';
export { createLogEventReader, type LogEventReader, type RunEvent, type RunFailure } from './log-events.ts';
export {
  createRelayServer,
  RelayConfigError,
  type RelayConfigErrorCode,
  type RelayServer,
  type RelayServerOptions,
} from './relay-server.ts';
export { INTERRUPTED, type RunRequest } from './run-manager.ts';
export {
  createFileRunStore,
  isRunId,
  RUN_ID_PATTERN,
  type RunLogReader,
  type RunLogWriter,
  type RunRecord,
  type RunStatus,
  type RunStore,
} from './run-store.ts';
export type { RunSummary } from './run-summary.ts';
