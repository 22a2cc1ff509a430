// Failed sign-ins (credentials that match no key) are limited per address and minute, shared by
// every process on the database (src/db/rate-window.ts). Keys are long random tokens, so guessing
// is hopeless; the limit keeps a burst of wrong keys from buying a flood of lookups and log lines.
// Only failures count and only failures are refused: a valid key is never slowed or turned away,
// even from an address that is over its limit.
import type { Prisma } from '../db/client.js';
import { SharedRateLimit } from '../db/rate-window.js';
import type { DatabaseKind } from '../db/url.js';

export class FailedSignIns {
  private counter: SharedRateLimit;
  /** Addresses this process saw over the limit, and until when (ms): their next failures are refused
   *  without touching the database. */
  private blockedUntil = new Map<string, number>();

  constructor(prisma: Prisma, kind: DatabaseKind, perMinute: number) {
    this.counter = new SharedRateLimit(prisma, kind, perMinute);
  }

  /** Counts a failure from `address`; the seconds to wait when the address is over its limit, else 0. */
  async failed(address: string, now = Date.now()): Promise<number> {
    const until = this.blockedUntil.get(address);
    if (until !== undefined && until > now) return Math.max(1, Math.ceil((until - now) / 1000));
    const { allowed, retryAfter } = await this.counter.count(`sign-in:${address}`, now);
    if (allowed) return 0;
    if (this.blockedUntil.size > 10_000) this.blockedUntil.clear();
    this.blockedUntil.set(address, now + retryAfter * 1000);
    return retryAfter;
  }
}
