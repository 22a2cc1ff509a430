// Reading terms: resolving an id/slug/name to a term of a taxonomy (WordPress term_exists), counts
// of published events per term, and the category tree. Every function takes a Prisma client or a
// transaction client and costs a fixed number of statements, whatever the number of terms asked for.
import type { Prisma } from '../db/client.js';
import { containsText } from '../db/like.js';
import { asId, CATEGORY_TAXONOMY, sanitizeTermName, type Taxonomy } from './term-rules.js';
import { sanitizeSlug } from './slugs.js';

/** Any Prisma client, or the transaction client inside `$transaction`. */
export type TermDb = Pick<Prisma, 'term' | 'eventTerm' | 'post'>;

/**
 * Whether `db` talks to PostgreSQL. Case-insensitive matching differs: PostgreSQL needs
 * `mode: 'insensitive'`, SQLite's LIKE already ignores ASCII case (and has no `mode`).
 * Prisma clients and their transaction clients both carry the provider name.
 */
export function isPostgres(db: unknown): boolean {
  return (db as { _activeProvider?: string })._activeProvider === 'postgresql';
}

const LOCK_SPACE = 7_301; // advisory-lock namespace of term writes
const LOCK_KEYS: Record<Taxonomy, number> = { tribe_events_cat: 1, post_tag: 2 };

/**
 * Serialises term creation per taxonomy until the transaction ends, so that "is this name free?"
 * and the insert cannot interleave with another writer's (the unique slug index alone would let
 * a second "Music" in as music-2). PostgreSQL only: SQLite runs one write transaction at a time.
 * Reads after the lock see what the previous holder committed (READ COMMITTED, the default).
 */
export async function lockTermWrites(tx: unknown, taxonomy: Taxonomy): Promise<void> {
  if (!isPostgres(tx)) return;
  const client = tx as { $executeRawUnsafe?: (sql: string, ...values: unknown[]) => Promise<number> };
  await client.$executeRawUnsafe?.('SELECT pg_advisory_xact_lock($1::int, $2::int)', LOCK_SPACE, LOCK_KEYS[taxonomy]);
}

/**
 * A `where` on `field` that finds every row whose value equals one of `values` ignoring case: a
 * superset on SQLite (the rows containing one of them), so callers compare again.
 */
export function caseInsensitiveIn(db: unknown, field: 'name' | 'slug', values: string[]): object {
  if (isPostgres(db)) return { [field]: { in: values, mode: 'insensitive' } };
  return { OR: values.map((value) => containsText(field, value, 'sqlite')) };
}

