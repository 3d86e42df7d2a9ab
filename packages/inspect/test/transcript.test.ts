import type { CanonicalEvent } from '@cursor-stream/core';
import { createPalette } from '@cursor-stream/inspect/terminal';
import { createTranscript, MAX_OPEN_CALLS } from '@cursor-stream/inspect/transcript';
import { describe, expect, test } from 'vitest';

function render(events: readonly CanonicalEvent[], color = false): string {
  const transcript = createTranscript(createPalette(color));
  return events.map((event) => transcript.push(event)).join('') + transcript.end();
}

const session: CanonicalEvent[] = [
  { type: 'stream-start', sessionId: 's1', model: 'Auto', cwd: '/project' },
  { type: 'user-message', text: 'Run `sleep 5`,\nthen stop.' },
  { type: 'reasoning-delta', text: '**Planning**\n\nI' },
  { type: 'reasoning-delta', text: ' will run it.' },
  { type: 'reasoning-end' },
  { type: 'text-delta', text: "I'll run " },
  { type: 'text-delta', text: 'it.' },
  {
    type: 'tool-call',
    toolCallId: 'call_1\nfc_1',
    toolName: 'shell',
    providerToolName: 'shellToolCall',
    input: { command: 'sleep 5', timeout: 10000, toolCallId: 'call_1\nfc_1' },
  },
  {
    type: 'tool-result',
    toolCallId: 'call_1\nfc_1',
    toolName: 'shell',
    providerToolName: 'shellToolCall',
    status: 'success',
    isError: false,
    output: { exitCode: 0, stdout: '' },
    durationMs: 5399,
  },
  { type: 'text-delta', text: 'Done.' },
  { type: 'finish', finishReason: 'stop', isError: false, durationMs: 21509, pendingToolCallIds: [] },
];

describe('createTranscript', () => {
  test('renders a whole session: prompt, folded reasoning, text, the tool call with its outcome, the status', () => {
    expect(render(session)).toBe(
      [
        '── session s1 · Auto · /project',
        '> Run `sleep 5`,',
        '> then stop.',
        '(thinking) **Planning** I will run it.',
        "I'll run it.",
        '● shell sleep 5',
        '    timeout=10000',
        '  ✓ shell sleep 5 success · exit 0 · 5.4 s',
        'Done.',
        '✓ done · 21.5 s',
        '',
      ].join('\n'),
    );
  });

  test("shows a finish's token counts only where they are counts", () => {
    const finish = (usage: Record<string, number>): CanonicalEvent[] => [
      { type: 'stream-start', sessionId: 's1' },
      { type: 'finish', finishReason: 'stop', isError: false, pendingToolCallIds: [], usage },
    ];
    expect(render(finish({ inputTokens: 12, outputTokens: 3 }))).toContain('✓ done · tokens 12 in, 3 out\n');
    expect(render(finish({ inputTokens: -100, outputTokens: 3 }))).toContain('✓ done · tokens 3 out\n');
    expect(render(finish({ inputTokens: -100, outputTokens: 2.5 }))).toContain('✓ done\n');
  });

  test('is plain text without a palette and colored with one', () => {
    expect(render(session)).not.toContain('\u001b[');
    expect(render(session, true)).toContain('\u001b[32m✓\u001b[39m');
  });

  test('pieces arrive as the events do, so a followed log renders live', () => {
    const transcript = createTranscript(createPalette(false));
    expect(transcript.push({ type: 'text-delta', text: 'Hel' })).toBe('Hel');
    expect(transcript.push({ type: 'text-delta', text: 'lo' })).toBe('lo');
    expect(transcript.end()).toBe('\n');
  });

  test('a failed call, a result without its call, an unknown event and an invalid line each get a line', () => {
    const text = render([
      {
        type: 'tool-result',
        toolCallId: 'x',
        toolName: 'read',
        providerToolName: 'readToolCall',
        status: 'error',
        isError: true,
        output: { errorMessage: 'File not found' },
      },
      { type: 'unknown', rawType: 'retry', rawSubtype: 'starting', raw: {} },
      {
        type: 'invalid-line',
        code: 'invalid-json',
        message: 'not JSON',
        excerpt: 'T: oops',
        loc: { line: 7, offset: 90 },
      },
      { type: 'finish', finishReason: 'incomplete', isError: true, pendingToolCallIds: ['y'] },
    ]);
    expect(text.split('\n')).toEqual([
      '  ✗ read error · File not found · no matching call',
      '· retry/starting',
      '! line 7: invalid-json: not JSON',
      '… incomplete: the log ends without a result · 1 tool call never completed',
      '',
    ]);
  });

  test('assistant messages of different model calls are set apart by a blank line', () => {
    const text = render([
      { type: 'text-delta', text: 'I wrote `probe.txt`.', modelCallId: 'm-0' },
      { type: 'text-delta', text: 'done', modelCallId: 'm-1' },
      { type: 'text-delta', text: ' now.', modelCallId: 'm-1' },
      { type: 'text-delta', text: 'Final.' },
      { type: 'text-delta', text: ' Really.' },
    ]);
    expect(text).toBe('I wrote `probe.txt`.\n\ndone now.\n\nFinal. Really.\n');
  });

  test('plumbing arguments are shown only when verbose', () => {
    const call: CanonicalEvent = {
      type: 'tool-call',
      toolCallId: 'c',
      toolName: 'shell',
      providerToolName: 'shellToolCall',
      input: { command: 'ls', toolCallId: 'c', timeout: 5 },
    };
    expect(createTranscript(createPalette(false)).push(call)).toBe('● shell ls\n    timeout=5\n');
    expect(createTranscript(createPalette(false), { verbose: true }).push(call)).toBe(
      '● shell ls\n    toolCallId=c timeout=5\n',
    );
  });

  test('a completion whose start is missing is shown like any call, from the arguments it repeats', () => {
    const orphan = {
      type: 'tool-result',
      toolCallId: 'r1',
      toolName: 'read',
      providerToolName: 'readToolCall',
      status: 'error',
      isError: true,
      output: { errorMessage: 'File not found' },
      input: { path: 'missing.txt' },
    } satisfies CanonicalEvent;
    expect(render([orphan]).split('\n')).toEqual([
      '● read missing.txt',
      '  ✗ read missing.txt error · File not found · no matching call',
      '',
    ]);
  });

  test('reconnects, retries, compactions and plans get one dim line each', () => {
    const events: CanonicalEvent[] = [
      { type: 'status', kind: 'reconnecting', attempt: 2 },
      { type: 'status', kind: 'compacting', status: 'compacting' },
      {
        type: 'interaction',
        phase: 'request',
        queryType: 'createPlanRequestQuery',
        plan: '# Plan\n\n- Observe',
      },
    ];
    expect(render(events)).toBe('· reconnecting (attempt 2)\n· compacting\n· plan: # Plan - Observe\n');
    expect(render(events, true)).toContain('\u001b[2m· reconnecting (attempt 2)\u001b[22m');
  });

  test("a failed session ends with the agent's own sentence, in red on a terminal", () => {
    const sentence = "RetriableError: [invalid_argument] unknown option '--system-prompt'";
    const failed: CanonicalEvent = {
      type: 'finish',
      finishReason: 'error',
      isError: true,
      pendingToolCallIds: [],
      failure: { message: sentence, code: 'unknown-option', loc: { line: 3, offset: 90 } },
    };
    expect(render([failed])).toBe(`✗ failed: ${sentence} (unknown-option, line 3)\n`);
    expect(render([failed], true)).toContain(
      `\u001b[31m✗ failed: ${sentence} (unknown-option, line 3)\u001b[39m`,
    );
    // Said once: the error event before the finish already holds the sentence.
    expect(render([{ type: 'error', message: sentence }, failed])).toBe(`✗ error: ${sentence}\n✗ failed\n`);
  });

  test('a session cut by the next one says where, and what the agent printed last', () => {
    const cut: CanonicalEvent = {
      type: 'finish',
      finishReason: 'incomplete',
      isError: false,
      pendingToolCallIds: [],
      loc: { line: 9, offset: 700 },
      failure: {
        message: 'ActionRequiredError: flagged this request',
        code: 'unknown',
        loc: { line: 8, offset: 650 },
      },
    };
    expect(render([cut]).split('\n')).toEqual([
      '… incomplete: no result before the next session (line 9)',
      '✗ ActionRequiredError: flagged this request (line 8)',
      '',
    ]);
  });

  test("a line of the agent's plain-text output is quoted as written", () => {
    const event: CanonicalEvent = {
      type: 'invalid-line',
      code: 'non-json-output',
      message: 'ActionRequiredError: flagged this request',
      excerpt: 'ActionRequiredError: flagged this request',
      loc: { line: 3, offset: 40 },
    };
    expect(render([event])).toBe('! line 3: non-json-output: "ActionRequiredError: flagged this request"\n');
  });

  test('control characters in assistant text cannot drive the terminal', () => {
    expect(render([{ type: 'text-delta', text: 'a\u001b[2Jb\n' }])).toBe('a\\u001b[2Jb\n');
  });
});

