/**
 * The mapping of canonical events to `HarnessV1StreamPart`s on its own: over every recording and over any event
 * sequence, each part is valid by the harness package's own schema, the parts are well formed the way
 * `HarnessAgent` needs them, nothing is dropped, and the usage is the log's, with nothing it does not say.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HARNESS_V1_BUILTIN_TOOLS, type HarnessV1StreamPart } from '@ai-sdk/harness';
import {
  createTurnParts,
  cursorBuiltinTools,
  cursorUsage,
  type TurnEnding,
} from '@cursor-stream/ai-sdk/harness';
import type { CanonicalEvent, FinishEvent } from '@cursor-stream/core';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { build } from 'esbuild';
import { describe, expect, test } from 'vitest';
import { noNodeBuiltins } from '../../core/test/browser/bundle-for-browser.ts';
import { schemaProblems } from './harness-support.ts';
import { CORPUS_DIR, REAL_CORPUS_DIR, readRecording, recordingsIn } from './support.ts';

const HARNESS_ID = 'cursor-stream';

/** A turn's parts: every event mapped, the last `finish` ending the turn (as the run's own final event does). */
function partsOf(events: readonly CanonicalEvent[], ending?: TurnEnding): HarnessV1StreamPart[] {
  const parts = createTurnParts({ harnessId: HARNESS_ID, model: 'asked-for' });
  const last = events.findLastIndex((event) => event.type === 'finish');
  const finish = last === -1 ? undefined : (events[last] as FinishEvent);
  const out = events.flatMap((event, index) => (index === last ? [] : parts.map(event)));
  return [...out, ...parts.end(ending ?? { ok: true, finish, chatId: 'chat' })];
}

/** The joined deltas of one kind of part. */
function deltas(parts: readonly HarnessV1StreamPart[], type: 'text-delta' | 'reasoning-delta'): string {
  return parts.map((part) => (part.type === type ? part.delta : '')).join('');
}

function texts(events: readonly CanonicalEvent[], type: 'text-delta' | 'reasoning-delta'): string {
  return events.map((event) => (event.type === type ? event.text : '')).join('');
}

/** What `HarnessAgent` needs of a turn's parts. */
function expectWellFormed(parts: readonly HarnessV1StreamPart[], failed = false): void {
  expect(schemaProblems(parts)).toEqual([]);
  expect(parts[0]?.type).toBe('stream-start');
  expect(parts.filter((part) => part.type === 'stream-start')).toHaveLength(1);
  // The turn ends with its step closed, then `finish`, or one `error`.
  expect(parts.slice(-2).map((part) => part.type)).toEqual(['finish-step', failed ? 'error' : 'finish']);
  expect(parts.filter((part) => part.type === 'finish' || part.type === 'error')).toHaveLength(1);
  let open: string | undefined;
  const calls = new Map<string, 'called' | 'done'>();
  for (const part of parts) {
    if (part.type === 'text-start' || part.type === 'reasoning-start') {
      expect(open).toBeUndefined();
      open = part.id;
    } else if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
      expect(part.id).toBe(open);
    } else if (part.type === 'text-end' || part.type === 'reasoning-end') {
      expect(part.id).toBe(open);
      open = undefined;
    } else if (part.type === 'tool-call') {
      expect(calls.has(part.toolCallId)).toBe(false);
      expect(JSON.parse(part.input)).toBeDefined();
      calls.set(part.toolCallId, 'called');
    } else if (part.type === 'tool-result') {
      expect(calls.get(part.toolCallId)).toBe('called');
      calls.set(part.toolCallId, 'done');
    } else if (part.type === 'finish-step' || part.type === 'compaction') {
      // A step, and a compaction (a tool part to the AI SDK), never cut a block.
      expect(open).toBeUndefined();
    }
  }
  expect([...calls.values()].every((state) => state === 'done')).toBe(true);
}

/** Events the mapping does not turn into parts of their own go out as `raw`, the event itself. */
const RAW_TYPES = new Set(['user-message', 'interaction', 'unknown', 'invalid-line', 'error']);

