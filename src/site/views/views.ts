// The calendar's views (The Events Calendar 6's list, month and day) at the original's URLs, each
// also an iCalendar feed of the same events with `?ical=1`. Data comes from GraphQL in-process, so a
// visitor sees what the API shows the same caller. A month costs a fixed number of statements
// whatever the calendar holds and however many weeks its grid has: one eventDays query answers every
// day of the grid, each capped at MONTH_EVENTS_PER_DAY events with its total (the "+N more").
import type { Context } from 'koa';
import { errorCode } from '../../graphql/errors.js';
import type { feeds } from '../feeds.js';
import { EVENT_CARD_FIELDS, type PageEvent, type PageHead } from '../pages.js';
import { SiteError, type SiteServices } from '../services.js';
import { addDays, addMonths, dayLabel, monthGrid, monthLabel, nowUtcWall, todayIn } from './calendar-days.js';
import { dayView, listView, monthView, type CellEvent, type MonthDay, type TermOption, type ViewChrome } from './view-html.js';
import { page, type PageRoute } from '../../http/page-route.js';
import { feedParameters, readView, VIEW_ROUTE, viewUrl, type ViewState } from './view-state.js';

/** Events a month's day shows before "+N more": the original's `month_posts_per_page` default. */
export const MONTH_EVENTS_PER_DAY = 12;
/** Events a day view shows (the API's largest page); the rest are in the list from that day. */
const DAY_EVENTS = 50;

const CELL = 'id title url allDay startDate endDate timezoneAbbr featured eventStatus';
const LIST = `query SiteViewList($filter: EventFilter!, $page: Int!, $perPage: Int!) {
  events(filter: $filter, page: { page: $page, perPage: $perPage }) { total totalPages items { ${EVENT_CARD_FIELDS} } }
}`;
const COUNT = `query SiteViewCount($filter: EventFilter!) { events(filter: $filter, page: { page: 1, perPage: 1 }) { total } }`;
const TWO_PAGES = `query SiteViewPages($filter: EventFilter!, $a: Int!, $b: Int!, $perPage: Int!) {
  a: events(filter: $filter, page: { page: $a, perPage: $perPage }) { items { ${EVENT_CARD_FIELDS} } }
  b: events(filter: $filter, page: { page: $b, perPage: $perPage }) { items { ${EVENT_CARD_FIELDS} } }
}`;
const TERMS = `query SiteViewTerms { eventCategories(page: { page: 1, perPage: 50 }) { items { name slug } }
  tags(page: { page: 1, perPage: 50 }) { items { name slug } } }`;
const CATEGORY = `query SiteViewCategory($slug: String!) { eventCategory(slug: $slug) { name } }`;
const TAG = `query SiteViewTag($slug: String!) { tag(slug: $slug) { name } }`;

const MONTH = `query SiteViewMonth($filter: EventFilter!, $from: String!, $to: String!, $perDay: Int!) {
  eventDays(filter: $filter, from: $from, to: $to, perDay: $perDay) { day total items { ${CELL} } }
}`;

/** The GraphQL filter names a view's URL sets, by the URL's names (for error messages). */
const URL_NAMES: Record<string, string> = {
  search: 'tribe-bar-search',
  categories: 'tribe_events_cat',
  tags: 'tag',
  venue: 'tribe_venues',
  organizer: 'tribe_organizers',
};

type EventFilter = Record<string, unknown>;
type SendPage = (ctx: Context, head: Pick<PageHead, 'title' | 'feedUrl' | 'canonical'>, main: string) => void;

export interface ViewDependencies {
  services: SiteServices;
  feed: ReturnType<typeof feeds>;
  /** Makes the records' absolute URLs site paths (routes.ts). */
  local(value: unknown): unknown;
  sendPage: SendPage;
}

