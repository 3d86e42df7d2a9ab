/** Small HTTP helpers: bounded JSON bodies, JSON answers, and the one log line per request. */

import type { IncomingMessage, ServerResponse } from 'node:http';

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
  if (!/^application\/json\b/i.test(type)) throw new BodyError(415, 'the body must be application/json');
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
  });
  response.end(text);
}

/** Answers with an error `{ error: { code, message } }`. */
export function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  sendJson(response, status, { error: { code, message } });
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
    log(`${new Date().toISOString()} ${request.method} ${path} ${response.statusCode} ${ms}ms`);
  });
}