function checkRecording(path: string): void {
  const { events, sessions } = readRecording(path);
  const parts = partsOf(events);
  expectWellFormed(parts);
  expect(deltas(parts, 'text-delta')).toBe(texts(events, 'text-delta'));
  expect(deltas(parts, 'text-delta')).toBe(sessions.map((session) => session.text).join(''));
  expect(deltas(parts, 'reasoning-delta')).toBe(texts(events, 'reasoning-delta'));
  const raws = new Set(parts.flatMap((part) => (part.type === 'raw' ? [part.rawValue] : [])));
  for (const event of events) if (RAW_TYPES.has(event.type)) expect(raws.has(event)).toBe(true);
  const results = parts.flatMap((part) => (part.type === 'tool-result' ? [part] : []));
  const calls = sessions.flatMap((session) => session.toolCalls);
  expect(results.map((part) => part.toolCallId).sort()).toEqual(calls.map((call) => call.toolCallId).sort());
  for (const call of calls) {
    const result = results.find((part) => part.toolCallId === call.toolCallId);
    expect(result?.isError === true).toBe(call.status !== 'success');
    expect(result?.providerMetadata).toEqual({
      [HARNESS_ID]: expect.objectContaining({ status: call.status }),
    });
  }
}

describe("this repository's recordings as a harness turn's parts", () => {
  for (const path of recordingsIn(CORPUS_DIR)) test(relative(CORPUS_DIR, path), () => checkRecording(path));
});

const hasRealCorpus = existsSync(REAL_CORPUS_DIR);
describe.skipIf(!hasRealCorpus)(
  `real recordings as a harness turn's parts${hasRealCorpus ? '' : ` (skipped: ${REAL_CORPUS_DIR} is missing)`}`,
  () => {
    for (const path of hasRealCorpus ? recordingsIn(REAL_CORPUS_DIR) : []) {
      test(relative(REAL_CORPUS_DIR, path), () => checkRecording(path));
    }
  },
);

describe('the mapping of particular records', () => {
  test('a compaction boundary is a compaction; the other status records and the plan query are raw', () => {
    const { events } = readRecording(join(CORPUS_DIR, 'official/compaction-and-notices.ndjson'));
    const parts = partsOf(events);
    expect(parts.filter((part) => part.type === 'compaction')).toEqual([
      {
        type: 'compaction',
        trigger: 'auto',
        summary: '',
        harnessMetadata: { [HARNESS_ID]: { timestampMs: 1789713301000 } },
      },
    ]);
    const statuses = parts.flatMap((part) =>
      part.type === 'raw' && (part.rawValue as CanonicalEvent).type === 'status'
        ? [(part.rawValue as Extract<CanonicalEvent, { type: 'status' }>).kind]
        : [],
    );
    expect(statuses).toEqual(['compacting', 'background-shell-timeout', 'task-notification']);
  });

  test('an MCP call is a dynamic tool named by its server and tool, with its own arguments as input', () => {
    const { events } = readRecording(join(CORPUS_DIR, 'official/parallel-tools-out-of-order.ndjson'));
    const mcp = partsOf(events).find(
      (part) => part.type === 'tool-call' && part.nativeName === 'mcpToolCall',
    );
    expect(mcp).toMatchObject({ toolName: 'docs-search', dynamic: true, input: '{"query":"make check"}' });
  });

  test('a kind that is no builtin is a dynamic tool named by its kind', () => {
    const call: CanonicalEvent = {
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'createPlan',
      providerToolName: 'createPlanToolCall',
      input: { plan: '# Plan' },
    };
    expect(partsOf([call])).toContainEqual({
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'createPlan',
      nativeName: 'createPlanToolCall',
      input: '{"plan":"# Plan"}',
      providerExecuted: true,
      dynamic: true,
    });
  });

  test('a chat the agent did not resume is named in a warning, and the model it reports is the one used', () => {
    const parts = createTurnParts({ harnessId: HARNESS_ID, model: 'asked-for', resume: 'old-chat' });
    expect(parts.map({ type: 'stream-start', model: 'Composer 2.5', sessionId: 'new-chat' })).toEqual([
      {
        type: 'stream-start',
        modelId: 'Composer 2.5',
        warnings: [
          {
            type: 'other',
            message:
              'cursor-agent did not resume chat old-chat: it started chat new-chat, which the session follows.',
          },
        ],
      },
    ]);
  });

  test('a failed turn closes what is open, fails its open calls, and ends with its step and one error', () => {
    const events: CanonicalEvent[] = [
      { type: 'text-delta', text: 'Running' },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'shell',
        providerToolName: 'shellToolCall',
        input: {},
      },
    ];
    const error = new Error('cursor-agent exited with code 1');
    const parts = partsOf(events, { ok: false, error });
    expectWellFormed(parts, true);
    expect(parts.at(-1)).toEqual({ type: 'error', error });
    expect(parts.find((part) => part.type === 'tool-result')).toMatchObject({
      toolCallId: 'c1',
      isError: true,
    });
  });
});