/** The view's search and filters as the event list's filter; an archive's term replaces that filter. */
function filterOf(state: ViewState): EventFilter {
  const filter: EventFilter = {
    search: state.search,
    categories: state.archive?.kind === 'category' ? [state.archive.slug] : state.filters.categories,
    tags: state.archive?.kind === 'tag' ? [state.archive.slug] : state.filters.tags,
    venue: state.filters.venue,
    organizer: state.filters.organizer,
  };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
}

/** Events that overlap a calendar day (a multi-day event is on each of its days), in each event's own zone. */
const onDay = (filter: EventFilter, day: string): EventFilter => ({ ...filter, startsBefore: day, endsAfter: addDays(day, -1) });

export function viewRoutes({ services, feed, local, sendPage }: ViewDependencies): PageRoute {
  const { config, runner } = services;

  async function run<T>(ctx: Context, source: string, variables: Record<string, unknown>): Promise<T> {
    const result = await runner<T>(source, variables, await services.graphqlContext(ctx));
    const error = result.errors?.[0];
    if (error) {
      if (errorCode(error) !== 'INVALID_INPUT') throw error;
      const params = Object.keys((error.extensions?.params as Record<string, string>) ?? {});
      throw new SiteError(400, `Invalid parameter(s): ${params.map((param) => URL_NAMES[param] ?? param).join(', ') || 'unknown'}.`);
    }
    return local(result.data) as T;
  }

  /** The archive's term name; an unknown term is a page that does not exist. */
  async function archiveName(ctx: Context, state: ViewState): Promise<string | undefined> {
    if (!state.archive) return undefined;
    const { kind, slug } = state.archive;
    const result = await runner<{ eventCategory?: { name: string }; tag?: { name: string } }>(
      kind === 'category' ? CATEGORY : TAG,
      { slug },
      await services.graphqlContext(ctx),
    );
    if (result.errors?.length) {
      if (errorCode(result.errors[0]) === 'INVALID_INPUT' || errorCode(result.errors[0]) === 'NOT_FOUND')
        throw new SiteError(404, 'There is no such page.');
      throw result.errors[0];
    }
    return (result.data?.eventCategory ?? result.data?.tag)!.name;
  }

  async function chromeOf(ctx: Context, state: ViewState, today: string): Promise<ViewChrome> {
    const name = await archiveName(ctx, state);
    const terms = await run<{ eventCategories: { items: TermOption[] }; tags: { items: TermOption[] } }>(ctx, TERMS, {});
    const self = viewUrl(state);
    return {
      state,
      today,
      archiveName: name,
      // Within an archive its own taxonomy is fixed by the path.
      categories: state.archive?.kind === 'category' ? [] : terms.eventCategories.items,
      tags: state.archive?.kind === 'tag' ? [] : terms.tags.items,
      feedUrl: `${self}${self.includes('?') ? '&' : '?'}ical=1`,
    };
  }

  function send(ctx: Context, chrome: ViewChrome, title: string, main: string) {
    sendPage(ctx, { title, feedUrl: `${config.siteUrl}${chrome.feedUrl}`, canonical: `${config.siteUrl}${viewUrl(chrome.state)}` }, main);
  }

  async function month(ctx: Context, state: ViewState, today: string) {
    const days = monthGrid(state.date!);
    const filter = filterOf(state);
    const chrome = await chromeOf(ctx, state, today);
    const data = await run<{ eventDays: { day: string; total: number; items: CellEvent[] }[] }>(ctx, MONTH, {
      filter,
      from: days[0],
      to: days[days.length - 1],
      perDay: MONTH_EVENTS_PER_DAY,
    });
    const cells: MonthDay[] = data.eventDays.map(({ day, total, items }) => ({ day, events: items, more: total - items.length }));
    send(ctx, chrome, `Events in ${monthLabel(state.date!)}`, monthView(chrome, cells));
  }

  async function day(ctx: Context, state: ViewState, today: string) {
    const chrome = await chromeOf(ctx, state, today);
    const data = await run<{ events: { total: number; items: PageEvent[] } }>(ctx, LIST, {
      filter: onDay(filterOf(state), state.date!),
      page: 1,
      perPage: DAY_EVENTS,
    });
    send(ctx, chrome, `Events on ${dayLabel(state.date!)}`, dayView(chrome, data.events.items, data.events.total));
  }

  /** The list: upcoming (ending after now, or from its date on), or past (ending before), newest page first. */
  async function list(ctx: Context, state: ViewState, today: string) {
    const chrome = await chromeOf(ctx, state, today);
    const perPage = config.postsPerPage;
    const base = filterOf(state);
    let items: PageEvent[];
    let total: number;
    let totalPages: number;
    if (!state.past) {
      const filter = state.date ? { ...base, endsAfter: addDays(state.date, -1) } : { ...base, endsAfter: nowUtcWall(), strictDates: true };
      const data = await run<{ events: { total: number; totalPages: number; items: PageEvent[] } }>(ctx, LIST, {
        filter,
        page: state.page,
        perPage,
      });
      ({ total, totalPages, items } = data.events);
    } else {
      // The API lists in start order; the past list pages from the newest events back, so its page
      // n is the n-th slice from the end: found with the total, in at most two of the API's pages.
      const filter = state.date
        ? { ...base, endsBefore: addDays(state.date, -1) }
        : { ...base, endsBefore: nowUtcWall(), strictDates: true };
      total = (await run<{ events: { total: number } }>(ctx, COUNT, { filter })).events.total;
      totalPages = Math.max(1, Math.ceil(total / perPage));
      const end = Math.max(0, total - (state.page - 1) * perPage);
      const start = Math.max(0, end - perPage);
      const a = Math.floor(start / perPage) + 1;
      const b = Math.max(a, Math.floor(Math.max(0, end - 1) / perPage) + 1);
      const data = await run<{ a: { items: PageEvent[] }; b: { items: PageEvent[] } }>(ctx, TWO_PAGES, { filter, a, b, perPage });
      const rows = a === b ? data.a.items : [...data.a.items, ...data.b.items];
      const offset = (a - 1) * perPage;
      items = rows.slice(start - offset, end - offset);
    }
    if (state.page > 1 && state.page > totalPages) throw new SiteError(404, 'There is no such page.');
    const title = state.past ? 'Past events' : 'Upcoming events';
    send(ctx, chrome, title, listView(chrome, items, { total, totalPages }));
  }

  /** The view's events as a calendar file: the feed of the same filters and dates. */
  async function calendarFile(ctx: Context, state: ViewState, today: string) {
    let window: { start?: string; end?: string };
    if (state.display === 'month') window = { start: `${state.date}-01`, end: addDays(`${addMonths(state.date!, 1)}-01`, -1) };
    else if (state.display === 'day') window = { start: state.date, end: state.date };
    else if (state.past) window = { start: '1970-01-01', end: state.date ? addDays(state.date, -1) : today };
    else window = { start: state.date ?? today };
    ctx.query = feedParameters(state, window);
    const archive =
      state.archive?.kind === 'category'
        ? { categories: [state.archive.slug] }
        : state.archive?.kind === 'tag'
          ? { tags: [state.archive.slug] }
          : {};
    const file = `events-${state.display}${state.date ? `-${state.date}` : ''}`;
    await feed.list(ctx, archive, `${config.siteName}: events`, file);
  }

  return page(VIEW_ROUTE, async ({ ctx }) => {
    const today = todayIn(config.siteTimezone);
    const state = readView(ctx.path, ctx.query, today)!;
    if (ctx.query.ical !== undefined && ctx.query.ical !== '0') return calendarFile(ctx, state, today);
    if (state.display === 'month') return month(ctx, state, today);
    if (state.display === 'day') return day(ctx, state, today);
    return list(ctx, state, today);
  });
}
