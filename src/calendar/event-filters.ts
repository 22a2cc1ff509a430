// The event list's filters (spec §2.1, §6.1–6.4, §6.7) → a validated Prisma query. Validation
// reports every bad filter at once, by its GraphQL name.
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { Database, Prisma } from '../db/client.js';
import { EVENT_TABLE } from '../db/tables.js';
import { containsText } from '../db/like.js';
import { selectSql } from '../db/where-sql.js';
import { invalidInput } from './errors.js';
import { listStatuses } from './capabilities.js';
import { phpTrim } from './text.js';
import { addDaysToWall, isWallTime, wallToUtc } from './dates/wall-times.js';
import { isValidDateInput } from './dates/strtotime.js';
import { listDateWindow, type DateWindow } from './dates/schedule.js';
import { existingIdsOfType, isDbId, postTypeOf, type Db } from './posts.js';
import { calendarVersion } from './list-totals.js';
import { Problems } from './validate.js';

export interface EventFilter {
  startDate?: string | null;
  endDate?: string | null;
  startsBefore?: string | null;
  startsAfter?: string | null;
  endsBefore?: string | null;
  endsAfter?: string | null;
  strictDates?: boolean | null;
  search?: string | null;
  categories?: string[] | null;
  /** With categories: their descendant categories' events too (default true, WordPress's include_children). */
  includeChildCategories?: boolean | null;
  tags?: string[] | null;
  venue?: number[] | null;
  organizer?: number[] | null;
  featured?: boolean | null;
  status?: string[] | null;
  include?: number[] | null;
  postParent?: number | null;
  /** Only occurrences of these series. */
  series?: number[] | null;
  /** Of each series, only its first occurrence the list has (the original Pro's "show only the first upcoming instance"). */
  firstOccurrenceOnly?: boolean | null;
}

export interface EventListQuery {
  where: Record<string, unknown>;
  orderBy: Record<string, 'asc' | 'desc'>[];
  window: DateWindow;
  statuses: string[];
  /** The calendar's data version, read before anything else: what a total of `where` is kept under. */
  version: number;
}

/** The list also reads the data version and, on SQLite, the search index. */
type ListDb = Db & Pick<Prisma, '$queryRaw' | '$queryRawUnsafe'>;

const DATE_FILTERS = ['startDate', 'endDate', 'startsBefore', 'startsAfter', 'endsBefore', 'endsAfter'] as const;

/** WordPress's default search stopwords (en_US), which a search ignores as words. */
const SEARCH_STOPWORDS = new Set(
  'about,an,are,as,at,be,by,com,for,from,how,in,is,it,of,on,or,that,the,this,to,was,what,when,where,who,will,with,www'.split(','),
);

/** PHP's stripslashes: a backslash takes the next character as it is ("\\0" is NUL); a last one goes. */
function stripslashes(text: string): string {
  return text.replace(/\\([\s\S]?)/g, (_all, next: string) => (next === '0' ? '\0' : next));
}

/**
 * A search's terms as WordPress reads them (WP_Query::parse_search, parse_search_terms): backslashes
 * stripped; words split at tabs, spaces, quotes, commas and "+", a "quoted phrase" (or an unclosed
 * one, to the end) kept whole; quotes trimmed off; single letters, a lone "-" and stopwords dropped;
 * the whole text as one term when no word is left or more than nine are. A term starting with "-"
 * excludes the rest of it.
 */
export function searchTerms(search: string): { term: string; exclude: boolean }[] {
  const text = stripslashes(search).replace(/[\r\n]/g, '');
  const words = [...text.matchAll(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g)].map((match) => match[0]);
  let terms = [text];
  if (words.length) {
    const kept = [];
    for (const word of words) {
      const term = phpTrim(word, /^".+"$/.test(word) ? `"'` : `"' `);
      if (!term || /^[a-z-]$/i.test(term) || SEARCH_STOPWORDS.has(term.toLowerCase())) continue;
      kept.push(term);
    }
    if (kept.length && kept.length <= 9) terms = kept;
  }
  return terms.map((term) => (term.startsWith('-') ? { term: term.slice(1), exclude: true } : { term, exclude: false }));
}

