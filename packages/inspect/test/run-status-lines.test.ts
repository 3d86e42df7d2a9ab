import { failureText, interactionText, statusText } from '@cursor-stream/inspect/transcript';
import { describe, expect, test } from 'vitest';

describe('run status lines', () => {
  test('say what happened to the run, with the attempt', () => {
    expect([
      statusText({ kind: 'reconnecting', attempt: 2 }),
      statusText({ kind: 'reconnected' }),
      statusText({ kind: 'retry-starting', attempt: 1 }),
      statusText({ kind: 'retry-resuming', attempt: 1, isResume: true, checkpointTurnCount: 3 }),
      statusText({ kind: 'retry-resuming' }),
      statusText({ kind: 'retry-scheduled', attempt: 2 }),
      statusText({ kind: 'compacting', status: 'compacting' }),
      statusText({ kind: 'background-shell-timeout', message: 'sleep 999\ntimed out' }),
      statusText({ kind: 'status', status: 'warming-up' }),
    ]).toEqual([
      'reconnecting (attempt 2)',
      'reconnected',
      'retrying (attempt 1)',
      'resuming the turn (attempt 1, 3 turns kept)',
      'resuming the turn',
      'retry scheduled (attempt 2)',
      'compacting',
      'background shell timed out: sleep 999 timed out',
      'status warming-up',
    ]);
  });

  test("say which background task finished, how, and its answer, from the CLI's task notification", () => {
    expect([
      statusText({
        kind: 'task-notification',
        status: 'success',
        extraFields: {
          task_id: '5139d3d6',
          title: 'count files',
          detail: 'There are 2 files:\na.txt and b.txt.',
        },
      }),
      statusText({ kind: 'task-notification', extraFields: { title: ' ', detail: 42 } }),
      statusText({ kind: 'task-notification', status: 'error', message: 'it failed' }),
    ]).toEqual([
      'task notification (success): count files: There are 2 files: a.txt and b.txt.',
      'task notification',
      'task notification (error): it failed',
    ]);
  });

  test('show a plan folded to one line, a question by its type and an answer with its reason', () => {
    expect([
      interactionText({
        phase: 'request',
        queryType: 'createPlanRequestQuery',
        plan: '# Plan: Birds\n\n- Observe\n- Write',
      }),
      interactionText({ phase: 'request', queryType: 'shellRequestQuery' }),
      interactionText({
        phase: 'response',
        outcome: 'rejected',
        reason: 'Questions skipped by the user, continue with the information you already have',
      }),
      interactionText({ phase: 'response' }),
    ]).toEqual([
      'plan: # Plan: Birds - Observe - Write',
      'asks: shellRequestQuery',
      'answered: rejected: Questions skipped by the user, continue with the information you already have',
      'answered',
    ]);
  });

  test("the failure sentence is the agent's words on one line, with its line", () => {
    expect(
      failureText({
        message: "RetriableError: [invalid_argument] unknown option '--system-prompt'",
        line: 3,
      }),
    ).toBe("RetriableError: [invalid_argument] unknown option '--system-prompt' (line 3)");
    expect(failureText({ message: 'usage limit\nreached', line: null })).toBe('usage limit reached');
  });
});
