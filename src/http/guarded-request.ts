// A HEAD request that obeys the outbound URL policy on every hop: each URL (the first and every
// redirect target) is checked, and the connection goes to the address the check resolved, so a
// redirect or a changed DNS answer cannot lead to a private address.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { UrlPolicy } from './url-policy.js';

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The URL that answered (after redirects). */
  url: string;
}

export class OutboundDenied extends Error {}

/** The answer to HEAD `url` (redirects followed, each through the policy), or an error. */
export async function guardedHead(policy: UrlPolicy, url: string, options: { timeoutMs?: number; maxRedirects?: number } = {}): Promise<GuardedResponse> {
  const { timeoutMs = 5000, maxRedirects = 5 } = options;
  const deadline = Date.now() + timeoutMs;
  let current = url;
  for (let hop = 0; ; hop++) {
    const verdict = await policy.check(current);
    if (!verdict.allowed) throw new OutboundDenied(verdict.reason);
    const response = await headOnce(current, verdict.address, Math.max(1, deadline - Date.now()));
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location) {
      if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects`);
      current = new URL(location, current).toString();
      continue;
    }
    return { ...response, url: current };
  }
}

function headOnce(url: string, address: string | undefined, timeoutMs: number): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  // Connect to the checked address only (a hostname resolved by the policy; IP literals need no lookup).
  const lookup: LookupFunction | undefined = address
    ? (_host, opts, callback) => {
        const family = address.includes(':') ? 6 : 4;
        if ((opts as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
        else callback(null, address, family);
      }
    : undefined;
  return new Promise((resolve, reject) => {
    const request = client.request(target, { method: 'HEAD', lookup, timeout: timeoutMs, headers: { 'user-agent': 'Almanac' } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end();
  });
}