describe('a transcript of many sessions', () => {
  test('forgets the calls a session left open once it finishes, so they do not pile up over a long log', () => {
    const output = render([
      { type: 'stream-start', sessionId: 'a' },
      {
        type: 'tool-call',
        toolCallId: 'x',
        toolName: 'shell',
        providerToolName: 'shellToolCall',
        input: { command: 'ls' },
      },
      { type: 'finish', finishReason: 'incomplete', isError: false, pendingToolCallIds: ['x'] },
      { type: 'stream-start', sessionId: 'b' },
      {
        type: 'tool-result',
        toolCallId: 'x',
        toolName: 'shell',
        providerToolName: 'shellToolCall',
        status: 'success',
        isError: false,
        output: {},
      },
    ] as CanonicalEvent[]);
    expect(output).toContain('no matching call');
  });
});

describe('open tool calls', () => {
  test(`past ${MAX_OPEN_CALLS} the oldest is forgotten; its result is shown without its arguments, and not as a stray`, () => {
    const transcript = createTranscript(createPalette(false));
    transcript.push({ type: 'stream-start', sessionId: 's1' });
    const shell = { toolName: 'shell', providerToolName: 'shellToolCall' };
    for (let index = 0; index <= MAX_OPEN_CALLS; index++) {
      transcript.push({
        type: 'tool-call',
        toolCallId: `c${index}`,
        ...shell,
        input: { command: `echo ${index}` },
      });
    }
    const result = (id: string) =>
      transcript.push({
        type: 'tool-result',
        toolCallId: id,
        ...shell,
        status: 'success',
        isError: false,
        output: {},
      });
    const forgotten = result('c0');
    expect(forgotten).not.toContain('echo 0');
    expect(forgotten).not.toContain('no matching call');
    expect(result('c1')).toContain('echo 1');
    expect(result(`c${MAX_OPEN_CALLS}`)).toContain(`echo ${MAX_OPEN_CALLS}`);
  });
});
