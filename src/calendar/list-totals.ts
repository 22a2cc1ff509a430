// List totals at scale: counting a window of 100,000 events costs milliseconds on every page, and
// the answer only changes when the data does. A total is kept until the calendar's data version
// moves — database triggers bump it on every committed write to a calendar table, whichever process
// or tool made it — so a kept total is never stale.
import type { Database, Prisma } from '../db/client.js';
import { EVENT_TABLE, ORGANIZER_TABLE, VENUE_TABLE } from '../db/tables.js';
import { countSql } from '../db/where-sql.js';
import { isPostgres } from './term-lookup.js';

const TABLES = { event: EVENT_TABLE, venue: VENUE_TABLE, organizer: ORGANIZER_TABLE };

const MAX_TOTALS = 2_000; // per database; the oldest go first
const totalsByDatabase = new WeakMap<object, Map<string, number>>();

// The version's rows: PostgreSQL spreads it over 16 shards so that concurrent writers lock no
// common row (the version_shards migration); SQLite, one writer at a time, keeps one.
const SHARDS = ['calendar', ...Array.from({ length: 15 }, (_, n) => `calendar/${n + 1}`)];
const VERSION_SQL = {
  sqlite: `SELECT "version" FROM "DataVersion" WHERE "scope" = 'calendar'`,
  postgresql: `SELECT SUM("version") AS "version" FROM "DataVersion" WHERE "scope" IN (${SHARDS.map((scope) => `'${scope}'`).join(', ')})`,
};

/**
 * The calendar's data version: read it before computing anything that will be kept under it. Every
 * committed write moves it. Every kept answer reads it, so it is one raw statement: Prisma's model
 * query costs ~0.2 ms of CPU here, a fifth of a kept answer, where the raw one costs ~0.06 ms.
 */
export async function calendarVersion(db: Pick<Prisma, '$queryRawUnsafe'>): Promise<number> {
  const rows = await db.$queryRawUnsafe<{ version: number | bigint | string | null }[]>(
    VERSION_SQL[isPostgres(db) ? 'postgresql' : 'sqlite'],
  );
  return Number(rows[0]?.version ?? 0);
}

/**
 * The total of `model` rows matching `where`, counted once per data version. `db` is the client
 * whose database is counted (one process may serve several databases, as the tests do). `version`:
 * the data version read before `where` was built, when building it read the database (term ids,
 * search matches), so that a write in between is never kept under the newer version.
 */
export async function listTotal(
  source: { prisma: Pick<Prisma, '$queryRaw' | '$queryRawUnsafe'>; readRows: Database['readRows']; dbKind: 'sqlite' | 'postgresql' },
  model: 'event' | 'venue' | 'organizer',
  where: object,
  version?: number,
): Promise<number> {
  const db = source.prisma;
  let totals = totalsByDatabase.get(db);
  if (!totals) totalsByDatabase.set(db, (totals = new Map()));
  version ??= await calendarVersion(db);
  const key = `${version}|${model}|${JSON.stringify(where)}`;
  const kept = totals.get(key);
  if (kept !== undefined) return kept;
  // Counted raw where the filter compiles (the engine's own LIKE on SQLite, not the connection's
  // JavaScript like(), which is several times slower over a table), else by Prisma.
  const raw = countSql(source.dbKind, TABLES[model], where);
  const total: number = raw
    ? Number((await source.readRows<{ total: number | bigint }>(raw.sql, raw.args))[0].total)
    : await (db as unknown as Record<string, { count(args: object): Promise<number> }>)[model].count({ where });
  if (totals.size >= MAX_TOTALS) totals.delete(totals.keys().next().value!);
  totals.set(key, total);
  return total;
}
