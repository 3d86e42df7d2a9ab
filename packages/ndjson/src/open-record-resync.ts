/**
 * Resynchronisation after a line that ends inside a string.
 *
 * Such a line either starts a record that goes on over raw line breaks (the CLI's `call_id`, `call_…` LF `fc_…`) or
 * was cut short (an agent that crashed mid-write). The two cannot be told apart when the line arrives, so the
 * following lines are read under both readings at once, and a valid record is never given up for the open one:
 *
 * 1. A following line that is a whole JSON text on its own (`{}`, `[1]`, `42`, a record with raw tabs) is a record:
 *    the open stretch before it is reported and the line is delivered at once.
 * 2. A following line that starts like JSON and ends inside a string may start a record of its own: it becomes a
 *    candidate, read on alongside the open record.
 * 3. Otherwise the line is more of the open string. Every reading enters each continuation line inside a string (the
 *    line feed before it was string content), so all of them leave their strings on the same line. There the newest
 *    candidate that parses wins, the oldest reading last; the stretch before the winner is reported.
 *
 * What is given up, by design: a string continued over raw line breaks ends at a continuation line that is itself a
 * whole JSON text (rule 1), since the record after a cut line must not wait for a string that may never close.
 * Producers escape every line break except the `call_id`'s, whose second half is never JSON on its own. Each line is
 * parsed on its own once and scanned once, and each reading once when the strings close, with at most
 * {@link MAX_CANDIDATES} readings held: the work stays linear in the input.
 */

import { EXCERPT_LENGTH } from './json-text.ts';
import { oversizeMessage } from './record-limits.ts';
import { type ParsedText, parseRepaired, readOwnLine, stateAfterContinuation } from './record-text.ts';
import type { NdjsonProblemCode } from './types.ts';

/**
 * Readings held at once: the open record and the newest candidates after it. A candidate starts only on a line that
 * ends inside a string whichever way it is read, which takes escaped quotes, so real streams hold one or two.
 */
export const MAX_CANDIDATES = 8;

/** Where a line is, and whether a line feed ended it. */
export interface LineSpan {
  line: number;
  /** Offset of the line's first byte. */
  offset: number;
  /** Offset of its line feed (or of the end of input). */
  contentEnd: number;
  /** Offset just past its terminator. */
  end: number;
  terminated: boolean;
}

/** The tokenizer's emitter of a problem: the stretch from `offset` to `end`, starting on `line`, and its text. */
export type ProblemEmitter = (
  code: NdjsonProblemCode,
  message: string,
  line: number,
  offset: number,
  end: number,
  text: string,
) => void;

/** What the resync reports, through the tokenizer's emitters. */
export interface ResyncSink {
  /** A record that is one physical line, read on its own (subject to the caller's `skipRecord`). */
  lineRecord(value: unknown, text: string, span: LineSpan): void;
  /** A record that spans several physical lines. */
  record(value: unknown, text: string, line: number, offset: number, end: number, terminated: boolean): void;
  problem: ProblemEmitter;
}

/** A line that may start a record, read alongside the open record until their strings close. */
interface Candidate {
  line: number;
  offset: number;
}

/** The lines since a line ended inside a string, and the readings still possible. */
interface OpenStretch {
  line: number;
  offset: number;
  /** The stretch's text so far, as much as an excerpt shows (one more character, so it knows to cut). */
  head: string;
  /** Physical lines from the oldest candidate's first line on, raw (a CR before the line feed is string content). */
  held: string[];
  /** Physical line number of `held[0]`. */
  heldLine: number;
  /** Oldest first; the stretch's own first line is the first candidate until it outgrows the limit. */
  candidates: Candidate[];
}

