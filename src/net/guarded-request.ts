// Outbound HTTP that obeys the URL policy on every hop: each URL (the first and every redirect
// target) is checked, and the connection goes to the address the check resolved, so a redirect or
// a changed DNS answer cannot lead to a private address.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { UrlPolicy } from './url-policy.js';

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The URL that answered (after redirects). */
  url: string;
  /** The body (GET only; empty for HEAD). */
  body: Buffer;
}

export interface GuardedOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  /** A POST's body (redirects are not followed for a POST: its answer is what counts). */
  body?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxRedirects?: number;
  /** A longer body is an error, not a truncated answer. */
  maxBytes?: number;
  /** Abandons the request (a process shutting down need not wait for a slow server). */
  signal?: AbortSignal;
}

export class OutboundDenied extends Error {}
/** The answer's body went past `maxBytes`. */
export class ResponseTooLarge extends Error {}

/** The answer to `url` (redirects followed, each through the policy), or an error. */
export async function guardedRequest(policy: UrlPolicy, url: string, options: GuardedOptions = {}): Promise<GuardedResponse> {
  const { timeoutMs = 5000, maxRedirects = 5 } = options;
  const deadline = Date.now() + timeoutMs;
  let current = url;
  for (let hop = 0; ; hop++) {
    const verdict = await policy.check(current);
    if (!verdict.allowed) throw new OutboundDenied(verdict.reason);
    const response = await requestOnce(current, verdict.address, Math.max(1, deadline - Date.now()), options);
    const location = response.headers.location;
    if (options.method !== 'POST' && response.status >= 300 && response.status < 400 && location) {
      if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects`);
      current = new URL(location, current).toString();
      continue;
    }
    return { ...response, url: current };
  }
}

/** HEAD `url`: the status and headers only. */
export const guardedHead = (policy: UrlPolicy, url: string, options: Omit<GuardedOptions, 'method'> = {}) =>
  guardedRequest(policy, url, { ...options, method: 'HEAD' });

function requestOnce(url: string, address: string | undefined, timeoutMs: number, options: GuardedOptions) {
  const { method = 'GET', maxBytes = 10 * 1024 * 1024 } = options;
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  // Connect to the checked address only (a hostname resolved by the policy; IP literals need no lookup).
  const lookup: LookupFunction | undefined = address
    ? (_host, opts, callback) => {
        const family = address.includes(':') ? 6 : 4;
        if ((opts as { all?: boolean }).all)
          (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
        else callback(null, address, family);
      }
    : undefined;
  const headers: Record<string, string | number> = { 'user-agent': 'Almanac', ...options.headers };
  if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
  return new Promise<Omit<GuardedResponse, 'url'>>((resolve, reject) => {
    const request = client.request(target, { method, lookup, timeout: timeoutMs, headers, signal: options.signal }, (response) => {
      const status = response.statusCode ?? 0;
      const redirect = method !== 'POST' && status >= 300 && status < 400 && response.headers.location;
      if (method === 'HEAD' || redirect) {
        response.resume();
        resolve({ status, headers: response.headers, body: Buffer.alloc(0) });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) request.destroy(new ResponseTooLarge(`the answer is larger than ${maxBytes} bytes`));
        else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(options.body);
  });
}
