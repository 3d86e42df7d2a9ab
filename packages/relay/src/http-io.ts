/** Small HTTP helpers: bounded JSON bodies, JSON answers, and the one log line per request. */

import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** A request body that could not be read as asked. */
export class BodyError extends Error {
  readonly status: 400 | 413 | 415;
  constructor(status: 400 | 413 | 415, message: string) {
    super(message);
    this.status = status;
  }
}

/** Reads a JSON body of at most `limit` bytes; a larger one is refused as soon as it passes the limit. */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const type = request.headers['content-type'] ?? '';
  // The media type itself, parameters (`; charset=utf-8`) aside: `application/json-seq` or `-evil` is another type.
  if (!/^application\/json\s*(?:;|$)/i.test(type))
    throw new BodyError(415, 'the body must be application/json');
  // An encoded body (gzip) would be read as JSON text and refused as that: the encoding is what is not taken.
  const encoding = (request.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity')
    throw new BodyError(415, 'the body must not be encoded (no Content-Encoding but identity)');
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw new BodyError(413, `the body is larger than ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyError(413, `the body is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError(400, 'the body is not JSON');
  }
}

/** Answers with a JSON body. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    // A summary quotes a log's text: a browser must not read it as anything but JSON.
    'x-content-type-options': 'nosniff',
  });
  response.end(text);
}

/** Answers with an error `{ error: { code, message } }`; cuts the response off when it has begun already. */
export function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  if (response.headersSent || response.destroyed) {
    response.destroy();
    return;
  }
  sendJson(response, status, { error: { code, message } });
}

/**
 * Refuses a WebSocket upgrade with an HTTP answer written on the socket itself (`{ error: { code, message } }`),
 * then destroys the socket.
 */
export function refuseUpgrade(socket: Duplex, status: number, code: string, message: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ error: { code, message } });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'connection: close',
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    ...(status === 503 ? ['retry-after: 5'] : []),
  ];
  socket.once('finish', () => socket.destroy());
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** An error as one line for the log. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n', 1)[0] ?? '';
}

/**
 * Logs one line when the response is done: time, method, path (never the query, which may hold a token), status
 * and duration.
 */
export function logWhenDone(
  request: IncomingMessage,
  response: ServerResponse,
  log: (line: string) => void,
): void {
  const started = performance.now();
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  response.once('close', () => {
    const ms = Math.round(performance.now() - started);
    // A request cut off before its answer was sent (its client left, or Node answered a request too slow with 408 on
    // the socket) got none of ours: its status would be the default 200, a success never sent.
    const outcome = response.writableFinished ? String(response.statusCode) : 'cut off';
    log(`${new Date().toISOString()} ${request.method} ${path} ${outcome} ${ms}ms`);
  });
}
