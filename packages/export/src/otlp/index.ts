/**
 * `@cursor-stream/export/otlp`: logs as OpenTelemetry traces following the GenAI semantic conventions (pinned to
 * {@link GEN_AI_SEMCONV_VERSION}), serialized by the OpenTelemetry JS SDK's own OTLP code. Either a file of OTLP
 * JSON lines, one `ExportTraceServiceRequest` per session (what the collector's `otlpjsonfile` receiver reads), or
 * OTLP/HTTP to an endpoint through the SDK's exporter. The OpenTelemetry packages are optional peer dependencies,
 * loaded only here.
 */

import { type CanonicalEvent, readRecordTime } from '@cursor-stream/core/normalize';
import { displayUrl, escapeControls } from '@cursor-stream/core/text';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { jsonText } from '../json-text.ts';
import {
  ExportFailure,
  type ExportWarningListener,
  emptyTotals,
  type LogExporter,
  type LogSink,
} from '../log-exporter.ts';
import { importOptional } from '../optional-package.ts';
import { importPeer } from '../optional-peer.ts';
import { OTLP_ENDPOINT_PEERS, OTLP_PEERS } from '../optional-peers.ts';
import { createSessionCollector, type ExportSession } from '../session-collector.ts';
import { DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT, limitAttributeText, sessionSpans } from './session-spans.ts';
import { createSessionDigest, sessionSpanIds } from './span-ids.ts';

export {
  AGENT_NAME,
  ATTR,
  GEN_AI_SCHEMA_URL,
  GEN_AI_SEMCONV_VERSION,
  PROVIDER_NAME,
} from './gen-ai-conventions.ts';
export {
  DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT,
  INSTRUMENTATION_SCOPE,
  limitAttributeText,
  type SpanOptions,
  sessionSpans,
} from './session-spans.ts';
export { createSessionDigest, type SessionDigest, type SessionSpanIds, sessionSpanIds } from './span-ids.ts';

/** Where the traces go. */
export type OtlpTarget =
  /** OTLP JSON lines, one line (no line break inside) per session, handed to `writeLine`. */
  | { kind: 'json-lines'; writeLine(line: string): Promise<void> }
  /** OTLP/HTTP (JSON) to the collector's traces URL, e.g. `http://127.0.0.1:4318/v1/traces`. */
  | { kind: 'endpoint'; url: string; headers?: Record<string, string>; timeoutMs?: number };

/** Options of {@link createOtlpExporter}. */
export interface OtlpExportOptions {
  target: OtlpTarget;
  /** Record tool arguments and results (`gen_ai.tool.call.arguments` / `.result`); off by default. */
  includeContent?: boolean;
  /** `service.name` of the resource; default `cursor-agent`. */
  serviceName?: string;
  /**
   * The longest string an attribute holds (UTF-16 units), as the SDK's `attributeValueLengthLimit` and
   * `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`: longer ones are cut with a marker. Default
   * {@link DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT}.
   */
  attributeValueLengthLimit?: number;
  /** Hears of each value left out (a time no date can hold, a token count no sum can take), with its log and line. */
  onWarning?: ExportWarningListener;
}

/** Spans sent to an endpoint per request, at most. */
export const SPANS_PER_REQUEST = 512;

/**
 * The size a request (a POST, or a line of the JSON lines file) is kept under, as its spans' JSON is estimated: the
 * spans of a session go out in several requests when they pass it. Only a single span larger than this (an
 * `attributeValueLengthLimit` set in the megabytes) makes a larger one.
 */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** Bytes of a span's JSON besides its strings: ids, times, kinds, keys and punctuation. */
const SPAN_OVERHEAD_BYTES = 1024;

/** Bytes of a string in JSON, as UTF-8 with JSON's escapes. */
function jsonStringBytes(text: string): number {
  let bytes = 2;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20) bytes += 6;
    else if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800 || (code >= 0xd800 && code <= 0xdfff)) bytes += 2;
    else bytes += 3;
  }
  return bytes;
}

