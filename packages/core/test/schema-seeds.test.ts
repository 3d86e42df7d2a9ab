import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BuiltInDialectName,
  type JsonObject,
  pythonWrapperDialect,
  validateDialectRecord,
} from '@cursor-stream/core';
import { SEEDS } from '@cursor-stream/test-kit/corpus';
import { parsedObjects } from '@cursor-stream/test-kit/ndjson';
import { describe, expect, test } from 'vitest';

/** The founding format documents; the recordings in corpus/ hold their examples as streams (see corpus/README.md). */

/** Which dialect each format document describes, by file-name prefix, and how many example events it shows. */
const SEED_DIALECTS: readonly { prefix: string; dialect: BuiltInDialectName; examples: number }[] = [
  { prefix: '000_', dialect: 'official', examples: 17 },
  { prefix: '001_', dialect: 'python-wrapper', examples: 20 },
  { prefix: '002_', dialect: 'official', examples: 9 },
  { prefix: '003_', dialect: 'payload-envelope', examples: 18 },
  { prefix: '004_', dialect: 'official', examples: 5 },
];

/**
 * The JSON objects a format document shows: one-line objects, and pretty-printed objects from a line `{` to a line
 * `}` (fenced or not). Blocks that are not JSON (a comment inside, a placeholder) are left out.
 */
function exampleObjects(text: string): JsonObject[] {
  const lines = text.split('\n').map((line) => line.trimEnd());
  const candidates: string[] = [];
  for (let start = 0; start < lines.length; start++) {
    const line = lines[start] ?? '';
    if (line.startsWith('{') && line.endsWith('}')) candidates.push(line);
    if (line !== '{') continue;
    const end = lines.indexOf('}', start);
    if (end > start) candidates.push(lines.slice(start, end + 1).join('\n'));
  }
  return parsedObjects(candidates) as JsonObject[];
}

function seedExamples(prefix: string): JsonObject[] {
  const file = readdirSync(SEEDS.path).find((name) => name.startsWith(prefix));
  if (file === undefined) throw new Error(`no seed ${prefix}`);
  return exampleObjects(readFileSync(join(SEEDS.path, file), 'utf8')).filter((example) => 'type' in example);
}

/** The Python wrapper's `EventType` of a raw event, as its document's table maps them. */
function agentEventType(event: JsonObject): string {
  const subtype = typeof event.subtype === 'string' ? event.subtype : undefined;
  switch (event.type) {
    case 'system':
      return subtype === 'init' ? 'system:init' : 'unknown';
    case 'thinking':
    case 'result':
      return subtype === undefined ? 'unknown' : `${event.type}:${subtype}`;
    case 'assistant':
      return 'timestamp_ms' in event ? 'assistant:delta' : 'assistant';
    case 'user':
    case 'tool-call-started':
    case 'tool-call-completed':
      return event.type;
    default:
      return 'unknown';
  }
}

/** The wrapper's serialized `AgentEvent` for a raw event, with its documented text extraction. */
function asAgentEvent(event: JsonObject): JsonObject {
  const message = event.message as { content?: { text?: string }[] } | undefined;
  const result = typeof event.result === 'string' ? event.result : undefined;
  const text = event.text ?? result ?? message?.content?.map((block) => block.text ?? '').join('') ?? null;
  return {
    type: agentEventType(event),
    raw_type: event.type,
    subtype: event.subtype ?? null,
    data: event,
    text,
    session_id: event.session_id ?? null,
    timestamp_ms: event.timestamp_ms ?? null,
  };
}

/** The payload-envelope client's stored copy of an event. */
function asStoredRecord(event: JsonObject, index: number): JsonObject {
  const { type, subtype, payload } = event;
  return {
    id: `event-${index}`,
    chatId: 'chat-1',
    timestamp: 1_700_000_000_000 + index,
    type,
    subtype,
    payload,
    raw: JSON.stringify(event),
  };
}

describe.skipIf(!SEEDS.present)(`the seeds’ examples ${SEEDS.needs}`, () => {
  for (const { prefix, dialect, examples: count } of SEED_DIALECTS) {
    test(`every example event of seed ${prefix} is valid against the ${dialect} schema`, () => {
      const examples = seedExamples(prefix);
      expect(examples).toHaveLength(count);
      expect(examples.map((example) => validateDialectRecord(dialect, example))).toEqual(
        examples.map(() => []),
      );
    });
  }

  test('the Python wrapper’s serialized AgentEvent of every example of its document is valid', () => {
    const agentEvents = seedExamples('001_').map(asAgentEvent);
    expect(new Set(agentEvents.map((event) => event.type))).toContain('assistant:delta');
    expect(agentEvents.map((event) => validateDialectRecord('python-wrapper', event))).toEqual(
      agentEvents.map(() => []),
    );
  });

  test('the stored record of every payload-envelope example is valid, raw and error wrappers included', () => {
    const stored = seedExamples('003_').map(asStoredRecord);
    expect(stored.map((record) => record.type)).toEqual(
      expect.arrayContaining(['raw', 'error', 'tool_call']),
    );
    expect(stored.map((record) => validateDialectRecord('payload-envelope', record))).toEqual(
      stored.map(() => []),
    );
  });

  test('an AgentEvent whose data breaks the wrapper’s format points into data', () => {
    const [started] = seedExamples('001_').filter((event) => event.type === 'tool-call-started');
    const { tool_call_id: _dropped, ...withoutId } = started ?? {};
    expect(pythonWrapperDialect.validate(asAgentEvent(withoutId))).toEqual([
      {
        pointer: '/data/tool_call_id',
        keyword: 'required',
        message: "must have required property 'tool_call_id'",
      },
    ]);
  });
});
