// Venues and organizers as records of their own (spec §2.5, §2.6, §6.9): the list query, single
// reads, create, update and trash. One piece of code for both types, parameterised by `type`.
// Order of checks, as the REST contract needs: validation → permission → existence/state → write.
// Almanac decision: an update changes only the fields it is given (the original resets omitted
// image, show_map flags and status).
import { outboundPolicy } from '../net/url-policy.js';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import { containsText } from '../db/like.js';
import { CalendarError, invalidInput } from './errors.js';
import {
  canCreatePosts,
  canDeleteAny,
  canDeletePost,
  canEditAny,
  canEditPost,
  canPostUnfilteredHtml,
  canReadPost,
  canReadPrivate,
  listableStatuses,
  listStatuses,
  storedStatus,
} from './capabilities.js';
import { applyImagePlan } from './images.js';
import { postHtmlAsSaved } from './kses.js';
import {
  createOrReuseLinked,
  deriveStateProvince,
  mapFlag,
  META_FIELDS,
  metaValue,
  publicationDates,
  validateLinkedFields,
  type LinkedFields,
} from './linked.js';
import {
  floatingDates,
  isDbId,
  linkedTable,
  postTypeOf,
  retryOnConflict,
  trashedSlug,
  uniquePostSlug,
  wallNow,
  type Db,
  type LinkedType,
} from './posts.js';
import { sanitizeSlug, slugForLookup } from './slugs.js';
import { isNonBlankString, isStringOrNumber, Problems } from './validate.js';

export type { LinkedType } from './posts.js';

export interface LinkedContext {
  prisma: Prisma;
  viewer: Viewer | null;
  config: Config;
}

/** A venue/organizer named by id (ownership checked) or by slug (only the general capability, spec §2.6). */
export type LinkedTarget = { id: number } | { slug: string };

/** The columns every rule here reads; venues add their address columns. */
export interface LinkedRow {
  id: number;
  status: string;
  authorId: number;
  password: string;
  dateUtc: string;
  [column: string]: unknown;
}

const table = (db: Db, type: LinkedType) => linkedTable<LinkedRow>(db, type);

// ---------------------------------------------------------------------------------------------
// Lists (spec §2.5)
// ---------------------------------------------------------------------------------------------

export interface LinkedListFilter {
  search?: string | null;
  event?: number | null;
  hasEvents?: boolean | null;
  onlyWithUpcoming?: boolean | null;
  /** Only records linked to one of this many next upcoming events (1 to MOST_NEXT_EVENTS). */
  linkedToNextEvents?: number | null;
  status?: string[] | null;
}

export interface LinkedListQuery {
  where: Record<string, unknown>;
  orderBy: Record<string, 'asc' | 'desc'>[];
  /** The statuses listed (the default for the caller, or the ones asked for). */
  statuses: string[];
}

