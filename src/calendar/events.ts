// Event writes and single reads with The Events Calendar's rules (spec §2.2–2.4, §6.5–6.9, §6.11),
// except where Almanac decided otherwise: an update changes only the fields it is given.
// Order of checks, as the REST contract needs: validation → permission → existence → write.
import { outboundPolicy, type UrlPolicy } from '../net/url-policy.js';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import { CalendarError, invalidInput } from './errors.js';
import { canCreatePosts, canDeletePost, canEditPost, canPostUnfilteredHtml, canReadPost, storedStatus } from './capabilities.js';
import { postHtmlAsSaved } from './kses.js';
import { detectCurrency, parseCostInput } from './cost.js';
import { isValidTimezone, timezoneAbbr } from './dates/zones.js';
import { isValidDateInput } from './dates/strtotime.js';
import { eventSchedule } from './dates/schedule.js';
import { applyLinks, insertEventLinks, namedRecords, planLinks, type LinkedTermRow, type LinkPlan } from './event-links.js';
import { applyImagePlan, planImage, type ImagePlan } from './images.js';
import { publicationDates } from './linked.js';
import {
  floatingDates,
  insertEventPost,
  insertedDates,
  resavedDates,
  lockEventRow,
  isFloatingStatus,
  postTypeOf,
  retryOnConflict,
  trashedSlug,
  untrashedSlug,
  uniquePostSlug,
  wallNow,
  type Db,
} from './posts.js';
import { sanitizeSlug, slugForLookup } from './slugs.js';
import {
  applyToSeries,
  planRecurrence,
  renameOccurrences,
  startSeries,
  trashOtherOccurrences,
  type RecurrenceFields,
  type RecurrenceScope,
  type SeriesPlan,
} from './series.js';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY, refreshTermCounts, resolveEventTerms, termIdsNamed, termIdsOf } from './terms.js';
import { isEventStatus, MAX_STATUS_REASON } from './event-status.js';
import { tecSanitizeString } from './text.js';
import { isNonBlankString, isRegisteredStatus, isUrlOrEmpty, Problems, userExists } from './validate.js';

export interface EventFields {
  title?: string;
  description?: string;
  excerpt?: string;
  slug?: string;
  status?: string;
  author?: number | string;
  date?: string;
  dateUtc?: string;
  startDate?: string;
  endDate?: string;
  timezone?: string;
  allDay?: boolean;
  image?: unknown;
  cost?: unknown;
  website?: string | null;
  showMap?: boolean;
  showMapLink?: boolean;
  hideFromListings?: boolean;
  sticky?: boolean;
  featured?: boolean;
  /** scheduled, canceled or postponed (src/calendar/event-status.ts). */
  eventStatus?: string;
  /** Why it was canceled or postponed: plain text, shown beside the label ("" clears). */
  eventStatusReason?: string;
  categories?: unknown;
  tags?: unknown;
  venue?: unknown;
  organizer?: unknown;
  password?: string;
  parent?: number;
  /** Makes the event recurring (a series), or changes its rule; null ends the series (scope ALL). */
  recurrence?: RecurrenceFields | null;
  /** Reproduce the original's tag handling (see resolveEventTerms): a caller's option, never an input field. */
  wpTagQuirk?: boolean;
}

export interface WriteContext {
  prisma: Prisma;
  viewer: Viewer | null;
  config: Config;
}

interface Plans {
  image?: ImagePlan;
  venue?: LinkPlan;
  organizer?: LinkPlan;
  /** A create's: the taxonomy of each term id it names that exists. */
  knownTerms?: Map<number, string>;
}

