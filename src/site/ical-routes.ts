// iCalendar feeds at the URLs the records already name, as the original serves them: `?ical=1` on
// the events list and on category and tag archives (the list's filters apply), and one event's
// feed at /event/<slug>/ical/. Each runs a GraphQL operation in-process, so visibility (drafts,
// private and password-protected events) is exactly the API's for the same caller.
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Viewer } from '../auth/viewer.js';
import { toICalendar, type ICalEvent } from '../calendar/ical.js';
import type { Config } from '../config.js';
import type { GraphQLContext } from '../graphql/context.js';
import { errorCode } from '../graphql/errors.js';
import type { OperationRunner } from '../graphql/execute.js';

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

export interface IcalRoutesOptions {
  config: Config;
  runner: OperationRunner;
  resolveViewer(ctx: Context): Promise<Viewer | null | 'invalid'>;
  context(viewer: Viewer | null): GraphQLContext;
}

class FeedError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const list = (value: unknown) => (typeof value === 'string' && value.trim() ? value.split(',').map((s) => s.trim()).filter(Boolean) : undefined);
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
function filterOf(query: Record<string, unknown>, archive: { categories?: string[]; tags?: string[] }) {
  const filter: Record<string, unknown> = {
    startDate: query.start_date,
    endDate: query.end_date,
    search: query.search,
    categories: archive.categories ?? list(query.categories),
    tags: archive.tags ?? list(query.tags),
    venue: ids(query.venue),
    organizer: ids(query.organizer),
    featured: query.featured === undefined ? undefined : ['1', 'true'].includes(String(query.featured)),
  };
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) delete filter[key];
    else if (Array.isArray(value) && value.some((v) => typeof v === 'number' && !Number.isSafeInteger(v))) throw new FeedError(400, `Invalid parameter: ${PARAMETERS[key]}.`);
    else if (typeof value !== 'string' && typeof value !== 'boolean' && !Array.isArray(value)) throw new FeedError(400, `Invalid parameter: ${PARAMETERS[key]}.`);
  }
  return filter;
}

export function icalRoutes({ config, runner, resolveViewer, context }: IcalRoutesOptions): Middleware {
  const router = new Router();

  async function viewerOf(ctx: Context) {
    const viewer = await resolveViewer(ctx);
    if (viewer === 'invalid') throw new FeedError(401, 'Invalid API key.');
    return viewer;
  }

  function send(ctx: Context, events: ICalEvent[], name: string, file: string) {
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.set('Content-Disposition', `inline; filename="${file}.ics"`);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = toICalendar(events, { siteUrl: config.siteUrl, calendarName: name, now: new Date() });
  }

  async function listFeed(ctx: Context, archive: { categories?: string[]; tags?: string[] }, name: string, file: string) {
    const graphqlContext = context(await viewerOf(ctx));
    const filter = filterOf(ctx.query, archive);
    const events: ICalEvent[] = [];
    for (let page = 1; events.length < ICAL_MAX_EVENTS; page++) {
      const result = await runner<{ events: { items: Row[] } }>(LIST, { filter, page, perPage: PAGE }, graphqlContext);
      if (result.errors?.length) {
        const error = result.errors[0];
        if (errorCode(error) !== 'INVALID_INPUT') throw error;
        const params = Object.keys((error.extensions?.params as Record<string, string>) ?? {});
        // An archive whose term does not exist is a page that does not exist.
        if ((archive.categories && params.includes('categories')) || (archive.tags && params.includes('tags'))) throw new FeedError(404, 'No such archive.');
        throw new FeedError(400, `Invalid parameter(s): ${params.map((name) => PARAMETERS[name] ?? name).join(', ')}.`);
      }
      const items = result.data!.events.items;
      events.push(...items.map(toEvent));
      if (items.length < PAGE) break;
    }
    send(ctx, events.slice(0, ICAL_MAX_EVENTS), name, file);
  }

  const wantsIcal = (ctx: Context) => ctx.query.ical !== undefined && ctx.query.ical !== '0';
  const site = config.siteName;

  router.get(['/events', '/events/'], async (ctx, next) => {
    if (!wantsIcal(ctx)) return next();
    await listFeed(ctx, {}, `${site}: events`, 'events');
  });
  router.get('/events.ics', (ctx) => listFeed(ctx, {}, `${site}: events`, 'events'));
  router.get(['/events/category/:slug', '/events/category/:slug/'], async (ctx, next) => {
    if (!wantsIcal(ctx)) return next();
    await listFeed(ctx, { categories: [ctx.params.slug] }, `${site}: ${ctx.params.slug}`, `category-${ctx.params.slug}`);
  });
  router.get(['/tag/:slug', '/tag/:slug/', '/events/tag/:slug', '/events/tag/:slug/'], async (ctx, next) => {
    if (!wantsIcal(ctx)) return next();
    await listFeed(ctx, { tags: [ctx.params.slug] }, `${site}: ${ctx.params.slug}`, `tag-${ctx.params.slug}`);
  });

  async function eventFeed(ctx: Context) {
    const slug = ctx.params.slug;
    const result = await runner<{ event: Row }>(ONE, { slug }, context(await viewerOf(ctx)));
    if (result.errors?.length) {
      const code = errorCode(result.errors[0]);
      if (code === 'PASSWORD_REQUIRED' || code === 'NOT_ACCESSIBLE') throw new FeedError(403, 'This event is not public.');
      if (code === 'NOT_FOUND' || code === 'INVALID_INPUT' || code === 'TRASHED') throw new FeedError(404, 'No such event.');
      throw result.errors[0];
    }
    send(ctx, [toEvent(result.data!.event)], result.data!.event.title, `event-${slug}`);
  }
  router.get(['/event/:slug/ical', '/event/:slug/ical/'], eventFeed);
  router.get(['/event/:slug', '/event/:slug/'], async (ctx, next) => {
    if (!wantsIcal(ctx)) return next();
    await eventFeed(ctx);
  });

  const routes = router.routes();
  return async (ctx, next) => {
    try {
      await routes(ctx as Parameters<typeof routes>[0], next);
    } catch (error) {
      if (!(error instanceof FeedError)) throw error;
      ctx.status = error.status;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `${error.message}\n`;
    }
  };
}