/**
 * Term references as the list filter reads them: each item is matched by slug first, then by id;
 * validation accepts a name too (which then matches nothing, as in the original).
 */
async function resolveTermFilter(db: Db, taxonomy: string, items: string[]): Promise<number[] | null> {
  const clean = items.map((s) => String(s).trim()).filter(Boolean);
  if (!clean.length) return null;
  const numeric = clean
    .filter((s) => /^\d+$/.test(s))
    .map(Number)
    .filter(isDbId);
  const terms = await db.term.findMany({
    where: { taxonomy, OR: [{ slug: { in: clean } }, { name: { in: clean } }, { id: { in: numeric } }] },
    select: { id: true, slug: true, name: true },
  });
  const ids: number[] = [];
  for (const item of clean) {
    const bySlug = terms.find((t) => t.slug === item);
    const byId = /^\d+$/.test(item) ? terms.find((t) => t.id === Number(item)) : undefined;
    const byName = terms.find((t) => t.name === item);
    if (!bySlug && !byId && !byName) return null;
    ids.push(bySlug?.id ?? byId?.id ?? -1);
  }
  return ids;
}

/**
 * The categories and all their descendants: a tax query on a hierarchical taxonomy includes the
 * children by default in WordPress (include_children), so a parent's list shows its children's
 * events. One recursive statement walks the term tree down its parent index; the event list then
 * filters on the ids as on any other. Unmatched items (-1) stay unmatched.
 */
async function withDescendants(db: ListDb, ids: number[]): Promise<number[]> {
  const roots = ids.filter(isDbId);
  if (!roots.length) return ids;
  // Integers only (isDbId): safe to inline. UNION, not UNION ALL, ends any loop.
  const rows = await db.$queryRawUnsafe<{ id: number | bigint }[]>(
    `WITH RECURSIVE "branch"("id") AS (SELECT "id" FROM "Term" WHERE "id" IN (${roots.join(',')})
       UNION SELECT "Term"."id" FROM "Term" JOIN "branch" ON "Term"."parentId" = "branch"."id")
     SELECT "id" FROM "branch"`,
  );
  return rows.map((row) => Number(row.id));
}

/** Above this many index matches a term is common: walking the list in order finds a page sooner. */
const SEARCH_CANDIDATES_MAX = 1000;

/**
 * SQLite: the events that may match every search term, from the trigram index (EventSearch), or
 * null when the index cannot narrow the list (terms under three characters, only exclusions, or a
 * common term). The index folds case at least as widely as LIKE, so the candidates hold every event
 * the LIKE conditions accept; those conditions still decide. PostgreSQL's trigram indexes serve
 * the ILIKE conditions directly.
 */
async function searchCandidates(db: ListDb, terms: { term: string; exclude: boolean }[]): Promise<number[] | null> {
  const phrases = terms.filter((t) => !t.exclude && [...t.term].length >= 3).map((t) => `"${t.term.replaceAll('"', '""')}"`);
  if (!phrases.length) return null;
  const rows = await db.$queryRawUnsafe<{ id: number | bigint }[]>(
    'SELECT "rowid" AS "id" FROM "EventSearch" WHERE "EventSearch" MATCH ? LIMIT ?',
    phrases.join(' AND '),
    SEARCH_CANDIDATES_MAX + 1,
  );
  return rows.length > SEARCH_CANDIDATES_MAX ? null : rows.map((row) => Number(row.id));
}

type WindowInput = Parameters<typeof listDateWindow>[0];
const windows = new Map<string, DateWindow>();

/**
 * Date windows depend on the arguments and the current second only; a busy list route asks for the
 * same default window thousands of times a second, and parsing relative dates is not free.
 */
export function cachedWindow(input: WindowInput): DateWindow {
  if (input.now) return listDateWindow(input);
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const key = `${now.getTime()}|${JSON.stringify(input)}`;
  let window = windows.get(key);
  if (!window) {
    if (windows.size > 1000) windows.clear();
    window = listDateWindow({ ...input, now });
    windows.set(key, window);
  }
  return window;
}