/** Validates every given field, in the contract's declaration order; throws INVALID_INPUT with a reason per field. */
async function validate(db: Db, fields: EventFields, create: boolean, viewer: Viewer | null, policy: UrlPolicy): Promise<Plans> {
  const problems = new Problems();
  const plans: Plans = {};
  const given = (name: keyof EventFields) => fields[name] !== undefined;
  if (create || given('title')) problems.check('title', isNonBlankString(fields.title));
  if (create || given('startDate')) problems.check('startDate', isValidDateInput(fields.startDate));
  if (create || given('endDate')) problems.check('endDate', isValidDateInput(fields.endDate));
  if (given('author')) problems.check('author', await userExists(db, fields.author));
  if (given('date')) problems.check('date', isValidDateInput(fields.date));
  if (given('dateUtc')) problems.check('dateUtc', isValidDateInput(fields.dateUtc));
  for (const name of ['description', 'slug', 'excerpt'] as const) if (given(name)) problems.check(name, isNonBlankString(fields[name]));
  if (given('status')) problems.check('status', isRegisteredStatus(fields.status));
  if (given('timezone')) problems.check('timezone', typeof fields.timezone === 'string' && isValidTimezone(fields.timezone));
  if (given('image')) {
    const plan = await planImage(db, fields.image, viewer, policy);
    if (plan) plans.image = plan;
    else problems.fail('image');
  }
  if (given('website')) problems.check('website', isUrlOrEmpty(fields.website));
  if (given('eventStatus')) problems.check('eventStatus', isEventStatus(fields.eventStatus));
  if (given('eventStatusReason'))
    problems.check(
      'eventStatusReason',
      typeof fields.eventStatusReason === 'string' && fields.eventStatusReason.length <= MAX_STATUS_REASON,
    );
  if (given('parent')) problems.check('parent', fields.parent === 0 || (await postTypeOf(db, Number(fields.parent))) === 'event');
  // A create's term ids are read here too: one read for every record the write names by id.
  const termIds = create ? [...termIdsNamed(fields.categories), ...termIdsNamed(fields.tags)] : [];
  const named =
    given('venue') || given('organizer') || termIds.length
      ? await namedRecords(db, [fields.venue, fields.organizer], termIds)
      : { postTypes: new Map(), termTaxonomies: new Map() };
  if (create) plans.knownTerms = named.termTaxonomies;
  for (const type of ['venue', 'organizer'] as const) {
    if (!given(type)) continue;
    const plan = await planLinks(db, type, fields[type], viewer, policy, named.postTypes);
    if (plan) plans[type] = plan;
    else problems.fail(type);
  }
  if (problems.any) throw invalidInput(problems.params);
  return plans;
}

function denied(viewer: Viewer | null): CalendarError {
  return viewer
    ? new CalendarError('FORBIDDEN', 'Sorry, you are not allowed to do that.')
    : new CalendarError('UNAUTHENTICATED', 'Sorry, you are not allowed to do that.');
}

/**
 * The original keeps no occurrence of an event saved with its end before its start: created so, it
 * is never listed; updated so, it keeps the occurrence it had (the change of dates is refused there,
 * though the record shows them). Dates saved right list it again.
 */
const hasOccurrence = (schedule: { startUtc: string; endUtc: string }): boolean => schedule.endUtc >= schedule.startUtc;

/** TEC's saveEventMeta passes a single cost (a string) through tec_sanitize_string; a list is stored as given. */
function costColumns(raw: unknown) {
  let values = parseCostInput(raw);
  if (values.length === 1) values = [tecSanitizeString(values[0])].filter((value) => value.trim() !== '');
  const currency = detectCurrency(values);
  return { cost: JSON.stringify(values), currencySymbol: currency.symbol, currencyPosition: currency.position };
}

/**
 * The post name wp_insert_post stores: a given slug, sanitised and made unique; else none while the
 * event is a draft or pending (WordPress names a post when it publishes it); else one made from the
 * title (the id when the title leaves nothing).
 */
async function eventSlug(tx: Db, given: string | undefined, title: string, id: number, status: string): Promise<string | null> {
  const base = given !== undefined ? sanitizeSlug(given) : '';
  if (base) return uniquePostSlug(tx, 'event', base, id);
  if (isFloatingStatus(status)) return null;
  return uniquePostSlug(tx, 'event', sanitizeSlug(title) || String(id), id);
}

