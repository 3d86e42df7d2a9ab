import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_IN_DIALECTS, validateDialectRecord } from '@cursor-stream/core';
import { BUILT_IN_DIALECT_NAMES, BUILT_IN_DIALECT_REGISTRY } from '@cursor-stream/core/dialect-registry';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';

const SCHEMA_DIR = join(import.meta.dirname, '../../../schemas');

describe('the dialect registry', () => {
  test('orders the built-in dialects and names them', () => {
    expect(BUILT_IN_DIALECTS.map((dialect) => dialect.name)).toEqual([...BUILT_IN_DIALECT_NAMES]);
    expect(BUILT_IN_DIALECT_NAMES).toEqual(BUILT_IN_DIALECT_REGISTRY.map((entry) => entry.name));
  });

  test.each(BUILT_IN_DIALECT_REGISTRY)(
    '$name has its schema, its generated validators and its recordings',
    ({ name, schemaStem, corpusFolder }) => {
      expect(existsSync(join(SCHEMA_DIR, `${schemaStem}.schema.json`))).toBe(true);
      // An empty object lacks the `type` every dialect's records have: an issue from the dialect's own validator.
      expect(validateDialectRecord(name, {}).length).toBeGreaterThan(0);
      expect(existsSync(join(CORPUS_DIR, corpusFolder))).toBe(true);
    },
  );
});
