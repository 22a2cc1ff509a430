// Event: the type's fields, its queries (one, page, connection) and its mutations.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { appearsInJsonLd, type PostStatus as PostStatusName } from '../capabilities.js';
import { builder, type InputFields } from '../../graphql/builder.js';
import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { intId, nodeSource } from '../../graphql/node.js';
import { setUnlock, unlockArgs, unlockFromArgs } from '../../graphql/unlock.js';
import { googleCalendarUrl, icalUrl, outlookUrl, venueLine, type CalendarLinkEvent } from '../add-to-calendar.js';
import { costValues, formatCost } from '../cost.js';
import { eventListQuery, eventPageRows, type EventFilter, type EventRow as EventPageRow } from '../event-filters.js';
import { assertEventReadable, createEventRecord, isEventReadable, trashEvent, updateEvent, type EventFields } from '../events.js';
import { eventStatusOf, MAX_STATUS_REASON } from '../event-status.js';
import { eventJsonLd } from '../jsonld.js';
import { listTotal } from '../list-totals.js';
import { isLinkedReadable } from '../linked-posts.js';
import { permalink } from '../posts.js';
import { termComparator } from '../term-rules.js';
import { renderContent, renderExcerpt, renderTitle } from '../text.js';
import { connectionTypes, PageArgs, pageRequest } from './pagination.js';
import { Event, EventCategory, Organizer, Tag, Venue } from './refs.js';
import { RecurrenceInput, RecurrenceScopeEnum } from './series.js';
import {
  EVENT_READ,
  imageById,
  imageUrlOf,
  ORGANIZER_READ,
  organizersOf,
  primeWrittenRows,
  TERM_READ,
  termsOf,
  VENUE_READ,
  venuesOf,
} from './loaders.js';
import { readsColumns, selectedColumns, type Selected } from '../../graphql/selected-columns.js';
import { CostDetails, DateDetails, globalIdFields, Image, isMasked, maskedFlag, maskedText, PostStatus } from './shared.js';

type EventRow = { id: number; password: string; status: string; authorId: number };

const storedCost = (cost: string): string[] => {
  try {
    const values = JSON.parse(cost);
    return Array.isArray(values) ? values.map(String) : [];
  } catch {
    return [];
  }
};

// Sorted here, not in SQL: term names order case- and accent-insensitively on both databases.
const byName = termComparator('name', 'asc');
const termsIn = async (ctx: GraphQLContext, eventId: number, taxonomy: string, info: GraphQLResolveInfo) =>
  (await termsOf(ctx, eventId, selectedColumns(info, TERM_READ))).filter((term) => term.taxonomy === taxonomy).sort(byName);

