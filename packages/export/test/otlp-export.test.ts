import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNormalizer, reduceSessions } from '@cursor-stream/core';
import { CORPUS_DIR, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExportWarning } from '../src/index.ts';
import {
  createOtlpExporter,
  DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT,
  GEN_AI_SCHEMA_URL,
  limitAttributeText,
  MAX_REQUEST_BYTES,
} from '../src/otlp/index.ts';
import {
  feedLog,
  HOSTILE_LOGS,
  init,
  NEWLINE_CALL_ID,
  ndjson,
  result,
  shellStart,
  TWO_SESSIONS_LOG,
} from './export-fixtures.ts';
import { decodeJsonRequest, loadExportTraceServiceRequest, type OtlpMessageType } from './otlp-proto.ts';

interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status?: { code?: string; message?: string };
  attributes?: { key: string; value: Record<string, unknown> }[];
}

let requestType: OtlpMessageType;
beforeAll(async () => {
  requestType = await loadExportTraceServiceRequest();
});

async function exportToLines(logs: readonly [string, string][], includeContent = false): Promise<string[]> {
  const lines: string[] = [];
  const exporter = await createOtlpExporter({
    includeContent,
    target: { kind: 'json-lines', writeLine: async (line) => void lines.push(line) },
  });
  for (const [file, text] of logs) await feedLog(exporter, file, text);
  await exporter.close();
  return lines;
}