/** `contains` ignoring case (ASCII only on SQLite). */
export function caseInsensitiveContains(db: unknown, field: 'name' | 'slug', text: string): object {
  return containsText(field, text, isPostgres(db) ? 'postgresql' : 'sqlite');
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * WordPress term_exists() for several values at once: a number (or digits) is a term id of the
 * taxonomy; any other string is a slug (sanitised as WordPress does) or else a name (any case).
 * Returns the matching id per value, or null. Two statements at most.
 */
export async function resolveTermRefs(db: TermDb, taxonomy: Taxonomy, values: unknown[]): Promise<Array<number | null>> {
  const ids = values.map(asId).filter((id): id is number => id !== null);
  const texts = values.filter((v): v is string => typeof v === 'string' && asId(v) === null && v.trim() !== '').map((v) => v.trim());
  // Sequential, so that it also runs inside a transaction (one connection).
  const byId = ids.length ? await db.term.findMany({ where: { taxonomy, id: { in: ids } }, select: { id: true } }) : [];
  const byText = texts.length
    ? await db.term.findMany({
        where: {
          taxonomy,
          OR: [
            { slug: { in: texts.map(sanitizeSlug).filter(Boolean) } },
            caseInsensitiveIn(db, 'name', [...new Set([...texts, ...texts.map(sanitizeTermName)])]),
          ],
        },
        select: { id: true, slug: true, name: true },
        orderBy: { id: 'asc' },
      })
    : [];
  const known = new Set(byId.map((t) => t.id));
  return values.map((value) => {
    const id = asId(value);
    if (id !== null) return known.has(id) ? id : null;
    if (typeof value !== 'string' || value.trim() === '') return null;
    const text = value.trim();
    const slug = sanitizeSlug(text);
    const match =
      byText.find((t) => slug !== '' && t.slug === slug) ??
      byText.find((t) => sameText(t.name, text) || sameText(t.name, sanitizeTermName(text)));
    return match?.id ?? null;
  });
}

export async function resolveTermRef(db: TermDb, taxonomy: Taxonomy, value: unknown): Promise<number | null> {
  return (await resolveTermRefs(db, taxonomy, [value]))[0];
}

/** Whether `value` names an existing event (any status): TEC is_event_id. */
export async function isEventId(db: TermDb, value: unknown): Promise<number | null> {
  const id = asId(value);
  if (id === null) return null;
  const post = await db.post.findUnique({ where: { id }, select: { type: true } });
  return post?.type === 'event' ? id : null;
}

/** `count` of each term (§3.4.2): how many published events carry it, as stored (`refreshTermCounts`). */
export async function publishedEventCounts(db: TermDb, termIds: number[]): Promise<Map<number, number>> {
  const ids = [...new Set(termIds)];
  if (!ids.length) return new Map();
  const rows = await db.term.findMany({ where: { id: { in: ids } }, select: { id: true, count: true } });
  return new Map(rows.map((row) => [row.id, row.count]));
}

/** The terms the events carry, each once: those whose counts a change to the events moves. */
export async function termIdsOf(db: TermDb, eventIds: number[]): Promise<number[]> {
  if (!eventIds.length) return [];
  const rows = await db.eventTerm.findMany({ where: { eventId: { in: eventIds } }, select: { termId: true }, distinct: ['termId'] });
  return rows.map((row) => row.termId);
}

/**
 * Recounts the published events of `termIds` (WordPress's _update_post_term_count), inside the
 * transaction of the write that changed an event's status or terms, so that no read ever counts.
 * On PostgreSQL the terms' rows are locked first and counted in a later statement: under READ
 * COMMITTED that statement sees what a concurrent writer of the same terms committed. The lock is
 * FOR NO KEY UPDATE (what the count's UPDATE takes anyway), not FOR UPDATE: the writer's own new
 * links hold KEY SHARE locks on these rows through their foreign key, and FOR UPDATE waits on the
 * other writer's, which waits on ours (a deadlock once event creates stopped sharing one slug lock).
 */
export async function refreshTermCounts(tx: unknown, termIds: number[]): Promise<void> {
  await updateTermCounts(
    tx,
    termIds,
    `(SELECT COUNT(*) FROM "EventTerm" JOIN "Event" ON "Event"."id" = "EventTerm"."eventId"
       WHERE "EventTerm"."termId" = "Term"."id" AND "Event"."status" = 'publish')`,
  );
}

/**
 * One published event more in each of `termIds` (a new event's links): added to the stored counts
 * rather than recounted, so a create costs the same whatever the number of events a term already
 * has (a recount reads them all, which made every create in a big category slower than the last).
 */
export async function addPublishedToTermCounts(tx: unknown, termIds: number[]): Promise<void> {
  await updateTermCounts(tx, termIds, `"count" + 1`);
}

async function updateTermCounts(tx: unknown, termIds: number[], count: string): Promise<void> {
  const ids = [...new Set(termIds)].filter((id) => Number.isSafeInteger(id)).sort((a, b) => a - b);
  if (!ids.length) return;
  const client = tx as { $executeRawUnsafe(sql: string): Promise<number>; $queryRawUnsafe(sql: string): Promise<unknown> };
  const list = ids.join(','); // integers only: safe to inline
  // PostgreSQL: the rows are locked in id order first (the subquery), so that two writes counting
  // the same terms never deadlock; one statement either way.
  const rows = isPostgres(tx) ? `SELECT "id" FROM "Term" WHERE "id" IN (${list}) ORDER BY "id" FOR NO KEY UPDATE` : list;
  await client.$executeRawUnsafe(`UPDATE "Term" SET "count" = ${count} WHERE "id" IN (${rows})`);
}

export type CategoryTree = Map<number, { slug: string; parentId: number | null }>;

/** Every category's slug and parent, for archive links and hierarchy rules (categories are few). */
export async function categoryTree(db: TermDb): Promise<CategoryTree> {
  const rows = await db.term.findMany({ where: { taxonomy: CATEGORY_TAXONOMY }, select: { id: true, slug: true, parentId: true } });
  return new Map(rows.map((row) => [row.id, { slug: row.slug, parentId: row.parentId }]));
}
