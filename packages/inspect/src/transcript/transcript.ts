/**
 * The transcript as `render` writes it: canonical events in, readable text out, incrementally, so that a live session
 * shows as it happens. Assistant text streams as it arrives; reasoning is held until it ends and then folded to one
 * line.
 */

import {
  type CanonicalEvent,
  type FailureReason,
  type FinishEvent,
  type TextDeltaEvent,
  type ToolCallEvent,
  type ToolResultEvent,
  unreachable,
} from '@cursor-stream/core/events';
import { checkUsage } from '@cursor-stream/core/normalize';
import {
  escapeControls,
  escapeControlsKeepingLines,
  foldToOneLine,
  formatDuration,
  plural,
  truncate,
} from '@cursor-stream/core/text';
import { toolArgumentDetails, toolHeadline, toolOutcomeDetails } from '@cursor-stream/core/tools';
import { findingMessage } from '../finding-message.ts';
import type { Palette } from '../terminal/index.ts';
import { failureText, interactionText, planText, statusText, usageText } from './run-status-lines.ts';

/** Reasoning held for the preview: whitespace folds away, so more than the preview is kept, but not all of it. */
const REASONING_HELD_LENGTH = 64 * 1024;

/** Longest folded reasoning line, in characters. */
const REASONING_PREVIEW_LENGTH = 160;

/**
 * Open tool calls remembered per session, for their results' headlines. A log of calls that never complete would
 * otherwise hold every one of them, arguments and all; far above the calls a real turn leaves open at once.
 */
export const MAX_OPEN_CALLS = 4096;

/** Reasoning as a transcript previews it: folded to one escaped line, cut to a length. */
export function reasoningPreview(text: string): string {
  return truncate(foldToOneLine(text), REASONING_PREVIEW_LENGTH);
}

/** Turns canonical events into transcript text, a piece at a time. */
export interface Transcript {
  /** The text an event adds (possibly empty). */
  push(event: CanonicalEvent): string;
  /** What is still held (reasoning not yet ended, an unfinished text line) at the end of input. */
  end(): string;
}

/** Options of {@link createTranscript}. */
export interface TranscriptOptions {
  /** Also show the plumbing arguments of tool calls (call id echoes, parsed commands, runner settings). */
  readonly verbose?: boolean;
}

function failureAt(failure: FailureReason): { message: string; code: string; line: number | null } {
  return { message: failure.message, code: failure.code, line: failure.loc?.line ?? null };
}

/**
 * The line that opens a log's transcript when several logs are rendered one after the other, so that a reader sees
 * where one log ends and the next begins.
 */
export function transcriptFileHeader(file: string, palette: Palette): string {
  return `${palette.bold(`══ ${escapeControls(file)}`)}\n`;
}

