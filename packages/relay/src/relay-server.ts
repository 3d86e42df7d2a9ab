/**
 * `createRelayServer`: runs cursor-agent for HTTP clients and serves each run's events over SSE and WebSocket,
 * resumable by event id (the byte offset of the record in the run's log), with a live page at `/`.
 */

import { realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import type { RunAgentOptions } from '@cursor-stream/node';
import { makeDirectories } from '@cursor-stream/node/make-directories';
import { type WebSocket, WebSocketServer } from 'ws';
import { type AccessPolicy, bareHost, createAccessPolicy, isLoopbackHost, TOKEN_COOKIE } from './access.ts';
import type { ClientQueueLimits } from './client-queue.ts';
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import type { StreamOutcome } from './event-delivery.ts';
import { compareEventIds, type EventId, parseEventId } from './event-ids.ts';
import { writeJournal } from './event-journal.ts';
import { isRelayFormat, type RelayFormat } from './formats.ts';
import {
  BodyError,
  describeError,
  logWhenDone,
  readJsonBody,
  refuseUpgrade,
  sendError,
  sendJson,
} from './http-io.ts';
import { DEFAULT_MAX_PENDING_BYTES, type RingLimits } from './live-run.ts';
import { PAGE_HTML, PAGE_ICON, PAGE_SCRIPT, PAGE_STYLE } from './page.ts';
import { decodePercent, parseRequestTarget, type RequestTarget } from './request-parts.ts';
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
  /** Bounds of each run's ring of recent events (the newest event is kept whatever its size). */
  ring?: RingLimits;
  /**
   * Bytes of a run's stdout read and not yet written to its log; past it the agent's output is not read until the log
   * has caught up to half of it (the agent then waits on its pipe). @defaultValue 4 MiB
   */
  maxPendingBytes?: number;
  /** Runs in flight at once; `POST /api/runs` answers 429 past it. @defaultValue 16 */
  maxRuns?: number;
  /** Open event streams (SSE and WebSocket) at once; a new one is refused with 503 past it. @defaultValue 1024 */
  maxConnections?: number;
  /** Bounds of each client's queue of output it has not taken (256 KiB; a client taking nothing for 30 s is closed). */
  clientQueue?: ClientQueueLimits;
  /**
   * Time a client has to send a whole request once connected, headers and body (`408` after it, or the connection
   * closed when it sent nothing at all), and to take a run's summary once it is written. @defaultValue 30 s
   */
  requestTimeoutMs?: number;
  /** Receives one line per request, and errors. @defaultValue a line on stderr */
  log?: (line: string) => void;
}

/** Why a relay cannot run with its configuration. */
export type RelayConfigErrorCode =
  | 'token-required'
  | 'data-dir-unusable'
  | 'data-dir-in-use'
  | 'invalid-limit';

