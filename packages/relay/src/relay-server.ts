/**
 * `createRelayServer`: runs cursor-agent for HTTP clients and serves each run's events over SSE and WebSocket,
 * resumable by event id (the byte offset of the record in the run's log), with a live page at `/`.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import type { RunAgentOptions } from '@cursor-stream/node';
import { WebSocketServer } from 'ws';
import { type AccessPolicy, createAccessPolicy, isLoopbackHost, TOKEN_COOKIE } from './access.ts';
import { type EventId, parseEventId } from './event-ids.ts';
import { isRelayFormat, type RelayFormat } from './formats.ts';
import { BodyError, logWhenDone, readJsonBody, sendError, sendJson } from './http-io.ts';
import type { RingLimits } from './live-run.ts';
import { PAGE_HTML, PAGE_SCRIPT } from './page.ts';
import { createRunManager, type RunManager } from './run-manager.ts';
import { parseRunRequest } from './run-request.ts';
import { createFileRunStore, isRunId, type RunStore } from './run-store.ts';
import { summarizeRun } from './run-summary.ts';
import { streamSse } from './sse.ts';
import type { SubscriptionSource } from './subscription.ts';
import { streamWebSocket } from './websocket.ts';

/** Options of {@link createRelayServer}. */
export interface RelayServerOptions {
  /** Where runs are kept (`runs/<runId>.ndjson` and `.json`). */
  dataDir: string;
  /** @defaultValue `'127.0.0.1'` */
  host?: string;
  /** @defaultValue 8787; 0 picks a free port. */
  port?: number;
  /** Required on any address that is not loopback: the bearer token every request must carry. */
  token?: string;
  /** Origins besides the relay's own that may open WebSockets and post, e.g. `https://app.example.com`. */
  allowedOrigins?: readonly string[];
  /**
   * How every run starts the agent (`binary`, `env`, `apiKey`, `trust`, `timeoutMs`, ...). The agent's environment
   * is the relay's with `env` applied; nothing in a request changes it.
   */
  agent?: RunAgentOptions;
  /** Request workspaces must be inside this folder. @defaultValue the current directory */
  workspaceRoot?: string;
  /** @defaultValue 2 MiB */
  maxPromptBytes?: number;
  /** @defaultValue `maxPromptBytes` + 64 KiB */
  maxBodyBytes?: number;
  /** Runs listed by `GET /api/runs`. @defaultValue 100 */
  listLimit?: number;
  /** Bounds of each run's ring of recent events. */
  ring?: RingLimits;
  /** Receives one line per request, and errors. @defaultValue a line on stderr */
  log?: (line: string) => void;
}

/** A relay's configuration it cannot run with. */
export class RelayConfigError extends Error {
  readonly code: 'token-required';
  constructor(code: 'token-required', message: string) {
    super(message);
    this.name = 'RelayConfigError';
    this.code = code;
  }
}

/** A relay server; see {@link createRelayServer}. */
export interface RelayServer {
  /** Starts listening; resolves with the address (e.g. `http://127.0.0.1:8787`). */
  listen(): Promise<{ url: string; host: string; port: number }>;
  /** Stops: runs in flight end `interrupted`, connections close. */
  close(): Promise<void>;
  /** The Node server, for embedding. */
  readonly server: Server;
}

