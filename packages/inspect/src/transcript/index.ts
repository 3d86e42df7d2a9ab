/**
 * `@cursor-stream/inspect/transcript`: a session as a person reads it. `createTranscript` turns canonical events into
 * the text `render` writes, a piece per event, styled with the palette it is given; the one-line texts of a run's
 * status, the agent's questions and a failure, and the reasoning preview, are what every transcript (a terminal's, a
 * report's, a live page's) says alike.
 */

export {
  failureText,
  interactionText,
  type RunInteraction,
  type RunStatus,
  statusText,
} from './run-status-lines.ts';
export {
  createTranscript,
  MAX_OPEN_CALLS,
  reasoningPreview,
  type Transcript,
  type TranscriptOptions,
  transcriptFileHeader,
} from './transcript.ts';
