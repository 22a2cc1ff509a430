import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Viewer } from '../auth/viewer.js';
import type { Unlock } from './unlock.js';

/** What every resolver sees. Built once per request (HTTP or in-process REST execution). */
export interface GraphQLContext {
  prisma: Prisma;
  config: Config;
  viewer: Viewer | null;
  /** Which database engine: a few queries differ (case-insensitive matching). */
  dbKind: 'sqlite' | 'postgresql';
  /** Per-request memo for loaders and computed values. */
  cache: Map<string, unknown>;
  /** Password-protected records unlocked per root field (src/graphql/unlock.ts). */
  unlocks: Map<string, Unlock>;
  /** The calendar's data version, when the HTTP layer already read it for a kept answer that was
   *  missing; set only on reads (GET), which write nothing, so it cannot go stale in the request. */
  readVersion?: number;
}

export function createContext(
  base: { prisma: Prisma; config: Config; dbKind: 'sqlite' | 'postgresql' },
  viewer: Viewer | null,
): GraphQLContext {
  return { prisma: base.prisma, config: base.config, dbKind: base.dbKind, viewer, cache: new Map(), unlocks: new Map() };
}
