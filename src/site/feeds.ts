// iCalendar feeds at the URLs the records already name, as the original serves them: `?ical=1` on
// the events list and on category and tag archives (the list's filters apply), and one event's
// feed at /event/<slug>/ical/. Each runs a GraphQL operation in-process, so visibility (drafts,
// private and password-protected events) is exactly the API's for the same caller.
import type { Context } from 'koa';
import { toICalendar, type ICalEvent } from '../calendar/ical.js';
import { errorCode } from '../graphql/errors.js';
import { SiteError, type SiteServices } from './services.js';

const EVENT_FIELDS = `id title description url allDay startDate endDate utcStartDate utcEndDate dateUtc modifiedUtc status cost
  venue { name address city stateprovince zip country geoLat geoLng }
  organizers { name email }
  categories { name }
  tags { name }`;
const LIST = `query IcalList($filter: EventFilter, $page: Int!, $perPage: Int!) {
  events(filter: $filter, page: { page: $page, perPage: $perPage }) { items { ${EVENT_FIELDS} } }
}`;
const ONE = `query IcalEvent($slug: String!) { event(slug: $slug) { ${EVENT_FIELDS} } }`;

/** A feed holds at most this many events (the list's first ones, in start order). */
export const ICAL_MAX_EVENTS = 1000;
const PAGE = 100;

type Row = Omit<ICalEvent, 'categories' | 'tags'> & { categories: { name: string }[]; tags: { name: string }[] };
const toEvent = (row: Row): ICalEvent => ({ ...row, categories: row.categories.map((c) => c.name), tags: row.tags.map((t) => t.name) });

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

export function feeds({ config, runner, graphqlContext }: SiteServices) {
  function send(ctx: Context, events: ICalEvent[], name: string, file: string) {
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.set('Content-Disposition', `inline; filename="${file}.ics"`);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = toICalendar(events, { siteUrl: config.siteUrl, calendarName: name, now: new Date() });
  }

  return {
    /** The list's events (an archive's, and the URL's filters) as one calendar. */
    async list(ctx: Context, archive: Archive, name: string, file: string) {
      const context = await graphqlContext(ctx);
      const filter = filterOf(ctx.query, archive);
      const events: ICalEvent[] = [];
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
        events.push(...items.map(toEvent));
        if (items.length < PAGE) break;
      }
      send(ctx, events.slice(0, ICAL_MAX_EVENTS), name, file);
    },

    /** One event as a calendar. */
    async event(ctx: Context, slug: string) {
      const result = await runner<{ event: Row }>(ONE, { slug }, await graphqlContext(ctx));
      if (result.errors?.length) {
        const code = errorCode(result.errors[0]);
        if (code === 'PASSWORD_REQUIRED' || code === 'NOT_ACCESSIBLE') throw new SiteError(403, 'This event is not public.');
        if (code === 'NOT_FOUND' || code === 'INVALID_INPUT' || code === 'TRASHED') throw new SiteError(404, 'No such event.');
        throw result.errors[0];
      }
      send(ctx, [toEvent(result.data!.event)], result.data!.event.title, `event-${slug}`);
    },
  };
}