/** Links an updated event to what `fields` name, replacing what it had. */
async function replaceLinks(tx: Db, eventId: number, plans: Plans, fields: EventFields, context: WriteContext): Promise<void> {
  if (plans.venue) {
    const [venueId] = await applyLinks(tx, 'venue', plans.venue, context);
    await tx.eventVenue.deleteMany({ where: { eventId } });
    if (venueId) await tx.eventVenue.create({ data: { eventId, venueId } });
  }
  if (plans.organizer) {
    const ids = await applyLinks(tx, 'organizer', plans.organizer, context);
    await tx.eventOrganizer.deleteMany({ where: { eventId } });
    if (ids.length) await tx.eventOrganizer.createMany({ data: ids.map((organizerId, position) => ({ eventId, organizerId, position })) });
  }
  for (const [field, taxonomy] of TERM_FIELDS) {
    if (fields[field] === undefined) continue;
    const termIds = await resolveEventTerms(tx, taxonomy, fields[field], { wpTagQuirk: fields.wpTagQuirk === true });
    await tx.eventTerm.deleteMany({ where: { eventId, term: { taxonomy } } });
    if (termIds.length) await tx.eventTerm.createMany({ data: termIds.map((termId) => ({ eventId, termId })) });
  }
}

const TERM_FIELDS = [
  ['categories', CATEGORY_TAXONOMY],
  ['tags', TAG_TAXONOMY],
] as const;

/**
 * Links a created event to what `fields` name (creating the venues, organizers and terms named by
 * their fields), and counts it in its terms when it is published: the links and counts go in
 * with one statement on PostgreSQL (insertEventLinks).
 */
async function linkCreated(tx: Db, eventId: number, plans: Plans, fields: EventFields, context: WriteContext, published: boolean) {
  const venueIds = plans.venue ? (await applyLinks(tx, 'venue', plans.venue, context)).slice(0, 1) : [];
  const organizerIds = plans.organizer ? await applyLinks(tx, 'organizer', plans.organizer, context) : [];
  const termIds: number[] = [];
  for (const [field, taxonomy] of TERM_FIELDS) {
    if (fields[field] === undefined) continue;
    const ids = await resolveEventTerms(tx, taxonomy, fields[field], {
      wpTagQuirk: fields.wpTagQuirk === true,
      knownIds: plans.knownTerms,
    });
    termIds.push(...ids);
  }
  return insertEventLinks(tx, eventId, { venueIds, organizerIds, termIds }, published);
}

export async function createEvent(context: WriteContext, asGiven: EventFields): Promise<number> {
  return (await createEventRecord(context, asGiven)).id;
}

/**
 * Creates an event and gives back its row as written (every column), so that the caller answering
 * with the event need not read it again; null when a later step of the write changed the row (a
 * recurring event's series renames it).
 */