interface Context {
  store: RunStore;
  runs: RunManager;
  access: AccessPolicy;
  options: Required<
    Pick<RelayServerOptions, 'maxPromptBytes' | 'maxBodyBytes' | 'listLimit' | 'workspaceRoot'>
  >;
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

function sourceOf(context: Context, runId: string): SubscriptionSource | undefined {
  const record = context.store.load(runId);
  if (record === undefined) return undefined;
  return {
    runId,
    store: context.store,
    live: context.runs.live(runId),
    // Read when the log is read to its end, by then the record holds how the run ended.
    failure: () => context.store.load(runId)?.error ?? record.error,
  };
}

/** `after` from `?after=` or `Last-Event-ID`; `null` when one is given but is no event id. */
function afterOf(request: IncomingMessage, url: URL): EventId | undefined | null {
  const text = url.searchParams.get('after') ?? request.headers['last-event-id'];
  if (text === undefined || text === null || text === '') return undefined;
  return parseEventId(String(text)) ?? null;
}

function formatOf(url: URL): RelayFormat | undefined {
  const text = url.searchParams.get('format') ?? 'canonical';
  return isRelayFormat(text) ? text : undefined;
}

function sendPage(request: IncomingMessage, response: ServerResponse, url: URL): void {
  const token = url.searchParams.get('token');
  if (token !== null) {
    // Opened once with ?token=: keep it in a cookie the page's requests carry, and drop it from the address bar.
    response.writeHead(303, {
      location: '/',
      'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
    });
    response.end();
    return;
  }
  const isScript = url.pathname === '/app.js';
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': isScript ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    'cache-control': 'no-store',
  });
  response.end(request.method === 'HEAD' ? undefined : isScript ? PAGE_SCRIPT : PAGE_HTML);
}

async function postRun(context: Context, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readJsonBody(request, context.options.maxBodyBytes);
  const parsed = parseRunRequest(body, context.options);
  if ('problem' in parsed) {
    sendError(response, 400, 'invalid-request', parsed.problem);
    return;
  }
  const record = context.runs.start(parsed);
  sendJson(response, 201, { runId: record.runId, chatId: record.chatId });
}

async function routeRun(
  context: Context,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  runId: string,
  action: string | undefined,
): Promise<void> {
  const record = context.store.load(runId);
  if (record === undefined) {
    sendError(response, 404, 'not-found', `no run ${runId}`);
    return;
  }
  if (action === undefined && request.method === 'GET') {
    sendJson(
      response,
      200,
      await summarizeRun(context.store, record, context.runs.live(runId) !== undefined),
    );
    return;
  }
  if (action === 'cancel' && request.method === 'POST') {
    if (!context.runs.cancel(runId)) {
      sendError(response, 409, 'not-running', `run ${runId} is ${record.status}`);
      return;
    }
    sendJson(response, 202, { runId, status: 'cancelling' });
    return;
  }
  if (action === 'events' && request.method === 'GET') {
    const after = afterOf(request, url);
    const format = formatOf(url);
    const source = sourceOf(context, runId);
    if (after === null || format === undefined || source === undefined) {
      sendError(
        response,
        400,
        'invalid-request',
        'after must be an event id and format one of canonical, payload-envelope, ai-sdk',
      );
      return;
    }
    await streamSse(response, source, { after, format });
    return;
  }
  sendError(response, 405, 'method-not-allowed', `${request.method} is not allowed here`);
}

async function route(
  context: Context,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const path = url.pathname;
  if ((path === '/' || path === '/app.js') && (request.method === 'GET' || request.method === 'HEAD')) {
    sendPage(request, response, url);
    return;
  }
  if (!context.access.authorized(request)) {
    sendError(response, 401, 'unauthorized', 'a valid token is required');
    return;
  }
  if (path === '/api/runs') {
    if (request.method === 'GET') {
      sendJson(response, 200, { runs: context.store.list(context.options.listLimit) });
      return;
    }
    if (request.method === 'POST') {
      await postRun(context, request, response);
      return;
    }
  }
  const match = /^\/api\/runs\/([^/]+)(?:\/(cancel|events))?$/.exec(path);
  if (match !== null) {
    const runId = decodeURIComponent(match[1] ?? '');
    if (!isRunId(runId)) {
      sendError(response, 400, 'invalid-run-id', 'not a run id');
      return;
    }
    await routeRun(context, request, response, url, runId, match[2]);
    return;
  }
  sendError(response, 404, 'not-found', `nothing at ${path}`);
}

