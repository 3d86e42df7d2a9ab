import type { CanonicalEvent } from '@cursor-stream/core';
import { describe, expect, test } from 'vitest';
import { createTimeline } from '../src/report/timeline.ts';

/** The left edge (in % of the axis) of each bar of a kind, in the order drawn. */
function lefts(html: string, kind: string): number[] {
  return [...html.matchAll(new RegExp(`class="bar ${kind} [a-z]+" data-left="([0-9.]+)%"`, 'g'))].map(
    (match) => Number(match[1]),
  );
}

describe('the report timeline on one clock', () => {
  // The CLI's clock (`timestamp_ms`) and the tool's (`startedAtMs`/`completedAtMs`) 3.8 s apart, as in real captures.
  const skew = 3800;
  const events: [CanonicalEvent, { timestampMs?: number; startedAtMs?: number; completedAtMs?: number }][] = [
    [{ type: 'text-delta', text: 'Reading it.' }, { timestampMs: 1000 }],
    [
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'read',
        providerToolName: 'readToolCall',
        input: { path: 'a' },
      },
      { timestampMs: 1100, startedAtMs: 1100 + skew },
    ],
    [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'read',
        providerToolName: 'readToolCall',
        status: 'success',
        isError: false,
        output: {},
      },
      { timestampMs: 1300, completedAtMs: 1300 + skew },
    ],
    [{ type: 'text-delta', text: 'It says hi.' }, { timestampMs: 2000 }],
  ];

  test('a tool call is drawn between the text before it and the text after it', () => {
    const timeline = createTimeline(100);
    for (const [event, times] of events) timeline.push(event, times);
    const html = timeline.html();
    const [tool] = lefts(html, 'tool');
    const [before, after] = lefts(html, 'model');
    expect(tool).toBeDefined();
    expect(tool).toBeGreaterThan(before ?? Infinity);
    expect(tool).toBeLessThan(after ?? -Infinity);
  });

  test("a completion without a time of its own takes the call's length from the tool's clock", () => {
    const timeline = createTimeline(100);
    const [text, call, result, later] = events;
    if (text === undefined || call === undefined || result === undefined || later === undefined)
      throw new Error();
    timeline.push(...text);
    timeline.push(...call);
    timeline.push(result[0], { completedAtMs: 1300 + skew });
    timeline.push(...later);
    // 1000 to 2000 on the axis: the bar starts at 1100 (10%) and lasts 200 ms (20%).
    expect(timeline.html()).toMatch(/class="bar tool ok" data-left="10(\.0+)?%" data-width="20(\.0+)?%"/);
  });

  test('calls past the bars drawn are counted once, with their completions, and a completion without a call too', () => {
    const timeline = createTimeline(2);
    const call = (id: string): CanonicalEvent => ({
      type: 'tool-call',
      toolCallId: id,
      toolName: 'read',
      providerToolName: 'readToolCall',
      input: {},
    });
    const result = (id: string): CanonicalEvent => ({
      type: 'tool-result',
      toolCallId: id,
      toolName: 'read',
      providerToolName: 'readToolCall',
      status: 'success',
      isError: false,
      output: {},
    });
    for (let index = 0; index < 5; index++) {
      timeline.push(call(`c${index}`), undefined);
      timeline.push(result(`c${index}`), undefined);
    }
    timeline.push(result('never-started'), undefined);
    // Five calls and one lone completion, two drawn: four not drawn.
    expect(timeline.html()).toContain('4 more bars not drawn (4 tool calls)');
  });
});
