import type { CanonicalEvent } from '@cursor-stream/core';
import { describe, expect, test } from 'vitest';
import { createPalette } from '../src/format/colors.ts';
import { toolArgumentDetails, toolHeadline, toolOutcomeDetails } from '../src/render/tool-lines.ts';
import { createTranscript } from '../src/render/transcript.ts';

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

  test('control characters in assistant text cannot drive the terminal', () => {
    expect(render([{ type: 'text-delta', text: 'a\u001b[2Jb\n' }])).toBe('a\\u001b[2Jb\n');
  });
});

describe('tool lines', () => {
  test('the headline is the argument that says what the call is about', () => {
    expect([
      toolHeadline({ command: 'ls -la' }),
      toolHeadline({ path: 'README.md' }),
      toolHeadline({ globPattern: '**/*.ts', targetDirectory: 'src' }),
      toolHeadline({ whatever: 1 }),
    ]).toEqual(['ls -la', 'README.md', '**/*.ts', '']);
  });

  test('the other arguments follow as key=value, without the call id echo, multi-line values as line counts', () => {
    expect(toolArgumentDetails({ path: 'a.txt', fileText: 'x\ny\nz', toolCallId: 'c1', mode: 'w' })).toBe(
      'fileText=(3 lines) mode="w"',
    );
  });

  test('outcomes show the facts a person looks for', () => {
    expect([
      toolOutcomeDetails({ exitCode: 1, stderr: 'boom\nmore' }, true),
      toolOutcomeDetails({ totalLines: 54 }, false),
      toolOutcomeDetails({ linesAdded: 3, linesRemoved: 1 }, false),
      toolOutcomeDetails({ reason: 'rejected by user' }, true),
    ]).toEqual(['exit 1, boom …', '54 lines', '+3 -1', 'rejected by user']);
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
