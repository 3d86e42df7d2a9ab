/**
 * Decoding OTLP with the official protobuf definitions, as the OpenTelemetry JS project compiled them with protobufjs
 * into the static module it published in `@opentelemetry/otlp-transformer` 0.52 (installed here under the alias
 * `otlp-proto-definitions`). Strictly: a key the definitions do not have is lost in the protobuf round trip, and
 * that fails, so an invented field cannot pass.
 */

import { createRequire } from 'node:module';

/** The parts of a protobufjs static message type the tests use. */
export interface OtlpMessageType {
  fromObject(object: Record<string, unknown>): unknown;
  verify(object: Record<string, unknown>): string | null;
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
}

interface ProtoRoot {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: OtlpMessageType } } } } };
}

/** The `ExportTraceServiceRequest` type of the official definitions. */
export async function loadExportTraceServiceRequest(): Promise<OtlpMessageType> {
  const require = createRequire(import.meta.url);
  const root = require('otlp-proto-definitions/build/src/generated/root.js') as ProtoRoot;
  return root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
}

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/**
 * Fields the definitions gained after the compiled version (opentelemetry-proto 1.1 added `flags` to spans and
 * links): accepted by name, everything else must be known.
 */
const NEWER_FIELDS = new Set(['flags']);

/** OTLP JSON writes ids as hex; protobufjs reads bytes as base64, as proto3 JSON does. */
function withBase64Ids(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withBase64Ids);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] =
      ID_FIELDS.has(key) && typeof field === 'string'
        ? Buffer.from(field, 'hex').toString('base64')
        : withBase64Ids(field);
  }
  return out;
}

/** Throws at the first key of `sent` that the decoded message (read with defaults) does not have. */
function expectKnownKeys(sent: unknown, decoded: unknown, path: string): void {
  if (Array.isArray(sent)) {
    const items = Array.isArray(decoded) ? decoded : [];
    sent.forEach((item, index) => {
      expectKnownKeys(item, items[index], `${path}[${index}]`);
    });
    return;
  }
  if (typeof sent !== 'object' || sent === null) return;
  const known = (typeof decoded === 'object' && decoded !== null ? decoded : {}) as Record<string, unknown>;
  for (const [key, field] of Object.entries(sent)) {
    if (!(key in known) && !NEWER_FIELDS.has(key))
      throw new Error(`${path}.${key}: not a field of the OTLP definitions`);
    expectKnownKeys(field, known[key], `${path}.${key}`);
  }
}

/** One OTLP JSON request, checked against the definitions, encoded to protobuf and decoded back. */
export function decodeJsonRequest(type: OtlpMessageType, json: string): Record<string, unknown> {
  const object = withBase64Ids(JSON.parse(json)) as Record<string, unknown>;
  const message = type.fromObject(object);
  const problem = type.verify(message as Record<string, unknown>);
  if (problem !== null) throw new Error(problem);
  const decoded = type.decode(type.encode(message).finish());
  const everyField = {
    longs: String,
    bytes: String,
    enums: Number,
    defaults: true,
    arrays: true,
    objects: true,
  };
  expectKnownKeys(object, type.toObject(decoded, everyField), '$');
  return type.toObject(decoded, { longs: String, bytes: String, enums: String, defaults: false });
}