export async function createEventRecord(
  context: WriteContext,
  asGiven: EventFields,
): Promise<{ id: number; row: EventRow | null; terms: LinkedTermRow[] | null }> {
  const { prisma, viewer, config } = context;
  const plans = await validate(prisma, asGiven, true, viewer, outboundPolicy(config));
  const fields = postHtmlAsSaved(asGiven, 'title', canPostUnfilteredHtml(viewer));
  if (!canCreatePosts(viewer)) throw denied(viewer);
  const timezone = fields.timezone || config.siteTimezone;
  const schedule = eventSchedule({ start: fields.startDate, end: fields.endDate, timezone, allDay: fields.allDay === true });
  if (!schedule) throw invalidInput({ startDate: 'Invalid parameter.' });
  const recurrence = fields.recurrence ? planRecurrence(fields.recurrence, timezone, fields.allDay === true, schedule.startLocal) : null;
  return retryOnConflict(() =>
    prisma.$transaction(async (tx) => {
      // One instant for both: a second boundary between them would turn a publish into `future`.
      const instant = new Date();
      const now = wallNow(config.siteTimezone, instant);
      const dates = publicationDates(fields, config.siteTimezone, instant);
      const title = String(fields.title).trim();
      const status = storedStatus(fields.status, viewer, dates.dateUtc, now.utc);
      // eventSlug's choice, made before the post row so that its insert reads the taken candidates;
      // a title that leaves no slug is named by the id, once there is one.
      const givenBase = fields.slug !== undefined ? sanitizeSlug(fields.slug) : '';
      const titleBase = givenBase || isFloatingStatus(status) ? '' : sanitizeSlug(title);
      const post = await insertEventPost(tx, givenBase || titleBase || null);
      const id = post.id;
      const slug = givenBase || titleBase || isFloatingStatus(status) ? post.slug : await uniquePostSlug(tx, 'event', String(id), id);
      const inserted = insertedDates(dates, status, fields.date !== undefined || fields.dateUtc !== undefined);
      // TEC's saveEventMeta saves a sticky event a second time (wp_update_post of its menu_order,
      // -1): the only part of a create that does, so only a sticky event comes back modified now.
      const savedDates = fields.sticky ? resavedDates(inserted, status, now) : inserted;
      const row = await tx.event.create({
        data: {
          id,
          title,
          slug,
          status,
          authorId: fields.author !== undefined ? Number(fields.author) : (viewer?.userId ?? 0),
          ...savedDates,
          content: fields.description ?? '',
          excerpt: fields.excerpt ?? '',
          password: fields.password ?? '',
          parentId: fields.parent ?? 0,
          menuOrder: fields.sticky ? -1 : 0,
          imageId: plans.image ? await applyImagePlan(tx, plans.image) : null,
          timezone,
          timezoneAbbr: timezoneAbbr(timezone, new Date(schedule.startUtc.replace(' ', 'T') + 'Z')),
          allDay: fields.allDay === true,
          ...schedule,
          ...(fields.cost !== undefined ? costColumns(fields.cost) : {}),
          // Empty values are dropped on create: no website means the permalink is shown.
          website: fields.website ? tecSanitizeString(fields.website) : null,
          showMap: fields.showMap ?? false,
          showMapLink: fields.showMapLink ?? false,
          hideFromListings: fields.hideFromListings === true,
          featured: fields.featured === true,
          eventStatus: fields.eventStatus ?? 'scheduled',
          eventStatusReason: tecSanitizeString(fields.eventStatusReason ?? '').trim(),
          listed: hasOccurrence(schedule),
        },
      });
      const terms = await linkCreated(tx, id, plans, fields, context, status === 'publish');
      if (!recurrence) return { id, row, terms };
      await startSeries(tx, id, recurrence, config, instant);
      return { id, row: null, terms: null };
    }),
  );
}

type EventRow = NonNullable<Awaited<ReturnType<Prisma['event']['findUnique']>>>;

/** Finds the event an update/delete names, after the permission check the contract puts first. */
async function targetEvent(
  prisma: Prisma,
  target: { id?: number; slug?: string },
  viewer: Viewer | null,
  allowed: (viewer: Viewer | null, post: EventRow) => boolean,
  /** An unknown slug: the original's updates answer "Event with ID 0 does not exist." (404), its deletes a bad parameter. */
  unknownSlug: 'not_found' | 'invalid' = 'invalid',
): Promise<EventRow> {
  const event =
    target.slug !== undefined ? await eventBySlug(prisma, target.slug) : await prisma.event.findUnique({ where: { id: target.id! } });
  // The caller's right on the record itself, whatever names it (the original checks only the general
  // capability on its by-slug routes: a contributor could trash anyone's event). Unknown records
  // need the general capability, so that what exists is not revealed to those without it.
  const mayAct = event ? allowed(viewer, event) : canCreatePosts(viewer);
  if (!mayAct) throw denied(viewer);
  if (!event) {
    if (target.slug !== undefined && unknownSlug === 'invalid') throw invalidInput({ slug: 'Invalid parameter.' });
    if (target.slug !== undefined) throw new CalendarError('NOT_FOUND', 'Event with ID 0 does not exist.');
    const type = await postTypeOf(prisma, target.id!);
    if (type) throw new CalendarError('WRONG_TYPE', 'The specified ID is not a valid event.');
    throw new CalendarError('NOT_FOUND', `Event with ID ${target.id} does not exist.`);
  }
  return event;
}