builder.prismaObjectFields(Event, (t) => {
  /** The parts of a date, read from its column. */
  const partsOf = (column: 'startLocal' | 'endLocal' | 'startUtc' | 'endUtc', field: string) =>
    t.field({ type: DateDetails, description: `Parts of ${field}.`, extensions: readsColumns(column), resolve: (e) => e[column] });
  return {
    ...globalIdFields(t),
    author: t.exposeInt('authorId', { description: 'Id of the user who owns the event (0: none).' }),
    status: t.field({
      type: PostStatus,
      description: 'Publication status.',
      extensions: readsColumns(),
      resolve: (e) => e.status as PostStatusName,
    }),
    date: t.exposeString('date', { description: 'Publication date, site-local "YYYY-MM-DD HH:MM:SS".' }),
    dateUtc: t.exposeString('dateUtc', { description: 'Publication date in UTC.' }),
    modified: t.exposeString('modified', { description: 'Last modification, site-local.' }),
    modifiedUtc: t.exposeString('modifiedUtc', { description: 'Last modification in UTC.' }),
    url: t.string({
      description: 'The event page (permalink).',
      extensions: readsColumns('slug'),
      resolve: (e, _a, ctx) => permalink(ctx.config.siteUrl, 'event', e),
    }),
    title: t.exposeString('title', { description: 'The title as entered.' }),
    titleRendered: t.string({
      description: 'The title as HTML, typographic quotes and entities applied.',
      extensions: readsColumns('title'),
      resolve: (e) => renderTitle(e.title),
    }),
    description: maskedText(t, 'content', 'The description as entered'),
    descriptionHtml: maskedText(t, 'content', 'The description with paragraphs', renderContent),
    excerpt: maskedText(t, 'excerpt', 'The excerpt as entered'),
    excerptHtml: maskedText(t, 'excerpt', 'The excerpt with paragraphs', renderExcerpt),
    slug: t.string({
      description:
        'The URL slug, unique among events; "" for a draft or pending event until it is published (or given one). An occurrence of a series shows its series\' slug, as the original\'s Pro does: its own page is /event/<slug>/<YYYY-MM-DD>/ (see url), and event(slug:) takes either.',
      extensions: readsColumns('slug'),
      resolve: (e) => (e.slug ? e.slug.replace(/\/[^/]*?(__trashed(?:-\d+)?)?$/, '$1') : ''),
    }),
    image: t.field({
      type: Image,
      nullable: true,
      description: 'The featured image, if any (null when masked).',
      extensions: readsColumns('imageId'),
      resolve: (e, _a, ctx, info) => (isMasked(e, ctx, info) ? null : imageById(ctx, e.imageId)),
    }),
    allDay: maskedFlag(t, 'allDay', 'Whether the event lasts whole days'),
    startDate: t.exposeString('startLocal', { description: 'Start, event-local "YYYY-MM-DD HH:MM:SS".' }),
    startDateDetails: partsOf('startLocal', 'startDate'),
    endDate: t.exposeString('endLocal', { description: 'End, event-local "YYYY-MM-DD HH:MM:SS".' }),
    endDateDetails: partsOf('endLocal', 'endDate'),
    utcStartDate: t.exposeString('startUtc', { description: 'Start in UTC.' }),
    utcStartDateDetails: partsOf('startUtc', 'utcStartDate'),
    utcEndDate: t.exposeString('endUtc', { description: 'End in UTC.' }),
    utcEndDateDetails: partsOf('endUtc', 'utcEndDate'),
    timezone: t.exposeString('timezone', { description: 'The event time zone: an IANA id or UTC±N.' }),
    timezoneAbbr: t.exposeString('timezoneAbbr', { description: 'Time zone abbreviation at the start (EST, CEST, UTC…).' }),
    cost: t.string({
      description: 'The cost as displayed: "$10", "Free – 30$" ("" when none or masked).',
      extensions: readsColumns('cost', 'currencySymbol', 'currencyPosition'),
      resolve: (e, _a, ctx, info) => (isMasked(e, ctx, info) ? '' : formatCost(storedCost(e.cost), e.currencySymbol, e.currencyPosition)),
    }),
    costDetails: t.field({
      type: CostDetails,
      description: 'The stored cost, parsed (empty when masked).',
      extensions: readsColumns('cost', 'currencySymbol', 'currencyCode', 'currencyPosition'),
      resolve: (e, _a, ctx, info) =>
        isMasked(e, ctx, info)
          ? { currencySymbol: '', currencyCode: '', currencyPosition: '', values: [] }
          : {
              currencySymbol: e.currencySymbol,
              currencyCode: e.currencyCode,
              currencyPosition: e.currencyPosition,
              values: costValues(storedCost(e.cost)),
            },
    }),
    website: t.string({
      description: 'The event website; the permalink when none was ever stored ("" when masked).',
      extensions: readsColumns('website', 'slug'),
      resolve: (e, _a, ctx, info) => (isMasked(e, ctx, info) ? '' : (e.website ?? permalink(ctx.config.siteUrl, 'event', e))),
    }),
    showMap: maskedFlag(t, 'showMap', 'Show a map of the venue', true),
    showMapLink: maskedFlag(t, 'showMapLink', 'Show a link to a map', true),
    hideFromListings: maskedFlag(t, 'hideFromListings', 'Hidden from event lists'),
    sticky: t.boolean({
      nullable: true,
      description: 'Pinned (null when masked).',
      extensions: readsColumns('menuOrder'),
      resolve: (e, _a, ctx, info) => (isMasked(e, ctx, info) ? null : e.menuOrder < 0),
    }),
    featured: maskedFlag(t, 'featured', 'Featured'),
    eventStatus: t.field({
      type: EventStatusEnum,
      description: 'Whether it takes place as announced: scheduled, canceled or postponed (shown with its label, kept in lists).',
      extensions: readsColumns('eventStatus'),
      resolve: (e) => eventStatusOf(e.eventStatus),
    }),
    eventStatusReason: maskedText(t, 'eventStatusReason', 'Why it was canceled or postponed, plain text'),
    passwordProtected: t.boolean({
      description: 'Whether the event has a password.',
      extensions: readsColumns(),
      resolve: (e) => e.password !== '',
    }),
    masked: t.boolean({
      description: 'Whether this record hides its protected fields from this request.',
      extensions: readsColumns(),
      resolve: (e, _a, ctx, info) => isMasked(e, ctx, info),
    }),
    parentId: t.exposeInt('parentId', { description: 'Id of the parent event (0: none).' }),
    categories: t.field({
      type: [EventCategory],
      description: 'Event categories, by name ([] when masked).',
      extensions: readsColumns(),
      resolve: (e, _a, ctx, info) => (isMasked(e, ctx, info) ? [] : termsIn(ctx, e.id, 'tribe_events_cat', info)),
    }),
    tags: t.field({
      type: [Tag],
      description: 'Tags, by name ([] when masked).',
      extensions: readsColumns(),
      resolve: (e, _a, ctx, info) => (isMasked(e, ctx, info) ? [] : termsIn(ctx, e.id, 'post_tag', info)),
    }),
    venue: t.field({
      type: Venue,
      nullable: true,
      description: 'The linked venue, when the caller may read it (null when none, masked, or it is trashed or not public).',
      extensions: readsColumns(),
      resolve: async (e, _a, ctx, info) =>
        isMasked(e, ctx, info) ? null : ((await readableLinks(ctx, e.id, venuesOf, selectedColumns(info, VENUE_READ), false))[0] ?? null),
    }),
    venues: t.field({
      type: [Venue],
      args: { all: t.arg.boolean({ defaultValue: false, description: LINKED_ALL }) },
      description: 'The linked venues the caller may read ([] when masked).',
      extensions: readsColumns(),
      resolve: (e, args, ctx, info) =>
        isMasked(e, ctx, info) ? [] : readableLinks(ctx, e.id, venuesOf, selectedColumns(info, VENUE_READ), args.all ?? false),
    }),
    organizers: t.field({
      type: [Organizer],
      args: { all: t.arg.boolean({ defaultValue: false, description: LINKED_ALL }) },
      description: 'The linked organizers the caller may read, in the order given ([] when masked).',
      extensions: readsColumns(),
      resolve: (e, args, ctx, info) =>
        isMasked(e, ctx, info) ? [] : readableLinks(ctx, e.id, organizersOf, selectedColumns(info, ORGANIZER_READ), args.all ?? false),
    }),
    jsonLd: t.field({
      type: 'JSON',
      description: 'Schema.org JSON-LD of the event.',
      // The venues and organizers fields' loaders: one load when a request asks for both (the REST record always does).
      resolve: async (e, _a, ctx) => {
        const [venue, organizer] = await Promise.all([
          venuesOf(ctx, e.id).then((rows) => rows[0]),
          organizersOf(ctx, e.id).then((rows) => rows[0]),
        ]);
        const [imageUrl, venueImageUrl, organizerImageUrl] = await Promise.all([
          imageUrlOf(ctx, e.imageId),
          imageUrlOf(ctx, venue?.imageId),
          imageUrlOf(ctx, organizer?.imageId),
        ]);
        return eventJsonLd({
          ...e,
          url: permalink(ctx.config.siteUrl, 'event', e),
          costValues: storedCost(e.cost),
          imageUrl,
          venue: venue ? appearsInJsonLd(ctx.viewer, venue) && { ...venue, imageUrl: venueImageUrl } : null,
          organizer: organizer ? appearsInJsonLd(ctx.viewer, organizer) && { ...organizer, imageUrl: organizerImageUrl } : null,
        });
      },
    }),
    icalUrl: t.string({
      description: 'The event as an iCalendar file (the event page + "ical/").',
      extensions: readsColumns('slug'),
      resolve: (e, _a, ctx) => icalUrl({ url: permalink(ctx.config.siteUrl, 'event', e) }),
    }),
    googleCalendarUrl: t.string({
      description: "Google Calendar's page that adds the event (times in UTC, the event's zone shown when it is a named one).",
      resolve: async (e, _a, ctx, info) => googleCalendarUrl(await linkEvent(e, ctx, info)),
    }),
    outlookUrl: t.string({
      description: "Outlook on the web's page that adds the event.",
      resolve: async (e, _a, ctx, info) => outlookUrl(await linkEvent(e, ctx, info)),
    }),
  };
});

