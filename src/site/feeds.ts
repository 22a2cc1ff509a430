// iCalendar feeds at the URLs the records already name, as the original serves them: `?ical=1` on
// the events list and on category and tag archives (the list's filters apply), and one event's
// feed at /event/<slug>/ical/. Each runs a GraphQL operation in-process, so visibility (drafts,
// private and password-protected events) is exactly the API's for the same caller.
//
// A recurring event is written once, as its series (a master VEVENT with the rule, and one VEVENT
// per occurrence changed alone), however many of its occurrences the list holds; its exceptions,
// its removed dates and the fields of its master are read through GraphQL too, as the caller may.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import {
  toICalendar,
  type ICalCancellation,
  type ICalEntry,
  type ICalEvent,
  type ICalException,
  type ICalSeries,
} from '../calendar/ical.js';
import { normalizeWall, parseWall, wallAsUtcMillis, wallString } from '../calendar/dates/wall-times.js';
import { databaseFault } from '../db/faults.js';
import { errorCode } from '../graphql/errors.js';
import { matchesEtag } from '../http/response-cache.js';
import { SiteError, type SiteServices } from './services.js';

const EVENT_FIELDS = `id title description url allDay startDate endDate utcStartDate utcEndDate dateUtc modifiedUtc status eventStatus cost
  venue { name address city stateprovince zip country geoLat geoLng }
  organizers { name email }
  categories { name }
  tags { name }
  timezone recurrenceId isException series { id }`;
const LIST = `query IcalList($filter: EventFilter, $page: Int!, $perPage: Int!) {
  events(filter: $filter, page: { page: $page, perPage: $perPage }) { items { ${EVENT_FIELDS} } }
}`;
const ONE = `query IcalEvent($slug: String!) { event(slug: $slug) { ${EVENT_FIELDS} } }`;
/** A series as a feed writes it, through one of its occurrences the caller may read. */
const SERIES = `query IcalSeries($id: Int!) { event(id: $id) { series {
  id rrule timezone startDate exdates rdates removedDates
  exceptions { ${EVENT_FIELDS} }
} } }`;
/** Its occurrences, when the feed holds none of them that is not an exception (the master's fields). */
const OCCURRENCES = `query IcalOccurrences($id: Int!, $after: Int) { event(id: $id) { occurrences(first: 100, after: $after) { ${EVENT_FIELDS} } } }`;
const MAX_TEMPLATE_PAGES = 10;
const REMOVED = `query IcalRemoved($first: Int!) { removedEvents(first: $first) {
  id series title allDay startDate endDate utcStartDate utcEndDate modifiedUtc removedAtUtc } }`;

/** A feed holds at most this many events (the list's first ones, in start order). */
export const ICAL_MAX_EVENTS = 1000;
const PAGE = 100;

type Row = Omit<ICalEvent, 'categories' | 'tags'> & {
  categories: { name: string }[];
  tags: { name: string }[];
  timezone: string;
  recurrenceId: string | null;
  isException: boolean;
  series: { id: number } | null;
};
const toEvent = ({ recurrenceId: _r, isException: _e, series: _s, timezone: _t, ...row }: Row): ICalEvent => ({
  ...row,
  // GraphQL's PostStatus is the WordPress status in capitals ("PUBLISH").
  status: row.status.toLowerCase(),
  eventStatus: row.eventStatus.toLowerCase(),
  categories: row.categories.map((c) => c.name),
  tags: row.tags.map((t) => t.name),
});
const toException = (row: Row): ICalException => ({
  ...toEvent(row),
  timezone: row.timezone,
  recurrenceId: row.recurrenceId ?? row.startDate,
});

interface SeriesRow {
  id: number;
  rrule: string;
  timezone: string;
  startDate: string;
  exdates: string[];
  rdates: string[];
  removedDates: string[];
  exceptions: Row[];
}

const wallSeconds = (wall: string) => wallAsUtcMillis(parseWall(wall)!) / 1000;
const plusSeconds = (wall: string, seconds: number) => {
  const w = parseWall(wall)!;
  return wallString(normalizeWall({ ...w, s: w.s + seconds }));
};

const list = (value: unknown) =>
  typeof value === 'string' && value.trim()
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
const ids = (value: unknown) => list(value)?.map(Number);

/** Each GraphQL filter a feed URL can set, by the name of the REST list's parameter that sets it. */
const PARAMETERS: Record<string, string> = {
  startDate: 'start_date',
  endDate: 'end_date',
  search: 'search',
  categories: 'categories',
  tags: 'tags',
  venue: 'venue',
  organizer: 'organizer',
  featured: 'featured',
};

