/**
 * `@cursor-stream/core/normalize` is the full API without the generated validators loaded. This file imports only
 * that entry (vitest isolates test files), so what it sees is what a fast-starting tool sees. The lean entries are
 * bundled to list what they load.
 */

import { join } from 'node:path';
import {
  createNormalizer,
  loadSchemaValidators,
  officialDialect,
  validateCanonicalEvent,
} from '@cursor-stream/core/normalize';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const INIT = '{"type":"system","subtype":"init","session_id":"s","model":"Auto"}\n';

test('normalizes without the validators, validates once they are loaded', async () => {
  expect(createNormalizer().feed(INIT)).toEqual([
    { type: 'stream-start', model: 'Auto', sessionId: 's', loc: { line: 1, offset: 0 } },
  ]);
  expect(() => officialDialect.validate({ type: 'tool_call', subtype: 'started' })).toThrow(
    /loadSchemaValidators/,
  );
  // Each kind loads on its own: the open validators leave the strict and canonical ones unloaded.
  await loadSchemaValidators(['open']);
  const record = { type: 'tool_call', subtype: 'started' };
  expect(officialDialect.validate(record).length).toBeGreaterThan(0);
  expect(() => officialDialect.validate(record, { strict: true })).toThrow(
    /loadSchemaValidators\(\['strict'\]\)/,
  );
  expect(() => validateCanonicalEvent({ type: 'reasoning-end' })).toThrow(
    /loadSchemaValidators\(\['canonical'\]\)/,
  );
  await loadSchemaValidators(['strict']);
  const init = JSON.parse(INIT) as Record<string, unknown>;
  expect(officialDialect.validate({ ...init, surplus: 1 }, { strict: true })).toContainEqual(
    expect.objectContaining({ keyword: 'unevaluatedProperties', pointer: '/surplus' }),
  );
  await loadSchemaValidators();
  expect(validateCanonicalEvent({ type: 'reasoning-end' })).toEqual([]);
});

/** The core's source files a bundler takes for `entry`, relative to `packages/core/src/`. */
async function sourcesOf(entry: string): Promise<string[]> {
  const { metafile } = await build({
    stdin: { contents: `export * from '${entry}';`, resolveDir: import.meta.dirname },
    // Inputs are named relative to the repository's root.
    absWorkingDir: join(import.meta.dirname, '../../..'),
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['@cursor-stream/source'],
    logLevel: 'silent',
  });
  return Object.keys(metafile.inputs)
    .filter((input) => input !== '<stdin>')
    .map((input) => input.replace(/^.*packages\/core\/src\//, ''))
    .sort();
}

test('the events entry loads the event types and their traits alone: no normalizer, dialect or validator', async () => {
  expect(await sourcesOf('@cursor-stream/core/events')).toEqual([
    'events/event-traits.ts',
    'events/events.ts',
    'events/index.ts',
    'events/unreachable.ts',
  ]);
});

test('the dialect registry entry is the registry alone, so that listing the dialects loads none', async () => {
  expect(await sourcesOf('@cursor-stream/core/dialect-registry')).toEqual(['dialects/registry.ts']);
});

test('the text and tools entries load the text helpers and the tool texts alone', async () => {
  expect(await sourcesOf('@cursor-stream/core/text')).toEqual([
    'text/detached-text.ts',
    'text/display-text.ts',
    'text/index.ts',
  ]);
  const tools = await sourcesOf('@cursor-stream/core/tools');
  // Writing an argument as JSON reads the tokenizer's lazy strings: the tokenizer's package, not the normalizer.
  expect(tools.filter((source) => !source.startsWith('packages/ndjson/src/'))).toEqual([
    // Writing an event as JSON writes a delta by its fields.
    'delta-event-json.ts',
    // A headline's table is read by its own keys (a tool may be named `toString`).
    'json-values.ts',
    // The bound on the calls a stream remembers, for the bridges that keep open calls of their own.
    'open-calls.ts',
    'safe-json.ts',
    'text/detached-text.ts',
    'text/display-text.ts',
    'text/index.ts',
    'tools/index.ts',
    'tools/mcp-tool-name.ts',
    'tools/tool-error-text.ts',
    'tools/tool-headline.ts',
    'tools/tool-outcome.ts',
    'tools/tool-values.ts',
  ]);
});

test('the sessions entry loads the session folds, the event types and the text helpers: no normalizer', async () => {
  expect(await sourcesOf('@cursor-stream/core/sessions')).toEqual([
    'events/event-traits.ts',
    'events/events.ts',
    'events/index.ts',
    'events/unreachable.ts',
    'session-dialect.ts',
    'sessions/bounded-sessions.ts',
    'sessions/index.ts',
    'sessions/kept-text.ts',
    'sessions/session-boundary.ts',
    'sessions/session-facts.ts',
    'sessions/session-reducer.ts',
    'sessions/stream-anomalies.ts',
    'sessions/text-digest.ts',
    'text/detached-text.ts',
    'text/display-text.ts',
    'text/index.ts',
    'token-counts.ts',
  ]);
});

test('the cost entry loads the price table and its arithmetic alone', async () => {
  expect(await sourcesOf('@cursor-stream/core/cost')).toEqual([
    'cost/built-in-prices.ts',
    'cost/index.ts',
    'cost/model-key.ts',
    'cost/price-table.ts',
    'cost/usage-cost.ts',
  ]);
});

test('the redact entry loads the redaction, the depth-safe JSON helpers and the session marks, no normalizer', async () => {
  const sources = await sourcesOf('@cursor-stream/core/redact');
  expect(sources.filter((source) => !source.startsWith('packages/ndjson/src/'))).toEqual([
    'delta-event-json.ts',
    // A redacted record's field named `__proto__` is set as its own.
    'json-values.ts',
    'redact/index.ts',
    'redact/redact-text.ts',
    'redact/redactor.ts',
    'redact/secret-kinds.ts',
    'redact/secret-names.ts',
    'safe-json.ts',
    // A redacted finish keeps the mark of the dialect that read its session.
    'session-dialect.ts',
  ]);
});