/** The resync state of one tokenizer; see the module comment. */
export interface Resync {
  /** Whether a stretch is open. A method, not a getter, for the reason `HeldLine.heldBytes` gives. */
  isOpen(): boolean;
  /** Offset of the first byte held for the open stretch, or undefined when nothing is held. */
  heldFrom(): number | undefined;
  /** Starts a stretch with a line that ends inside a string (and starts like JSON). */
  open(text: string, line: number, offset: number): void;
  /** The next complete physical line while a stretch is open. */
  next(text: string, span: LineSpan): void;
  /**
   * A line too long to hold is arriving: every reading now outgrows the limit. Returns the stretch's start, which the
   * caller follows through the long line; {@link reopen} takes it back if its string goes on after that line.
   */
  detach(): { line: number; offset: number; head: string } | null;
  /** A stretch whose lines were all dropped, still inside its string. */
  reopen(line: number, offset: number, head: string): void;
  /** Drops the readings that can no longer fit now that `consumed` bytes were read. */
  bound(consumed: number): void;
  /** The input ended (`end` is its length): an open stretch is reported. */
  finish(end: number): void;
  reset(): void;
}

/** Creates the resync state for a tokenizer with the given limit. */
export function createResync(maxRecordBytes: number, sink: ResyncSink): Resync {
  let open: OpenStretch | null = null;

  function growHead(stretch: OpenStretch, text: string, separator: string): void {
    if (stretch.head.length > EXCERPT_LENGTH) return;
    stretch.head += (separator + text).slice(0, EXCERPT_LENGTH + 1 - stretch.head.length);
  }

  /** Drops candidates that outgrew the limit at `contentEnd`, and the held lines only they needed. */
  function dropOversize(stretch: OpenStretch, contentEnd: number): void {
    // Candidates are in input order: when the oldest fits, all do.
    const oldest = stretch.candidates[0];
    if (oldest === undefined || contentEnd - oldest.offset <= maxRecordBytes) return;
    const fitting = stretch.candidates.filter((candidate) => contentEnd - candidate.offset <= maxRecordBytes);
    if (fitting.length !== stretch.candidates.length) keepCandidates(stretch, fitting);
  }

  function keepCandidates(stretch: OpenStretch, candidates: Candidate[]): void {
    stretch.candidates = candidates;
    const oldest = candidates[0];
    if (oldest === undefined) {
      stretch.held = [];
      stretch.heldLine = 0;
    } else if (oldest.line > stretch.heldLine) {
      stretch.held = stretch.held.slice(oldest.line - stretch.heldLine);
      stretch.heldLine = oldest.line;
    }
  }

  /** Adds a candidate starting on the line just read (`text`), held already if older readings were. */
  function addCandidate(stretch: OpenStretch, candidate: Candidate, text: string): void {
    if (stretch.candidates.length === 0) {
      stretch.held = [text];
      stretch.heldLine = candidate.line;
    }
    const candidates = [...stretch.candidates, candidate];
    // The stretch's own reading stays; the oldest candidate after it gives way.
    const first = candidates[0] as Candidate;
    if (candidates.length > MAX_CANDIDATES) candidates.splice(first.line === stretch.line ? 1 : 0, 1);
    keepCandidates(stretch, candidates);
  }

  /** Reports the stretch up to `end`: oversize if it outgrew the limit, else open until a new record or the end. */
  function giveUp(stretch: OpenStretch, contentEnd: number, end: number, newRecordLine?: number): void {
    const { line, offset, head } = stretch;
    if (contentEnd - offset > maxRecordBytes) {
      sink.problem('oversize', oversizeMessage(maxRecordBytes), line, offset, end, head);
    } else if (newRecordLine === undefined) {
      sink.problem('truncated', 'input ends inside a string of this record', line, offset, end, head);
    } else {
      const message = `record ends inside a string; line ${newRecordLine} starts a new record`;
      sink.problem('unterminated-string', message, line, offset, end, head);
    }
  }

  /** Reports the stretch before a record that starts at `line`, byte `offset`. */
  function giveUpForRecordAt(stretch: OpenStretch, line: number, offset: number): void {
    giveUp(stretch, offset - 1, offset, line);
  }

  function textFrom(stretch: OpenStretch, candidate: Candidate): string {
    return stretch.held.slice(candidate.line - stretch.heldLine).join('\n');
  }

  /** The strings closed on the line just held: the newest candidate that parses wins. */
  function close(stretch: OpenStretch, span: LineSpan, opensOwn: boolean, ownText: string): void {
    let oldest: { text: string; parsed: ParsedText } | undefined;
    for (let index = stretch.candidates.length - 1; index >= 0; index--) {
      const candidate = stretch.candidates[index] as Candidate;
      const text = textFrom(stretch, candidate);
      const parsed = parseRepaired(text);
      if (parsed.ok) {
        if (candidate.line > stretch.line) giveUpForRecordAt(stretch, candidate.line, candidate.offset);
        sink.record(parsed.value, text, candidate.line, candidate.offset, span.end, span.terminated);
        return;
      }
      if (candidate.line === stretch.line) oldest = { text, parsed };
    }
    if (opensOwn) {
      // The line that closed the other readings starts one of its own.
      giveUpForRecordAt(stretch, span.line, span.offset);
      openAt(ownText, span.line, span.offset);
      return;
    }
    if (oldest === undefined || oldest.parsed.ok) {
      // The stretch's own reading is dropped only when it outgrew the limit.
      sink.problem(
        'oversize',
        oversizeMessage(maxRecordBytes),
        stretch.line,
        stretch.offset,
        span.end,
        stretch.head,
      );
      return;
    }
    const { error, parsed } = oldest.parsed;
    const truncated = !span.terminated && endsEarly(error, parsed);
    sink.problem(
      truncated ? 'truncated' : 'invalid-json',
      truncated ? 'input ends inside this record' : invalidJsonMessage(error),
      stretch.line,
      stretch.offset,
      span.end,
      oldest.text,
    );
  }

  function openAt(text: string, line: number, offset: number): void {
    const stretch: OpenStretch = { line, offset, head: '', held: [text], heldLine: line, candidates: [] };
    stretch.candidates.push({ line, offset });
    growHead(stretch, text, '');
    open = stretch;
  }

  return {
    isOpen: () => open !== null,

    heldFrom() {
      const oldest = open?.candidates[0];
      return oldest === undefined ? undefined : oldest.offset;
    },

    open: openAt,

    next(text, span) {
      const stretch = open;
      if (stretch === null) return;
      const fits = span.contentEnd - span.offset <= maxRecordBytes;
      const own = fits ? readOwnLine(text) : { kind: 'neither' as const };
      if (own.kind === 'value') {
        open = null;
        giveUpForRecordAt(stretch, span.line, span.offset);
        sink.lineRecord(own.value, text, span);
        return;
      }
      growHead(stretch, text, '\n');
      if (stretch.candidates.length > 0) stretch.held.push(text);
      dropOversize(stretch, span.contentEnd);
      if (stateAfterContinuation(text) === 0) {
        open = null;
        close(stretch, span, own.kind === 'opens', text);
        return;
      }
      if (own.kind === 'opens') addCandidate(stretch, { line: span.line, offset: span.offset }, text);
      if (!span.terminated) {
        open = null;
        giveUp(stretch, span.contentEnd, span.end);
      }
    },

    detach() {
      const stretch = open;
      if (stretch === null) return null;
      open = null;
      return { line: stretch.line, offset: stretch.offset, head: stretch.head };
    },

    reopen(line, offset, head) {
      open = { line, offset, head, held: [], heldLine: 0, candidates: [] };
    },

    bound(consumed) {
      if (open !== null) dropOversize(open, consumed);
    },

    finish(end) {
      const stretch = open;
      if (stretch === null) return;
      open = null;
      // The input ended right after the stretch's last line feed.
      giveUp(stretch, end - 1, end);
    },

    reset() {
      open = null;
    },
  };
}

/**
 * Whether `JSON.parse` failed because the text ended early (a record cut short) rather than on a wrong character.
 * V8 names the end of input, or a position at the end of the text.
 */
export function endsEarly(parseError: unknown, text: string): boolean {
  if (!(parseError instanceof Error)) return false;
  const message = parseError.message;
  if (/end of (JSON )?(input|data)|unterminated string/i.test(message)) return true;
  const position = /at position (\d+)/.exec(message)?.[1];
  return position !== undefined && Number(position) >= text.trimEnd().length;
}

/** The message of an `invalid-json` problem. */
export function invalidJsonMessage(parseError: unknown): string {
  return parseError instanceof Error ? `not valid JSON: ${parseError.message}` : 'not valid JSON';
}