/** The REST list's filter parameters that a feed URL may carry, as the GraphQL filter. */
function filterOf(query: Record<string, unknown>, archive: Archive) {
  const filter: Record<string, unknown> = {
    startDate: query.start_date,
    endDate: query.end_date,
    search: query.search,
    categories: archive.categories ?? list(query.categories),
    tags: archive.tags ?? list(query.tags),
    venue: archive.venue ?? ids(query.venue),
    organizer: archive.organizer ?? ids(query.organizer),
    featured: query.featured === undefined ? undefined : ['1', 'true'].includes(String(query.featured)),
  };
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) delete filter[key];
    else if (Array.isArray(value) && value.some((v) => typeof v === 'number' && !Number.isSafeInteger(v)))
      throw new SiteError(400, `Invalid parameter: ${PARAMETERS[key]}.`);
    else if (typeof value !== 'string' && typeof value !== 'boolean' && !Array.isArray(value))
      throw new SiteError(400, `Invalid parameter: ${PARAMETERS[key]}.`);
  }
  return filter;
}

/** What a feed's page fixes, beyond the URL's own filters: a term archive's term, a venue's or an organizer's id. */
export interface Archive {
  categories?: string[];
  tags?: string[];
  venue?: number[];
  organizer?: number[];
}

/** How many feeds' Last-Modified a process remembers (see `conditionally`). */
const KEPT_DATES = 10_000;

