import {
  type AgentErrorEvent,
  type CanonicalEvent,
  type FailureReason,
  type FinishEvent,
  type SourceLocation,
  type StatusEvent,
  type StreamStartEvent,
  type TextDeltaEvent,
  unreachable,
} from '../events/index.ts';
import { classifyFailure, saysNothing } from '../failures/index.ts';
import { isMessageless } from '../messageless-error.ts';
import { rememberCallId } from '../open-calls.ts';
import { markBorrowedLine } from '../record-times.ts';
import { runExitOf, runExitSentence } from '../run-exit.ts';
import { markSessionDialect } from '../session-dialect.ts';
import { isSessionContent, opensNewSession, type SessionProgress } from '../sessions/index.ts';

/**
 * Keeps the normalizer's promise of exactly one `finish` per session: it fills in `pendingToolCallIds` and the
 * `failure` reason, and synthesizes an `incomplete` finish for a session that ends (a new `system/init`, the end of
 * input) without one. Each finish is marked with the dialect that read the session (see `session-dialect.ts`).
 */
export interface SessionTracker {
  /**
   * Passes `event` to `out`, preceded by a synthesized finish when it starts a new session.
   *
   * @param dialect - The dialect that read the event's record, if one did.
   * @param detected - Whether the stream's dialect was known (detected or forced) when it did. A record read before
   *   is one that any dialect might write: it names the session's dialect only until a record read after does.
   */
  track(event: CanonicalEvent, out: CanonicalEvent[], dialect: string | undefined, detected: boolean): void;
  /** At the end of input: appends the finish of a session left open. */
  end(out: CanonicalEvent[]): void;
}

interface OpenSession extends SessionProgress {
  sessionId: string | undefined;
  /**
   * The dialect that read the session's first content once the stream's dialect was known, or until then the one
   * that read its first content.
   */
  dialect: string | undefined;
  dialectDetected: boolean;
  /** Started and not completed, in start order; a Set keeps duplicates out. Bounded: see `open-calls.ts`. */
  pending: Set<string>;
  /** Completed (the latest), so that a start arriving after its completion (or again) does not reopen the call. */
  completed: Set<string>;
  /** The latest error the source reported in words. */
  lastError: FailureReason | undefined;
  /**
   * The latest line of plain (non-JSON) output since the session opened that says something (not a stack frame, not an
   * update notice): where the CLI writes why it failed.
   */
  lastOutput: FailureReason | undefined;
  /** The latest such line in words the CLI is known to fail with (a class other than `unknown`): it outranks the rest. */
  knownOutput: FailureReason | undefined;
  /**
   * The latest such line before the session opened (a sign-in prompt, an update notice): why it failed only when
   * nothing but its end follows, as a failed `--output-format json` run prints its error and then its result.
   */
  preamble: FailureReason | undefined;
  /** The latest such line in words the CLI is known to fail with (a class other than `unknown`). */
  knownPreamble: FailureReason | undefined;
  /** Whether content other than the session's end has come. */
  opened: boolean;
  /** The request its `finish` ended, once it has one: a `finish` of the same session and request again repeats it. */
  finishedRequest: string | undefined;
}

function freshSession(): OpenSession {
  return {
    hasContent: false,
    finished: false,
    sessionId: undefined,
    dialect: undefined,
    dialectDetected: false,
    pending: new Set(),
    completed: new Set(),
    lastError: undefined,
    lastOutput: undefined,
    knownOutput: undefined,
    preamble: undefined,
    knownPreamble: undefined,
    opened: false,
    finishedRequest: undefined,
  };
}

/** A failed finish's last word: how the agent's process ended, when the log says it and nothing else does. */
function exitFailureOf(finish: FinishEvent): FailureReason | undefined {
  const sentence =
    runExitOf(finish) ??
    (finish.exitCode === undefined || finish.exitCode === 0 ? undefined : runExitSentence(finish.exitCode));
  return sentence === undefined ? undefined : reason(sentence, finish.loc);
}

function reason(message: string, loc: SourceLocation | undefined): FailureReason {
  const code = classifyFailure(message);
  return loc === undefined ? { message, code } : { message, code, loc };
}

/**
 * The opening of a session that is nothing but its `finish`: what `--output-format json` prints (one `result` per run,
 * no stream before it). The run was whole, so it gets its start and, when it succeeded, the result as its text.
 */
function loneResultOpening(finish: FinishEvent): CanonicalEvent[] {
  const start: StreamStartEvent = { type: 'stream-start' };
  const opening: CanonicalEvent[] = [start];
  if (!finish.isError && finish.text !== undefined && finish.text !== '') {
    const text: TextDeltaEvent = { type: 'text-delta', text: finish.text };
    opening.push(text);
  }
  for (const event of opening) {
    if (finish.loc !== undefined) event.loc = finish.loc;
    if (finish.sessionId !== undefined) event.sessionId = finish.sessionId;
  }
  if (finish.requestId !== undefined) start.requestId = finish.requestId;
  return opening;
}