/** What the add-to-calendar links show of an event: no description or place when the caller may not see them. */
type LinkRow = EventRow & { slug: string | null } & Omit<CalendarLinkEvent, 'url' | 'location'>;
async function linkEvent(e: LinkRow, ctx: GraphQLContext, info: GraphQLResolveInfo): Promise<CalendarLinkEvent> {
  const hidden = isMasked(e, ctx, info);
  const venue = hidden ? null : (await venuesOf(ctx, e.id))[0];
  return {
    ...e,
    content: hidden ? '' : e.content,
    url: permalink(ctx.config.siteUrl, 'event', e),
    location: venueLine(venue && { ...venue, name: venue.title, region: venue.stateprovince || venue.state || venue.province }),
  };
}

export const EventFilterInput = builder.inputType('EventFilter', {
  description: 'Filters of the event list, with the semantics of the REST list route (every filter must hold).',
  fields: (t) => ({
    startDate: t.string({
      description: 'Events starting on or after this date (the day at 00:00 unless strictDates). Default: yesterday.',
    }),
    endDate: t.string({
      description: 'Events ending on or before this date (the day at 23:59:59 unless strictDates). Default: 24 months ahead.',
    }),
    startsBefore: t.string({ description: 'Events starting before this date; drops the default window.' }),
    startsAfter: t.string({ description: 'Events starting after this date; drops the default window and replaces startDate.' }),
    endsBefore: t.string({ description: 'Events ending before this date; drops the default window and replaces endDate.' }),
    endsAfter: t.string({ description: 'Events ending after this date; drops the default window.' }),
    strictDates: t.boolean({ description: 'Compare the exact times given instead of whole days.' }),
    search: t.string({
      description:
        'WordPress search: every word must appear in the title, excerpt or description. Words split at spaces, tabs, commas and "+"; "quoted phrases" stay together; "-word" excludes; single letters and stopwords ("the", "of"…) are ignored, and the whole text is one phrase when no word is left or more than nine are; "\\" takes the next character as it is; % and _ are no wildcards. Visitors who are not logged in do not find password-protected events.',
    }),
    categories: t.stringList({
      description: 'Category ids or slugs; events in any of them or in any of their descendant categories (see includeChildCategories).',
    }),
    includeChildCategories: t.boolean({
      description:
        "With categories: whether events filed only under a descendant of a named category are listed too. Default true, as WordPress's include_children for hierarchical taxonomies (the REST list and the category archives always include them); false lists the named categories alone.",
    }),
    tags: t.stringList({ description: 'Tag ids or slugs; events with any of them.' }),
    venue: t.intList({ description: 'Venue ids; events at any of them.' }),
    organizer: t.intList({ description: 'Organizer ids; events by any of them.' }),
    featured: t.boolean({ description: 'Only featured (true) or only not featured (false) events.' }),
    status: t.stringList({
      description: 'Statuses to list (publish, draft…). Only callers who can edit events may ask for more than publish.',
    }),
    include: t.intList({ description: 'Only these event ids, ordered by publication date (the default date window still applies).' }),
    postParent: t.int({ description: 'Only children of this event.' }),
    series: t.intList({ description: 'Only occurrences of these series (EventSeries ids).' }),
    firstOccurrenceOnly: t.boolean({
      description:
        'Of each recurring event, only its first occurrence in the list (with the default window: its next one), as the original Pro\'s "show only the first upcoming instance".',
    }),
  }),
});

