import { toSchemaIssues, type ValidatorError } from '@cursor-stream/core';
import { describe, expect, test } from 'vitest';

function error(instancePath: string, schemaPath: string, keyword: string, params = {}): ValidatorError {
  return { instancePath, schemaPath, keyword, params, message: `fails ${keyword}` };
}

describe('mapping validator errors to issues', () => {
  test('an if error is dropped and the then branch’s error is kept', () => {
    const issues = toSchemaIssues([
      error('/tool_call', '#/$defs/toolCallEvent/required', 'required', { missingProperty: 'call_id' }),
      error('', '#/allOf/4/if', 'if', { failingKeyword: 'then' }),
    ]);
    expect(issues).toEqual([
      { pointer: '/tool_call/call_id', keyword: 'required', message: 'fails required' },
    ]);
  });

  test('required, additional and unevaluated fields extend the pointer, escaped as RFC 6901 says', () => {
    const issues = toSchemaIssues([
      error('', '#/required', 'required', { missingProperty: 'a/b' }),
      error('/x', '#/additionalProperties', 'additionalProperties', { additionalProperty: 'c~d' }),
      error('', '#/unevaluatedProperties', 'unevaluatedProperties', { unevaluatedProperty: 'e' }),
    ]);
    expect(issues.map(({ pointer }) => pointer)).toEqual(['/a~1b', '/x/c~0d', '/e']);
    expect(issues[2]?.message).toBe('is not a field the schema knows');
  });

  test('an anyOf failure becomes the errors of the branch that got deepest into the value', () => {
    const issues = toSchemaIssues([
      error('', '#/anyOf/0/type', 'type', { type: 'string' }),
      error('/items/0/name', '#/anyOf/1/properties/items/items/properties/name/type', 'type', {
        type: 'string',
      }),
      error('', '#/anyOf', 'anyOf'),
    ]);
    expect(issues).toEqual([{ pointer: '/items/0/name', keyword: 'type', message: 'fails type' }]);
  });

  test('a oneOf that matched several branches keeps its own error', () => {
    const issues = toSchemaIssues([error('/value', '#/oneOf', 'oneOf', { passingSchemas: [0, 1] })]);
    expect(issues).toEqual([{ pointer: '/value', keyword: 'oneOf', message: 'fails oneOf' }]);
  });

  test('const and enum messages name the allowed values', () => {
    const issues = toSchemaIssues([
      error('/isError', '#/then/properties/isError/const', 'const', { allowedValue: false }),
      error('/type', '#/properties/type/enum', 'enum', { allowedValues: ['stop', 'error'] }),
    ]);
    expect(issues.map(({ message }) => message)).toEqual(['must be false', 'must be one of "stop", "error"']);
  });

  test('duplicate errors give one issue', () => {
    const twice = error('/a', '#/properties/a/type', 'type');
    expect(toSchemaIssues([twice, { ...twice }])).toHaveLength(1);
  });
});
