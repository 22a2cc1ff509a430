// One signed webhook POST and what a failure means for the next try, shared by the task webhooks
// and the calendar's. Every POST obeys the URL policy (guardedRequest).
//
// Signature: X-Almanac-Signature: sha256=<hex HMAC-SHA256 of "<X-Almanac-Timestamp>.<body>">.
// Receivers should refuse a timestamp more than 5 minutes away from their clock (replays).
import { createHmac } from 'node:crypto';
import type { Config } from '../config.js';
import { guardedRequest } from './guarded-request.js';
import { outboundPolicy } from './url-policy.js';

/** Waits before each retry; after the last one the delivery is given up (`failed`). */
export const RETRY_DELAYS_MS = [2_000, 10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000, 12 * 3600_000];

export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** POSTs `body`; the receiver's status, and an error unless it answered 2xx. */
export async function postSigned(
  config: Config,
  delivery: { url: string; body: string; event: string; id: string; secret: string },
): Promise<{ status: number | null; error: string }> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  try {
    const response = await guardedRequest(outboundPolicy(config), delivery.url, {
      method: 'POST',
      body: delivery.body,
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
      headers: {
        'content-type': 'application/json',
        'x-almanac-event': delivery.event,
        'x-almanac-delivery': delivery.id,
        'x-almanac-timestamp': timestamp,
        ...(delivery.secret ? { 'x-almanac-signature': signature(delivery.secret, timestamp, delivery.body) } : {}),
      },
    });
    return { status: response.status, error: response.status >= 200 && response.status < 300 ? '' : `answered ${response.status}` };
  } catch (failure) {
    return { status: null, error: (failure as Error).message };
  }
}

/** The delivery row's new columns after attempt number `attempts` ended with `outcome` at `now`. */
export function afterAttempt(attempts: number, outcome: { status: number | null; error: string }, now = new Date()) {
  const { status, error } = outcome;
  if (!error) return { attempts, lastStatus: status, lastError: '', status: 'delivered', deliveredAt: now };
  return {
    attempts,
    lastStatus: status,
    lastError: error.slice(0, 500),
    ...(attempts > RETRY_DELAYS_MS.length
      ? { status: 'failed' }
      : { nextAttemptAt: new Date(now.getTime() + RETRY_DELAYS_MS[attempts - 1]!) }),
  };
}