const EventDates = builder.objectRef<Record<string, string | undefined>>('EventListDates').implement({
  description: 'The date bounds a list actually applied, after defaults and rounding.',
  fields: (t) => ({
    startDate: t.string({ nullable: true, description: 'Start bound (>=).', resolve: (d) => d.startDate ?? null }),
    endDate: t.string({ nullable: true, description: 'End bound (<=).', resolve: (d) => d.endDate ?? null }),
    startsBefore: t.string({ nullable: true, description: 'Starts-before bound.', resolve: (d) => d.startsBefore ?? null }),
    startsAfter: t.string({ nullable: true, description: 'Starts-after bound.', resolve: (d) => d.startsAfter ?? null }),
    endsBefore: t.string({ nullable: true, description: 'Ends-before bound.', resolve: (d) => d.endsBefore ?? null }),
    endsAfter: t.string({ nullable: true, description: 'Ends-after bound.', resolve: (d) => d.endsAfter ?? null }),
  }),
});

interface EventPageShape {
  items: EventPageRow[];
  total: number;
  page: number;
  perPage: number;
  dates: Record<string, string | undefined>;
  statuses: string[];
}

const EventPage = builder.objectRef<EventPageShape>('EventPage').implement({
  description: 'One page of events.',
  fields: (t) => ({
    items: t.field({ type: [Event], description: 'The events on this page.', resolve: (p) => p.items }),
    total: t.exposeInt('total', { description: 'How many match, over all pages.' }),
    totalPages: t.int({ description: 'ceil(total / perPage); 0 when nothing matches.', resolve: (p) => Math.ceil(p.total / p.perPage) }),
    page: t.exposeInt('page', { description: 'This page, from 1.' }),
    perPage: t.exposeInt('perPage', { description: 'The page size used.' }),
    dates: t.field({ type: EventDates, description: 'The date bounds applied.', resolve: (p) => p.dates }),
    statuses: t.exposeStringList('statuses', { description: 'The statuses listed.' }),
  }),
});