/** Fields the fragment search looks in: not country, and for venues not website (spec §2.5). */
export const SEARCH_FIELDS: Record<LinkedType, readonly string[]> = {
  venue: ['title', 'content', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  organizer: ['title', 'content', 'excerpt', 'phone', 'email', 'website'],
};

/**
 * Fragments of a search: split on every run of characters other than ASCII letters, digits and `-`;
 * PHP's array_filter then drops the empty ones and "0".
 */
export function searchFragments(search: string): string[] {
  return search.split(/[^A-Za-z0-9-]+/).filter((fragment) => fragment !== '' && fragment !== '0');
}

/** Events that count for `hasEvents`: every status but draft and pending (private and trash count). */
const COUNTING_EVENT = { status: { notIn: ['draft', 'pending'] } };

/** The Event relation that holds an event's links to records of `type`. */
const eventLinks = (type: LinkedType) => (type === 'venue' ? 'venues' : 'organizers');

/** The largest linkedToNextEvents: the largest page size POSTS_PER_PAGE allows. */
export const MOST_NEXT_EVENTS = 1000;

/**
 * The next `count` events matching `where` (by start), each with the ids of its linked venues or
 * organizers. With the site's posts per page, this is the original's default event query (a
 * WP_Query on events, paged, upcoming only), which some of its rules look at instead of every event.
 */
async function nextEvents(db: Db, where: Record<string, unknown>, type: LinkedType, count: number) {
  const link = eventLinks(type);
  const page = await db.event.findMany({
    where,
    orderBy: [{ startLocal: 'asc' }, { id: 'asc' }],
    take: count,
    select: { id: true, [link]: { select: { [`${type}Id`]: true } } },
  });
  // The select's keys are computed, so Prisma cannot type the rows.
  const rows = page as unknown as ({ id: number } & Record<string, Record<string, number>[]>)[];
  return rows.map((event) => ({ id: event.id, linkedIds: event[link].map((row) => row[`${type}Id`]) }));
}

/**
 * The list's Prisma query. Almanac skips one quirk: the original reports unfiltered totals when a
 * search matches nothing; here totals always count what the filters match.
 */
export async function linkedListQuery(
  db: Db,
  type: LinkedType,
  filter: LinkedListFilter,
  context: { viewer: Viewer | null; config: Config; dbKind: string; now?: Date },
): Promise<LinkedListQuery> {
  const { viewer, config, dbKind } = context;
  const problems = new Problems();
  if (filter.search != null) problems.check('search', filter.search !== '');
  if (filter.event != null) problems.check('event', (await postTypeOf(db, filter.event)) === 'event');
  const next = filter.linkedToNextEvents;
  if (next != null) problems.check('linkedToNextEvents', Number.isInteger(next) && next >= 1 && next <= MOST_NEXT_EVENTS);
  const statuses = listStatuses(viewer, filter.status);
  if (!statuses) problems.fail('status');
  if (problems.any) throw invalidInput(problems.params);

  const and: Record<string, unknown>[] = [];
  // A record matches when one of its fields holds every fragment; a search without any matches nothing.
  if (filter.search != null) {
    const fragments = searchFragments(filter.search);
    and.push(
      fragments.length
        ? { OR: SEARCH_FIELDS[type].map((field) => ({ AND: fragments.map((f) => containsText(field, f, dbKind)) })) }
        : { id: { in: [] } },
    );
  }
  if (filter.event != null) and.push({ events: { some: { eventId: filter.event } } });
  if (filter.hasEvents != null)
    and.push({ events: filter.hasEvents ? { some: { event: COUNTING_EVENT } } : { none: { event: COUNTING_EVENT } } });
  // Upcoming = starting now or later (site-local wall time, as the event list compares), listable, not hidden.
  const upcoming = () => ({
    status: { in: listableStatuses(viewer) },
    hideFromListings: false,
    startLocal: { gte: wallNow(config.siteTimezone, context.now).local },
  });
  if (filter.onlyWithUpcoming) and.push({ events: { some: { event: upcoming() } } });
  if (next != null) {
    const events = await nextEvents(db, upcoming(), type, next);
    and.push({ id: { in: [...new Set(events.flatMap((event) => event.linkedIds))] } });
  }
  // WP_Query's default order is post_date (site-local): a draft, whose UTC date is empty, sorts by
  // when it was written among the others.
  return { where: { status: { in: statuses! }, AND: and }, orderBy: [{ date: 'desc' }, { id: 'desc' }], statuses: statuses! };
}

// ---------------------------------------------------------------------------------------------
// Single records
// ---------------------------------------------------------------------------------------------

async function findTarget(db: Db, type: LinkedType, target: LinkedTarget): Promise<LinkedRow | null> {
  if ('slug' in target) {
    const slug = slugForLookup(target.slug ?? '');
    return slug ? table(db, type).findUnique({ where: { slug } }) : null;
  }
  return isDbId(target.id) ? table(db, type).findUnique({ where: { id: target.id } }) : null;
}

/** The record a write names; an unknown id/slug (or an id of another type) is a validation problem. */
async function resolveTarget(db: Db, type: LinkedType, target: LinkedTarget, problems: Problems): Promise<LinkedRow | null> {
  const row = await findTarget(db, type, target);
  if (!row) problems.fail('slug' in target ? 'slug' : 'id');
  return row;
}

const label = (type: LinkedType) => (type === 'venue' ? 'venue' : 'organizer');

/** Whether the caller may read this venue or organizer (its query and node ask this): WordPress's read_post, trashed ones included. */
export function isLinkedReadable(row: { status: string; authorId: number }, viewer: Viewer | null): boolean {
  return canReadPost(viewer, row);
}

/**
 * Whether the caller may read this record: unknown id/slug (or another type's id) → INVALID_INPUT
 * on `id`/`slug`; not published and not readable by the caller → NOT_ACCESSIBLE. Password-protected
 * records are readable, masked (spec §3.7).
 */
export async function assertLinkedReadable(db: Db, type: LinkedType, target: LinkedTarget, viewer: Viewer | null): Promise<number> {
  const row = await findTarget(db, type, target);
  if (!row) throw invalidInput({ ['slug' in target ? 'slug' : 'id']: 'Invalid parameter.' });
  if (!isLinkedReadable(row, viewer)) throw new CalendarError('NOT_ACCESSIBLE', `The requested ${label(type)} is not accessible`);
  return row.id;
}

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

function denied(viewer: Viewer | null): CalendarError {
  return viewer
    ? new CalendarError('FORBIDDEN', 'Sorry, you are not allowed to do that.')
    : new CalendarError('UNAUTHENTICATED', 'Sorry, you are not allowed to do that.');
}

/** Checks of the fields linked.ts leaves to the record's own routes (GraphQL-only extras). */
function checkExtraFields(fields: LinkedFields, problems: Problems): void {
  if (fields.excerpt !== undefined) problems.check('excerpt', isStringOrNumber(fields.excerpt));
  if (fields.slug !== undefined) problems.check('slug', isNonBlankString(fields.slug));
  if (fields.password !== undefined) problems.check('password', typeof fields.password === 'string');
}

async function validateFields(db: Db, type: LinkedType, fields: LinkedFields, create: boolean, context: LinkedContext, problems: Problems) {
  const plan = await validateLinkedFields(db, type, fields, {
    create,
    viewer: context.viewer,
    policy: outboundPolicy(context.config),
    problems,
  });
  checkExtraFields(fields, problems);
  if (problems.any) throw invalidInput(problems.params);
  return plan;
}

/**
 * Creates a venue/organizer (contributor and up). A non-trashed record with the same name (and the
 * same description, when one is given) is reused instead: its id comes back, still as a create.
 */
export async function createLinkedPost(
  context: LinkedContext,
  type: LinkedType,
  fields: LinkedFields,
): Promise<{ id: number; created: boolean }> {
  const { prisma, viewer } = context;
  const plan = await validateFields(prisma, type, fields, true, context, new Problems());
  if (!canCreatePosts(viewer)) throw denied(viewer);
  return retryOnConflict(() =>
    prisma.$transaction(async (tx) => {
      const result = await createOrReuseLinked(tx, type, plan, context);
      if (fields.password !== undefined)
        await table(tx, type).update({ where: { id: result.id }, data: { password: fields.password ?? '' } });
      return result;
    }),
  );
}

/**
 * A venue's `stateprovince` follows state/province/country while it is derived (empty, or equal to
 * what they give); a value set explicitly sticks until changed.
 */
function stateProvinceUpdate(current: LinkedRow, fields: LinkedFields): string | undefined {
  if (!['state', 'province', 'country', 'stateprovince'].some((key) => fields[key] !== undefined)) return undefined;
  if (isNonBlankString(fields.stateprovince)) return String(fields.stateprovince);
  const text = (key: string) => String((fields[key] !== undefined ? fields[key] : current[key]) ?? '');
  const stored = String(current.stateprovince ?? '');
  const wasDerived = stored === '' || stored === deriveStateProvince(current as { state?: string; province?: string; country?: string });
  if (fields.stateprovince === undefined && !wasDerived) return undefined;
  return deriveStateProvince({ state: text('state'), province: text('province'), country: text('country') });
}

/**
 * What the original does to events when a venue or organizer is trashed (TEC's cleanupPostVenues /
 * cleanupPostOrganizers on the trash transition): a default event query for the events linked to it
 * — the first page of upcoming ones the trashing user may read, published or private — and every
 * such event loses ALL its links of that kind (delete_post_meta without a value), not only this one.
 * Other events (past ones, later pages) keep the link and show the record as trashed.
 */
async function unlinkFromUpcomingPage(tx: Db, config: Config, type: LinkedType, id: number, viewer: Viewer | null, now: string) {
  const link = eventLinks(type);
  const where = {
    status: { in: canReadPrivate(viewer) ? ['publish', 'private'] : ['publish'] },
    startLocal: { gte: now },
    [link]: { some: { [`${type}Id`]: id } },
  };
  const eventIds = (await nextEvents(tx, where, type, config.postsPerPage)).map((event) => event.id);
  if (!eventIds.length) return;
  const links = { where: { eventId: { in: eventIds } } };
  if (type === 'venue') await tx.eventVenue.deleteMany(links);
  else await tx.eventOrganizer.deleteMany(links);
}

/**
 * Updates a venue/organizer: only the fields given change; "" clears a contact/address field;
 * `name: ""` is invalid; `description: ""` is ignored, as in the original; `status` is scaled back.
 */
export async function updateLinkedPost(
  context: LinkedContext,
  type: LinkedType,
  target: LinkedTarget,
  asGiven: LinkedFields,
): Promise<number> {
  const { prisma, viewer, config } = context;
  const problems = new Problems();
  const row = await resolveTarget(prisma, type, target, problems);
  const plan = await validateFields(prisma, type, asGiven, false, context, problems);
  const fields = postHtmlAsSaved(asGiven, 'name', canPostUnfilteredHtml(viewer));
  // The right on the record itself, whatever names it (see targetEvent in events.ts).
  if (!(row ? canEditPost(viewer, row) : canEditAny(viewer))) throw denied(viewer);
  const given = (name: string) => fields[name] !== undefined;
  return retryOnConflict(() =>
    prisma.$transaction(async (tx) => {
      const current: LinkedRow = await table(tx, type).findUniqueOrThrow({ where: { id: row!.id } });
      const instant = new Date();
      const now = wallNow(config.siteTimezone, instant);
      const data: Record<string, unknown> = { modified: now.local, modifiedUtc: now.utc };
      if (given('name')) data.title = String(fields.name).trim();
      if (isNonBlankString(fields.description)) data.content = String(fields.description);
      if (given('excerpt')) data.excerpt = fields.excerpt ?? '';
      if (given('slug')) data.slug = await uniquePostSlug(tx, type, sanitizeSlug(String(fields.slug)) || String(current.id), current.id);
      if (given('author')) data.authorId = Number(fields.author);
      if (given('password')) data.password = fields.password ?? '';
      if (given('date') || given('dateUtc')) Object.assign(data, publicationDates(fields, config.siteTimezone, instant));
      if (given('status')) data.status = storedStatus(String(fields.status), viewer, (data.dateUtc as string) ?? current.dateUtc, now.utc);
      if (!given('date') && !given('dateUtc')) Object.assign(data, floatingDates(current, data.status as string | undefined, now));
      if (given('image')) data.imageId = await applyImagePlan(tx, plan.image);
      for (const key of META_FIELDS[type]) if (key !== 'stateprovince' && given(key)) data[key] = metaValue(fields[key]);
      if (type === 'venue') {
        const stateprovince = stateProvinceUpdate(current, fields);
        if (stateprovince !== undefined) data.stateprovince = metaValue(stateprovince);
        if (given('showMap')) data.showMap = mapFlag(fields.showMap);
        if (given('showMapLink')) data.showMapLink = mapFlag(fields.showMapLink);
      }
      await table(tx, type).update({ where: { id: current.id }, data });
      if (data.status === 'trash' && current.status !== 'trash')
        await unlinkFromUpcomingPage(tx, config, type, current.id, viewer, now.local);
      return current.id;
    }),
  );
}

/**
 * Moves a venue/organizer to the trash, unlinking it from events as the original does
 * (unlinkFromUpcomingPage). A second delete is ALREADY_TRASHED (gone); records are never deleted outright.
 */
export async function trashLinkedPost(context: LinkedContext, type: LinkedType, target: LinkedTarget): Promise<number> {
  const { prisma, viewer, config } = context;
  const problems = new Problems();
  const row = await resolveTarget(prisma, type, target, problems);
  if (problems.any) throw invalidInput(problems.params);
  if (!(row ? canDeletePost(viewer, row) : canDeleteAny(viewer))) throw denied(viewer);
  return retryOnConflict(() =>
    prisma.$transaction(async (tx) => {
      const now = wallNow(config.siteTimezone);
      // WordPress keeps trashed slugs unique too: "dup__trashed", then "dup__trashed-2".
      const slug = await uniquePostSlug(tx, type, trashedSlug(String(row!.slug)), row!.id);
      const updated = await table(tx, type).updateMany({
        where: { id: row!.id, status: { not: 'trash' } },
        data: { status: 'trash', slug, modified: now.local, modifiedUtc: now.utc, ...floatingDates(row!, 'trash', now) },
      });
      if (updated.count === 0) throw new CalendarError('ALREADY_TRASHED', `The ${label(type)} is already trashed`);
      await unlinkFromUpcomingPage(tx, config, type, row!.id, viewer, now.local);
      return row!.id;
    }),
  );
}
