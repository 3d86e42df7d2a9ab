/**
 * Who may talk to the relay. On a loopback address, anyone on the machine (as with any local dev server), but only
 * through a loopback host name, which keeps web pages elsewhere out through DNS rebinding. On any other address, only
 * holders of the token: `Authorization: Bearer TOKEN`, or the cookie the page sets after it is opened once with
 * `?token=TOKEN`. State-changing requests and WebSocket upgrades must come from the relay's own origin.
 */

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { cookieValues } from './request-parts.ts';

/** The cookie that carries the token for the page's own requests. */
export const TOKEN_COOKIE = 'cursor_stream_token';

/** A host without the brackets of an IPv6 address in a URL (`[::1]` is `::1`). */
export function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

/** Whether a listen address reaches only this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = bareHost(host);
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** The host name of a `Host` header or an origin, without port or brackets. */
function hostName(host: string): string {
  const match = /^\[([^\]]*)\](?::\d+)?$/.exec(host);
  if (match !== null) return match[1] ?? '';
  return host.replace(/:\d+$/, '');
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares in constant time, so a token cannot be guessed a character at a time. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The access rules of one relay. */
export interface AccessPolicy {
  /** Whether the request carries the token (always true without one). */
  authorized(request: IncomingMessage): boolean;
  /** Whether `given` is the relay's token: a page opened with `?token=` keeps only the right one. */
  isToken(given: string): boolean;
  /** Whether the `Host` header names this relay (on loopback: a loopback name). */
  hostAllowed(request: IncomingMessage): boolean;
  /** Whether the request's `Origin`, when it has one, is the relay's own or an allowed one. */
  originAllowed(request: IncomingMessage, required: boolean): boolean;
}

/** Options of {@link createAccessPolicy}. */
export interface AccessOptions {
  host: string;
  token: string | undefined;
  /** Origins allowed besides the relay's own, e.g. `https://app.example.com`. */
  allowedOrigins: readonly string[];
}

/** Creates the access rules of a relay listening on `host`. */
export function createAccessPolicy(options: AccessOptions): AccessPolicy {
  const loopback = isLoopbackHost(options.host);
  return {
    authorized(request) {
      if (options.token === undefined) return true;
      const header = request.headers.authorization ?? '';
      const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1];
      if (bearer !== undefined) return sameSecret(bearer, options.token);
      // Any cookie of the name may be the right one: a junk one set by another service on the host must not lock out.
      const token = options.token;
      return cookieValues(request.headers.cookie, TOKEN_COOKIE).some((value) => sameSecret(value, token));
    },
    isToken: (given) => options.token !== undefined && sameSecret(given, options.token),
    hostAllowed(request) {
      const host = request.headers.host;
      if (host === undefined) return false;
      return !loopback || isLoopbackHost(hostName(host));
    },
    originAllowed(request, required) {
      const origin = request.headers.origin;
      if (origin === undefined) return !required;
      if (options.allowedOrigins.includes(origin)) return true;
      try {
        return new URL(origin).host === request.headers.host;
      } catch {
        return false;
      }
    },
  };
}