/** An estimate of a span's size in an OTLP JSON request, from above. */
export function spanBytes(span: ReadableSpan): number {
  let bytes = SPAN_OVERHEAD_BYTES + jsonStringBytes(span.name) + jsonStringBytes(span.status.message ?? '');
  for (const [key, value] of Object.entries(span.attributes)) {
    bytes += jsonStringBytes(key) + 32;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) bytes += typeof item === 'string' ? jsonStringBytes(item) : 32;
  }
  return bytes;
}

const OTEL_PACKAGES = OTLP_PEERS.join(' ');
const OTEL_HTTP_PACKAGE = OTLP_ENDPOINT_PEERS.join(' ');

type SpanSender = { send(spans: ReadableSpan[]): Promise<void>; close(): Promise<void> };

async function jsonLinesSender(writeLine: (line: string) => Promise<void>): Promise<SpanSender> {
  const { JsonTraceSerializer } = await importOptional(OTEL_PACKAGES, 'otlp', () =>
    importPeer('@opentelemetry/otlp-transformer', () => import('@opentelemetry/otlp-transformer')),
  );
  const decoder = new TextDecoder();
  return {
    async send(spans) {
      const bytes = JsonTraceSerializer.serializeRequest(spans);
      if (bytes === undefined)
        throw new ExportFailure({ code: 'write-failed', message: 'OTLP serialization failed' });
      await writeLine(decoder.decode(bytes));
    },
    async close() {},
  };
}

