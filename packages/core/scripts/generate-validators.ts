/**
 * Generates the standalone validators and the canonical-event declarations from `schemas/` into `src/generated/`.
 * Run by `pnpm run gen`, which `prepare` (after every install) and `build` call first.
 *
 * For each dialect of the registry (`src/dialects/registry.ts`): `<schemaStem>.js` (the schema as written: open) and
 * `<schemaStem>-strict.js` (unknown fields rejected, see {@link deriveStrictSchema}); for the dialects with records
 * read without `JSON.parse`, `<schemaStem>-record-shapes.ts` (see {@link renderRecordShapes}); for the dialects whose
 * owners publish types, `<schemaStem>.types.ts` (see {@link renderDialectTypes}). For the canonical union:
 * `canonical-event.js` and `canonical-event.types.ts`. Then `open-validators.ts` and `strict-validators.ts`, which
 * gather each kind, and `schema-validators.ts`, which gathers them all.
 */

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_IN_DIALECT_REGISTRY } from '../src/dialects/registry.ts';
import { renderCanonicalTypes } from './canonical-types.ts';
import { DIALECT_TYPES, renderDialectTypes } from './dialect-types.ts';
import { READ_RECORDS, renderRecordShapes } from './record-shapes.ts';
import { deriveStrictSchema, type SchemaObject } from './strict-schema.ts';
import { renderValidatorModule } from './validator-module.ts';
import { renderValidatorsIndex } from './validators-index.ts';

const SCHEMA_DIR = join(import.meta.dirname, '../../../schemas');
const OUT_DIR = join(import.meta.dirname, '../src/generated');

const CANONICAL = 'canonical-event';

function readSchema(stem: string): SchemaObject {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, `${stem}.schema.json`), 'utf8')) as SchemaObject;
}

function write(file: string, text: string): void {
  writeFileSync(join(OUT_DIR, file), text);
}

async function main(): Promise<void> {
  // Start empty so that a renamed schema leaves no stale validator behind.
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  for (const { schemaStem } of BUILT_IN_DIALECT_REGISTRY) {
    const schema = readSchema(schemaStem);
    const source = `schemas/${schemaStem}.schema.json`;
    write(`${schemaStem}.js`, renderValidatorModule(schema, source));
    write(
      `${schemaStem}-strict.js`,
      renderValidatorModule(deriveStrictSchema(schema), `${source} (strict variant)`),
    );
    const banner = `// Generated from ${source} by packages/core/scripts/generate-validators.ts. Do not edit.`;
    if (schemaStem in READ_RECORDS)
      write(`${schemaStem}-record-shapes.ts`, renderRecordShapes(schema, schemaStem, banner));
    const declared = DIALECT_TYPES[schemaStem];
    if (declared !== undefined)
      write(`${schemaStem}.types.ts`, await renderDialectTypes(schema, declared, banner));
  }
  const canonical = readSchema(CANONICAL);
  const source = `schemas/${CANONICAL}.schema.json`;
  write(`${CANONICAL}.js`, renderValidatorModule(canonical, source));
  const banner = `// Generated from ${source} by packages/core/scripts/generate-validators.ts. Do not edit.`;
  write(`${CANONICAL}.types.ts`, await renderCanonicalTypes(canonical, banner));
  for (const [file, text] of Object.entries(renderValidatorsIndex(BUILT_IN_DIALECT_REGISTRY, CANONICAL)))
    write(file, text);
}

await main();