function handleUpgrade(
  context: Context,
  wss: WebSocketServer,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
) {
  const refuse = (status: number, text: string) => {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  const url = new URL(request.url ?? '/', 'http://relay');
  const match = /^\/api\/runs\/([^/]+)\/ws$/.exec(url.pathname);
  const runId = decodeURIComponent(match?.[1] ?? '');
  if (!context.access.hostAllowed(request)) return refuse(403, 'Forbidden');
  if (!context.access.originAllowed(request, false)) return refuse(403, 'Forbidden');
  if (!context.access.authorized(request)) return refuse(401, 'Unauthorized');
  if (match === null || !isRunId(runId)) return refuse(404, 'Not Found');
  const after = afterOf(request, url);
  const format = formatOf(url);
  const source = sourceOf(context, runId);
  if (source === undefined) return refuse(404, 'Not Found');
  if (after === null || format === undefined) return refuse(400, 'Bad Request');
  wss.handleUpgrade(request, socket, head, (ws) => {
    void streamWebSocket(ws, source, { after, format });
  });
}

/**
 * Creates a relay: `POST /api/runs` starts a run (`{ prompt, chatId?, model?, mode?, workspace? }` → `201 { runId,
 * chatId }`), `GET /api/runs` lists runs, `GET /api/runs/:runId` summarizes one, `POST /api/runs/:runId/cancel`
 * cancels it, `GET /api/runs/:runId/events` streams its events over SSE and `/api/runs/:runId/ws` over WebSocket
 * (both with `?after=ID` or `Last-Event-ID`, and `?format=canonical|payload-envelope|ai-sdk`), and `/` is the live
 * page. Runs a previous relay left in flight in `dataDir` are marked `interrupted`.
 *
 * @throws RelayConfigError with code `token-required` for a non-loopback `host` without a `token`.
 */
export function createRelayServer(options: RelayServerOptions): RelayServer {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && (options.token === undefined || options.token === '')) {
    throw new RelayConfigError('token-required', `listening on ${host} (not loopback) requires a token`);
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const maxPromptBytes = options.maxPromptBytes ?? 2 * 1024 * 1024;
  const store = createFileRunStore(options.dataDir);
  const runs = createRunManager(store, {
    options: options.agent ?? {},
    ...(options.ring === undefined ? {} : { ring: options.ring }),
    onError: (error) => log(`relay: ${String(error)}`),
  });
  const context: Context = {
    store,
    runs,
    access: createAccessPolicy({
      host,
      token: options.token || undefined,
      allowedOrigins: options.allowedOrigins ?? [],
    }),
    options: {
      maxPromptBytes,
      maxBodyBytes: options.maxBodyBytes ?? maxPromptBytes + 64 * 1024,
      listLimit: options.listLimit ?? 100,
      workspaceRoot: resolve(options.workspaceRoot ?? process.cwd()),
    },
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const server = createServer((request, response) => {
    logWhenDone(request, response, log);
    const url = new URL(request.url ?? '/', 'http://relay');
    if (!context.access.hostAllowed(request)) {
      sendError(response, 403, 'forbidden-host', 'the Host header does not name this relay');
      return;
    }
    if (request.method === 'POST' && !context.access.originAllowed(request, false)) {
      sendError(response, 403, 'forbidden-origin', 'requests from other origins are refused');
      return;
    }
    route(context, request, response, url).catch((error: unknown) => {
      if (error instanceof BodyError) sendError(response, error.status, 'invalid-body', error.message);
      else {
        log(`relay: ${String(error)}`);
        sendError(response, 500, 'internal', 'the relay failed to answer');
      }
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const started = performance.now();
    socket.once('close', () => {
      const path = (request.url ?? '/').split('?')[0];
      log(`${new Date().toISOString()} WS ${path} closed ${Math.round(performance.now() - started)}ms`);
    });
    handleUpgrade(context, wss, request, socket, head);
  });

  return {
    server,
    listen() {
      return new Promise((resolveListen, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 8787, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolveListen({
            url: `http://${shown}:${address.port}`,
            host: address.address,
            port: address.port,
          });
        });
      });
    },
    async close() {
      const closed = new Promise<void>((done) => server.close(() => done()));
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      await runs.close();
      await closed;
    },
  };
}