builder.queryFields((t) => ({
  event: t.prismaField({
    type: Event,
    description:
      'One event by id or slug. Errors: NOT_FOUND, WRONG_TYPE (the id is not an event), TRASHED, NOT_ACCESSIBLE, PASSWORD_REQUIRED; by slug, an unknown or unreadable slug is INVALID_INPUT.',
    args: {
      id: t.arg.int({ description: 'The event id.' }),
      slug: t.arg.string({ description: 'The event slug.' }),
      ...unlockArgs(t, 'events'),
    },
    resolve: async (query, _root, args, ctx, info) => {
      const unlock = unlockFromArgs(ctx, info, args);
      const id = await assertEventReadable(
        ctx.prisma,
        { id: args.id ?? undefined, slug: args.id == null ? (args.slug ?? '') : undefined },
        ctx.viewer,
        unlock,
      );
      return ctx.prisma.event.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  events: t.field({
    type: EventPage,
    description:
      'Events the caller may see, ordered by start date, excluding those hidden from listings. Protected events are masked unless unlocked.',
    args: {
      filter: t.arg({ type: EventFilterInput, description: 'Filters.' }),
      page: t.arg({ type: PageArgs, description: 'Which page.' }),
      ...unlockArgs(t, 'events'),
    },
    resolve: async (_root, args, ctx, info) => {
      unlockFromArgs(ctx, info, args);
      const { page, perPage, skip } = pageRequest(ctx, args.page);
      const list = await eventListQuery(ctx.prisma, (args.filter ?? {}) as EventFilter, ctx);
      const [items, total] = await Promise.all([
        eventPageRows(
          ctx,
          list,
          { skip, take: perPage },
          queryFromInfo({ context: ctx, info, typeName: 'Event', path: ['items'] }),
          selectedColumns(info, EVENT_READ, 'items'),
        ),
        listTotal(ctx, 'event', list.where, list.version),
      ]);
      return { items, total, page, perPage, dates: list.window.effective, statuses: list.statuses };
    },
  }),
  eventsConnection: t.prismaConnection(
    {
      type: Event,
      cursor: 'id',
      description: 'Events as a Relay connection, for clients that page deeply; same filters and order as `events`.',
      args: { filter: t.arg({ type: EventFilterInput, description: 'Filters.' }), ...unlockArgs(t, 'events') },
      maxSize: 50,
      defaultSize: 10,
      totalCount: async (_root, args, ctx) => {
        const list = await eventListQuery(ctx.prisma, (args.filter ?? {}) as EventFilter, ctx);
        return listTotal(ctx, 'event', list.where, list.version);
      },
      resolve: async (query, _root, args, ctx, info) => {
        unlockFromArgs(ctx, info, args);
        const list = await eventListQuery(ctx.prisma, (args.filter ?? {}) as EventFilter, ctx);
        return ctx.prisma.event.findMany({ ...query, where: list.where, orderBy: list.orderBy });
      },
    },
    ...connectionTypes('Event', 'event'),
  ),
}));

// node(nodeId): the events event(id) would answer (a protected one comes masked, as in lists).
nodeSource({
  typeName: 'Event',
  ref: Event,
  parseId: intId,
  prisma: true,
  load: async (ctx, ids, query) =>
    (await ctx.prisma.event.findMany({ ...query, where: { id: { in: ids as number[] } } })).filter((event) =>
      isEventReadable(event, ctx.viewer),
    ),
});

const LINKED_ALL =
  'Also the linked ones the caller may not read (trashed, drafts of others…), as The Events Calendar lists them: a trashed venue or organizer stays linked to the events its trashing did not unlink (past ones, drafts, events past the first page of upcoming ones).';

/** An event's linked venues or organizers: those the caller may read, or all of them. */
async function readableLinks<T extends { status: string; authorId: number }>(
  ctx: GraphQLContext,
  eventId: number,
  load: (ctx: GraphQLContext, eventId: number, columns: Selected) => Promise<T[]>,
  columns: Selected,
  all: boolean,
): Promise<T[]> {
  const rows = await load(ctx, eventId, columns);
  return all ? rows : rows.filter((row) => isLinkedReadable(row, ctx.viewer));
}

const EventStatusEnum = builder.enumType('EventStatus', {
  description: "Whether an event takes place as announced (The Events Calendar's Event Status).",
  values: {
    SCHEDULED: { value: 'scheduled', description: 'It takes place as announced.' },
    CANCELED: { value: 'canceled', description: 'It was called off; the event is kept and says so.' },
    POSTPONED: { value: 'postponed', description: 'It will not take place at the time shown; a new date is to come.' },
  } as const,
});

const eventInputFields = (t: InputFields, create: boolean) => ({
  title: t.string({ required: create, description: 'Title (required on create; not empty).' }),
  startDate: t.string({
    required: create,
    description: 'Start: a date/time in the event time zone, a Unix timestamp, or a relative expression ("tomorrow 9am").',
  }),
  endDate: t.string({ required: create, description: 'End, as startDate. An end before the start becomes the start.' }),
  description: t.string({ description: 'Description (HTML allowed; not empty when given).' }),
  excerpt: t.string({ description: 'Excerpt (not empty when given).' }),
  slug: t.string({
    description:
      'URL slug; made unique with -2, -3… on clash. Without one, a draft or pending event has none until it is published (then its title gives it).',
  }),
  status: t.string({ description: 'Status; roles that cannot publish get pending/draft instead.' }),
  author: t.int({ description: 'Id of an existing user who owns the event.' }),
  date: t.string({ description: 'Publication date, site-local.' }),
  dateUtc: t.string({ description: 'Publication date in UTC.' }),
  timezone: t.string({ description: 'Time zone: IANA id (America/New_York) or UTC±N; default the site time zone.' }),
  allDay: t.boolean({ description: 'All-day: start at 00:00:00, end at 23:59:59.' }),
  image: t.string({ description: 'Featured image: an attachment id or an image URL (URLs need the upload capability); "" removes.' }),
  cost: t.stringList({ description: 'Cost values, e.g. ["0$", "20$"]; the currency is read from them.' }),
  website: t.string({ description: 'Event website URL ("" clears).' }),
  showMap: t.boolean({ description: 'Show a map of the venue.' }),
  showMapLink: t.boolean({ description: 'Show a link to a map.' }),
  hideFromListings: t.boolean({ description: 'Hide from event lists.' }),
  sticky: t.boolean({ description: 'Pin the event.' }),
  featured: t.boolean({ description: 'Feature the event.' }),
  eventStatus: t.field({ type: EventStatusEnum, description: 'Scheduled (the default), canceled or postponed.' }),
  eventStatusReason: t.string({
    description: `Why it was canceled or postponed: plain text (tags are stripped), at most ${MAX_STATUS_REASON} characters; "" clears.`,
  }),
  categories: t.stringList({ description: 'Category ids, slugs or names; unknown names are created. Replaces the set; [] clears.' }),
  tags: t.stringList({ description: 'Tag ids, slugs or names; unknown names are created. Replaces the set; [] clears.' }),
  venue: t.field({
    type: 'JSON',
    description: 'A venue id, {id}, or venue fields ({venue: "Name", city…}) to create or reuse one; empty unlinks.',
  }),
  organizer: t.field({ type: 'JSON', description: 'Organizer ids, {id} objects or organizer fields, as a list, in order; [] clears.' }),
  password: t.string({ description: 'Password protecting the event ("" removes).' }),
  parent: t.int({ description: 'Id of the parent event.' }),
  recurrence: t.field({
    type: RecurrenceInput,
    description:
      'Makes the event repeat (a series whose first occurrence it is), or, with the scope ALL or FOLLOWING, changes its series’ rule; null ends the series (scope ALL).',
  }),
});

const CreateEventInput = builder.inputType('CreateEventInput', { description: 'A new event.', fields: (t) => eventInputFields(t, true) });
const UpdateEventInput = builder.inputType('UpdateEventInput', {
  description: 'Changes to an event: only the fields given change; an explicitly empty value clears.',
  fields: (t) => eventInputFields(t, false),
});

/** GraphQL gives explicit nulls for fields sent as null; treat them as "not given" except where null clears. */
type EventInput = typeof UpdateEventInput.$inferInput;
type DomainFields = Omit<EventFields, 'wpTagQuirk'>; // wpTagQuirk: a caller's option, never input
/** The input and the domain's fields name the same fields with values of the same types (an input
 *  null is the domain's "clear"): checked when compiling, so neither grows without the other. */
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inputMatchesDomain: Agree<keyof EventInput, keyof DomainFields> &
  ({ [K in keyof EventInput]-?: NonNullable<EventInput[K]> } extends Required<DomainFields> ? true : false) = true;
void inputMatchesDomain;

function fieldsFrom(input: EventInput, ctx: GraphQLContext): EventFields {
  const fields: Record<string, unknown> = {};
  if (ctx.operationOptions?.wpTagQuirk) fields.wpTagQuirk = true;
  for (const [key, value] of Object.entries(input)) {
    if (value === null && !['venue', 'organizer', 'image', 'website', 'categories', 'tags', 'recurrence'].includes(key)) continue;
    if (key === 'recurrence') {
      fields.recurrence = value;
      continue;
    }
    fields[key] = value === null ? (key === 'website' || key === 'image' ? '' : []) : value;
  }
  return fields as EventFields;
}

const SCOPE = 'For an occurrence of a series: which occurrences the change reaches (default THIS, the occurrence alone).';

/** Whether a Pothos query reads only the event's own columns (no relation, no count). */
const onlyColumns = (query: { include?: unknown; select?: Record<string, unknown> }) =>
  query.include === undefined && Object.values(query.select ?? {}).every((value) => value === true);

const target = (args: { id?: number | null; slug?: string | null }) => (args.id != null ? { id: args.id } : { slug: args.slug ?? '' });

builder.mutationFields((t) => ({
  createEvent: t.prismaField({
    type: Event,
    description:
      'Creates an event (contributor and up). Errors: INVALID_INPUT (params per field), UNAUTHENTICATED, FORBIDDEN, COULD_NOT_CREATE_VENUE/ORGANIZER.',
    args: { input: t.arg({ type: CreateEventInput, required: true, description: 'The event.' }) },
    resolve: async (query, _root, args, ctx, info) => {
      const { id, row, terms } = await createEventRecord(ctx, fieldsFrom(args.input, ctx));
      setUnlock(ctx, info, { showAll: true });
      if (terms) primeWrittenRows(ctx, 'event-terms', id, terms);
      // The row as written has every column; a selection that asks more (relations) reads it.
      return row && onlyColumns(query) ? row : ctx.prisma.event.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateEvent: t.prismaField({
    type: Event,
    description:
      'Updates an event by id or slug; only given fields change, except that a trashed event given no status comes out of the trash (published, or a draft for those who may not publish) under its former slug, as in The Events Calendar. Errors as createEvent, plus NOT_FOUND and WRONG_TYPE.',
    args: {
      id: t.arg.int({ description: 'The event id.' }),
      slug: t.arg.string({ description: 'The event slug (when no id).' }),
      input: t.arg({ type: UpdateEventInput, required: true, description: 'The changes.' }),
      scope: t.arg({ type: RecurrenceScopeEnum, defaultValue: 'THIS', description: SCOPE }),
    },
    resolve: async (query, _root, args, ctx, info) => {
      const id = await updateEvent(ctx, target(args), fieldsFrom(args.input, ctx), args.scope ?? 'THIS');
      setUnlock(ctx, info, { showAll: true });
      return ctx.prisma.event.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  deleteEvent: t.prismaField({
    type: Event,
    description: 'Moves an event to the trash and returns it. A second delete is ALREADY_TRASHED (gone).',
    args: {
      id: t.arg.int({ description: 'The event id.' }),
      slug: t.arg.string({ description: 'The event slug (when no id).' }),
      scope: t.arg({ type: RecurrenceScopeEnum, defaultValue: 'THIS', description: SCOPE }),
    },
    resolve: async (query, _root, args, ctx, info) => {
      const id = await trashEvent(ctx, target(args), args.scope ?? 'THIS');
      setUnlock(ctx, info, { showAll: true });
      return ctx.prisma.event.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
