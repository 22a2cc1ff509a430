// Counters per key and calendar minute in the database (RateWindow), so that any number of
// processes sharing it enforce one limit: the task API's requests per key, failed sign-ins per
// address. One statement per count: an upsert that returns the new count.
import type { Prisma } from './client.js';
import type { DatabaseKind } from './url.js';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the next window, when not allowed. */
  retryAfter: number;
}

const WINDOW_MS = 60_000;

export class SharedRateLimit {
  private cleanedMinute = 0;
  /** Keys this process saw over the limit, and until when (ms): counting them again until then
   *  could only refuse them again, so they are refused without touching the database. */
  private blockedUntil = new Map<string, number>();

  /** Placeholders: `?` for SQLite, `$n` for PostgreSQL. */
  private param: (n: number) => string;

  constructor(
    private prisma: Prisma,
    kind: DatabaseKind,
    private perMinute: number,
  ) {
    this.param = kind === 'sqlite' ? () => '?' : (n) => `$${n}`;
  }

  async count(keyHash: string, now = Date.now()): Promise<RateDecision> {
    const until = this.blockedUntil.get(keyHash);
    if (until !== undefined && until > now) return { allowed: false, retryAfter: Math.max(1, Math.ceil((until - now) / 1000)) };
    const minute = Math.floor(now / WINDOW_MS);
    const rows = await this.prisma.$queryRawUnsafe<{ count: number | bigint }[]>(
      `INSERT INTO "RateWindow" ("keyHash", "minute", "count") VALUES (${this.param(1)}, ${this.param(2)}, 1) ` +
        'ON CONFLICT ("keyHash", "minute") DO UPDATE SET "count" = "RateWindow"."count" + 1 RETURNING "count"',
      keyHash,
      minute,
    );
    // Past windows are of no use: the first request of each minute in each process clears them.
    if (this.cleanedMinute !== minute) {
      this.cleanedMinute = minute;
      await this.prisma.$executeRawUnsafe(`DELETE FROM "RateWindow" WHERE "minute" < ${this.param(1)}`, minute);
    }
    const allowed = Number(rows[0].count) <= this.perMinute;
    if (allowed) return { allowed, retryAfter: 0 };
    if (this.blockedUntil.size > 10_000) this.blockedUntil.clear();
    this.blockedUntil.set(keyHash, (minute + 1) * WINDOW_MS);
    return { allowed, retryAfter: Math.max(1, Math.ceil(((minute + 1) * WINDOW_MS - now) / 1000)) };
  }
}