export function feeds({ config, runner, graphqlContext, dataVersion }: SiteServices) {
  /** ETag → when this process first saw that version of that feed (its Last-Modified). */
  const firstSeen = new Map<string, Date>();

  function send(ctx: Context, entries: ICalEntry[], name: string, file: string) {
    const now = new Date();
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.set('Content-Disposition', `inline; filename="${file}.ics"`);
    // VTIMEZONEs cover the years up to the recurrence horizon at least (occurrences exist up to it).
    const untilYear = new Date(now.getTime() + config.recurrence.horizonDays * 86_400_000).getUTCFullYear();
    ctx.body = toICalendar(entries, {
      siteUrl: config.siteUrl,
      calendarName: name,
      now,
      untilYear,
      refreshMinutes: config.feedRefreshMinutes,
    });
  }

  /**
   * A feed poll answered from the calendar's data version, before anything is read or rendered:
   * the ETag names the version, the caller, the URL (its filters) and the hour (the list's window
   * moves with time), so an unchanged calendar's feed is a 304 for one version read. Last-Modified
   * is when this process first saw that ETag: a later version is always seen later, so a date a
   * client got for an older version never matches a newer one (other processes' dates for the same
   * ETag may differ; a mismatch only costs a full answer).
   */
  async function conditionally(ctx: Context, render: () => Promise<void>): Promise<void> {
    const context = await graphqlContext(ctx);
    const version = await dataVersion();
    const hour = Math.floor(Date.now() / 3_600_000);
    const key = JSON.stringify([version, context.viewer?.userId ?? null, ctx.url, ctx.get('cookie'), hour]);
    const etag = `"ical-${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;
    let modified = firstSeen.get(etag);
    if (!modified) {
      if (firstSeen.size >= KEPT_DATES) firstSeen.clear();
      // HTTP dates are whole seconds.
      firstSeen.set(etag, (modified = new Date(Math.floor(Date.now() / 1000) * 1000)));
    }
    ctx.set('ETag', etag);
    ctx.set('Last-Modified', modified.toUTCString());
    // Every poll asks again (no-cache), and an unchanged calendar answers it for one version read.
    ctx.set('Cache-Control', 'no-cache');
    const ifNoneMatch = ctx.get('If-None-Match');
    const ifModifiedSince = Date.parse(ctx.get('If-Modified-Since'));
    // If-Modified-Since counts only without If-None-Match (RFC 9110 13.1.3).
    const unchanged = ifNoneMatch
      ? matchesEtag(ifNoneMatch, etag)
      : !Number.isNaN(ifModifiedSince) && modified.getTime() <= ifModifiedSince;
    if (unchanged) {
      ctx.status = 304;
      ctx.body = null;
      return;
    }
    await render();
  }

  /** A database fault is no reason to write a series as single events: the feed fails (503). */
  const throwFault = (result: { errors?: readonly unknown[] }) => {
    const fault = result.errors?.find((error) => databaseFault(error));
    if (fault) throw fault;
  };

  /**
   * A series as one entry, read through `rows`, its occurrences the feed holds; null when the
   * caller may read none of its occurrences that are not exceptions (they are then written as
   * single events).
   */
  async function seriesEntry(context: Awaited<ReturnType<typeof graphqlContext>>, rows: Row[]): Promise<ICalSeries | null> {
    const id = rows[0]!.id;
    const result = await runner<{ event: { series: SeriesRow | null } }>(SERIES, { id }, context);
    const series = result.data?.event?.series;
    throwFault(result);
    if (result.errors?.length || !series) return null;
    let template = rows.find((row) => !row.isException);
    let after: number | undefined;
    for (let page = 0; page < MAX_TEMPLATE_PAGES && !template; page++) {
      const found = await runner<{ event: { occurrences: Row[] } }>(OCCURRENCES, { id, after }, context);
      throwFault(found);
      const occurrences = found.data?.event?.occurrences ?? [];
      template = occurrences.find((row) => !row.isException);
      if (occurrences.length < 100) break;
      after = occurrences[occurrences.length - 1]!.id;
    }
    if (!template) return null;
    const duration = Math.max(0, wallSeconds(template.endDate) - wallSeconds(template.startDate));
    return {
      series: {
        id: series.id,
        rule: series.rrule,
        timezone: series.timezone,
        allDay: template.allDay,
        startLocal: series.startDate,
        endLocal: plusSeconds(series.startDate, duration),
        exdates: [...series.exdates, ...series.removedDates],
        rdates: series.rdates,
      },
      // The series' page (/event/<slug>/) shows its next occurrence.
      master: { ...toEvent(template), url: template.url.replace(/\d{4}-\d{2}-\d{2}(?:-\d+)?\/?$/, '') },
      exceptions: series.exceptions.map(toException),
    };
  }

  /** The feed's entries: each single event, and each series once, where its first occurrence is. */
  async function entriesOf(context: Awaited<ReturnType<typeof graphqlContext>>, rows: Row[]): Promise<ICalEntry[]> {
    const bySeries = new Map<number, Row[]>();
    for (const row of rows) if (row.series) bySeries.set(row.series.id, [...(bySeries.get(row.series.id) ?? []), row]);
    const entries: ICalEntry[] = [];
    const series = new Map<number, ICalSeries | null>();
    for (const row of rows) {
      const id = row.series?.id;
      if (id === undefined) {
        entries.push(toEvent(row));
        continue;
      }
      if (!series.has(id)) {
        const entry = await seriesEntry(context, bySeries.get(id)!);
        series.set(id, entry);
        if (entry) entries.push(entry);
      }
      // A series the caller sees only exceptions of: those occurrences as the events they are.
      if (!series.get(id)) entries.push(toEvent(row));
    }
    return entries;
  }

  return {
    /** The list's events (an archive's, and the URL's filters) as one calendar. */
    list: (ctx: Context, archive: Archive, name: string, file: string) => conditionally(ctx, () => list(ctx, archive, name, file)),
    event: (ctx: Context, slug: string) => conditionally(ctx, () => event(ctx, slug)),
  };

  async function list(ctx: Context, archive: Archive, name: string, file: string) {
    const context = await graphqlContext(ctx);
    const filter = filterOf(ctx.query, archive);
    const events: Row[] = [];
    for (let page = 1; events.length < ICAL_MAX_EVENTS; page++) {
      const result = await runner<{ events: { items: Row[] } }>(LIST, { filter, page, perPage: PAGE }, context);
      if (result.errors?.length) {
        const error = result.errors[0];
        if (errorCode(error) !== 'INVALID_INPUT') throw error;
        const params = Object.keys((error.extensions?.params as Record<string, string>) ?? {});
        // An archive whose term does not exist is a page that does not exist.
        if ((archive.categories && params.includes('categories')) || (archive.tags && params.includes('tags')))
          throw new SiteError(404, 'No such archive.');
        throw new SiteError(400, `Invalid parameter(s): ${params.map((param) => PARAMETERS[param] ?? param).join(', ')}.`);
      }
      const items = result.data!.events.items;
      events.push(...items);
      if (items.length < PAGE) break;
    }
    const entries = await entriesOf(context, events.slice(0, ICAL_MAX_EVENTS));
    // The whole calendar's feed keeps what was trashed or deleted lately, cancelled, so that
    // subscribed calendars drop it (a filtered feed cannot tell what it held).
    const whole = Object.keys(filter).every((key) => key === 'startDate' || key === 'endDate');
    if (whole && entries.length < ICAL_MAX_EVENTS) {
      type Removed = Omit<ICalCancellation, 'cancelled'> & { series: boolean };
      const removed = await runner<{ removedEvents: Removed[] }>(REMOVED, { first: ICAL_MAX_EVENTS - entries.length }, context);
      if (removed.errors?.length) throw removed.errors[0];
      for (const { series, ...gone } of removed.data!.removedEvents) entries.push({ ...gone, cancelled: series ? 'series' : 'event' });
    }
    send(ctx, entries, name, file);
  }

  /** One event as a calendar. */
  async function event(ctx: Context, slug: string) {
    const context = await graphqlContext(ctx);
    const result = await runner<{ event: Row }>(ONE, { slug }, context);
    if (result.errors?.length) {
      const code = errorCode(result.errors[0]);
      if (code === 'PASSWORD_REQUIRED' || code === 'NOT_ACCESSIBLE') throw new SiteError(403, 'This event is not public.');
      if (code === 'NOT_FOUND' || code === 'INVALID_INPUT' || code === 'TRASHED') throw new SiteError(404, 'No such event.');
      throw result.errors[0];
    }
    // An occurrence's feed is its series' (/event/<series>/<day>/ical/ names a file of its own).
    send(ctx, await entriesOf(context, [result.data!.event]), result.data!.event.title, `event-${slug.replace(/\//g, '-')}`);
  }
}
