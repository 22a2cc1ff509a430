// Fedify's key–value store (its caches of remote documents and keys, and inbox idempotence) on
// Almanac's own database through Prisma, so federation needs no Redis or Deno KV and works alike on
// SQLite and PostgreSQL. Keys are stored as the JSON of Fedify's key arrays, which keeps prefixes
// searchable with LIKE-free range reads (a prefix's JSON minus its closing bracket).
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import type { Prisma } from '../db/client.js';

const encode = (key: KvKey) => JSON.stringify(key);

/** Milliseconds of Fedify's Temporal.Duration (it passes one for `ttl`). */
function ttlMs(options?: KvStoreSetOptions): number | undefined {
  const ttl = options?.ttl as { total?: (unit: string) => number } | undefined;
  return ttl?.total ? ttl.total('millisecond') : undefined;
}

export class PrismaKvStore implements KvStore {
  constructor(private prisma: Prisma) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = await this.prisma.federationKv.findUnique({ where: { key: encode(key) } });
    if (!row) return undefined;
    if (row.expiresAt && row.expiresAt <= new Date()) {
      await this.prisma.federationKv.deleteMany({ where: { key: row.key, expiresAt: row.expiresAt } });
      return undefined;
    }
    return JSON.parse(row.value) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const ms = ttlMs(options);
    const expiresAt = ms === undefined ? null : new Date(Date.now() + ms);
    const data = { value: JSON.stringify(value), expiresAt };
    await this.prisma.federationKv.upsert({ where: { key: encode(key) }, create: { key: encode(key), ...data }, update: data });
  }

  async delete(key: KvKey): Promise<void> {
    await this.prisma.federationKv.deleteMany({ where: { key: encode(key) } });
  }

  async *list(prefix: KvKey = [] as unknown as KvKey): AsyncIterable<KvStoreListEntry> {
    // ["a","b"] is the prefix of ["a","b",…]: their JSON starts with '["a","b",' (or is '["a","b"]').
    const whole = encode(prefix);
    const start = prefix.length ? `${whole.slice(0, -1)},` : '[';
    const rows = await this.prisma.federationKv.findMany({
      where: { OR: [{ key: whole }, { key: { startsWith: start } }] },
      orderBy: { key: 'asc' },
    });
    const now = new Date();
    for (const row of rows) {
      if (row.expiresAt && row.expiresAt <= now) continue;
      yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) };
    }
  }

  /** Removes what has expired (the worker calls it now and then). */
  async prune(now = new Date()): Promise<number> {
    return (await this.prisma.federationKv.deleteMany({ where: { expiresAt: { lte: now } } })).count;
  }
}