/**
 * Updates an event. For an occurrence of a series, `scope` says which occurrences the change
 * reaches: THIS alone (it becomes an exception), FOLLOWING (the series is split there) or ALL.
 */
export async function updateEvent(
  context: WriteContext,
  target: { id?: number; slug?: string },
  asGiven: EventFields,
  scope: RecurrenceScope = 'THIS',
): Promise<number> {
  const { prisma, viewer, config } = context;
  const plans = await validate(prisma, asGiven, false, viewer, outboundPolicy(config));
  const fields = postHtmlAsSaved(asGiven, 'title', canPostUnfilteredHtml(viewer));
  const event = await targetEvent(prisma, target, viewer, canEditPost, 'not_found');
  const given = (name: keyof EventFields) => fields[name] !== undefined;
  if (given('recurrence') && event.seriesId !== null && scope === 'THIS')
    throw invalidInput({ recurrence: 'A recurrence belongs to the whole series: give the scope ALL or FOLLOWING to change it.' });
  const inSeries = event.seriesId !== null;
  return retryOnConflict(() =>
    prisma.$transaction(async (tx) => {
      await lockEventRow(tx, event.id);
      const instant = new Date();
      const now = wallNow(config.siteTimezone, instant);
      const data: Record<string, unknown> = { modified: now.local, modifiedUtc: now.utc };
      if (given('title')) data.title = String(fields.title).trim();
      if (given('description')) data.content = fields.description;
      if (given('excerpt')) data.excerpt = fields.excerpt;
      if (given('author')) data.authorId = Number(fields.author);
      if (given('password')) data.password = fields.password;
      if (given('parent')) data.parentId = fields.parent;
      if (given('date') || given('dateUtc')) Object.assign(data, publicationDates(fields, config.siteTimezone, instant));
      // An update of a trashed event brings it back: omitted, its status is what the original gives an
      // update without one (published, or scaled back for those who may not publish). Elsewhere an
      // omitted status stays as it is (decision 1).
      const restoring = event.status === 'trash' && !given('status');
      if (given('status') || restoring)
        data.status = storedStatus(fields.status, viewer, (data.dateUtc as string) ?? event.dateUtc, now.utc);
      if (!given('date') && !given('dateUtc')) Object.assign(data, floatingDates(event, data.status as string | undefined, now));
      const status = (data.status as string | undefined) ?? event.status;
      if (status === 'trash' && event.status !== 'trash') {
        // Trashed through an update: the slug is freed as by a delete.
        data.slug = await uniquePostSlug(tx, 'event', trashedSlug(event.slug), event.id);
      } else if (event.status === 'trash' && status !== 'trash') {
        // Out of the trash, the event takes back the name it had (wp_insert_post's _wp_desired_post_slug), made unique.
        const title = (data.title as string | undefined) ?? event.title;
        data.slug = await eventSlug(tx, given('slug') ? fields.slug : untrashedSlug(event.slug), title, event.id, status);
      } else if (inSeries) {
        // An occurrence's page is named by its series and day (renameOccurrences, below).
      } else if (given('slug') || (event.slug === null && !isFloatingStatus(status))) {
        // A draft gets its name when it is published (or given one).
        data.slug = await eventSlug(tx, fields.slug, (data.title as string | undefined) ?? event.title, event.id, status);
      }
      if (given('startDate') || given('endDate') || given('allDay') || given('timezone')) {
        const timezone = given('timezone') ? fields.timezone || config.siteTimezone : event.timezone || config.siteTimezone;
        const schedule = eventSchedule({
          start: fields.startDate ?? event.startLocal,
          end: fields.endDate ?? event.endLocal,
          timezone,
          allDay: fields.allDay ?? event.allDay,
        });
        if (!schedule) throw invalidInput({ startDate: 'Invalid parameter.' });
        Object.assign(data, schedule, {
          ...(hasOccurrence(schedule) ? { listed: true } : {}),
          timezone,
          allDay: fields.allDay ?? event.allDay,
          timezoneAbbr: timezoneAbbr(timezone, new Date(schedule.startUtc.replace(' ', 'T') + 'Z')),
        });
      }
      if (given('cost')) Object.assign(data, costColumns(fields.cost));
      if (given('website')) data.website = tecSanitizeString(fields.website ?? '');
      if (given('showMap')) data.showMap = fields.showMap;
      if (given('showMapLink')) data.showMapLink = fields.showMapLink;
      if (given('hideFromListings')) data.hideFromListings = fields.hideFromListings;
      if (given('featured')) data.featured = fields.featured;
      if (given('eventStatus')) data.eventStatus = fields.eventStatus;
      if (given('eventStatusReason')) data.eventStatusReason = tecSanitizeString(fields.eventStatusReason ?? '').trim();
      if (given('sticky')) data.menuOrder = fields.sticky ? -1 : 0;
      if (plans.image) data.imageId = await applyImagePlan(tx, plans.image);
      // Term counts follow the status and the terms: recount the terms it had and has.
      const recount = data.status !== undefined || given('categories') || given('tags');
      const termsBefore = recount ? await termIdsOf(tx, [event.id]) : [];
      if (inSeries) delete data.slug;
      // Changed alone, an occurrence becomes an exception that changes to the series skip.
      if (inSeries && scope === 'THIS') data.detached = true;
      await tx.event.update({ where: { id: event.id }, data });
      await replaceLinks(tx, event.id, plans, fields, context);
      if (recount)
        await refreshTermCounts(tx, [...termsBefore, ...(given('categories') || given('tags') ? await termIdsOf(tx, [event.id]) : [])]);
      const updated = await tx.event.findUniqueOrThrow({ where: { id: event.id } });
      const plan: SeriesPlan | null | undefined =
        fields.recurrence === undefined
          ? undefined
          : fields.recurrence && planRecurrence(fields.recurrence, updated.timezone, updated.allDay, updated.startLocal);
      if (!inSeries) {
        if (plan) await startSeries(tx, event.id, plan, config, instant);
      } else if (scope === 'THIS') {
        await renameOccurrences(tx, event.seriesId!, [event.id]);
      } else {
        await applyToSeries(
          tx,
          {
            before: event,
            data,
            plan,
            linksChanged: Boolean(plans.venue || plans.organizer || given('categories') || given('tags')),
            retimed: given('startDate') || given('endDate') || given('allDay') || given('timezone'),
            slugGiven: given('slug'),
            scope,
          },
          config,
          instant,
          (occurrence) => canEditPost(viewer, occurrence),
        );
      }
      return event.id;
    }),
  );
}