/** A tracker for one stream. */
export function createSessionTracker(): SessionTracker {
  let session = freshSession();
  /** Whether any session has had content: a log of none may still tell of a run that failed before it began. */
  let sawSession = false;

  /**
   * A log of no session whose output says, in the CLI's words, why a run failed (`Cannot use this model: …`, with
   * stderr captured with stdout): the CLI failed before it wrote a record, and the log is that run's, failed. Output
   * in no words the CLI is known to fail with (the class `unknown`) is no run: a log of plain text stays one.
   */
  function failedBeforeStart(out: CanonicalEvent[]): void {
    // A wrapper may add a line of its own after the CLI's (`exit=1`): the CLI's words are the reason.
    const failure = session.knownPreamble;
    if (failure === undefined) return;
    const start: StreamStartEvent = { type: 'stream-start' };
    const finish: FinishEvent = {
      type: 'finish',
      finishReason: 'incomplete',
      isError: false,
      pendingToolCallIds: [],
      failure,
    };
    for (const event of [start, finish]) {
      if (failure.loc === undefined) continue;
      event.loc = failure.loc;
      markBorrowedLine(event);
    }
    out.push(start, finish);
  }

  /** The agent's sentence for a session that did not succeed: its own error text, else its last output line. */
  function failureOf(): FailureReason | undefined {
    return session.lastError ?? lastOutputOf();
  }

  function lastOutputOf(): FailureReason | undefined {
    return session.knownOutput ?? session.lastOutput ?? (session.opened ? undefined : session.preamble);
  }

  function synthesizeFinish(loc: SourceLocation | undefined): FinishEvent {
    const finish: FinishEvent = {
      type: 'finish',
      finishReason: 'incomplete',
      isError: false,
      pendingToolCallIds: [...session.pending],
    };
    if (session.sessionId !== undefined) finish.sessionId = session.sessionId;
    const failure = failureOf();
    if (failure !== undefined) finish.failure = failure;
    // Cut by the next session's start: the finish stands where the session ended.
    if (loc !== undefined) finish.loc = loc;
    return marked(finish);
  }

  /** A finish marked with the dialect that read its session. */
  function marked(finish: FinishEvent): FinishEvent {
    if (session.dialect !== undefined) markSessionDialect(finish, session.dialect);
    return finish;
  }

  function noteDialect(dialect: string | undefined, detected: boolean): void {
    if (dialect === undefined || session.dialectDetected) return;
    if (detected || session.dialect === undefined) session.dialect = dialect;
    session.dialectDetected = detected;
  }

  /** A failed result without text says what the agent printed before it, when it printed something. */
  function observeError(event: AgentErrorEvent): AgentErrorEvent {
    if (!isMessageless(event)) {
      const failure = reason(event.message, event.loc);
      // The source's own word that its client stopped the run outranks what the message's words suggest.
      if (event.code === 'cancelled') failure.code = 'cancelled';
      session.lastError = failure;
      return event;
    }
    const output = lastOutputOf();
    return output === undefined ? event : { ...event, message: output.message };
  }

  function observeFinish(event: FinishEvent): FinishEvent {
    session.finished = true;
    session.finishedRequest = event.requestId;
    // A dialect sees only its own records; the stream's open calls are known here.
    const finish: FinishEvent = { ...event, pendingToolCallIds: [...session.pending] };
    // The end of the agent's process names no session: it ends the one open.
    if (session.sessionId !== undefined && runExitOf(event) !== undefined)
      finish.sessionId ??= session.sessionId;
    const failure =
      event.finishReason === 'stop' && !event.isError ? undefined : (failureOf() ?? exitFailureOf(event));
    if (failure !== undefined) finish.failure ??= failure;
    return marked(finish);
  }

  function observe(event: CanonicalEvent): CanonicalEvent {
    if (session.sessionId === undefined && event.sessionId !== undefined) session.sessionId = event.sessionId;
    switch (event.type) {
      case 'tool-call':
        if (!session.completed.has(event.toolCallId)) rememberCallId(session.pending, event.toolCallId);
        return event;
      case 'tool-result':
        session.pending.delete(event.toolCallId);
        rememberCallId(session.completed, event.toolCallId);
        return event;
      case 'invalid-line':
        if (event.code !== 'non-json-output') return event;
        if (session.opened) {
          if (saysNothing(event.message)) return event;
          session.lastOutput = reason(event.message, event.loc);
          if (session.lastOutput.code !== 'unknown') session.knownOutput = session.lastOutput;
        } else {
          session.preamble = reason(event.message, event.loc);
          if (session.preamble.code !== 'unknown') session.knownPreamble = session.preamble;
        }
        return event;
      case 'error':
        return observeError(event);
      case 'finish':
        return observeFinish(event);
      // Passed on as they are: nothing the tracker keeps depends on them.
      case 'stream-start':
      case 'user-message':
      case 'reasoning-delta':
      case 'reasoning-end':
      case 'text-delta':
      case 'status':
      case 'interaction':
      case 'usage':
      case 'plan':
      case 'unknown':
        return event;
      default:
        // A type from outside the union is passed on too.
        return unreachable(event) ?? event;
    }
  }

  /**
   * Whether `finish` repeats the finish of the session that has just ended: the same session and the same request (a
   * result line written twice, a log joined with a copy of its end). Taken for a run of its own, it would count the
   * run's tokens and cost twice.
   */
  function repeatsFinish(finish: FinishEvent): boolean {
    return (
      session.finished &&
      finish.requestId !== undefined &&
      finish.requestId === session.finishedRequest &&
      finish.sessionId !== undefined &&
      finish.sessionId === session.sessionId
    );
  }

  /** A repeated finish, said as a status: it is there, and counted once. */
  function repeatedFinishStatus(finish: FinishEvent): StatusEvent {
    const status: StatusEvent = {
      type: 'status',
      kind: 'status',
      status: 'repeated-result',
      message: `the result of request ${finish.requestId} again: counted once`,
    };
    if (finish.loc !== undefined) status.loc = finish.loc;
    if (finish.sessionId !== undefined) status.sessionId = finish.sessionId;
    return status;
  }

  /** How the agent's process ended, said as a status: the end of a process whose session has already ended. */
  function exitStatus(finish: FinishEvent, sentence: string): StatusEvent {
    const status: StatusEvent = { type: 'status', kind: 'status', status: 'exited', message: sentence };
    if (finish.exitCode !== undefined) status.extraFields = { exitCode: finish.exitCode };
    if (finish.loc !== undefined) status.loc = finish.loc;
    if (session.sessionId !== undefined) status.sessionId = session.sessionId;
    return status;
  }

  /**
   * An error said after a session ended, held for one event: when the record's own `finish` follows, it is a run of
   * one record (`--output-format json` prints a failed run's result alone) and belongs after that run's opening, not
   * to the session before.
   */
  let heldError: CanonicalEvent | undefined;

  return {
    track(event, out, dialect, detected) {
      // The error held for this record's finish: said after the opening that finish makes, before the finish itself.
      let errorOfFinish: CanonicalEvent | undefined;
      if (heldError !== undefined) {
        const held = heldError;
        heldError = undefined;
        if (event.type === 'finish' && held.loc !== undefined && held.loc.offset === event.loc?.offset)
          errorOfFinish = held;
        else out.push(observe(held));
      }
      if (event.type === 'error' && session.finished) {
        heldError = event;
        return;
      }
      if (event.type === 'finish' && repeatsFinish(event)) {
        if (errorOfFinish !== undefined) out.push(observe(errorOfFinish));
        out.push(observe(repeatedFinishStatus(event)));
        return;
      }
      // The process of a session that has ended (or of a run that wrote nothing and succeeded) ends no session.
      const exit = event.type === 'finish' ? runExitOf(event) : undefined;
      if (
        exit !== undefined &&
        event.type === 'finish' &&
        (session.finished || (!session.hasContent && !event.isError))
      ) {
        out.push(observe(exitStatus(event, exit)));
        return;
      }
      if (opensNewSession(event, session)) {
        if (!session.finished) {
          const finish = synthesizeFinish(event.loc);
          if (event.loc !== undefined) markBorrowedLine(finish);
          out.push(finish);
        }
        session = freshSession();
      }
      if (event.type === 'finish' && !session.hasContent) {
        for (const opening of loneResultOpening(event)) out.push(observe(opening));
      }
      if (errorOfFinish !== undefined) out.push(observe(errorOfFinish));
      if (isSessionContent(event)) {
        session.hasContent = true;
        sawSession = true;
        if (event.type !== 'finish') session.opened = true;
        noteDialect(dialect, detected);
      }
      out.push(observe(event));
    },
    end(out) {
      if (heldError !== undefined) out.push(observe(heldError));
      heldError = undefined;
      if (session.hasContent && !session.finished) out.push(synthesizeFinish(undefined));
      else if (!sawSession) failedBeforeStart(out);
      session = freshSession();
    },
  };
}
