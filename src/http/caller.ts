// Who is calling: one resolution per request, whichever table asks (and however often), and one
// way to refuse a caller. Each table chooses when it asks and in which envelope it refuses.
import { isIP } from 'node:net';
import type { Context } from 'koa';
import type { Viewer } from '../auth/viewer.js';

/** The credentials' caller: a viewer, null (none sent) or 'invalid' (credentials that match nothing). */
export type ResolveCaller = (ctx: Context) => Viewer | null | 'invalid' | Promise<Viewer | null | 'invalid'>;

/** Counts a failed sign-in from an address: the seconds it must wait, or 0 (src/auth/failed-sign-ins.ts). */
export type CountFailure = (address: string) => Promise<number>;

export type CallerRefusal = 'missing' | 'invalid' | 'throttled';

export interface CallerRule {
  /** A request without credentials is refused. */
  required?: boolean;
  /** The table's error for a caller it refuses: 401 for missing and invalid credentials, 429 with
   *  Retry-After (`retryAfter` seconds) when the address has failed too often. */
  refuse(reason: CallerRefusal, retryAfter?: number): Error;
}

export type Authenticate = (ctx: Context, rule: CallerRule) => Promise<Viewer | null>;

/** The words of a throttled sign-in, the same in every API's envelope. */
export const throttledMessage = (retryAfter: number) => `Too many failed sign-ins from this address; retry in ${retryAfter} s.`;

interface CallerState {
  caller?: Promise<Viewer | null | 'invalid'>;
  /** Seconds to wait, counted once per request however often a table asks. */
  failure?: Promise<number>;
}

export function authenticator(resolve: ResolveCaller, countFailure?: CountFailure): Authenticate {
  return async (ctx, rule) => {
    const state = ctx.state as CallerState;
    const caller = await (state.caller ??= Promise.resolve(resolve(ctx)));
    if (caller === 'invalid') {
      const wait = countFailure ? await (state.failure ??= countFailure(clientAddress(ctx))) : 0;
      throw wait > 0 ? rule.refuse('throttled', wait) : rule.refuse('invalid');
    }
    if (caller === null && rule.required) throw rule.refuse('missing');
    return caller;
  };
}

/**
 * The address a request came from, for counting its failures. The peer's own address, unless the
 * peer is a proxy on a private or loopback address: then the address that proxy appended last to
 * X-Forwarded-For (the leftmost entries are whatever the client claimed, so they are not used).
 */
export function clientAddress(ctx: Context): string {
  const peer = (ctx.req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const forwarded = ctx.get('x-forwarded-for');
  if (!forwarded || !privateOrLoopback(peer)) return peer;
  const last =
    forwarded
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .pop() ?? '';
  return isIP(last) ? last : peer;
}

function privateOrLoopback(address: string): boolean {
  if (address === '::1' || address.startsWith('127.')) return true;
  if (/^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(address)) return true;
  return /^f[cd][0-9a-f]{2}:/i.test(address);
}
