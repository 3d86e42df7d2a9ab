import { relative } from 'node:path';
import { createUIMessageEncoder, toolErrorText, UNFINISHED_TOOL_ERROR_TEXT } from '@cursor-stream/ai-sdk';
import type { CanonicalEvent, SessionSummary } from '@cursor-stream/core';
import { CORPUS_DIR, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { uiMessageChunkSchema } from 'ai';
import { describe, expect, test } from 'vitest';
import { partText, readAsAiSdk, readRecording, recordingsIn, toolParts } from './support.ts';

function joined(events: readonly CanonicalEvent[], type: 'text-delta' | 'reasoning-delta'): string {
  return events.map((event) => (event.type === type ? event.text : '')).join('');
}

/** The state and error text a call's tool part must end in, from the session reducer's view of the call. */
function expectedTool(events: readonly CanonicalEvent[], call: SessionSummary['toolCalls'][number]) {
  if (call.status === 'pending') return { state: 'output-error', errorText: UNFINISHED_TOOL_ERROR_TEXT };
  const result = events.findLast(
    (event): event is Extract<CanonicalEvent, { type: 'tool-result' }> =>
      event.type === 'tool-result' && event.toolCallId === call.toolCallId,
  );
  if (result === undefined) throw new Error(`no result for ${call.toolCallId}`);
  return result.isError
    ? { state: 'output-error', errorText: toolErrorText(result) }
    : { state: 'output-available', output: result.output };
}

async function checkRecording(path: string): Promise<void> {
  const { events, sessions } = readRecording(path);
  const { message, errors } = await readAsAiSdk(events);
  // The reader shows a message once it has a part; a run that said nothing has none.
  if (message !== undefined) expect(message.role).toBe('assistant');
  expect(partText(message, 'text')).toBe(sessions.map((session) => session.text).join(''));
  expect(partText(message, 'text')).toBe(joined(events, 'text-delta'));
  expect(partText(message, 'reasoning')).toBe(joined(events, 'reasoning-delta'));

  const allCalls = sessions.flatMap((session) => session.toolCalls);
  const parts = toolParts(message);
  // A part names its call by id alone: calls a capture gives one id (an excerpt's "…") are one part.
  const unique = (ids: string[]) => [...new Set(ids)].sort();
  expect(unique(parts.map((part) => part.toolCallId))).toEqual(
    unique(allCalls.map((call) => call.toolCallId)),
  );
  const calls = allCalls.filter(
    (call) => allCalls.filter((other) => other.toolCallId === call.toolCallId).length === 1,
  );
  for (const call of calls) {
    const part = parts.find((candidate) => candidate.toolCallId === call.toolCallId);
    expect(part?.toolName).toBe(call.toolName);
    expect(part).toMatchObject(expectedTool(events, call));
  }

  // A failed run reports why, once, as the AI SDK's error, and so does one that ended without a result after the
  // agent said why; a successful one reports nothing.
  const failed = events.some(
    (event) =>
      event.type === 'error' || (event.type === 'finish' && (event.isError || event.failure !== undefined)),
  );
  expect(errors).toHaveLength(failed ? 1 : 0);

  // Every chunk as it goes over the wire (JSON, as SSE sends it) is one the AI SDK's own schema accepts: `useChat`
  // validates each and stops the stream at the first it refuses.
  const encoder = createUIMessageEncoder();
  const chunks = [...events.flatMap((event) => encoder.encode(event)), ...encoder.end()];
  const schema = uiMessageChunkSchema();
  for (const chunk of chunks) {
    const checked = await schema.validate?.(JSON.parse(JSON.stringify(chunk)));
    expect(checked?.success, JSON.stringify(chunk)).toBe(true);
  }
}

describe("this repository's recordings through the AI SDK's readUIMessageStream", () => {
  for (const path of recordingsIn(CORPUS_DIR)) {
    test(relative(CORPUS_DIR, path), () => checkRecording(path));
  }
});

describe.skipIf(!REAL_CORPUS.present)(
  `real recordings through the AI SDK's readUIMessageStream ${REAL_CORPUS.needs}`,
  () => {
    for (const path of REAL_CORPUS.present ? recordingsIn(REAL_CORPUS.path) : []) {
      test(relative(REAL_CORPUS.path, path), () => checkRecording(path));
    }
  },
);

describe('events built by hand, as an app may build them', () => {
  test('a tool result without an output is a chunk the AI SDK takes, its output null', async () => {
    const encoder = createUIMessageEncoder();
    const events: CanonicalEvent[] = [
      { type: 'stream-start' },
      {
        type: 'tool-call',
        toolCallId: 'a',
        toolName: 'shell',
        providerToolName: 'shellToolCall',
        input: { command: 'ls' },
      },
      {
        type: 'tool-result',
        toolCallId: 'a',
        toolName: 'shell',
        providerToolName: 'shellToolCall',
        status: 'success',
        output: undefined,
        isError: false,
      },
      { type: 'finish', finishReason: 'stop', isError: false, pendingToolCallIds: [] },
    ];
    const chunks = [...events.flatMap((event) => encoder.encode(event)), ...encoder.end()];
    const schema = uiMessageChunkSchema();
    for (const chunk of chunks) {
      const checked = await schema.validate?.(JSON.parse(JSON.stringify(chunk)));
      expect(checked?.success, JSON.stringify(chunk)).toBe(true);
    }
    expect(chunks).toContainEqual(expect.objectContaining({ type: 'tool-output-available', output: null }));
  });
});
