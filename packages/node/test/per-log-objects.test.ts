import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNormalizer } from '@cursor-stream/core';
import { createNdjsonTokenizer } from '@cursor-stream/ndjson';
import { openLog } from '@cursor-stream/node/logs';
import { describe, expect, it } from 'vitest';
import { createLineCounter } from '../src/logs/line-counter.ts';

/**
 * The getters an object holds itself. A getter written in an object literal is one: it gives every object made so a
 * hidden class of its own, and V8 then keeps the object's closures, with all they reach, until a full collection,
 * however soon the object is dropped. Over a folder of small logs, one tokenizer, normalizer and source per log, that
 * was most of what the commands spent collecting garbage.
 */
function ownGetters(value: object): string[] {
  return Object.entries(Object.getOwnPropertyDescriptors(value))
    .filter(([, descriptor]) => descriptor.get !== undefined)
    .map(([key]) => key);
}

describe('what is made for every log read has its getters on a shared prototype', () => {
  it('a tokenizer, whose bufferedBytes still counts what it holds', () => {
    const tokenizer = createNdjsonTokenizer();
    expect(ownGetters(tokenizer)).toEqual([]);
    tokenizer.feed('{"a":');
    expect(tokenizer.bufferedBytes).toBe(5);
  });

  it('a normalizer, whose dialect and foreign agent are still read as they change', () => {
    const normalizer = createNormalizer();
    expect(ownGetters(normalizer)).toEqual([]);
    expect(normalizer.dialect).toBeUndefined();
    normalizer.feed(
      '{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","apiKeySource":"login"}\n',
    );
    normalizer.feed(
      '{"type":"tool_call","subtype":"started","call_id":"c","tool_call":{"readToolCall":{"args":{"path":"a"}}},"session_id":"s"}\n',
    );
    expect(normalizer.dialect).toBe('official');
    expect(normalizer.foreign).toBeUndefined();
    normalizer.feed(
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"x"}]},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}\n',
    );
    expect(normalizer.foreign).toBeDefined();
  });

  it('a line counter, whose counts still grow', () => {
    const counter = createLineCounter();
    expect(ownGetters(counter)).toEqual([]);
    counter.add(new TextEncoder().encode('a\nb'));
    expect([counter.lines, counter.bytes]).toEqual([2, 3]);
  });

  it("a regular file's source, whose chunks are still made when asked for", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'per-log-objects-'));
    try {
      const path = join(directory, 'log.ndjson');
      await writeFile(path, '{"a":1}\n');
      const opened = await openLog(path);
      if (!opened.ok) throw new Error(opened.error.message);
      const source = opened.value;
      expect(ownGetters(source)).toEqual([]);
      const chunks: Uint8Array[] = [];
      for await (const chunk of source.chunks) chunks.push(new Uint8Array(chunk));
      expect(new TextDecoder().decode(chunks[0])).toBe('{"a":1}\n');
      await source.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