/**
 * The window's bounds (site-local walls) as conditions on the events' dates, as the original's
 * repository (Tribe__Events__Repositories__Event, per-event time zones, its default) compares them:
 * on a site whose zone is UTC, each bound converted to UTC against the UTC start and end; on any
 * other site, the bound as it is against the events' own local start and end (so an event's zone
 * moves it in or out of a window there). The list index leads with the local start: a local start
 * lies within a day of the UTC one (offsets run from -12 to +14 hours), so on a UTC site the same
 * bounds widened by a day on it let the index seek without changing the answer.
 */
export function dateConditions(window: DateWindow, siteTimezone: string): Record<string, unknown>[] {
  const onUtc = siteTimezone === 'UTC';
  // A bound no wall time holds (strtotime reaches years this form cannot write) compares as it is.
  const bound = (wall: string) => (onUtc && isWallTime(wall) ? wallToUtc(wall, siteTimezone) : wall);
  const start: Record<string, string> = {};
  const end: Record<string, string> = {};
  if (window.startGte) start.gte = bound(window.startGte);
  if (window.startGt) start.gt = bound(window.startGt);
  if (window.startLt) start.lt = bound(window.startLt);
  if (window.endLte) end.lte = bound(window.endLte);
  if (window.endLt) end.lt = bound(window.endLt);
  if (window.endGt) end.gt = bound(window.endGt);
  const startLocal: Record<string, string> = {};
  if (onUtc) {
    const lower = start.gte ?? start.gt;
    if (lower && isWallTime(lower)) startLocal.gte = addDaysToWall(lower, -1);
    if (start.lt && isWallTime(start.lt)) startLocal.lt = addDaysToWall(start.lt, 1);
  }
  const conditions = onUtc ? [{ startLocal }, { startUtc: start }, { endUtc: end }] : [{ startLocal: start }, { endLocal: end }];
  return conditions.filter((condition) => Object.keys(Object.values(condition)[0]).length > 0);
}

export async function eventListQuery(
  db: ListDb,
  filter: EventFilter,
  context: { viewer: Viewer | null; config: Config; dbKind: string; now?: Date; readVersion?: number },
): Promise<EventListQuery> {
  const { viewer, config, dbKind } = context;
  const version = context.readVersion ?? (await calendarVersion(db));
  const problems = new Problems();
  for (const name of DATE_FILTERS) if (filter[name] != null) problems.check(name, isValidDateInput(filter[name]));
  if (filter.search != null) problems.check('search', filter.search !== '');
  const termIds: Record<'categories' | 'tags', number[] | null> = { categories: null, tags: null };
  for (const [name, taxonomy] of [
    ['categories', 'tribe_events_cat'],
    ['tags', 'post_tag'],
  ] as const) {
    if (filter[name] == null) continue;
    termIds[name] = await resolveTermFilter(db, taxonomy, filter[name]!);
    problems.check(name, termIds[name] !== null);
  }
  for (const name of ['venue', 'organizer'] as const) {
    const ids = filter[name];
    if (ids == null) continue;
    const found = await existingIdsOfType(db, ids, name);
    problems.check(name, ids.length > 0 && ids.every((id) => found.has(id)));
  }
  const statuses = listStatuses(viewer, filter.status);
  if (!statuses) problems.fail('status');
  if (filter.include != null)
    problems.check('include', filter.include.length > 0 && filter.include.every((id) => Number.isSafeInteger(id) && id > 0));
  if (filter.postParent != null) problems.check('postParent', (await postTypeOf(db, filter.postParent)) === 'event');
  if (problems.any) throw invalidInput(problems.params);

  const window = cachedWindow({
    startDate: filter.startDate ?? undefined,
    endDate: filter.endDate ?? undefined,
    startsBefore: filter.startsBefore ?? undefined,
    startsAfter: filter.startsAfter ?? undefined,
    endsBefore: filter.endsBefore ?? undefined,
    endsAfter: filter.endsAfter ?? undefined,
    strict: filter.strictDates === true,
    include: filter.include != null,
    siteTimezone: config.siteTimezone,
    now: context.now,
  });
  const and: Record<string, unknown>[] = [...dateConditions(window, config.siteTimezone)];
  const terms = filter.search != null ? searchTerms(filter.search) : [];
  // WordPress hides password-protected posts from searches of visitors who are not logged in.
  if (terms.length && !viewer) and.push({ password: '' });
  for (const { term, exclude } of terms) {
    const any = { OR: ['title', 'excerpt', 'content'].map((field) => containsText(field, term, dbKind)) };
    and.push(exclude ? { NOT: any } : any);
  }
  const candidates = dbKind === 'sqlite' ? await searchCandidates(db, terms) : null;
  if (candidates) and.push({ id: { in: candidates } });
  if (termIds.categories) {
    const categories = filter.includeChildCategories === false ? termIds.categories : await withDescendants(db, termIds.categories);
    and.push({ terms: { some: { termId: { in: categories } } } });
  }
  if (termIds.tags) and.push({ terms: { some: { termId: { in: termIds.tags } } } });
  if (filter.venue != null) and.push({ venues: { some: { venueId: { in: filter.venue } } } });
  if (filter.organizer != null) and.push({ organizers: { some: { organizerId: { in: filter.organizer } } } });
  if (filter.featured != null) and.push({ featured: filter.featured });
  if (filter.include != null) and.push({ id: { in: filter.include.filter(isDbId) } });
  if (filter.postParent != null) and.push({ parentId: filter.postParent });
  if (filter.series != null) and.push({ seriesId: { in: filter.series.filter(isDbId) } });
  // Only events with an occurrence (Event.listed; the list index carries it, so this costs no table visit).
  const where = { status: { in: statuses! }, hideFromListings: false, listed: true, AND: and };
  if (filter.firstOccurrenceOnly) and.push(await firstOccurrences(db, where));

  return {
    where,
    // With include: publication date (post_date, site-local: drafts have no UTC one), then id;
    // otherwise start date (ties in insertion order).
    orderBy: filter.include != null ? [{ date: 'asc' }, { id: 'asc' }] : [{ startLocal: 'asc' }, { id: 'asc' }],
    window,
    statuses: statuses!,
    version,
  };
}