function spansOf(request: Record<string, unknown>): DecodedSpan[] {
  const resourceSpans = request.resourceSpans as { scopeSpans: { spans: DecodedSpan[] }[] }[];
  return resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

function attribute(span: DecodedSpan, key: string): unknown {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  return value.stringValue ?? (value.intValue === undefined ? value.arrayValue : Number(value.intValue));
}

function hex(base64: string | undefined): string | undefined {
  return base64 === undefined ? undefined : Buffer.from(base64, 'base64').toString('hex');
}

/** Checks a log's trace against the core's own sessions, and that a second export gives the same ids. */
async function expectOneSpanPerSessionAndCall(path: string): Promise<void> {
  const text = readFileSync(path, 'utf8');
  const normalizer = createNormalizer();
  const sessions = reduceSessions([...normalizer.feed(text), ...normalizer.end()]);
  const decoded = async () =>
    (await exportToLines([[path, text]])).flatMap((line) => spansOf(decodeJsonRequest(requestType, line)));
  const spans = await decoded();
  const agents = spans.filter((span) => span.name.startsWith('invoke_agent'));
  const tools = spans.filter((span) => span.name.startsWith('execute_tool'));
  expect(agents, path).toHaveLength(sessions.length);
  const callIds = sessions.flatMap((session) => session.toolCalls.map((call) => call.toolCallId));
  expect(
    tools.map((span) => attribute(span, 'gen_ai.tool.call.id')),
    path,
  ).toEqual(callIds);
  const ids = (list: DecodedSpan[]) => list.map((span) => `${span.traceId}/${span.spanId}`);
  expect(ids(await decoded()), path).toEqual(ids(spans));
}

describe('OTLP export', () => {
  it('writes one request per session that decodes with the official definitions', async () => {
    const lines = await exportToLines([['runs/two.ndjson', TWO_SESSIONS_LOG]]);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain('\n');
    const [first, second] = lines.map((line) => decodeJsonRequest(requestType, line));
    const resource = (first?.resourceSpans ?? []) as { scopeSpans: { schemaUrl?: string }[] }[];
    expect(resource).toHaveLength(1);
    expect(resource[0]?.scopeSpans[0]?.schemaUrl).toBe(GEN_AI_SCHEMA_URL);

    const [agentA, ...toolsA] = spansOf(first ?? {});
    expect(agentA?.name).toBe('invoke_agent cursor-agent');
    expect(agentA?.kind).toBe('SPAN_KIND_INTERNAL');
    expect(agentA?.parentSpanId).toBeUndefined();
    expect(attribute(agentA as DecodedSpan, 'gen_ai.operation.name')).toBe('invoke_agent');
    expect(attribute(agentA as DecodedSpan, 'gen_ai.provider.name')).toBe('cursor');
    expect(attribute(agentA as DecodedSpan, 'gen_ai.conversation.id')).toBe(
      'aaaaaaaa-0000-4000-8000-000000000001',
    );
    expect(attribute(agentA as DecodedSpan, 'gen_ai.request.model')).toBe('Claude 4 Sonnet');
    // All the input, cached too, as the conventions count it: Cursor's 1,200 leave the cache out.
    expect(attribute(agentA as DecodedSpan, 'gen_ai.usage.input_tokens')).toBe(1200 + 1000 + 50);
    expect(attribute(agentA as DecodedSpan, 'gen_ai.usage.output_tokens')).toBe(300);
    expect(attribute(agentA as DecodedSpan, 'gen_ai.usage.cache_read.input_tokens')).toBe(1000);
    expect(attribute(agentA as DecodedSpan, 'gen_ai.usage.cache_creation.input_tokens')).toBe(50);
    expect(attribute(agentA as DecodedSpan, 'error.type')).toBeUndefined();
    // A success leaves the status unset, as OpenTelemetry asks of instrumentation (the JSON leaves it out).
    expect(agentA?.status?.code ?? 'STATUS_CODE_UNSET').toBe('STATUS_CODE_UNSET');
    expect((toolsA[0] as DecodedSpan).status?.code ?? 'STATUS_CODE_UNSET').toBe('STATUS_CODE_UNSET');

    expect(toolsA.map((span) => span.name)).toEqual(['execute_tool shell', 'execute_tool shell']);
    for (const tool of toolsA) {
      expect(tool.traceId).toBe(agentA?.traceId);
      expect(tool.parentSpanId).toBe(agentA?.spanId);
      expect(attribute(tool, 'gen_ai.operation.name')).toBe('execute_tool');
      expect(attribute(tool, 'gen_ai.tool.type')).toBe('function');
      expect(attribute(tool, 'gen_ai.tool.call.arguments')).toBeUndefined();
    }
    const failed = toolsA[1] as DecodedSpan;
    expect(attribute(failed, 'gen_ai.tool.call.id')).toBe(NEWLINE_CALL_ID);
    expect(failed.status?.code).toBe('STATUS_CODE_ERROR');
    expect(attribute(failed, 'error.type')).toBe('failure');
    // Record times: startedAtMs and completedAtMs of the call, in nanoseconds.
    expect(failed.startTimeUnixNano).toBe('1790000002000000000');
    expect(failed.endTimeUnixNano).toBe('1790000002250000000');

    const [agentB, ...toolsB] = spansOf(second ?? {});
    expect(agentB?.status?.code).toBe('STATUS_CODE_ERROR');
    expect(agentB?.status?.message).toBe('The agent could not finish: permission denied.');
    expect(attribute(agentB as DecodedSpan, 'error.type')).toBe('agent_error');
    expect(agentB?.traceId).not.toBe(agentA?.traceId);
    const byId = new Map(toolsB.map((span) => [attribute(span, 'gen_ai.tool.call.id'), span]));
    expect(byId.get('call_pending')?.status?.code ?? 'STATUS_CODE_UNSET').toBe('STATUS_CODE_UNSET');
    expect(attribute(byId.get('call_pending') as DecodedSpan, 'cursor_stream.tool.status')).toBe('pending');
    expect(byId.get('call_rejected')?.status?.code).toBe('STATUS_CODE_ERROR');
    // No times in session B's records: placed by position, in log order, inside the agent span.
    expect(attribute(agentB as DecodedSpan, 'cursor_stream.time_source')).toBe('position');
    for (const tool of toolsB) {
      expect(BigInt(tool.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(agentB?.startTimeUnixNano ?? 0));
      expect(BigInt(tool.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(agentB?.endTimeUnixNano ?? 0));
    }
  });

  it('gives the same ids on every export of a log, and different ones to different runs', async () => {
    const ids = async (file: string) =>
      (await exportToLines([[file, TWO_SESSIONS_LOG]]))
        .flatMap((line) => spansOf(decodeJsonRequest(requestType, line)))
        .map((span) => `${hex(span.traceId)}/${hex(span.spanId)}`);
    const first = await ids('a.ndjson');
    expect(await ids('a.ndjson')).toEqual(first);
    // The same run moved to another file keeps its ids: they come from the session, not the path.
    expect(await ids('elsewhere/b.ndjson')).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
    for (const id of first) expect(id).toMatch(/^[0-9a-f]{32}\/[0-9a-f]{16}$/);
  });

  it('records tool arguments and results only when asked', async () => {
    const [line] = await exportToLines([['a.ndjson', TWO_SESSIONS_LOG]], true);
    const tools = spansOf(decodeJsonRequest(requestType, line ?? '')).slice(1);
    expect(JSON.parse(String(attribute(tools[0] as DecodedSpan, 'gen_ai.tool.call.arguments')))).toEqual({
      command: 'ls',
    });
    expect(JSON.parse(String(attribute(tools[0] as DecodedSpan, 'gen_ai.tool.call.result')))).toMatchObject({
      exitCode: 0,
    });
  });

  it('names an MCP call by the MCP tool it ran, without its arguments', async () => {
    const path = join(CORPUS_DIR, 'official', 'parallel-tools-out-of-order.ndjson');
    const [line] = await exportToLines([[path, readFileSync(path, 'utf8')]]);
    const mcp = spansOf(decodeJsonRequest(requestType, line ?? '')).filter(
      (span) => attribute(span, 'gen_ai.tool.type') === 'extension',
    );
    expect(mcp.map((span) => [span.name, attribute(span, 'gen_ai.tool.name')])).toEqual([
      ['execute_tool docs-search', 'docs-search'],
    ]);
  });

  it('has one agent span per session and one tool span per call on every bundled recording', async () => {
    const corpus = fileURLToPath(new URL('../../../corpus/', import.meta.url));
    const logs: string[] = [];
    for (const dialect of readdirSync(corpus, { withFileTypes: true })) {
      // Not the generator, nor the benchmark's generated corpora (gigabytes, when a benchmark has run).
      if (!dialect.isDirectory() || dialect.name === 'generator' || dialect.name === 'generated') continue;
      for (const name of readdirSync(join(corpus, dialect.name))) {
        if (name.endsWith('.ndjson')) logs.push(join(corpus, dialect.name, name));
      }
    }
    expect(logs.length).toBeGreaterThan(5);
    for (const log of logs) await expectOneSpanPerSessionAndCall(log);
  });

  it.skipIf(!REAL_CORPUS.present)(`does the same on the real recordings ${REAL_CORPUS.needs}`, async () => {
    const logs = REAL_CORPUS.ndjsonFiles();
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) await expectOneSpanPerSessionAndCall(log);
  });

  /**
   * Exports the two-session log to a receiver on loopback that takes each request's body and answers `answer`; what
   * it took, and how closing the exporter ended (`undefined` for a success).
   */
  async function exportToReceiver(answer: string) {
    const bodies: { path: string | undefined; type: string | undefined; body: string }[] = [];
    const server = createServer(async (request: IncomingMessage, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      bodies.push({ path: request.url, type: request.headers['content-type'], body });
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const exporter = await createOtlpExporter({
        target: { kind: 'endpoint', url: `http://127.0.0.1:${port}/v1/traces` },
      });
      await feedLog(exporter, 'a.ndjson', TWO_SESSIONS_LOG);
      const failure = await exporter.close().then(
        () => undefined,
        (error: unknown) => error,
      );
      return { bodies, failure };
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('sends the same spans over OTLP/HTTP through the SDK exporter', async () => {
    const { bodies, failure } = await exportToReceiver('{}');
    expect(failure).toBeUndefined();
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies[0]?.path).toBe('/v1/traces');
    expect(bodies[0]?.type).toContain('application/json');
    const sent = bodies.flatMap(({ body }) => spansOf(decodeJsonRequest(requestType, body)));
    const written = (await exportToLines([['a.ndjson', TWO_SESSIONS_LOG]])).flatMap((line) =>
      spansOf(decodeJsonRequest(requestType, line)),
    );
    expect(sent.map((span) => [span.traceId, span.spanId, span.name])).toEqual(
      written.map((span) => [span.traceId, span.spanId, span.name]),
    );
  });

  it('fails, saying what the endpoint said, when it kept only part of the spans (a partial success)', async () => {
    const { failure } = await exportToReceiver(
      '{"partialSuccess":{"rejectedSpans":"3","errorMessage":"nope"}}',
    );
    expect(failure).toMatchObject({ code: 'server-error' });
    expect((failure as Error).message).toMatch(/kept only part of the \d+ spans sent: .*rejectedSpans.*nope/);
  });

  it('fails with a located message when the endpoint cannot be reached', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const exporter = await createOtlpExporter({
      target: { kind: 'endpoint', url: `http://127.0.0.1:${port}/v1/traces`, timeoutMs: 2000 },
    });
    await feedLog(exporter, 'a.ndjson', TWO_SESSIONS_LOG);
    await expect(exporter.close()).rejects.toMatchObject({ code: 'connection-failed' });
  });
});

/** A session with many tool calls whose outputs are `outputChars` long, as one log. */
function bigOutputsLog(calls: number, outputChars: number): string {
  const records: object[] = [init('big-1', 'Auto')];
  for (let index = 0; index < calls; index++) {
    const stdout = `${index} ${'x\u00e9"'.repeat(Math.ceil(outputChars / 3))}`.slice(0, outputChars);
    records.push(shellStart('big-1', `call_${index}`, 'cat big'));
    records.push({
      type: 'tool_call',
      subtype: 'completed',
      call_id: `call_${index}`,
      tool_call: { shellToolCall: { result: { success: { command: 'cat big', exitCode: 0, stdout } } } },
      session_id: 'big-1',
    });
  }
  records.push(result('big-1', false, 'done'));
  return ndjson(records);
}

describe('OTLP requests of bounded size', () => {
  it('cut long attributes with a marker, and split a session into requests under MAX_REQUEST_BYTES', async () => {
    const bodies: number[] = [];
    const spans: DecodedSpan[] = [];
    const server = createServer(async (request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      bodies.push(body.length);
      spans.push(...spansOf(decodeJsonRequest(requestType, body.toString('utf8'))));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const exporter = await createOtlpExporter({
        includeContent: true,
        target: { kind: 'endpoint', url: `http://127.0.0.1:${port}/v1/traces` },
      });
      // 200 outputs of 200,000 characters: unbounded, the session would be one POST of some 70 MB.
      await feedLog(exporter, 'big.ndjson', bigOutputsLog(200, 200_000));
      await exporter.close();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(spans).toHaveLength(201);
    expect(bodies.length).toBeGreaterThan(1);
    for (const bytes of bodies) expect(bytes).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
    const output = String(attribute(spans[1] as DecodedSpan, 'gen_ai.tool.call.result'));
    expect(output.length).toBeLessThanOrEqual(DEFAULT_ATTRIBUTE_VALUE_LENGTH_LIMIT);
    expect(output).toMatch(/… \[\d+ more characters cut\]$/);
  });

  it('write a session too large for one line on several lines, each under the bound', async () => {
    const lines = await exportToLines([['big.ndjson', bigOutputsLog(400, 100_000)]], true);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
    const spans = lines.flatMap((line) => spansOf(decodeJsonRequest(requestType, line)));
    expect(spans).toHaveLength(401);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
  });

  it('take their limit from the options, never splitting a surrogate pair', () => {
    expect(limitAttributeText('short', 10)).toBe('short');
    const cut = limitAttributeText('a'.repeat(100), 40);
    expect(cut).toBe(`${'a'.repeat(13)}… [87 more characters cut]`);
    expect(cut.length).toBeLessThanOrEqual(40);
    const emoji = limitAttributeText(`${'a'.repeat(13)}😀${'b'.repeat(100)}`, 40);
    expect(emoji).toBe(`${'a'.repeat(13)}… [102 more characters cut]`);
    expect(limitAttributeText('abcdef', 3)).toBe('abc');
  });
});

describe('OTLP times', () => {
  it('are 64-bit nanoseconds whatever times and durations the records hold, each value left out said', async () => {
    const warnings: ExportWarning[] = [];
    const lines: string[] = [];
    const exporter = await createOtlpExporter({
      onWarning: (warning) => warnings.push(warning),
      target: { kind: 'json-lines', writeLine: async (line) => void lines.push(line) },
    });
    for (const [file, text] of HOSTILE_LOGS) await feedLog(exporter, file, text, 1e300);
    await exporter.close();
    const spans = lines.flatMap((line) => spansOf(decodeJsonRequest(requestType, line)));
    expect(spans.filter((span) => span.name.startsWith('invoke_agent'))).toHaveLength(4);
    for (const span of spans) {
      for (const time of [span.startTimeUnixNano, span.endTimeUnixNano]) {
        expect(time).toMatch(/^\d{1,20}$/);
        expect(BigInt(time)).toBeLessThan(2n ** 64n);
      }
      expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano));
      for (const entry of span.attributes ?? []) {
        if (entry.value.intValue !== undefined) expect(String(entry.value.intValue)).toMatch(/^\d{1,16}$/);
      }
    }
    const said = warnings.map((warning) => `${warning.file}:${warning.line}: ${warning.message}`);
    expect(said).toEqual(
      expect.arrayContaining([
        '/logs/times.ndjson:1: timestamp_ms 1e+300 is after 2554-07-21, the latest time a record may name; left out',
        '/logs/times.ndjson:4: duration_ms 1e+308 ends the span past any time; the span is given no length',
        '/logs/values.ndjson:3: usage.inputTokens 1e+308 is more tokens than can be counted exactly; left out',
      ]),
    );
  });
});
