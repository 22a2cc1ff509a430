// What events, venues and organizers share as WordPress-style posts: one id space, unique slugs,
// publication dates in site-local and UTC wall time, permalinks and global ids.
import { DateTime } from 'luxon';
import type { Prisma } from '../db/client.js';
import { isRetryableConflict, isUniqueViolation } from '../db/errors.js';
import type { PostAccess } from './capabilities.js';
import { firstFreeSlug, firstSlugCandidates } from './slugs.js';

export type PostType = 'event' | 'venue' | 'organizer' | 'attachment';
export type LinkedType = 'venue' | 'organizer';
/** Any Prisma client, or the transaction client inside `$transaction`. */
export type Db = Pick<
  Prisma,
  'post' | 'event' | 'eventSeries' | 'venue' | 'organizer' | 'attachment' | 'term' | 'eventTerm' | 'eventVenue' | 'eventOrganizer' | 'user'
>;

/**
 * The venue or the organizer table. TypeScript cannot call a method on the union of the two Prisma
 * delegates (their argument types differ; their rows share every column the calendar's rules read),
 * so the one cast lives here and callers say what rows they read.
 */
export interface LinkedTable<Row> {
  findMany<Selected = Row>(args: object): Promise<Selected[]>;
  findUnique(args: object): Promise<Row | null>;
  findUniqueOrThrow(args: object): Promise<Row>;
  create(args: object): Promise<Row>;
  update(args: object): Promise<Row>;
  updateMany(args: object): Promise<{ count: number }>;
}
export const linkedTable = <Row>(db: Db, type: LinkedType): LinkedTable<Row> => db[type] as unknown as LinkedTable<Row>;

export const PERMALINK_BASE: Record<'event' | 'venue' | 'organizer', string> = { event: 'event', venue: 'venue', organizer: 'organizer' };

/** Ids are 32-bit integers in the database: a larger number names nothing (and must not reach SQL). */
export const MAX_DB_ID = 2_147_483_647;
export const isDbId = (id: unknown): id is number => typeof id === 'number' && Number.isInteger(id) && id > 0 && id <= MAX_DB_ID;

export async function postTypeOf(db: Db, id: number): Promise<PostType | null> {
  if (!isDbId(id)) return null;
  const row = await db.post.findUnique({ where: { id }, select: { type: true } });
  return (row?.type as PostType | undefined) ?? null;
}

/**
 * What the capability rules read of the post with this id, whatever its type; null when no post has
 * it. WordPress checks `edit_post`/`delete_post` against the post the id names under its own type's
 * rules, even where a route expects another type. An image (attachment) has no status or author
 * here: WordPress's `inherit`, owned by no one.
 */
export async function postAccessOf(db: Db, id: number): Promise<PostAccess | null> {
  if (!isDbId(id)) return null;
  const facts = { select: { status: true, authorId: true } };
  const row = await db.post.findUnique({
    where: { id },
    select: { event: facts, venue: facts, organizer: facts, attachment: { select: { id: true } } },
  });
  if (!row) return null;
  return row.event ?? row.venue ?? row.organizer ?? { status: 'inherit', authorId: 0 };
}