/**
 * The condition that keeps single events and, of each series, its earliest occurrence among those
 * `where` lists: two grouped reads, whose size is the number of series in the list.
 */
async function firstOccurrences(db: ListDb, where: Record<string, unknown>): Promise<Record<string, unknown>> {
  const inSeries = { ...where, seriesId: { not: null } };
  const groups = await db.event.groupBy({ by: ['seriesId'], where: inSeries, _min: { startLocal: true } });
  const first = new Map(groups.map((group) => [group.seriesId, group._min.startLocal]));
  const rows = groups.length
    ? await db.event.findMany({
        where: {
          ...inSeries,
          seriesId: { in: [...first.keys()] as number[] },
          startLocal: { in: [...new Set(first.values())] as string[] },
        },
        select: { id: true, seriesId: true, startLocal: true },
        orderBy: { id: 'asc' },
      })
    : [];
  const ids = new Map<number, number>();
  for (const row of rows) if (first.get(row.seriesId) === row.startLocal && !ids.has(row.seriesId!)) ids.set(row.seriesId!, row.id);
  return { OR: [{ seriesId: null }, { id: { in: [...ids.values()] } }] };
}

export type EventRow = Awaited<ReturnType<Prisma['event']['findMany']>>[number];

/**
 * One page of the list's events. Read raw (one statement through the driver) when the filter is in
 * the part of Prisma's language selectSql compiles and the caller needs no relation loaded with the
 * rows: Prisma's client spends about twice the statement's own time mapping a page of full rows.
 * Otherwise Prisma reads it, with the caller's `query` (a Pothos selection). `columns`: what a raw
 * read selects (every column by default); Prisma's read takes them all.
 */
export async function eventPageRows(
  db: { prisma: Db; readRows: Database['readRows']; dbKind: 'sqlite' | 'postgresql' },
  list: Pick<EventListQuery, 'where' | 'orderBy'>,
  page: { skip: number; take: number },
  query: object = {},
  columns: readonly string[] | null = null,
): Promise<EventRow[]> {
  const raw = Object.keys(query).length === 0 ? selectSql(db.dbKind, EVENT_TABLE, { ...list, ...page, columns }) : null;
  if (raw) return db.readRows<EventRow>(raw.sql, raw.args);
  return db.prisma.event.findMany({ ...query, where: list.where, orderBy: list.orderBy, ...page });
}
