/**
 * Decoding OTLP with the official protobuf definitions (opentelemetry-proto, beside this file) through protobufjs,
 * strictly: every key of the JSON must be a field the definitions know.
 */

import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const PROTO_ROOT = fileURLToPath(new URL('./opentelemetry-proto/', import.meta.url));

/** The `ExportTraceServiceRequest` type, loaded from the official files. */
export async function loadExportTraceServiceRequest(): Promise<protobuf.Type> {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => `${PROTO_ROOT}${target}`;
  await root.load('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: false });
  return root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
}

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/**
 * The OTLP JSON encoding as protobufjs reads proto3 JSON: ids are hex there (base64 in proto3 JSON). Throws on a
 * key the definitions do not have, so an invented field cannot pass.
 */
function toProtoObject(value: unknown, type: protobuf.Type | null, path: string): unknown {
  if (Array.isArray(value)) return value.map((item, index) => toProtoObject(item, type, `${path}[${index}]`));
  if (typeof value !== 'object' || value === null || type === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const definition = type.fields[key];
    if (definition === undefined) throw new Error(`${path}.${key}: not a field of ${type.fullName}`);
    definition.resolve();
    if (ID_FIELDS.has(key) && typeof field === 'string') {
      out[key] = Buffer.from(field, 'hex').toString('base64');
      continue;
    }
    const child = definition.resolvedType instanceof protobuf.Type ? definition.resolvedType : null;
    out[key] = toProtoObject(field, child, `${path}.${key}`);
  }
  return out;
}

/** One OTLP JSON request, checked against the definitions, encoded to protobuf and decoded back. */
export function decodeJsonRequest(type: protobuf.Type, json: string): Record<string, unknown> {
  const object = toProtoObject(JSON.parse(json), type, '$');
  const problem = type.verify(type.fromObject(object as Record<string, unknown>));
  if (problem !== null) throw new Error(problem);
  const bytes = type.encode(type.fromObject(object as Record<string, unknown>)).finish();
  return type.toObject(type.decode(bytes), {
    longs: String,
    bytes: String,
    enums: String,
    defaults: false,
  }) as Record<string, unknown>;
}