/** Moves an event to the trash; a second delete is `ALREADY_TRASHED` (gone). Events are never deleted outright. */
export async function trashEvent(
  context: WriteContext,
  target: { id?: number; slug?: string },
  scope: RecurrenceScope = 'THIS',
): Promise<number> {
  const { prisma, viewer, config } = context;
  const event = await targetEvent(prisma, target, viewer, canDeletePost);
  const now = wallNow(config.siteTimezone);
  const updated = await retryOnConflict(() =>
    prisma.$transaction(async (tx) => {
      await lockEventRow(tx, event.id);
      // WordPress keeps trashed slugs unique too: "dup__trashed", then "dup__trashed-2".
      const slug = await uniquePostSlug(tx, 'event', trashedSlug(event.slug), event.id);
      const trashed = await tx.event.updateMany({
        where: { id: event.id, status: { not: 'trash' } },
        // A floating draft is dated now when it leaves the floating statuses (wp_update_post).
        data: {
          status: 'trash',
          slug,
          modified: now.local,
          modifiedUtc: now.utc,
          ...floatingDates(event, 'trash', now),
          // Trashed alone, an occurrence is an exception: restoring the series leaves it out.
          ...(event.seriesId !== null && scope === 'THIS' ? { detached: true } : {}),
        },
      });
      if (trashed.count) await refreshTermCounts(tx, await termIdsOf(tx, [event.id]));
      if (trashed.count) await trashOtherOccurrences(tx, event, scope, now, (occurrence) => canDeletePost(viewer, occurrence));
      return trashed;
    }),
  );
  if (updated.count === 0) throw new CalendarError('ALREADY_TRASHED', 'The event is already trashed');
  return event.id;
}

