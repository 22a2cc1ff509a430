import type { Config } from '../config.js';
import type { Database, Prisma } from '../db/client.js';
import type { Viewer } from '../auth/viewer.js';
import { AppError } from './errors.js';
import type { Unlock } from './unlock.js';

/** What every resolver sees. Built once per request (HTTP or in-process REST execution). */
export interface GraphQLContext {
  prisma: Prisma;
  /** Hot read-only statements of the domain layer, past Prisma's client (src/db/client.ts). */
  readRows: Database['readRows'];
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
  /** Set only by in-process callers (the REST layer's router); never part of the schema. */
  operationOptions?: OperationOptions;
}

/**
 * Private options of an in-process caller that reproduces another API over this schema: what it
 * asks of the resolvers, and what they report back to it. HTTP GraphQL requests have none.
 */
export interface OperationOptions {
  /** Event writes name existing tags the way The Events Calendar does (src/calendar/terms.ts). */
  wpTagQuirk?: boolean;
  /** Filled by the `masked` field of venues and organizers, keyed `venue:ID` / `organizer:ID`: the
   *  protected fields of a masked record that hold a value (the caller keeps those keys, emptied). */
  hiddenFields?: Map<string, readonly string[]>;
}

export function createContext(db: Pick<Database, 'prisma' | 'kind' | 'readRows'>, config: Config, viewer: Viewer | null): GraphQLContext {
  return { prisma: db.prisma, readRows: db.readRows, config, dbKind: db.kind, viewer, cache: new Map(), unlocks: new Map() };
}

/**
 * The caller of a field that needs an API key, whatever the key may do (that is the domain's rule);
 * `need` says what needs one, as the UNAUTHENTICATED error tells the client.
 */
export function requireViewer(ctx: GraphQLContext, need: string): Viewer {
  if (!ctx.viewer) throw new AppError('UNAUTHENTICATED', `${need} (header x-api-key).`);
  return ctx.viewer;
}
