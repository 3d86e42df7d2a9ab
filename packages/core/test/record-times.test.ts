import { createRecordTimeIndex, recordTimes } from '@cursor-stream/core/normalize';
import { describe, expect, test } from 'vitest';

describe('recordTimes', () => {
  test('reads each dialect’s clocks', () => {
    expect(recordTimes({ type: 'thinking', subtype: 'delta', timestamp_ms: 1770823841542 })).toEqual({
      timestampMs: 1770823841542,
    });
    // The CLI from 2026.08 sends a call's own times as strings of digits.
    expect(
      recordTimes({
        type: 'tool_call',
        timestamp_ms: 1790758451145,
        tool_call: { readToolCall: {}, startedAtMs: '1790758449332', completedAtMs: '1790758451028' },
      }),
    ).toEqual({ timestampMs: 1790758451145, startedAtMs: 1790758449332, completedAtMs: 1790758451028 });
    expect(recordTimes({ type: 'system', timestamp: 1730000000100 })).toEqual({ timestampMs: 1730000000100 });
    expect(recordTimes({ type: 'system', timestamp: '2026-09-18T06:34:23.000Z' })).toEqual({
      timestampMs: Date.parse('2026-09-18T06:34:23.000Z'),
    });
    expect(recordTimes({ type: 'tool_call', data: { tool_call: { startedAtMs: 5 } } })).toEqual({
      startedAtMs: 5,
    });
    expect(recordTimes({ type: 'tool_call', payload: { toolCall: { completedAtMs: '7' } } })).toEqual({
      completedAtMs: 7,
    });
  });

  test('names nothing for records without clocks or with values that are not times', () => {
    for (const record of [
      null,
      'text',
      [1],
      { type: 'user' },
      { timestamp_ms: null, timestamp: 'yesterday' },
      { timestamp_ms: -5, tool_call: { startedAtMs: '12a' } },
      { timestamp_ms: Number.NaN },
    ]) {
      expect(recordTimes(record)).toBeUndefined();
    }
  });
});

describe('createRecordTimeIndex', () => {
  test('gives a record’s times to each of its events, and forgets records behind the line read', () => {
    const index = createRecordTimeIndex();
    index.observe(1, { timestamp_ms: 10 });
    index.observe(2, { type: 'user' });
    index.observe(3, { timestamp_ms: 30 });
    expect(index.at(1)).toEqual({ timestampMs: 10 });
    expect(index.at(1)).toEqual({ timestampMs: 10 });
    expect(index.at(2)).toBeUndefined();
    expect(index.at(3)).toEqual({ timestampMs: 30 });
    expect(index.at(1)).toBeUndefined();
  });
});