/** A relay's configuration it cannot run with. */
export class RelayConfigError extends Error {
  readonly code: RelayConfigErrorCode;
  constructor(code: RelayConfigErrorCode, message: string) {
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
  log: (line: string) => void;
  options: Required<
    Pick<
      RelayServerOptions,
      | 'maxPromptBytes'
      | 'maxBodyBytes'
      | 'listLimit'
      | 'workspaceRoot'
      | 'maxRuns'
      | 'maxConnections'
      | 'requestTimeoutMs'
    >
  > & { clientQueue: ClientQueueLimits };
  /** Runs this relay started that may still be in flight (pruned as they end). */
  started: Set<string>;
  /** Open event streams. */
  connections: number;
  /** Requests doing what costs a body or a log's worth of memory at once, by kind (see {@link BUSY_LIMITS}). */
  busy: Record<keyof typeof BUSY_LIMITS, number>;
  /** The journals being written, one per run in flight. */
  journals: Set<Promise<void>>;
}

/**
 * Requests at a time that read a body (a body may take its time to come, held as it comes) or summarize a run (its
 * log read through, a large record held as bytes and text): each is bounded, and these bound how many, so that
 * requests that never finish, or many at once, cost a bounded amount together. Past them, a `503` with
 * `Retry-After`.
 */
const BUSY_LIMITS = { bodies: 32, summaries: 4 } as const;

/** Time a client has to send a whole request, headers and body. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Summaries are held until their client has taken them, not only until they are written: one that reads nothing
 * would otherwise hold its summary in the relay's memory for as long as it stays, and any number of them could. So a
 * summary's place is given back when its response is done or gone, and a client that has not taken it within
 * `limitMs` of asking is cut off. Held from before the summary is made: a client that leaves while it is made (a tab
 * closed during a large log's summary) has gone before it is written, and no event would come to give it back after.
 */
function holdUntilTaken(response: ServerResponse, done: () => void, limitMs: number): void {
  const release = () => {
    clearTimeout(cutOff);
    done();
  };
  const cutOff = setTimeout(() => {
    response.destroy();
    release();
  }, limitMs);
  cutOff.unref();
  response.once('finish', release);
  response.once('close', release);
}

/** How many request timeouts a client has to take a summary once written: a large one takes a slow link a while. */
const SUMMARY_TAKE_TIMEOUTS = 4;

/** Takes one of `kind`'s places, or `undefined` when all are taken; the function returned gives it back. */
function takeBusy(context: Context, kind: keyof typeof BUSY_LIMITS): (() => void) | undefined {
  if (context.busy[kind] >= BUSY_LIMITS[kind]) return undefined;
  context.busy[kind] += 1;
  let taken = true;
  return () => {
    if (taken) context.busy[kind] -= 1;
    taken = false;
  };
}

function sendBusy(response: ServerResponse, what: string): void {
  response.setHeader('retry-after', '5');
  sendError(response, 503, 'busy', `too many ${what} at once; try again later`);
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

/**
 * `after` from `?after=` or `Last-Event-ID`, the later of the two when both are given: a page that resumed with
 * `?after=` keeps that address, and when its connection drops the browser reconnects to it on its own with the last
 * id it received in the header. `null` when either is given but is no event id.
 */
function afterOf(request: IncomingMessage, target: RequestTarget): EventId | undefined | null {
  let after: EventId | undefined;
  for (const text of [target.query.get('after'), request.headers['last-event-id']]) {
    if (text === undefined || text === null || text === '') continue;
    const id = parseEventId(String(text));
    if (id === undefined) return null;
    if (after === undefined || compareEventIds(id, after) > 0) after = id;
  }
  return after;
}

function formatOf(target: RequestTarget): RelayFormat | undefined {
  const text = target.query.get('format') ?? 'canonical';
  return isRelayFormat(text) ? text : undefined;
}

/** Writes the journal of a run just started, for resumes to seek in; a failure only costs resumes a log read. */
function keepJournal(context: Context, runId: string): void {
  const live = context.runs.live(runId);
  const create = context.store.createJournal;
  if (live === undefined || create === undefined) return;
  // Taken now, before the run's first events: the ring keeps them until the journal has written them.
  const hold = live.holdForJournal();
  const writing = create
    .call(context.store, runId)
    .then((writer) => writeJournal(live, writer, hold))
    .catch((error: unknown) => context.log(`relay: the journal of run ${runId}: ${describeError(error)}`))
    .finally(() => {
      hold.release();
      context.journals.delete(writing);
    });
  context.journals.add(writing);
}

/** The runs in flight that this relay started. */
function runsInFlight(context: Context): number {
  for (const runId of context.started)
    if (context.runs.live(runId) === undefined) context.started.delete(runId);
  return context.started.size;
}

/** Counts an event stream while it is open; `undefined` (and nothing counted) when the relay has too many. */
function openConnection(context: Context): (() => void) | undefined {
  if (context.connections >= context.options.maxConnections) return undefined;
  context.connections += 1;
  let open = true;
  return () => {
    if (open) context.connections -= 1;
    open = false;
  };
}

const TOO_MANY_CONNECTIONS = 'too many open event streams; try again later';

function logOutcome(context: Context, runId: string, outcome: StreamOutcome): void {
  if (outcome === 'stalled') context.log(`relay: a client of run ${runId} took nothing for too long; closed`);
}

/** The page's files by path: its type and its text. */
const PAGE_FILES: Record<string, [string, string]> & { '/': [string, string] } = {
  '/': ['text/html; charset=utf-8', PAGE_HTML],
  '/app.js': ['text/javascript; charset=utf-8', PAGE_SCRIPT],
  '/app.css': ['text/css; charset=utf-8', PAGE_STYLE],
  '/icon.svg': ['image/svg+xml', PAGE_ICON],
};

/**
 * What the page may load: its own script, style sheet and API, nothing inline and nothing from elsewhere. A log's
 * text reaches the page as text, so even a link in it cannot post a form or change the page's base.
 */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function sendPage(
  access: AccessPolicy,
  request: IncomingMessage,
  response: ServerResponse,
  target: RequestTarget,
): void {
  const token = target.query.get('token');
  if (token !== null) {
    // A link with any other token must not replace the one a user's cookie holds (and lock the page out).
    if (!access.authorized(request) && !access.isToken(token)) {
      sendError(response, 401, 'unauthorized', 'a valid token is required');
      return;
    }
    // Opened once with ?token=: keep it in a cookie the page's requests carry, and drop it from the address bar.
    const cookie = access.isToken(token)
      ? { 'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/` }
      : {};
    response.writeHead(303, { location: '/', ...cookie });
    response.end();
    return;
  }
  const [type, body] = PAGE_FILES[target.path] ?? PAGE_FILES['/'];
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'content-security-policy': PAGE_POLICY,
    'cache-control': 'no-store',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

async function postRun(context: Context, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const done = takeBusy(context, 'bodies');
  if (done === undefined) {
    sendBusy(response, 'requests sending a body');
    return;
  }
  let body: unknown;
  try {
    body = await readJsonBody(request, context.options.maxBodyBytes);
  } finally {
    done();
  }
  const parsed = parseRunRequest(body, context.options);
  if ('problem' in parsed) {
    sendError(response, 400, 'invalid-request', parsed.problem);
    return;
  }
  if (runsInFlight(context) >= context.options.maxRuns) {
    response.setHeader('retry-after', '5');
    sendError(
      response,
      429,
      'too-many-runs',
      `${context.options.maxRuns} runs are in flight; try again when one has ended`,
    );
    return;
  }
  const record = context.runs.start(parsed);
  context.started.add(record.runId);
  keepJournal(context, record.runId);
  sendJson(response, 201, { runId: record.runId, chatId: record.chatId });
}

async function routeRun(
  context: Context,
  request: IncomingMessage,
  response: ServerResponse,
  target: RequestTarget,
  runId: string,
  action: string | undefined,
): Promise<void> {
  const record = context.store.load(runId);
  if (record === undefined) {
    sendError(response, 404, 'not-found', `no run ${runId}`);
    return;
  }
  if (action === undefined && request.method === 'GET') {
    const done = takeBusy(context, 'summaries');
    if (done === undefined) {
      sendBusy(response, 'run summaries');
      return;
    }
    holdUntilTaken(response, done, context.options.requestTimeoutMs * SUMMARY_TAKE_TIMEOUTS);
    let summary: unknown;
    try {
      summary = await summarizeRun(context.store, record, context.runs.live(runId) !== undefined);
    } catch (error) {
      done();
      throw error;
    }
    if (response.destroyed) return;
    sendJson(response, 200, summary);
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
    const after = afterOf(request, target);
    const format = formatOf(target);
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
    const close = openConnection(context);
    if (close === undefined) {
      response.setHeader('retry-after', '5');
      sendError(response, 503, 'too-many-connections', TOO_MANY_CONNECTIONS);
      return;
    }
    try {
      const options = { after, format, queue: context.options.clientQueue };
      logOutcome(context, runId, await streamSse(response, source, options));
    } finally {
      close();
    }
    return;
  }
  refuseMethod(request, response);
}

/** Answers a method a path does not take (`405`). */
function refuseMethod(request: IncomingMessage, response: ServerResponse): void {
  sendError(response, 405, 'method-not-allowed', `${request.method} is not allowed here`);
}

async function route(
  context: Context,
  request: IncomingMessage,
  response: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const path = target.path;
  if (Object.hasOwn(PAGE_FILES, path)) {
    if (request.method === 'GET' || request.method === 'HEAD')
      sendPage(context.access, request, response, target);
    else refuseMethod(request, response);
    return;
  }
  if (!context.access.authorized(request)) {
    sendError(response, 401, 'unauthorized', 'a valid token is required');
    return;
  }
  if (target.problem !== null) {
    sendError(response, 400, target.problem.code, target.problem.message);
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
    refuseMethod(request, response);
    return;
  }
  const match = /^\/api\/runs\/([^/]+)(?:\/(cancel|events))?$/.exec(path);
  if (match !== null) {
    const runId = decodePercent(match[1] ?? '');
    if (!runId.ok || !isRunId(runId.value)) {
      sendError(response, 400, 'invalid-run-id', 'not a run id');
      return;
    }
    await routeRun(context, request, response, target, runId.value, match[2]);
    return;
  }
  sendError(response, 404, 'not-found', 'nothing here');
}

/** Answers a request; every failure ends as one log line and a 500, never as an exception. */
function handleRequest(context: Context, request: IncomingMessage, response: ServerResponse): void {
  const failed = (error: unknown) => {
    // A client that leaves while its body is read ends the read with an error: the client's doing, no failure here.
    if (!request.destroyed || request.complete) context.log(`relay: ${describeError(error)}`);
    sendError(response, 500, 'internal', 'the relay failed to answer');
  };
  try {
    logWhenDone(request, response, context.log);
    // Writes on a response the client has left are dropped; they must not end the process.
    response.on('error', () => {});
    // The target is read before anything else, so that no check meets a malformed one.
    const target = parseRequestTarget(request.url);
    if (!target.ok) {
      sendError(response, 400, target.error.code, target.error.message);
      return;
    }
    if (!context.access.hostAllowed(request)) {
      sendError(response, 403, 'forbidden-host', 'the Host header does not name this relay');
      return;
    }
    if (request.method === 'POST' && !context.access.originAllowed(request, false)) {
      sendError(response, 403, 'forbidden-origin', 'requests from other origins are refused');
      return;
    }
    route(context, request, response, target.value).catch((error: unknown) => {
      if (error instanceof BodyError) sendError(response, error.status, 'invalid-body', error.message);
      else failed(error);
    });
  } catch (error) {
    failed(error);
  }
}

/** Why an upgrade is refused: the HTTP status, and the code and message of the JSON body. */
type Refusal = { status: number; code: string; message: string };

/** What an upgrade asks to follow, or why it is refused. */
function upgradeRequest(
  context: Context,
  request: IncomingMessage,
): Refusal | { source: SubscriptionSource; after: EventId | undefined; format: RelayFormat } {
  const target = parseRequestTarget(request.url);
  if (!target.ok) return { status: 400, ...target.error };
  if (!context.access.hostAllowed(request))
    return { status: 403, code: 'forbidden-host', message: 'the Host header does not name this relay' };
  if (!context.access.originAllowed(request, false))
    return { status: 403, code: 'forbidden-origin', message: 'upgrades from other origins are refused' };
  if (!context.access.authorized(request))
    return { status: 401, code: 'unauthorized', message: 'a valid token is required' };
  if (target.value.problem !== null) return { status: 400, ...target.value.problem };
  const match = /^\/api\/runs\/([^/]+)\/ws$/.exec(target.value.path);
  if (match === null) return { status: 404, code: 'not-found', message: 'nothing here' };
  const runId = decodePercent(match[1] ?? '');
  if (!runId.ok || !isRunId(runId.value))
    return { status: 400, code: 'invalid-run-id', message: 'not a run id' };
  const source = sourceOf(context, runId.value);
  if (source === undefined) return { status: 404, code: 'not-found', message: `no run ${runId.value}` };
  const after = afterOf(request, target.value);
  const format = formatOf(target.value);
  if (after === null || format === undefined) {
    const message = 'after must be an event id and format one of canonical, payload-envelope, ai-sdk';
    return { status: 400, code: 'invalid-request', message };
  }
  return { source, after, format };
}

function isWebSocketUpgrade(request: IncomingMessage): boolean {
  return (request.headers.upgrade ?? '').trim().toLowerCase() === 'websocket';
}

/**
 * A request that offers another protocol (`curl --http2` and Java's `HttpClient` offer `h2c` on `http://`) is answered
 * as it would be without the offer, as HTTP/1.1 says a server ignores an upgrade it does not take. Node hands such a
 * request to the upgrade listener with its body unread, so one with a body is refused with a word on how to resend it.
 */
function answerWithoutUpgrade(context: Context, request: IncomingMessage, socket: Socket): void {
  // A request pipelined behind another on the socket comes while that one's response still holds the socket, which
  // a second response cannot be given: it is answered once that one is written.
  if (socket.destroyed) return;
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (current !== undefined && current !== null) {
    current.once('close', () => answerWithoutUpgrade(context, request, socket));
    return;
  }
  const response = new ServerResponse(request);
  try {
    response.assignSocket(socket);
  } catch (error) {
    context.log(`relay: ${describeError(error)}`);
    socket.destroy();
    return;
  }
  response.shouldKeepAlive = false;
  response.once('finish', () => socket.end());
  const hasBody =
    request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  if (hasBody) {
    logWhenDone(request, response, context.log);
    const message = `the ${request.headers.upgrade} upgrade is not taken, and a body cannot be read with it: send the request without the Upgrade header`;
    sendError(response, 400, 'upgrade-not-taken', message);
    return;
  }
  // No body comes: the request ends as a read of it would find. It is timed as the others once begun (see `listen`).
  request.push(null);
  socket.setTimeout(0);
  handleRequest(context, request, response);
}

function handleUpgrade(
  context: Context,
  wss: WebSocketServer,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  const asked = upgradeRequest(context, request);
  if ('status' in asked) {
    refuseUpgrade(socket, asked.status, asked.code, asked.message);
    return;
  }
  const close = openConnection(context);
  if (close === undefined) {
    refuseUpgrade(socket, 503, 'too-many-connections', TOO_MANY_CONNECTIONS);
    return;
  }
  socket.once('close', close);
  const { source, after, format } = asked;
  wss.handleUpgrade(request, socket, head, (ws) => {
    followOnWebSocket(context, ws, source, { after, format });
  });
}

/** Streams to an open WebSocket; a failure is one log line and close code 1011, never an exception. */
function followOnWebSocket(
  context: Context,
  ws: WebSocket,
  source: SubscriptionSource,
  options: { after: EventId | undefined; format: RelayFormat },
): void {
  // A client's protocol error (a frame too large, text that is not UTF-8) closes its socket, and only it.
  ws.on('error', (error) => context.log(`relay: WebSocket of run ${source.runId}: ${describeError(error)}`));
  streamWebSocket(ws, source, { ...options, queue: context.options.clientQueue }).then(
    (outcome) => logOutcome(context, source.runId, outcome),
    (error: unknown) => {
      context.log(`relay: ${describeError(error)}`);
      if (ws.readyState === ws.OPEN) ws.close(1011, 'the relay failed to read the run');
    },
  );
}

function limitOf(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RelayConfigError('invalid-limit', `${name} must be a positive integer, got ${value}`);
  return value;
}

const DATA_DIR_PROBLEMS: Readonly<Record<string, string>> = {
  ENOTDIR: 'it (or a folder in it) is a file, not a folder',
  EEXIST: 'its runs folder is a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
};

function unusable(dataDir: string, error: unknown): RelayConfigError {
  const errno = (error as { code?: unknown } | null)?.code;
  const problem = (typeof errno === 'string' ? DATA_DIR_PROBLEMS[errno] : undefined) ?? describeError(error);
  return new RelayConfigError('data-dir-unusable', `cannot keep runs in ${dataDir}: ${problem}`);
}

/** The store of `dataDir`, once its lock is held (see `data-dir-lock.ts`), and the lock's release. */
function openStore(dataDir: string): { store: RunStore; release(): void } {
  let lock: DataDirLock;
  try {
    makeDirectories(dataDir);
    lock = lockDataDir(dataDir);
  } catch (error) {
    throw unusable(dataDir, error);
  }
  if (!lock.ok) {
    const holder = Number.isNaN(lock.pid) ? 'another relay' : `another relay (process ${lock.pid})`;
    throw new RelayConfigError(
      'data-dir-in-use',
      `${holder} keeps its runs in ${dataDir}: give each relay a data folder of its own`,
    );
  }
  try {
    return { store: createFileRunStore(dataDir), release: lock.release };
  } catch (error) {
    lock.release();
    throw unusable(dataDir, error);
  }
}

/** The workspace root as the file system names it, so that a symbolic link cannot lead a workspace out of it. */
function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return resolve(root);
  }
}

/**
 * Creates a relay: `POST /api/runs` starts a run (`{ prompt, chatId?, model?, mode?, workspace? }` → `201 { runId,
 * chatId }`), `GET /api/runs` lists runs, `GET /api/runs/:runId` summarizes one, `POST /api/runs/:runId/cancel`
 * cancels it, `GET /api/runs/:runId/events` streams its events over SSE and `/api/runs/:runId/ws` over WebSocket
 * (both with `?after=ID` or `Last-Event-ID`, and `?format=canonical|payload-envelope|ai-sdk`), and `/` is the live
 * page. Runs a previous relay left in flight in `dataDir` are marked `interrupted`.
 *
 * @throws RelayConfigError with code `token-required` for a non-loopback `host` without a `token`, or a `token` of white
 *   space only or of characters other than printable ASCII,
 *   `data-dir-unusable` when `dataDir` cannot hold runs, `data-dir-in-use` when a relay that runs holds it (one relay
 *   per data folder, until `close`), `invalid-limit` for a limit that is not a positive integer.
 */
export function createRelayServer(options: RelayServerOptions): RelayServer {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && (options.token === undefined || options.token === '')) {
    throw new RelayConfigError('token-required', `listening on ${host} (not loopback) requires a token`);
  }
  // A template or a secret file gone wrong gives ' ' or '\n': anyone would pass with `?token=%20`.
  if (options.token !== undefined && options.token !== '' && options.token.trim() === '') {
    throw new RelayConfigError('token-required', 'the token is only white space, which anyone could send');
  }
  // A header carries bytes that Node reads as Latin-1: a token with a line break, a space or a character past ASCII
  // (a secret copied with its newline) would never match one, and every request would be refused.
  if (options.token !== undefined && options.token !== '' && !/^[\x21-\x7e]+$/.test(options.token)) {
    throw new RelayConfigError(
      'token-required',
      'the token holds white space, control characters or characters past ASCII, which no Authorization header carries',
    );
  }
  const given = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = (line: string) => {
    try {
      given(line);
    } catch {
      // A failing log must not take the relay down with it.
    }
  };
  const maxPromptBytes = options.maxPromptBytes ?? 2 * 1024 * 1024;
  const maxRuns = limitOf(options.maxRuns, 16, 'maxRuns');
  const maxConnections = limitOf(options.maxConnections, 1024, 'maxConnections');
  const maxPendingBytes = limitOf(options.maxPendingBytes, DEFAULT_MAX_PENDING_BYTES, 'maxPendingBytes');
  const requestTimeoutMs = limitOf(options.requestTimeoutMs, REQUEST_TIMEOUT_MS, 'requestTimeoutMs');
  const { store, release } = openStore(options.dataDir);
  const runs = createRunManager(store, {
    options: options.agent ?? {},
    ...(options.ring === undefined ? {} : { ring: options.ring }),
    maxPendingBytes,
    onError: (error) => log(`relay: ${String(error)}`),
  });
  const context: Context = {
    store,
    runs,
    log,
    access: createAccessPolicy({
      host,
      token: options.token || undefined,
      allowedOrigins: options.allowedOrigins ?? [],
    }),
    options: {
      maxPromptBytes,
      maxBodyBytes: options.maxBodyBytes ?? maxPromptBytes + 64 * 1024,
      listLimit: options.listLimit ?? 100,
      workspaceRoot: realRoot(options.workspaceRoot ?? process.cwd()),
      maxRuns,
      maxConnections,
      clientQueue: options.clientQueue ?? {},
      requestTimeoutMs,
    },
    started: new Set(),
    connections: 0,
    busy: { bodies: 0, summaries: 0 },
    journals: new Set(),
  };
  // No subprotocol is spoken: one a client offers is not named back as if it were (ws names the first by default).
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, handleProtocols: () => false });
  // Node checks its request timeouts this often (30 s by default), so that a request would otherwise be cut off
  // anywhere between one and two timeouts after it began.
  const connectionsCheckingInterval = Math.max(100, Math.min(1000, requestTimeoutMs / 10));
  const server = createServer({ connectionsCheckingInterval }, (request, response) =>
    handleRequest(context, request, response),
  );
  // A request's body comes within this or the request ends (408): a body that trickles holds one of the few places
  // of `BUSY_LIMITS` for at most this long, where Node's default is five minutes.
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = requestTimeoutMs;
  // Node times a request from its first byte: a connection that sends none would stay, holding a descriptor, for as
  // long as its client likes. It has the same time to begin; a request, once begun, is timed by Node as above.
  server.on('connection', (socket: Socket) => socket.setTimeout(requestTimeoutMs));
  server.on('request', (request: IncomingMessage) => request.socket.setTimeout(0));
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgraded socket without an error listener: a reset must not end the process.
    socket.on('error', () => {});
    if (!isWebSocketUpgrade(request)) {
      answerWithoutUpgrade(context, request, socket as Socket);
      return;
    }
    try {
      const started = performance.now();
      socket.once('close', () => {
        const path = (request.url ?? '/').split('?')[0];
        log(`${new Date().toISOString()} WS ${path} closed ${Math.round(performance.now() - started)}ms`);
      });
      handleUpgrade(context, wss, request, socket, head);
    } catch (error) {
      log(`relay: ${describeError(error)}`);
      refuseUpgrade(socket, 500, 'internal', 'the relay failed to answer');
    }
  });

  return {
    server,
    listen() {
      return new Promise((resolveListen, reject) => {
        server.once('error', reject);
        // `[::1]` names the address `::1`, as in a URL.
        server.listen(options.port ?? 8787, bareHost(host), () => {
          server.off('error', reject);
          // Once listening, an error (a connection that could not be accepted) is the one connection's, not the relay's.
          server.on('error', (error) => log(`relay: ${describeError(error)}`));
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
      await Promise.all(context.journals);
      await closed;
      release();
    },
  };
}
