import { excerptOf } from '@cursor-stream/ndjson';
import type { JsonObject } from './dialect.ts';
import type { InvalidLineEvent, SourceLocation } from './events/index.ts';
import { safeJsonStringify } from './safe-json.ts';

/**
 * An `invalid-line` for a record of a modelled type that lacks what gives it meaning, such as a tool call without a
 * string id: unlike a well-formed record of an unknown type, nothing can be made of it, so it is reported. The
 * excerpt is the record written back as JSON.
 */
export function malformedRecord(reason: string, record: JsonObject, loc: SourceLocation): InvalidLineEvent {
  const written = safeJsonStringify(record);
  const excerpt = written.ok ? excerptOf(written.text) : '';
  return { type: 'invalid-line', code: 'schema-violation', message: reason, excerpt, loc };
}