async function endpointSender(target: Extract<OtlpTarget, { kind: 'endpoint' }>): Promise<SpanSender> {
  const { OTLPTraceExporter } = await importOptional(
    `${OTEL_PACKAGES} ${OTEL_HTTP_PACKAGE}`,
    'otlp --endpoint',
    () =>
      importPeer(
        '@opentelemetry/exporter-trace-otlp-http',
        () => import('@opentelemetry/exporter-trace-otlp-http'),
      ),
  );
  // The SDK takes an answer that rejected some of the spans (OTLP's partial success) for a success, and only says so
  // to OpenTelemetry's diagnostic logger: listened to here, so that spans a backend dropped are not said exported.
  const { diag, DiagLogLevel } = await importOptional(OTEL_PACKAGES, 'otlp', () =>
    importPeer('@opentelemetry/api', () => import('@opentelemetry/api')),
  );
  let partialSuccess: string | undefined;
  const ignore = () => {};
  diag.setLogger(
    {
      warn(message: string, ...details: unknown[]) {
        if (message.startsWith('Received Partial Success')) partialSuccess = String(details[0] ?? '');
      },
      error: ignore,
      info: ignore,
      debug: ignore,
      verbose: ignore,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  // Without headers given, the SDK takes them from OTEL_EXPORTER_OTLP_(TRACES_)HEADERS, keeping tokens off the
  // command line.
  const exporter = new OTLPTraceExporter({
    url: target.url,
    timeoutMillis: target.timeoutMs ?? 10_000,
    ...(target.headers === undefined ? {} : { headers: target.headers }),
  });
  return {
    send: (spans) =>
      new Promise((resolve, reject) => {
        partialSuccess = undefined;
        exporter.export(spans, (result) => {
          if (result.code === 0 && partialSuccess === undefined) return resolve();
          const why =
            result.code === 0
              ? `it kept only part of the ${spans.length} spans sent: ${escapeControls(partialSuccess ?? '').slice(0, 300)}`
              : (result.error?.message ?? 'export failed');
          reject(
            new ExportFailure({
              code: result.code === 0 ? 'server-error' : 'connection-failed',
              message: `OTLP endpoint ${displayUrl(target.url)}: ${why}`,
            }),
          );
        });
      }),
    close: () => exporter.shutdown(),
  };
}

async function traceResource(serviceName: string): Promise<Resource> {
  const { resourceFromAttributes } = await importOptional(OTEL_PACKAGES, 'otlp', () =>
    importPeer('@opentelemetry/resources', () => import('@opentelemetry/resources')),
  );
  // The schema URL goes on the instrumentation scope only: given to the resource, the SDK's JSON also writes it
  // inside the `Resource` message, where OTLP has no such field.
  return resourceFromAttributes({ 'service.name': serviceName });
}

/**
 * Creates an OTLP exporter. Each session becomes one `invoke_agent` span with one `execute_tool` child per tool
 * call; ids are derived from the session (see {@link sessionSpanIds}), so a second export of a log gives the same
 * ids. Fails with `missing-package` when the OpenTelemetry packages are not installed.
 */
export async function createOtlpExporter(options: OtlpExportOptions): Promise<LogExporter> {
  const resource = await traceResource(options.serviceName ?? 'cursor-agent');
  const target = options.target;
  const sender =
    target.kind === 'json-lines' ? await jsonLinesSender(target.writeLine) : await endpointSender(target);
  const totals = emptyTotals();
  const attributeLimit = options.attributeValueLengthLimit ?? DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT;
  let pending: ReadableSpan[] = [];
  let pendingBytes = 0;
  // Sessions without record times follow one another from the log's modification time.
  let nextStartMs = 0;

  async function sendPending(): Promise<void> {
    if (pending.length === 0) return;
    const spans = pending;
    pending = [];
    pendingBytes = 0;
    await sender.send(spans);
  }

  /** Adds a span to the request being built, sending that request first when the span would take it past a bound. */
  async function addSpan(span: ReadableSpan): Promise<void> {
    const bytes = spanBytes(span);
    const full = target.kind === 'endpoint' && pending.length >= SPANS_PER_REQUEST;
    if (pending.length > 0 && (full || pendingBytes + bytes > MAX_REQUEST_BYTES)) await sendPending();
    pending.push(span);
    pendingBytes += bytes;
  }

  async function addSession(session: ExportSession, digest: string): Promise<void> {
    const spans = sessionSpans(session, sessionSpanIds(session.sessionId, digest), {
      resource,
      includeContent: options.includeContent === true,
      fallbackStartMs: nextStartMs,
      attributeValueLengthLimit: attributeLimit,
      onProblem: (line, message) => options.onWarning?.({ file: session.file, line, message }),
    });
    const agentEnd = spans[0]?.endTime;
    if (agentEnd !== undefined) nextStartMs = agentEnd[0] * 1000 + Math.ceil(agentEnd[1] / 1e6) + 1;
    totals.sessions++;
    totals.toolCalls += session.toolCalls.length;
    // A file holds one request per session (more when its spans pass MAX_REQUEST_BYTES); an endpoint gets requests
    // of sessions together, up to SPANS_PER_REQUEST spans and MAX_REQUEST_BYTES.
    for (const span of spans) await addSpan(span);
    if (target.kind === 'json-lines') await sendPending();
  }

  return {
    async openLog(file, modifiedMs): Promise<LogSink> {
      totals.logs++;
      // A file's time may be one no span can start at (set to the year 3000): then now.
      const modified = readRecordTime(modifiedMs, 'modified');
      nextStartMs = modified?.ok === true ? modified.ms : Date.now();
      let digest = createSessionDigest();
      const collector = createSessionCollector({
        file,
        includeContent: options.includeContent === true,
        // Kept as the attribute will hold it: a session's calls keep no more of a tool's output than its span does.
        contentText: (value) =>
          limitAttributeText(typeof value === 'string' ? value : jsonText(value), attributeLimit),
        onSession: async (session) => {
          const hex = digest.hex();
          digest = createSessionDigest();
          await addSession(session, hex);
        },
        onProblem: (line, message) => options.onWarning?.({ file, line, message }),
      });
      return {
        observeRecord: (line, record, dialect, offset) =>
          collector.observeRecord(line, record, dialect, offset),
        async push(events: readonly CanonicalEvent[]) {
          for (const event of events) {
            digest.add(event);
            await collector.push(event);
          }
          totals.events += events.length;
        },
        end: () => collector.end(),
      };
    },
    async close() {
      try {
        await sendPending();
      } finally {
        await sender.close();
      }
      return { ...totals };
    },
  };
}
