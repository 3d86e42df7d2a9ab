/**
 * `@cursor-stream/core/normalize` is the full API without the generated validators loaded. This file imports only
 * that entry (vitest isolates test files), so what it sees is what a fast-starting tool sees.
 */
import {
  createNormalizer,
  loadSchemaValidators,
  officialDialect,
  validateCanonicalEvent,
} from '@cursor-stream/core/normalize';
import { expect, test } from 'vitest';

const INIT = '{"type":"system","subtype":"init","session_id":"s","model":"Auto"}\n';

test('normalizes without the validators, validates once they are loaded', async () => {
  expect(createNormalizer().feed(INIT)).toEqual([
    { type: 'stream-start', model: 'Auto', sessionId: 's', loc: { line: 1, offset: 0 } },
  ]);
  expect(() => officialDialect.validate({ type: 'tool_call', subtype: 'started' })).toThrow(
    /loadSchemaValidators/,
  );
  await loadSchemaValidators();
  expect(officialDialect.validate({ type: 'tool_call', subtype: 'started' }).length).toBeGreaterThan(0);
  expect(validateCanonicalEvent({ type: 'reasoning-end' })).toEqual([]);
});
