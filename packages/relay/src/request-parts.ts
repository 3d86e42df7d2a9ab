/**
 * The parts of a request the relay reads (its target, path segments, cookies), parsed by functions that return a
 * result and never throw: every byte of a request is hostile, and one malformed request must cost a 400 (or a 401
 * for a credential), never the process.
 */

/** A part of a request that could not be read. */
export interface RequestPartProblem {
  code: 'bad-request-target' | 'bad-escape';
  message: string;
}

/** A parsed part, or why it could not be parsed. */
export type RequestPartResult<T> = { ok: true; value: T } | { ok: false; error: RequestPartProblem };

/** A request's target: its path as sent (still percent-encoded) and its query. */
export interface RequestTarget {
  path: string;
  query: URLSearchParams;
  /**
   * What is malformed in a target that still reads as a path (a `[`, an escape like `%ZZ` in the path or the query,
   * used or not): a 400 once the request is authorized (an unauthorized one is a 401 first, whatever its target).
   */
  problem: RequestPartProblem | null;
}

const ABSOLUTE_FORM = /^https?:\/\//i;

/** Characters RFC 3986 allows in no path (`[` and `]` only name an IPv6 host): a target holding one is malformed. */
const NOT_IN_A_PATH = /[[\]]/;

/**
 * Parses a request target (`/path?query`, or the absolute form `http://host/path?query` that a server must accept).
 * The path is taken as sent, without resolving `.` or `//` (no route has them, so they are simply not found), so
 * that a path starting with `//` is never read as a host. Every percent escape of the path and the query is checked
 * here, used or not, so that a malformed target is a 400 wherever it points (see {@link RequestTarget.problem}).
 */
export function parseRequestTarget(target: string | undefined): RequestPartResult<RequestTarget> {
  const text = target ?? '';
  if (text.startsWith('/')) {
    const at = text.indexOf('?');
    const path = at === -1 ? text : text.slice(0, at);
    const query = at === -1 ? '' : text.slice(at + 1);
    const escapes = decodePercent(`${path}?${query}`);
    const problem: RequestPartProblem | null = NOT_IN_A_PATH.test(path)
      ? { code: 'bad-request-target', message: 'the request target is not a path' }
      : escapes.ok
        ? null
        : escapes.error;
    return { ok: true, value: { path, query: new URLSearchParams(query), problem } };
  }
  if (ABSOLUTE_FORM.test(text) && URL.canParse(text)) {
    const url = new URL(text);
    return { ok: true, value: { path: url.pathname, query: url.searchParams, problem: null } };
  }
  return { ok: false, error: { code: 'bad-request-target', message: 'the request target is not a path' } };
}

/** Decodes a percent-encoded path segment or cookie value; a malformed escape (`%ZZ`, `%E0%A4%A`) is a problem. */
export function decodePercent(text: string): RequestPartResult<string> {
  if (!text.includes('%')) return { ok: true, value: text };
  try {
    return { ok: true, value: decodeURIComponent(text) };
  } catch {
    return { ok: false, error: { code: 'bad-escape', message: 'a percent escape is malformed' } };
  }
}

/**
 * The values of every cookie named `name` in a `Cookie` header, decoded, in the header's order. A browser sends every
 * cookie of the name its paths and domains match (another service on the same host may set one), so a credential is
 * any of them, not the first. A value with a malformed escape is no value: it is left out, as a wrong one counts for
 * nothing.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at === -1 || part.slice(0, at).trim() !== name) continue;
    const decoded = decodePercent(part.slice(at + 1).trim());
    if (decoded.ok) values.push(decoded.value);
  }
  return values;
}
