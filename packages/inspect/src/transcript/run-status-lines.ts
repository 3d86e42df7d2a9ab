/**
 * One-line descriptions of what happened to a run besides the conversation (a reconnect, a retry, a compaction), of
 * the agent's questions and their answers (a plan in `--mode plan`), and of the sentence a failed run ends with.
 */

import type { PlanEvent, UsageEvent } from '@cursor-stream/core/events';
import { foldToOneLine, formatCount, plural, truncate } from '@cursor-stream/core/text';

/** Longest plan, reason or message shown on one line. */
const MAX_LINE_LENGTH = 160;

/** What a status line reads of a `status` event. */
export interface RunStatus {
  readonly kind: string;
  readonly attempt?: number;
  readonly isResume?: boolean;
  readonly checkpointTurnCount?: number;
  readonly status?: string;
  readonly message?: string;
  /** The record's fields the event does not name: a task notification's `title` and `detail` are here. */
  readonly extraFields?: Readonly<Record<string, unknown>>;
}

/** What an interaction line reads of an `interaction` event. */
export interface RunInteraction {
  readonly phase: string;
  readonly queryType?: string;
  readonly plan?: string;
  readonly outcome?: string;
  readonly reason?: string;
}

function oneLine(text: string): string {
  return truncate(foldToOneLine(text), MAX_LINE_LENGTH);
}

function attempt(status: RunStatus): string {
  return status.attempt === undefined ? '' : ` (attempt ${status.attempt})`;
}

function withMessage(text: string, message: string | undefined): string {
  return message === undefined || message.trim() === '' ? text : `${text}: ${oneLine(message)}`;
}

const STATUS_TEXTS: Readonly<Record<string, (status: RunStatus) => string>> = {
  reconnecting: (status) => `reconnecting${attempt(status)}`,
  reconnected: (status) => `reconnected${attempt(status)}`,
  'retry-starting': (status) => `retrying${attempt(status)}`,
  'retry-resuming': (status) => {
    const kept =
      status.checkpointTurnCount === undefined ? '' : `, ${plural(status.checkpointTurnCount, 'turn')} kept`;
    const detail = status.attempt === undefined ? kept.slice(2) : `attempt ${status.attempt}${kept}`;
    return `resuming the turn${detail === '' ? '' : ` (${detail})`}`;
  },
  'retry-scheduled': (status) => `retry scheduled${attempt(status)}`,
  compacting: () => 'compacting',
  'compact-boundary': () => 'compacted: the conversation goes on from a summary',
  'background-shell-timeout': (status) => withMessage('background shell timed out', status.message),
  'task-notification': taskNotificationText,
};

/**
 * `task notification (success): count files: There are 2 files.`: which task finished, how, and its answer. The CLI
 * names the task in `title` and writes the subagent's last text in `detail`, fields a status event keeps as they came.
 */
function taskNotificationText(status: RunStatus): string {
  const extra = status.extraFields;
  const title =
    typeof extra?.title === 'string' && extra.title.trim() !== '' ? oneLine(extra.title) : undefined;
  const detail = typeof extra?.detail === 'string' ? extra.detail : undefined;
  const how = status.status === undefined ? '' : ` (${oneLine(status.status)})`;
  const head = `task notification${how}`;
  const withTitle = title === undefined ? head : `${head}: ${title}`;
  return withMessage(withTitle, status.message ?? detail);
}

/** `reconnecting (attempt 2)`, `retrying (attempt 1)`, `compacting`, ...: what happened to the run. */
export function statusText(status: RunStatus): string {
  const known = STATUS_TEXTS[status.kind];
  if (known !== undefined) return known(status);
  return withMessage(`status ${status.status ?? status.kind}`, status.message);
}

/** `plan: …` for a plan the agent proposes, `asks: …` for another question, `answered: …` for the answer. */
export function interactionText(interaction: RunInteraction): string {
  if (interaction.plan !== undefined && interaction.plan.trim() !== '')
    return `plan: ${oneLine(interaction.plan)}`;
  if (interaction.phase === 'request') return `asks: ${interaction.queryType ?? 'a question'}`;
  const verb = interaction.phase === 'response' ? 'answered' : interaction.phase;
  const answer = interaction.outcome === undefined ? verb : `${verb}: ${interaction.outcome}`;
  return withMessage(answer, interaction.reason);
}

/**
 * The agent's sentence saying why the run failed, on one line, with its class (when the table of the CLI's sentences
 * knows it) and where it is in the log: `… unknown option '--system-prompt' (unknown-option, line 12)`.
 */
export function failureText(failure: {
  readonly message: string;
  readonly code?: string | undefined;
  readonly line?: number | null;
}): string {
  const notes = [
    ...(failure.code === undefined || failure.code === 'unknown' ? [] : [failure.code]),
    ...(failure.line === undefined || failure.line === null ? [] : [`line ${failure.line}`]),
  ];
  return `${foldToOneLine(failure.message)}${notes.length === 0 ? '' : ` (${notes.join(', ')})`}`;
}

function counted(label: string, count: number | null | undefined): string | undefined {
  return count === null || count === undefined ? undefined : `${formatCount(count)} ${label}`;
}

/** `usage: 1,200 in, 80 out · context 12,000 of 200,000 · cost 0.02 USD`: what a usage report says it knows. */
export function usageText(usage: UsageEvent): string {
  const { tokens, context, cost } = usage;
  const parts = [
    tokens === undefined
      ? undefined
      : [
          counted('in', tokens.inputTokens),
          counted('out', tokens.outputTokens),
          counted('cache read', tokens.cacheReadTokens),
          counted('cache write', tokens.cacheWriteTokens),
          counted('reasoning', tokens.reasoningTokens),
        ]
          .filter((part) => part !== undefined)
          .join(', ') || undefined,
    context === undefined || context.used === null
      ? undefined
      : `context ${formatCount(context.used)}${context.size === null ? '' : ` of ${formatCount(context.size)}`}`,
    cost === undefined || cost.amount === null
      ? undefined
      : `cost ${cost.amount} ${cost.currency ?? ''}`.trim(),
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? 'usage: not reported' : `usage: ${parts.join(' · ')}`;
}

/** `plan (3): ✓ first · … second · ○ third`: the plan as it stands, on one line. */
export function planText(plan: PlanEvent): string {
  const mark = (status: string): string =>
    /complete|done/i.test(status) ? '✓' : /progress/i.test(status) ? '…' : '○';
  return oneLine(
    `plan (${plan.entries.length}): ${plan.entries.map((e) => `${mark(e.status)} ${e.content}`).join(' · ')}`,
  );
}
