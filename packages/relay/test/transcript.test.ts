import { readFileSync } from 'node:fs';
import type { CanonicalEvent } from '@cursor-stream/core';
import { createNormalizer } from '@cursor-stream/core';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';
import { applyEvent, createTranscript, toolLine, usageFacts } from '../page/transcript.ts';

function transcriptOf(events: readonly CanonicalEvent[]) {
  const transcript = createTranscript();
  for (const event of events) applyEvent(transcript, event);
  return transcript;
}

describe('the page transcript', () => {
  test('shows a recording as render does: prompt, streamed text, one line per tool call, the ending', () => {
    const normalizer = createNormalizer();
    const events = [...normalizer.feed(readFileSync(DOCS_EXAMPLE)), ...normalizer.end()];
    const { items } = transcriptOf(events);
    expect(items.map((item) => item.kind)).toEqual(['prompt', 'text', 'tool', 'text', 'tool', 'ending']);
    expect(items[1]).toEqual({ kind: 'text', text: '我會閱讀 README.md 檔案' });
    const tools = items.filter((item) => item.kind === 'tool');
    expect(tools.map((item) => (item.kind === 'tool' ? toolLine(item) : ''))).toEqual([
      '✓ read README.md',
      '✓ write summary.txt',
    ]);
    expect(items.at(-1)).toEqual({ kind: 'ending', state: 'succeeded', text: 'done in 5.2 s' });
  });

  test('a tool line turns from running to failed with the reason; a failed run says why', () => {
    const transcript = createTranscript();
    const call: CanonicalEvent = {
      type: 'tool-call',
      toolCallId: 'c',
      toolName: 'shell',
      providerToolName: 'shellToolCall',
      input: { command: 'python hello.py' },
    };
    expect(applyEvent(transcript, call)).toEqual([0]);
    const running = transcript.items[0];
    expect(running?.kind === 'tool' && toolLine(running)).toBe('… shell python hello.py');
    applyEvent(transcript, {
      type: 'tool-result',
      toolCallId: 'c',
      toolName: 'shell',
      providerToolName: 'shellToolCall',
      status: 'failure',
      isError: true,
      output: { exitCode: 127, stderr: 'python: command not found' },
      durationMs: 12,
    });
    const failed = transcript.items[0];
    expect(failed?.kind === 'tool' && toolLine(failed)).toBe(
      '✗ shell python hello.py (12 ms): failure (exit code 127): python: command not found',
    );
    applyEvent(transcript, {
      type: 'error',
      message: 'The relay stopped while the run was in flight; its log ends here.',
      code: 'interrupted',
    });
    applyEvent(transcript, {
      type: 'finish',
      finishReason: 'incomplete',
      isError: true,
      pendingToolCallIds: [],
    });
    expect(transcript.items.at(-1)).toEqual({
      kind: 'ending',
      state: 'failed',
      text: 'failed: The relay stopped while the run was in flight; its log ends here.',
    });
  });

  test('a failed call says why on one line of at most 200 characters, with no terminal control in it', () => {
    const transcript = createTranscript();
    applyEvent(transcript, {
      type: 'tool-result',
      toolCallId: 'c',
      toolName: 'shell',
      providerToolName: 'shellToolCall',
      status: 'failure',
      isError: true,
      output: { stderr: `\u001b[31mno\u001b[0m\n\n${'x'.repeat(400)}` },
    });
    const failed = transcript.items[0];
    const line = failed?.kind === 'tool' ? toolLine(failed) : '';
    expect(line).toMatch(/^✗ shell: failure: \\u001b\[31mno\\u001b\[0m x+…$/);
    expect([...line.slice('✗ shell: '.length)]).toHaveLength(200);
  });

  test('reasoning is one growing item; a repeated call start adds nothing', () => {
    const transcript = createTranscript();
    expect(applyEvent(transcript, { type: 'reasoning-delta', text: 'a' })).toEqual([0]);
    expect(applyEvent(transcript, { type: 'reasoning-delta', text: 'b' })).toEqual([0]);
    expect(transcript.items).toEqual([{ kind: 'reasoning', text: 'ab' }]);
    const call: CanonicalEvent = {
      type: 'tool-call',
      toolCallId: 'x',
      toolName: 'ls',
      providerToolName: 'lsToolCall',
      input: {},
    };
    applyEvent(transcript, call);
    expect(applyEvent(transcript, call)).toEqual([]);
  });

  test('tool labels say what the call is about as render does, on one bounded line', () => {
    const labelOf = (toolName: string, input: unknown): string | undefined => {
      const transcript = createTranscript();
      applyEvent(transcript, {
        type: 'tool-call',
        toolCallId: 'c',
        toolName,
        providerToolName: toolName,
        input,
      });
      const item = transcript.items[0];
      return item?.kind === 'tool' ? item.label : undefined;
    };
    expect(labelOf('grep', { pattern: 'a\nb', path: 'src' })).toBe('grep "a …" in src');
    expect(labelOf('read', { path: 'README.md', offset: 10, limit: 5 })).toBe('read README.md lines 10-14');
    expect(labelOf('mcp', { name: 'x' })).toBe('mcp x');
    expect(labelOf('shell', { command: 'rm \u202e-rf' })).toBe('shell rm \\u202e-rf');
    expect(labelOf('shell', { command: 'x'.repeat(300) })).toBe(`shell ${'x'.repeat(93)}…`);
    expect(labelOf('ls', {})).toBe('ls');
  });
});

describe('usage and cost', () => {
  test('a finished run gives its tokens and its cost at the built-in prices; an unknown model no cost', () => {
    const transcript = createTranscript();
    applyEvent(transcript, { type: 'stream-start', model: 'Composer 2.5' });
    expect(usageFacts(transcript)).toBeUndefined();
    const usage = { inputTokens: 9681, outputTokens: 1000, cacheReadTokens: 56018, cacheWriteTokens: 0 };
    applyEvent(transcript, {
      type: 'finish',
      finishReason: 'stop',
      isError: false,
      pendingToolCallIds: [],
      usage,
    });
    // 9681 * 0.5 + 1000 * 2.5 + 56018 * 0.2 = 18544.1 dollars per million tokens
    expect(usageFacts(transcript)).toEqual({
      tokens: '9,681 in · 1,000 out · 56,018 cache read · 0 cache write',
      cost: '$0.0185 at Composer 2.5 prices',
      priced: true,
    });
    transcript.model = 'Some Model 9';
    expect(usageFacts(transcript)?.cost).toBe('cost unknown: no price for Some Model 9');
  });
});