const toolId = fc.constantFrom('a', 'b', 'c');
const modelCallId = fc.constantFrom('m-0', 'm-1');
const kind = fc.constantFrom('shellToolCall', 'readToolCall', 'mcpToolCall', 'createPlanToolCall', 'x');
const eventArb: fc.Arbitrary<CanonicalEvent> = fc.oneof(
  fc.record(
    { type: fc.constant('text-delta' as const), text: fc.string({ maxLength: 3 }), modelCallId },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record({ type: fc.constant('reasoning-delta' as const), text: fc.string({ maxLength: 3 }) }),
  fc.constant({ type: 'reasoning-end' as const }),
  fc.record(
    {
      type: fc.constant('tool-call' as const),
      toolCallId: toolId,
      toolName: fc.constantFrom('read', 'shell', 'mcp', 'createPlan'),
      providerToolName: kind,
      input: fc.jsonValue(),
      modelCallId,
    },
    { requiredKeys: ['type', 'toolCallId', 'toolName', 'providerToolName', 'input'] },
  ),
  fc.record({
    type: fc.constant('tool-result' as const),
    toolCallId: toolId,
    toolName: fc.constantFrom('read', 'shell', 'mcp'),
    providerToolName: kind,
    status: fc.constantFrom('success', 'failure', 'rejected'),
    isError: fc.boolean(),
    output: fc.jsonValue(),
  }),
  fc.record({ type: fc.constant('error' as const), message: fc.string() }),
  fc.record({
    type: fc.constant('status' as const),
    kind: fc.constantFrom('compact-boundary' as const, 'compacting' as const, 'reconnecting' as const),
  }),
  fc.record({ type: fc.constant('interaction' as const), phase: fc.constantFrom('request', 'response') }),
  fc.record({ type: fc.constant('user-message' as const), text: fc.string() }),
  fc.record({ type: fc.constant('unknown' as const), rawType: fc.string(), raw: fc.jsonValue() }),
  fc.record({
    type: fc.constant('finish' as const),
    finishReason: fc.constantFrom('stop' as const, 'error' as const, 'incomplete' as const),
    isError: fc.boolean(),
    pendingToolCallIds: fc.constant<string[]>([]),
  }),
  fc.record({ type: fc.constant('stream-start' as const), model: fc.string() }, { requiredKeys: ['type'] }),
);

describe('every event sequence', () => {
  propertyTest.prop([fc.array(eventArb, { maxLength: 40 }), fc.boolean()])(
    'gives valid, well-formed parts that keep the text, drop no event, and end the way the turn ended',
    (events, failed) => {
      const mapper = createTurnParts({ harnessId: HARNESS_ID });
      const parts: HarnessV1StreamPart[] = [];
      for (const event of events) {
        const out = mapper.map(event);
        // Only an empty delta says nothing; every other event gives a part (at worst a raw one).
        const empty = (event.type === 'text-delta' || event.type === 'reasoning-delta') && event.text === '';
        if (!empty) expect(out.length).toBeGreaterThan(0);
        parts.push(...out);
      }
      parts.push(
        ...mapper.end(failed ? { ok: false, error: 'failed' } : { ok: true, finish: undefined, chatId: 'c' }),
      );
      expectWellFormed(parts, failed);
      expect(deltas(parts, 'text-delta')).toBe(texts(events, 'text-delta'));
      expect(deltas(parts, 'reasoning-delta')).toBe(texts(events, 'reasoning-delta'));
    },
  );
});

const count = fc.option(fc.nat({ max: 10_000_000 }), { nil: undefined });

describe('usage', () => {
  propertyTest.prop([
    fc.record({ inputTokens: count, outputTokens: count, cacheReadTokens: count, cacheWriteTokens: count }),
  ])(
    "is the log's counts: input as no-cache, cache read and write, summed when all three are known; nothing invented",
    (counts) => {
      const usage = Object.fromEntries(Object.entries(counts).filter(([, value]) => value !== undefined));
      const {
        inputTokens: input,
        outputTokens: output,
        cacheReadTokens: read,
        cacheWriteTokens: write,
      } = counts;
      const known = input !== undefined && read !== undefined && write !== undefined;
      const mapped = cursorUsage(usage);
      expect(mapped.inputTokens).toEqual({
        total: known ? input + read + write : undefined,
        noCache: input,
        cacheRead: read,
        cacheWrite: write,
      });
      expect(mapped.outputTokens).toEqual({ total: output, text: undefined, reasoning: undefined });
      expect(mapped.raw).toEqual(Object.keys(usage).length === 0 ? undefined : usage);
    },
  );

  test('a finish with no usage reports every count unknown', () => {
    const parts = partsOf([{ type: 'finish', finishReason: 'stop', isError: false, pendingToolCallIds: [] }]);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      totalUsage: {
        inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      },
    });
  });
});

