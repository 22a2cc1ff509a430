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

  constructor(prisma: Prisma, kind: DatabaseKind, perMinute: number) {
    this.counter = new SharedRateLimit(prisma, kind, perMinute);
  }

  /** Counts a failure from `address`; the seconds to wait when the address is over its limit, else 0. */
  async failed(address: string, now = Date.now()): Promise<number> {
    return (await this.counter.count(`sign-in:${address}`, now)).retryAfter;
  }
}