/**
 * The event a slug names: "<series slug>/<YYYY-MM-DD>" names an occurrence of a series (its page's
 * path); a series' own slug names its next occurrence (else its last one), as the original Pro's
 * /event/<slug>/ does.
 */
async function eventBySlug(prisma: Prisma, raw: string) {
  const occurrence = /^\/*([^/]+)\/(\d{4}-\d{2}-\d{2}(?:-\d+)?)\/*$/.exec(String(raw ?? ''));
  if (occurrence) {
    const series = slugForLookup(occurrence[1]!);
    return series ? prisma.event.findUnique({ where: { slug: `${series}/${occurrence[2]}` } }) : null;
  }
  const slug = slugForLookup(raw);
  if (!slug) return null;
  return (await prisma.event.findUnique({ where: { slug } })) ?? seriesOccurrence(prisma, slug);
}

async function seriesOccurrence(prisma: Prisma, seriesSlug: string) {
  const series = await prisma.eventSeries.findUnique({ where: { slug: seriesSlug }, select: { id: true, timezone: true } });
  if (!series) return null;
  const where = { seriesId: series.id, status: { not: 'trash' } };
  const now = wallNow(series.timezone).local;
  return (
    (await prisma.event.findFirst({ where: { ...where, endLocal: { gte: now } }, orderBy: [{ startLocal: 'asc' }, { id: 'asc' }] })) ??
    (await prisma.event.findFirst({ where, orderBy: [{ startLocal: 'desc' }, { id: 'desc' }] }))
  );
}

/**
 * Whether the caller may read this one event, with the contract's errors in its order: not found,
 * not an event, trashed, not accessible, password-protected. By slug, an unreadable event is reported
 * as an unknown slug (spec §2.4).
 */
export async function assertEventReadable(
  prisma: Prisma,
  target: { id?: number; slug?: string },
  viewer: Viewer | null,
  unlock: { password?: string; editContext?: boolean },
): Promise<number> {
  const event =
    target.slug !== undefined
      ? await eventBySlug(prisma, target.slug)
      : await prisma.event.findUnique({ where: { id: target.id! }, select: { id: true, status: true, authorId: true, password: true } });
  if (!event) {
    if (target.slug !== undefined) throw invalidInput({ slug: 'Invalid parameter.' });
    if (await postTypeOf(prisma, target.id!)) throw new CalendarError('WRONG_TYPE', 'The specified ID is not a valid event.');
    throw new CalendarError('NOT_FOUND', `Event with ID ${target.id} does not exist.`);
  }
  const readable = isEventReadable(event, viewer);
  if (target.slug !== undefined && !readable) throw invalidInput({ slug: 'Invalid parameter.' });
  if (event.status === 'trash') throw new CalendarError('TRASHED', 'This event is no longer available');
  if (!readable) throw new CalendarError('NOT_ACCESSIBLE', 'The requested event is not accessible');
  if (!isUnlocked(event, viewer, unlock)) {
    // The id is public (lists show protected events, masked): a page can show the event's title and ask for its password.
    throw new CalendarError('PASSWORD_REQUIRED', 'The requested event is not accessible without a password', { id: event.id });
  }
  return event.id;
}

/**
 * Whether the caller may read this event at all (event, node and the REST route ask this): never
 * when trashed, else WordPress's read_post. Password protection is separate (isUnlocked).
 */
export function isEventReadable(event: { status: string; authorId: number }, viewer: Viewer | null): boolean {
  return event.status !== 'trash' && canReadPost(viewer, event);
}

/** A password-protected record is readable in full with its password, or in the edit context by someone who may edit it. */
export function isUnlocked(
  post: { password: string; status: string; authorId: number },
  viewer: Viewer | null,
  unlock: { password?: string; editContext?: boolean; showAll?: boolean },
): boolean {
  if (!post.password || unlock.showAll) return true;
  if (unlock.password !== undefined && unlock.password === post.password) return true;
  return unlock.editContext === true && canEditPost(viewer, post);
}