describe('builtin tools', () => {
  test("describe Cursor's tools by their stream-json kinds, each once, and accept any arguments object", async () => {
    const kinds = Object.values(cursorBuiltinTools).map((tool) => tool.nativeName);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds.every((kind) => kind.endsWith('ToolCall'))).toBe(true);
    for (const tool of Object.values(cursorBuiltinTools)) {
      const schema = tool.inputSchema as unknown as {
        '~standard': { validate(value: unknown): unknown; jsonSchema: { input(): unknown } };
      };
      expect(schema['~standard'].validate({ any: 'thing' })).toEqual({ value: { any: 'thing' } });
      expect(schema['~standard'].validate('text')).toHaveProperty('issues');
      expect(schema['~standard'].jsonSchema.input()).toMatchObject({
        type: 'object',
        additionalProperties: true,
      });
    }
  });

  test('claim a common name only where they take what the common tool takes', () => {
    const common = Object.entries(cursorBuiltinTools).flatMap(([key, tool]) =>
      'commonName' in tool ? [[key, tool.commonName]] : [],
    );
    expect(common).toEqual([
      ['bash', 'bash'],
      ['grep', 'grep'],
    ]);
    for (const [, name] of common) expect(Object.keys(HARNESS_V1_BUILTIN_TOOLS)).toContain(name);
  });
});

describe('the harness entry', () => {
  test('imports no Node built-in, and loads @ai-sdk/harness only when a session starts', async () => {
    const result = await build({
      entryPoints: [join(import.meta.dirname, '../src/harness/index.ts')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'browser',
      format: 'esm',
      conditions: ['@cursor-stream/source'],
      external: ['@ai-sdk/harness', '@ai-sdk/harness/*'],
      plugins: [noNodeBuiltins],
      logLevel: 'silent',
    });
    const imports = Object.values(result.metafile.inputs).flatMap((input) =>
      input.imports.filter((entry) => entry.path.startsWith('@ai-sdk/')),
    );
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((entry) => entry.kind === 'dynamic-import')).toBe(true);
  });
});