/** Ids of `type` among `ids` (one query). */
export async function existingIdsOfType(db: Db, ids: number[], type: PostType): Promise<Set<number>> {
  const safe = ids.filter(isDbId);
  if (!safe.length) return new Set();
  const rows = await db.post.findMany({ where: { id: { in: safe }, type }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export async function allocatePostId(db: Db, type: PostType): Promise<number> {
  return (await db.post.create({ data: { type }, select: { id: true } })).id;
}

type SlugModel = 'event' | 'venue' | 'organizer';

const SLUG_LOCK_SPACE = 7_302; // advisory-lock namespace of post slugs (terms use 7_301)

/**
 * The first free WordPress-style slug (`base`, `base-2`, …) for a post of `model`. One query finds
 * the taken candidates; the unique index still guards concurrent writers (callers retry on conflict).
 * On PostgreSQL the calling transaction first takes the lock of this model and base, held to its
 * commit, so that concurrent writers of one base choose one after the other: 50 creates of one
 * title all picked the same free slug and, one winner a round, ran out of retries (500s;
 * hostile/concurrency.test.ts). Per base, not per model: one lock for every event made every
 * create wait for the commit of the one before (issue 33). A base that only looks like another's
 * candidate ("a-2") can still collide with it: the retry covers that rare case. SQLite runs one
 * write transaction at a time.
 */
export async function uniquePostSlug(db: Db, model: SlugModel, base: string, exceptId?: number): Promise<string> {
  await lockSlug(db, model, base);
  if (model === 'event') return firstFreeSlug(base, (candidates) => takenEventSlugs(db, candidates, exceptId ?? 0));
  return firstFreeSlug(base, async (candidates) => {
    const where = { slug: { in: candidates } };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a delegate picked by model name: the generated client types each model's apart
    const rows: { slug: string }[] = await (db[model] as any).findMany({
      where: { ...where, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
      select: { slug: true },
    });
    return new Set(rows.map((r) => r.slug));
  });
}

async function lockSlug(db: Db, model: SlugModel, base: string): Promise<void> {
  if (!isPostgresDb(db)) return;
  await (db as unknown as Prisma).$executeRawUnsafe(
    'SELECT pg_advisory_xact_lock($1::int, hashtext($2))',
    SLUG_LOCK_SPACE,
    `${model}/${base}`,
  );
}

const isPostgresDb = (db: Db) => (db as { _activeProvider?: string })._activeProvider === 'postgresql';

/**
 * A new event's post row, and its unique slug made from `base` (none when null), as uniquePostSlug
 * makes it: the insert reads which of the first candidates are taken in the same statement (after
 * the slug's lock on PostgreSQL, so that the read sees what the lock's last holder committed).
 */
export async function insertEventPost(db: Db, base: string | null): Promise<{ id: number; slug: string | null }> {
  if (!base) return { id: await allocatePostId(db, 'event'), slug: null };
  await lockSlug(db, 'event', base);
  const candidates = firstSlugCandidates(base);
  const postgres = isPostgresDb(db);
  const at = (i: number) => (postgres ? `$${i}` : '?');
  const list = (from: number) => candidates.map((_, i) => at(from + i)).join(', ');
  const joined = postgres ? `string_agg("slug", ' ')` : `group_concat("slug", ' ')`;
  const [row] = await (db as unknown as Prisma).$queryRawUnsafe<{ id: number | bigint; taken: string | null }[]>(
    `INSERT INTO "Post" ("type") VALUES ('event') RETURNING "id", (SELECT ${joined} FROM (
       SELECT "slug" FROM "Event" WHERE "slug" IN (${list(1)})
       UNION ALL SELECT "slug" FROM "EventSeries" WHERE "slug" IN (${list(candidates.length + 1)})) AS "taken") AS "taken"`,
    ...candidates,
    ...candidates,
  );
  const id = Number(row!.id);
  // Slugs are sanitized (no spaces): the taken ones come joined by spaces.
  let firstBatch: Set<string> | undefined = new Set(row!.taken ? row!.taken.split(' ') : []);
  const slug = await firstFreeSlug(base, (asked) => {
    const known = firstBatch;
    firstBatch = undefined;
    return known ? Promise.resolve(known) : takenEventSlugs(db, asked, id);
  });
  return { id, slug };
}

/**
 * Which of `candidates` an event other than `exceptId` has, or a series: a series names its
 * occurrences' pages (/event/<series slug>/<date>/), so an event may not take its name. One
 * statement for both tables.
 */
async function takenEventSlugs(db: Db, candidates: string[], exceptId: number): Promise<Set<string>> {
  const postgres = isPostgresDb(db);
  const at = (i: number) => (postgres ? `$${i}` : '?');
  const list = (from: number) => candidates.map((_, i) => at(from + i)).join(', ');
  const n = candidates.length;
  const rows = await (db as unknown as Prisma).$queryRawUnsafe<{ slug: string }[]>(
    `SELECT "slug" FROM "Event" WHERE "slug" IN (${list(1)}) AND "id" <> ${at(n + 1)}
     UNION ALL SELECT "slug" FROM "EventSeries" WHERE "slug" IN (${list(n + 2)})`,
    ...candidates,
    exceptId,
    ...candidates,
  );
  return new Set(rows.map((r) => r.slug));
}

/**
 * PostgreSQL: holds the event's row until the calling transaction ends, so that writes to one event
 * run one after the other. Term counts need it: a write reads the terms the event has before
 * recounting them, and a concurrent write to the same event could change both in between (a
 * category's count stayed 1 for a trashed event under the hostile suite's concurrent writes).
 * SQLite runs one write transaction at a time.
 */
export async function lockEventRow(db: Db, id: number): Promise<void> {
  if ((db as { _activeProvider?: string })._activeProvider !== 'postgresql') return;
  await (db as unknown as Prisma).$queryRawUnsafe('SELECT "id" FROM "Event" WHERE "id" = $1 FOR UPDATE', id);
}

/**
 * Runs `attempt` (a whole transaction) again when a concurrent writer took the same unique value
 * first, or when PostgreSQL ended it to break a deadlock: either way nothing of it was written.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, tries = 8): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= tries || !(isUniqueViolation(error) || isRetryableConflict(error))) throw error;
    }
  }
}

export function wallNow(zone: string, now = new Date()): { local: string; utc: string } {
  const instant = DateTime.fromJSDate(now);
  return {
    local: instant.setZone(zoneForLuxon(zone)).toFormat('yyyy-LL-dd HH:mm:ss'),
    utc: instant.toUTC().toFormat('yyyy-LL-dd HH:mm:ss'),
  };
}

/** Luxon understands "UTC+5" as "UTC+5"; WordPress's "UTC+5.5" means +05:30. */
export function zoneForLuxon(zone: string): string {
  const m = /^UTC([+-])(\d{1,2})(?:[.:](\d{1,2}))?$/.exec(zone);
  if (!m) return zone || 'UTC';
  const minutes = m[3] ? (m[3].length === 1 ? Number(m[3]) * 6 : Number(m[3])) : 0;
  return `UTC${m[1]}${Number(m[2])}${minutes ? ':' + String(minutes).padStart(2, '0') : ''}`;
}

export const POST_TYPE_NAME: Record<SlugModel, string> = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' };

/**
 * The record's page. WordPress gives pretty links only to published and private posts; drafts,
 * pending, scheduled and trashed ones get the plain `?post_type=…&p=<id>` form (wp_force_plain_post_permalink).
 */
export function permalink(siteUrl: string, type: SlugModel, post: { id: number; slug: string | null; status: string }): string {
  if ((post.status !== 'publish' && post.status !== 'private') || !post.slug)
    return `${siteUrl}/?post_type=${POST_TYPE_NAME[type]}&p=${post.id}`;
  return `${siteUrl}/${PERMALINK_BASE[type]}/${post.slug}/`;
}

/**
 * wp_trash_post frees the slug: the trashed post keeps it with a `__trashed` suffix. A post without a
 * name (a draft's) becomes just `__trashed`.
 */
export const trashedSlug = (slug: string | null): string => (slug?.endsWith('__trashed') ? slug : `${slug ?? ''}__trashed`);

/** The name a trashed post had before trashedSlug: `dup__trashed-2` was `dup`; undefined when it had none. */
export const untrashedSlug = (slug: string | null): string | undefined => slug?.replace(/__trashed(-\d+)?$/, '') || undefined;

/** TEC global id: the site URL without scheme or port, then `?id=`. */
export function globalId(siteUrl: string, id: number): string {
  return `${globalIdBase(siteUrl)}?id=${id}`;
}

// A list page asks for ~300 global ids of one site URL: parse it once.
let lastSiteUrl = '';
let lastBase = '';
function globalIdBase(siteUrl: string): string {
  if (siteUrl !== lastSiteUrl) {
    const url = new URL(siteUrl);
    lastBase = url.hostname + url.pathname.replace(/\/+$/, '');
    lastSiteUrl = siteUrl;
  }
  return lastBase;
}

/** WordPress's empty GMT date: drafts and pending posts have none until they are published. */
export const ZERO_DATE = '0000-00-00 00:00:00';
const FLOATING_STATUSES = new Set(['draft', 'pending', 'auto-draft']);

/** Draft, pending and auto-draft posts "float": no GMT date, and (wp_insert_post) no post name unless one is given. */
export const isFloatingStatus = (status: string): boolean => FLOATING_STATUSES.has(status);

/**
 * The dates wp_insert_post stores for a new post: a draft or pending post's GMT date "floats"
 * (ZERO_DATE) unless one was given, and the modification dates are the publication dates.
 */
export function insertedDates(dates: { date: string; dateUtc: string }, status: string, dateGiven: boolean) {
  const dateUtc = FLOATING_STATUSES.has(status) && !dateGiven ? ZERO_DATE : dates.dateUtc;
  return { date: dates.date, dateUtc, modified: dates.date, modifiedUtc: dateUtc };
}

/**
 * The dates after a second save of a post just inserted (wp_update_post naming nothing but the
 * field it changes): the modification is dated now, and a draft or pending post without a GMT date
 * is dated now too (wp_update_post's clear_date: "drafts shouldn't be assigned a date unless
 * explicitly done so by the user").
 */
export function resavedDates(saved: { date: string; dateUtc: string }, status: string, now: { local: string; utc: string }) {
  const date = FLOATING_STATUSES.has(status) && saved.dateUtc === ZERO_DATE ? now.local : saved.date;
  return { date, dateUtc: saved.dateUtc, modified: now.local, modifiedUtc: now.utc };
}

/**
 * The publication dates of an update that gives none: a post that is or becomes a draft or pending
 * floats again (its date now, no GMT date); a floating post being published is dated now.
 */
export function floatingDates(
  current: { status: string; dateUtc: string },
  nextStatus: string | undefined,
  now: { local: string; utc: string },
) {
  const status = nextStatus ?? current.status;
  if (FLOATING_STATUSES.has(status) && (nextStatus !== undefined || current.dateUtc === ZERO_DATE))
    return { date: now.local, dateUtc: ZERO_DATE };
  if (current.dateUtc === ZERO_DATE) return { date: now.local, dateUtc: now.utc };
  return {};
}
