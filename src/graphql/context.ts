import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Viewer } from '../auth/viewer.js';

/** What every resolver sees. Built once per request (HTTP or in-process REST execution). */
export interface GraphQLContext {
  prisma: Prisma;
  config: Config;
  viewer: Viewer | null;
  /** Per-request memo for loaders and computed values. */
  cache: Map<string, unknown>;
}

export function createContext(base: { prisma: Prisma; config: Config }, viewer: Viewer | null): GraphQLContext {
  return { prisma: base.prisma, config: base.config, viewer, cache: new Map() };
}
