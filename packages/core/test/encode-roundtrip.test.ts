import {
  type CanonicalEvent,
  type Dialect,
  officialDialect,
  payloadEnvelopeDialect,
  pythonWrapperDialect,
} from '@cursor-stream/core';
import {
  ARM_RESULTS,
  canonicalLog,
  type DialectProfile,
  WRAPPER_RESULTS,
} from '@cursor-stream/test-kit/canonical-sessions';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { normalizeChunks, withoutLoc } from './support.ts';

const CLI_TOOLS = [
  ['shell', 'shellToolCall'],
  ['read', 'readToolCall'],
  ['web-search', 'webSearchToolCall'],
  ['todo', 'updateTodosToolCall'],
  ['semSearch', 'semSearchToolCall'],
] as const;

/**
 * The events the CLI-shaped dialects cannot say, as their encoders state: a turn's usage and a plan's progress come
 * from other channels.
 */
const UNSAID_BY_CLI_RECORDS = new Set(['usage', 'plan']);

const PROFILES: readonly [Dialect, DialectProfile][] = [
  [
    officialDialect as Dialect,
    { tools: CLI_TOOLS, toolResult: ARM_RESULTS, modelCallIds: true, channelEvents: true },
  ],
  [
    pythonWrapperDialect as Dialect,
    {
      tools: [
        ['shell', 'Shell'],
        ['edit', 'StrReplace'],
        ['ls', 'LS'],
        ['semanticSearch', 'SemanticSearch'],
      ],
      toolResult: WRAPPER_RESULTS,
      modelCallIds: false,
      channelEvents: true,
    },
  ],
  [
    payloadEnvelopeDialect as Dialect,
    {
      tools: [...CLI_TOOLS, ['write', 'writeFileToolCall']],
      toolResult: ARM_RESULTS,
      modelCallIds: true,
      channelEvents: true,
    },
  ],
];

describe('encoders', () => {
  for (const [dialect, profile] of PROFILES) {
    test.prop([canonicalLog(profile), fc.array(fc.nat(), { maxLength: 8 })])(
      `canonical sessions encoded as ${dialect.name} and fed back in any chunks give the same events, but for usage and plans`,
      (events, cuts) => {
        const records = dialect.encode?.(events) ?? [];
        const text = ndjson(records);
        const { events: decoded } = normalizeChunks(
          cutAt(
            text,
            cuts.map((cut) => cut % (text.length + 1)),
          ),
        );
        expect(withoutLoc(decoded)).toEqual(events.filter((event) => !UNSAID_BY_CLI_RECORDS.has(event.type)));
      },
    );
  }

  test('every error of a failed session goes into its result, not only the last, and reads back with its text', () => {
    const events: CanonicalEvent[] = [
      { type: 'stream-start', sessionId: 's' },
      { type: 'error', message: 'connection lost', sessionId: 's' },
      { type: 'text-delta', text: 'retrying', sessionId: 's' },
      { type: 'error', message: 'gave up', sessionId: 's' },
      { type: 'finish', finishReason: 'error', isError: true, pendingToolCallIds: [], sessionId: 's' },
    ];
    const [official] = (officialDialect.encode?.(events) ?? []).filter((record) => record.type === 'result');
    expect(official?.errors).toEqual(['connection lost', 'gave up']);
    const [wrapper] = (pythonWrapperDialect.encode?.(events) ?? []).filter(
      (record) => record.type === 'result',
    );
    expect(wrapper?.error).toBe('connection lost\ngave up');
    for (const dialect of [officialDialect, pythonWrapperDialect] as Dialect[]) {
      const decoded = normalizeChunks([ndjson(dialect.encode?.(events) ?? [])]).events;
      expect(decoded.filter((event) => event.type === 'error').map((event) => event.message)).toEqual([
        'connection lost\ngave up',
      ]);
    }
  });
});
