// The task API's rate limit: requests per API key per minute (src/db/rate-window.ts counts them in
// the database, a fixed window per calendar minute, the same for every process).
import type { Database } from '../db/client.js';
import { SharedRateLimit, type RateDecision } from '../db/rate-window.js';

export type { RateDecision };

/** A limit of `perMinute` requests per key hash on this database, for callers (the task API's
 *  HTTP layer) that do not reach the database themselves. */
export function apiKeyRateLimit(db: Database, perMinute: number): (keyHash: string) => Promise<RateDecision> {
  const limit = new SharedRateLimit(db.prisma, db.kind, perMinute);
  return (keyHash) => limit.count(keyHash);
}