/** Creates a {@link Transcript} styled with `palette`. */
export function createTranscript(palette: Palette, options: TranscriptOptions = {}): Transcript {
  const verbose = options.verbose === true;
  let reasoning: string[] = [];
  let reasoningLength = 0;
  // Assistant text may stop mid-line; the next block starts on a line of its own.
  let atLineStart = true;
  // The model call of the assistant text written last, while nothing else came after it: a message from another
  // model call is set apart by a blank line instead of being glued on.
  let textModelCall: { id: string | undefined } | null = null;
  // What the session's last error event said, so that its finish does not say it again.
  let lastErrorMessage: string | undefined;
  // Tool calls by id, so that a result names the call it completes even when calls interleave.
  const calls = new Map<string, ToolCallEvent>();
  // Whether this session had calls forgotten past MAX_OPEN_CALLS: a result then may complete one of them.
  let forgotCalls = false;

  function block(lines: readonly string[]): string {
    const lead = atLineStart ? '' : '\n';
    atLineStart = true;
    textModelCall = null;
    return `${flushReasoning()}${lead}${lines.map((line) => `${line}\n`).join('')}`;
  }

  function flushReasoning(): string {
    if (reasoning.length === 0) return '';
    const folded = reasoningPreview(reasoning.join(''));
    reasoning = [];
    reasoningLength = 0;
    const lead = atLineStart ? '' : '\n';
    atLineStart = true;
    return folded === '' ? '' : `${lead}${palette.dim(`(thinking) ${folded}`)}\n`;
  }

  function text(event: TextDeltaEvent): string {
    if (event.text === '') return '';
    const held = flushReasoning();
    const separator =
      textModelCall?.id !== undefined && textModelCall.id !== event.modelCallId ? messageBreak() : '';
    textModelCall = { id: event.modelCallId };
    atLineStart = event.text.endsWith('\n');
    return held + separator + escapeControlsKeepingLines(event.text);
  }

  /** Ends the text written so far and leaves one blank line. */
  function messageBreak(): string {
    return atLineStart ? '\n' : '\n\n';
  }

  function callLines(toolName: string, input: unknown): string[] {
    const headline = toolHeadline(toolName, input);
    const details = toolArgumentDetails(toolName, input, verbose);
    const title = `${palette.cyan('●')} ${palette.bold(escapeControls(toolName))}${headline === '' ? '' : ` ${headline}`}`;
    return details === '' ? [title] : [title, palette.dim(`    ${details}`)];
  }

  function toolCall(event: ToolCallEvent): string {
    calls.delete(event.toolCallId);
    calls.set(event.toolCallId, event);
    // Calls that never complete must not pile up: the oldest open one gives way.
    if (calls.size > MAX_OPEN_CALLS) {
      const oldest = calls.keys().next();
      if (oldest.done !== true) calls.delete(oldest.value);
      forgotCalls = true;
    }
    return block(callLines(event.toolName, event.input));
  }

  function toolResult(event: ToolResultEvent): string {
    const call = calls.get(event.toolCallId);
    calls.delete(event.toolCallId);
    // A completion whose start is not in the log may repeat the call's arguments: it is shown like any call.
    const orphanInput = call === undefined && 'input' in event ? event.input : undefined;
    const input = call === undefined ? orphanInput : call.input;
    const mark = event.isError ? palette.red('✗') : palette.green('✓');
    const headline = toolHeadline(call?.toolName ?? event.toolName, input);
    const subject = `${escapeControls(event.toolName)}${headline === '' ? '' : ` ${headline}`}`;
    const facts = [
      event.isError ? palette.red(event.status) : event.status,
      toolOutcomeDetails(event.output, event.isError),
      event.durationMs === undefined ? '' : formatDuration(event.durationMs),
      call === undefined && !forgotCalls ? palette.yellow('no matching call') : '',
    ].filter((fact) => fact !== '');
    const result = `  ${mark} ${palette.dim(truncate(subject, 60))} ${facts.join(' · ')}`;
    return block(orphanInput === undefined ? [result] : [...callLines(event.toolName, orphanInput), result]);
  }

  /** The first part of a finish line: how the session ended, and the agent's sentence when it failed. */
  function outcome(event: FinishEvent): string[] {
    if (event.finishReason === 'stop' && !event.isError) return [palette.green('✓ done')];
    // The sentence is shown once: an error event may have said it already.
    const failure =
      event.failure !== undefined && event.failure.message !== lastErrorMessage ? event.failure : undefined;
    if (event.finishReason !== 'incomplete')
      return [
        palette.red(failure === undefined ? '✗ failed' : `✗ failed: ${failureText(failureAt(failure))}`),
      ];
    const cut =
      event.loc === undefined
        ? 'the log ends without a result'
        : `no result before the next session (line ${event.loc.line})`;
    const lines = [palette.yellow(`… incomplete: ${cut}`)];
    return failure === undefined ? lines : [...lines, palette.red(`✗ ${failureText(failureAt(failure))}`)];
  }

  function finish(event: FinishEvent): string {
    // Calls still open when their session ends never complete: a log of many sessions must not pile them up.
    calls.clear();
    forgotCalls = false;
    const [first = '', ...more] = outcome(event);
    const parts = [first];
    if (event.durationMs !== undefined) parts.push(formatDuration(event.durationMs));
    // The counts as every total counts them: a negative or fractional one is no number of tokens to show.
    const usage = checkUsage(event.usage).usage;
    const counts = [
      usage?.inputTokens === undefined ? undefined : `${usage.inputTokens} in`,
      usage?.outputTokens === undefined ? undefined : `${usage.outputTokens} out`,
    ].filter((count) => count !== undefined);
    if (counts.length > 0) parts.push(`tokens ${counts.join(', ')}`);
    if (event.pendingToolCallIds.length > 0) {
      parts.push(palette.yellow(`${plural(event.pendingToolCallIds.length, 'tool call')} never completed`));
    }
    lastErrorMessage = undefined;
    return block([parts.join(' · '), ...more]);
  }

  function push(event: CanonicalEvent): string {
    switch (event.type) {
      case 'stream-start': {
        const facts = [event.sessionId, event.model, event.cwd].filter((fact) => fact !== undefined);
        return block([palette.dim(`── session ${escapeControls(facts.join(' · '))}`)]);
      }
      case 'user-message':
        return block(
          escapeControlsKeepingLines(event.text)
            .split('\n')
            .map((line) => palette.bold(palette.blue(`> ${line}`))),
        );
      case 'reasoning-delta':
        // Only a one-line preview is shown, so a long reasoning is not held whole.
        if (reasoningLength < REASONING_HELD_LENGTH) {
          reasoning.push(event.text);
          reasoningLength += event.text.length;
        }
        return '';
      case 'reasoning-end':
        return flushReasoning();
      case 'text-delta':
        return text(event);
      case 'tool-call':
        return toolCall(event);
      case 'tool-result':
        return toolResult(event);
      case 'finish':
        return finish(event);
      case 'error':
        lastErrorMessage = event.message;
        return block([palette.red(`✗ error: ${foldToOneLine(event.message)}`)]);
      case 'status':
        return block([palette.dim(`· ${escapeControls(statusText(event))}`)]);
      case 'interaction':
        return block([palette.dim(`· ${escapeControls(interactionText(event))}`)]);
      case 'usage':
        return block([palette.dim(`· ${escapeControls(usageText(event))}`)]);
      case 'plan':
        return block([palette.dim(`· ${escapeControls(planText(event))}`)]);
      case 'unknown': {
        const type = event.rawSubtype === undefined ? event.rawType : `${event.rawType}/${event.rawSubtype}`;
        return block([palette.dim(`· ${escapeControls(type)}`)]);
      }
      case 'invalid-line': {
        const where = event.loc === undefined ? '' : `line ${event.loc.line}: `;
        const message = findingMessage({ code: event.code, message: foldToOneLine(event.message) });
        return block([palette.yellow(`! ${where}${event.code}: ${message}`)]);
      }
      default:
        return unreachable(event) ?? '';
    }
  }

  function end(): string {
    const held = flushReasoning();
    if (atLineStart) return held;
    atLineStart = true;
    return `${held}\n`;
  }

  return { push, end };
}
