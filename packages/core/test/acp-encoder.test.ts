import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { acpDialect, type CanonicalEvent, type JsonObject, type PlanEntry } from '@cursor-stream/core';
import { classifyFailure } from '@cursor-stream/core/failures';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect } from 'vitest';
import { normalizeChunks, normalizeText, withoutLoc } from './support.ts';

const require = createRequire(import.meta.url);

/** A zod schema of the protocol's package, as far as these tests use one. */
interface ZodSchema {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

// The package publishes its zod schemas beside its entry, not as an entry of their own; the unstable ones are a
// superset of the stable ones with the prompt's `usage`, which the encoder writes.
const packageEntry = require.resolve('@agentclientprotocol/sdk');
const zod = (await import(
  pathToFileURL(join(dirname(packageEntry), '../unstable/schema/zod.gen.js')).href
)) as Record<string, ZodSchema>;
const schemaFile = require.resolve('@agentclientprotocol/sdk/schema/v1/schema.unstable.json');
const ajv = new Ajv2020({ strict: false, logger: false });
for (const format of ['double', 'int64', 'int32', 'uint16', 'uint32', 'uint64']) ajv.addFormat(format, true);
ajv.addSchema(JSON.parse(readFileSync(schemaFile, 'utf8')) as object, 'acp');
const isAcpMessage = ajv.getSchema('acp');

function zodSchema(name: string): ZodSchema {
  const schema = zod[name];
  if (schema === undefined) throw new Error(`no ${name} in the protocol's zod schemas`);
  return schema;
}

/** The zod schema of a request's or notification's parameters, by method; extension methods have none. */
const PARAMS: Readonly<Record<string, string>> = {
  'session/update': 'zSessionNotification',
  'session/prompt': 'zPromptRequest',
  'session/request_permission': 'zRequestPermissionRequest',
  'session/cancel': 'zCancelNotification',
};

/** The zod schema of a response's result, by the method of the request it answers. */
const RESULTS: Readonly<Record<string, string>> = {
  'session/prompt': 'zPromptResponse',
  'session/request_permission': 'zRequestPermissionResponse',
};

/** Parses a value with a protocol schema and expects it whole: nothing dropped, defaulted or skipped as invalid. */
function expectValid(schemaName: string, value: unknown, line: JsonObject): void {
  const parsed = zodSchema(schemaName).safeParse(value);
  expect(parsed.success, `${schemaName}: ${JSON.stringify(line)}`).toBe(true);
  expect(parsed.data, `${schemaName} kept all of ${JSON.stringify(line)}`).toEqual(value);
}

/** Checks every written line against the protocol's JSON Schema and the zod schema of its method. */
function expectProtocolLines(lines: readonly JsonObject[]): void {
  const methods = new Map<unknown, string>();
  for (const line of lines) {
    expect(isAcpMessage?.(line), JSON.stringify(line)).toBe(true);
    expect(line.jsonrpc).toBe('2.0');
    if (typeof line.method === 'string') {
      if (line.id !== undefined) methods.set(line.id, line.method);
      const schema = PARAMS[line.method];
      if (schema !== undefined) expectValid(schema, line.params, line);
      else expect(line.method).toMatch(/^cursor\//);
    } else if ('error' in line) {
      expectValid('zError', line.error, line);
    } else {
      // A log of the agent's side holds a prompt's answer without its request.
      const answered = methods.get(line.id) ?? ('stopReason' in Object(line.result) ? 'session/prompt' : '');
      const schema = RESULTS[answered];
      expect(schema, `the request ${JSON.stringify(line.id)} answers`).toBeDefined();
      expectValid(schema ?? '', line.result, line);
    }
  }
}

const text = fc.string({ minLength: 1, maxLength: 8 });
const word = fc.constantFrom('alpha', 'beta', 'ls -la', 'src/a.ts', 'é ☃', 'line\nbreak');

/** ACP's tool kinds with titles Cursor gives them, and the canonical name the dialect reads from them. */
const TOOLS = [
  { kind: 'execute', title: 'Terminal', name: 'shell', toolName: 'shell' },
  { kind: 'read', title: 'Read File', name: 'read_file', toolName: 'read' },
  { kind: 'edit', title: 'Edit', name: 'edit', toolName: 'edit' },
  { kind: 'search', title: 'grep', name: 'grep', toolName: 'grep' },
  { kind: 'fetch', title: 'Fetch', name: 'fetch', toolName: 'web-fetch' },
  { kind: 'other', title: 'Think', name: 'think', toolName: 'other' },
] as const;

const OPTIONS = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
];

const planEntry: fc.Arbitrary<PlanEntry> = fc.record({
  content: word,
  status: fc.constantFrom('pending', 'in_progress', 'completed'),
  priority: fc.constantFrom('high', 'medium', 'low'),
});

type Step =
  | { kind: 'text' | 'user' | 'reasoning'; text: string }
  | {
      kind: 'call';
      tool: number;
      input: JsonObject;
      end: 'success' | 'error' | 'failure' | 'none';
      ask: boolean;
      allow: boolean;
      output: string;
    }
  | {
      kind: 'plan';
      source: 'plan' | 'cursor/update_todos' | 'cursor/create_plan';
      entries: PlanEntry[];
      markdown: string;
    }
  | { kind: 'status'; which: number; value: string }
  | { kind: 'context'; used: number; size: number; cost: number | undefined }
  | { kind: 'cancel' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom('text' as const, 'user' as const, 'reasoning' as const), text }),
  fc.record({
    kind: fc.constant('call' as const),
    tool: fc.nat(TOOLS.length - 1),
    input: fc.dictionary(fc.constantFrom('command', 'path', 'pattern'), word, { maxKeys: 2 }),
    end: fc.constantFrom('success' as const, 'error' as const, 'failure' as const, 'none' as const),
    ask: fc.boolean(),
    allow: fc.boolean(),
    output: word,
  }),
  fc.record({
    kind: fc.constant('plan' as const),
    source: fc.constantFrom('plan' as const, 'cursor/update_todos' as const, 'cursor/create_plan' as const),
    entries: fc.array(planEntry, { maxLength: 3 }),
    markdown: word,
  }),
  fc.record({ kind: fc.constant('status' as const), which: fc.nat(2), value: word }),
  fc.record({
    kind: fc.constant('context' as const),
    used: fc.nat(300_000),
    size: fc.nat(300_000),
    cost: fc.option(fc.nat(500), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('cancel' as const) }),
);

