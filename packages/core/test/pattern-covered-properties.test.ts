/**
 * The `properties` entries a pattern covers are left out before a schema is compiled (`pattern-covered-properties.ts`):
 * which ones go, and that the compiled validator then accepts and rejects the same values with the same issues.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { dropPatternCoveredProperties } from '../scripts/pattern-covered-properties.ts';
import type { SchemaObject } from '../scripts/strict-schema.ts';
import { readSchema, testSameVerdicts } from './schema-transform-support.ts';

const OFFICIAL = readSchema('official');

describe('dropPatternCoveredProperties', () => {
  test('leaves out only an entry a matching pattern applies as it is', () => {
    const any = { type: 'object' };
    const schema = {
      type: 'object',
      properties: {
        readToolCall: { type: 'object' },
        shellToolCall: { type: 'object', required: ['args'] },
        toolCallId: { type: 'string' },
      },
      patternProperties: { ToolCall$: any },
      $defs: { data: { const: { properties: { aToolCall: any }, patternProperties: { ToolCall$: any } } } },
    };
    const before = structuredClone(schema);
    const dropped = dropPatternCoveredProperties(schema);
    expect(dropped.properties).toEqual({
      shellToolCall: { type: 'object', required: ['args'] },
      toolCallId: { type: 'string' },
    });
    // A `const` is data, whatever its fields are called.
    expect(dropped.$defs).toEqual(schema.$defs);
    expect(schema).toEqual(before);
  });

  test('names the tool kinds the official schema documents only, and keeps the ones it describes', () => {
    const toolCall = (schema: SchemaObject) =>
      Object.keys(((schema.$defs as SchemaObject).toolCall as SchemaObject).properties as SchemaObject);
    const kept = toolCall(dropPatternCoveredProperties(OFFICIAL));
    expect(kept).toContain('shellToolCall');
    expect(kept).toContain('readToolCall');
    expect(kept).not.toContain('taskToolCall');
    expect(kept.length).toBeLessThan(toolCall(OFFICIAL).length - 40);
  });

  const toolCallRecord = fc.record({
    type: fc.constant('tool_call'),
    subtype: fc.constantFrom('started', 'completed'),
    call_id: fc.constantFrom('call_1', 'call_1\nfc_2'),
    tool_call: fc.dictionary(
      fc.oneof(
        fc.constantFrom(
          'deleteToolCall',
          'shellToolCall',
          'readToolCall',
          'mcpToolCall',
          'toolCallId',
          'fooToolCall',
        ),
        fc.string({ maxLength: 6 }),
      ),
      fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.record(
          { args: fc.jsonValue({ maxDepth: 1 }), result: fc.jsonValue({ maxDepth: 2 }) },
          { requiredKeys: [] },
        ),
      ),
      { maxKeys: 3 },
    ),
    session_id: fc.constant('s'),
  });

  testSameVerdicts(
    'the official schema on tool calls',
    OFFICIAL,
    dropPatternCoveredProperties,
    toolCallRecord,
    500,
  );
});