const tokens = fc.record({
  inputTokens: fc.nat(100_000),
  outputTokens: fc.nat(10_000),
  cacheReadTokens: fc.option(fc.nat(50_000)),
  cacheWriteTokens: fc.option(fc.nat(50_000)),
  reasoningTokens: fc.option(fc.nat(5_000)),
  totalTokens: fc.nat(200_000),
});

const turnShape = fc.record({
  sessionId: fc.constantFrom('sess-a', 'sess-b'),
  prompt: text,
  steps: fc.array(step, { maxLength: 8 }),
  end: fc.constantFrom('end_turn', 'cancelled', 'max_tokens', 'refusal', 'failed'),
  tokens: fc.option(tokens, { nil: undefined }),
  errorCode: fc.constantFrom(-32603, -32000, -32002),
  errorMessage: text,
});

type TurnShape = typeof turnShape extends fc.Arbitrary<infer T> ? T : never;

/** Canonical events of prompt turns as the acp dialect reads them; `queries` numbers permission requests apart. */
function turnEvents(shape: TurnShape, index: number, queries: { next: number }): CanonicalEvent[] {
  const { sessionId } = shape;
  const events: CanonicalEvent[] = [];
  const push = (event: CanonicalEvent) => events.push({ ...event, sessionId });
  const pending: string[] = [];
  push({ type: 'stream-start' });
  push({ type: 'user-message', text: shape.prompt });
  shape.steps.forEach((step, position) => {
    switch (step.kind) {
      case 'text':
        push({ type: 'text-delta', text: step.text });
        return;
      case 'user':
        push({ type: 'user-message', text: step.text });
        return;
      case 'reasoning':
        // A thought ends at the next update that is not one: a message chunk here.
        push({ type: 'reasoning-delta', text: step.text });
        push({ type: 'reasoning-end' });
        push({ type: 'text-delta', text: step.text });
        return;
      case 'call': {
        const tool = TOOLS[step.tool] ?? TOOLS[0];
        const toolCallId = `call-${index}-${position}`;
        const names = { toolCallId, toolName: tool.toolName, providerToolName: tool.name };
        let rejected = false;
        if (step.ask) {
          const queryId = queries.next++;
          const query = { sessionId, toolCall: { toolCallId, title: tool.title }, options: OPTIONS };
          push({
            type: 'interaction',
            phase: 'request',
            queryType: 'permission',
            queryId,
            toolCallId,
            query,
          });
          const optionId = step.allow ? 'allow-once' : 'reject-once';
          rejected = !step.allow;
          push({
            type: 'interaction',
            phase: 'response',
            queryType: 'permission',
            queryId,
            toolCallId,
            outcome: optionId,
            result: { outcome: { outcome: 'selected', optionId } },
          });
        }
        push({ type: 'tool-call', ...names, input: step.input, title: tool.title, kind: tool.kind });
        if (step.end === 'none') {
          pending.push(toolCallId);
          return;
        }
        // A refused call reads as rejected, however the agent ends it (Cursor: `completed`; others: `failed`).
        const status = rejected ? 'rejected' : step.end;
        const output = step.end === 'error' ? { error: step.output } : { stdout: step.output };
        push({ type: 'tool-result', ...names, status, isError: status !== 'success', output });
        return;
      }
      case 'plan': {
        if (step.source === 'plan') {
          push({ type: 'plan', entries: step.entries, source: 'plan' });
          return;
        }
        const entries = step.entries.map(({ priority: _priority, ...entry }) => entry);
        const markdown = step.source === 'cursor/create_plan' ? { markdown: step.markdown } : {};
        push({ type: 'plan', entries, source: step.source, ...markdown });
        return;
      }
      case 'status': {
        const [status, extraFields] = [
          ['available_commands_update', { availableCommands: [] }],
          ['current_mode_update', { currentModeId: step.value }],
          ['session_info_update', { title: step.value }],
        ][step.which] as [string, JsonObject];
        push({ type: 'status', kind: 'status', status, extraFields });
        return;
      }
      case 'context': {
        const cost = step.cost === undefined ? {} : { cost: { amount: step.cost, currency: 'USD' } };
        push({ type: 'usage', context: { used: step.used, size: step.size }, ...cost });
        return;
      }
      case 'cancel':
        push({ type: 'status', kind: 'status', status: 'session/cancel' });
        return;
    }
  });
  const finish = { type: 'finish' as const, pendingToolCallIds: pending };
  if (shape.end === 'failed') {
    const code = String(shape.errorCode);
    push({ type: 'error', message: shape.errorMessage, code });
    const failure = { message: shape.errorMessage, code: classifyFailure(shape.errorMessage) };
    push({ ...finish, finishReason: 'error', isError: true, failure });
    return events;
  }
  const turnTokens = shape.tokens;
  if (turnTokens !== undefined) push({ type: 'usage', tokens: turnTokens });
  const usage =
    turnTokens === undefined
      ? {}
      : {
          usage: Object.fromEntries(
            (['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const)
              .filter((field) => turnTokens[field] !== null)
              .map((field) => [field, turnTokens[field]]),
          ),
        };
  if (shape.end === 'end_turn') {
    push({ ...finish, finishReason: 'stop', isError: false, stopReason: 'end_turn', ...usage });
    return events;
  }
  const message = `the turn stopped: ${shape.end}`;
  push({ type: 'error', message, ...(shape.end === 'cancelled' ? { code: 'cancelled' } : {}) });
  const failure = { message, code: classifyFailure(message) };
  push({ ...finish, finishReason: 'error', isError: true, stopReason: shape.end, ...usage, failure });
  return events;
}

const acpLog = fc.array(turnShape, { minLength: 1, maxLength: 3 }).map((shapes) => {
  const queries = { next: 1 };
  return shapes.flatMap((shape, index) => turnEvents(shape, index, queries));
});

describe('the acp encoder', () => {
  test.prop([acpLog, fc.array(fc.nat(), { maxLength: 8 })])(
    'writes prompt turns the dialect reads back in any chunks as the same events, every line valid ACP',
    (events, cuts) => {
      const lines = acpDialect.encode?.(events) ?? [];
      expectProtocolLines(lines);
      const written = ndjson(lines);
      const { events: decoded, normalizer } = normalizeChunks(
        cutAt(
          written,
          cuts.map((cut) => cut % (written.length + 1)),
        ),
      );
      expect(normalizer.dialect).toBe('acp');
      expect(withoutLoc(decoded)).toEqual(events);
    },
  );

  test('writes the turns of real captures as valid ACP that reads back with the same text and calls', () => {
    for (const name of [
      'cursor-agent-tools.ndjson',
      'cursor-cancel.ndjson',
      'cursor-permission-reject.excerpt.ndjson',
    ]) {
      const events = normalizeText(readFileSync(join(CORPUS_DIR, 'acp', name)));
      const lines = acpDialect.encode?.(events) ?? [];
      expectProtocolLines(lines);
      const again = normalizeText(ndjson(lines));
      const said = (list: readonly CanonicalEvent[]) =>
        list.filter((event) =>
          ['text-delta', 'tool-call', 'tool-result', 'interaction'].includes(event.type),
        );
      expect(withoutLoc(said(again))).toEqual(withoutLoc(said(events)));
    }
  });

  test('a count the protocol requires but the event does not know leaves the usage out rather than invent it', () => {
    const lines = acpDialect.encode?.([
      { type: 'stream-start', sessionId: 's' },
      {
        type: 'usage',
        tokens: {
          inputTokens: 5,
          outputTokens: 1,
          cacheReadTokens: null,
          cacheWriteTokens: null,
          reasoningTokens: null,
          totalTokens: null,
        },
      },
      {
        type: 'finish',
        finishReason: 'stop',
        isError: false,
        pendingToolCallIds: [],
        stopReason: 'end_turn',
      },
    ]);
    expect(lines).toEqual([{ jsonrpc: '2.0', id: 'turn-1', result: { stopReason: 'end_turn' } }]);
  });
});
