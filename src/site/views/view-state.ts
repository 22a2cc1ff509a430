// The calendar views' URLs as The Events Calendar 6 names them (its Rewrite::generate_core_rules and
// Views V2's query arguments), read into one state and written back from it, so that every link a
// view makes (previous, next, today, another view, a page) keeps the visitor's search and filters.
//
//   /events/list/  /events/list/page/2/  /events/page/2/          list (upcoming; ?eventDisplay=past)
//   /events/month/  /events/month/2026-12/  /events/2026-12/      month
//   /events/today/  /events/2026-12-05/  /events/day/2026-12-05/  day
//   /events/category/<slug path>/<any of the above>               the same within a category archive
//   /events/tag/<slug>/<any of the above>                         the same within a tag archive
//
// Query arguments: tribe-bar-date (alias eventDate) the view's date, tribe-bar-search the keyword,
// eventDisplay=past the past list, and the filters tribe_events_cat (category slugs, WordPress's
// query variable), tag (tag slugs), tribe_venues and tribe_organizers (ids, Filter Bar's names);
// lists are comma-separated. Pure code: no HTTP, no GraphQL.
import { SiteError } from '../services.js';

export type Display = 'list' | 'month' | 'day';

export interface ViewFilters {
  categories?: string[];
  tags?: string[];
  venue?: number[];
  organizer?: number[];
}

export interface ViewState {
  display: Display;
  /** "/events/", "/events/category/music/jazz/" or "/events/tag/live/". */
  base: string;
  /** The archive the base names, if any. */
  archive?: { kind: 'category' | 'tag'; slug: string };
  /** Month view: "YYYY-MM"; day view: "YYYY-MM-DD"; list view: the day it starts from, if given. */
  date?: string;
  /** The list's page, from 1. */
  page: number;
  past: boolean;
  search?: string;
  filters: ViewFilters;
}

/** A view's path; the plain /events/ and the archives' roots stay the lists they are (src/site/routes.ts). */
export const VIEW_ROUTE = String.raw`/events/(?:(category/(?:[^/]+/)*?[^/]+|tag/[^/]+)/)?(?:(month)(?:/(\d{4}-\d{2}))?|list(?:/page/(\d+))?|page/(\d+)|(today)|(?:day/)?(\d{4}-\d{2}-\d{2})|(\d{4}-\d{2}))/?`;
const VIEW_PATH = new RegExp(`^${VIEW_ROUTE}$`);

const MAX_SEARCH = 200;

/** A calendar date that exists, years 1000–9999 ("2026-02-30" does not). */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || text < '1000') return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}
const isMonth = (text: string) => /^\d{4}-\d{2}$/.test(text) && isDay(`${text}-01`);

type Query = Record<string, string | string[] | undefined>;
const one = (query: Query, ...names: string[]) => {
  for (const name of names) {
    const value = query[name];
    if (value !== undefined) return (Array.isArray(value) ? value[value.length - 1] : value)!.trim();
  }
  return undefined;
};
const list = (query: Query, ...names: string[]) => {
  const values = names.flatMap((name) => [query[name], query[`${name}[]`]]).flat();
  const items = values.flatMap((value) => (value ?? '').split(',')).map((item) => item.trim());
  return items.filter(Boolean);
};
function ids(query: Query, name: string): number[] | undefined {
  const items = list(query, name);
  if (!items.length) return undefined;
  if (!items.every((item) => /^\d{1,9}$/.test(item) && Number(item) > 0)) throw new SiteError(400, `Invalid parameter: ${name} takes ids.`);
  return items.map(Number);
}

/**
 * The view a path and its query arguments ask for; null when the path is no view's. `today` is the
 * site's date ("YYYY-MM-DD" in its time zone), for the views that default to it.
 */
export function readView(path: string, query: Query, today: string): ViewState | null {
  const m = VIEW_PATH.exec(path);
  if (!m) return null;
  const [, archivePath, month, monthDate, listPage, defaultPage, todayView, dayDate, bareMonth] = m;
  let archive: ViewState['archive'];
  if (archivePath) {
    // A malformed escape throws URIError: routes.ts answers it as a page that does not exist.
    const parts = archivePath.split('/').map((part) => decodeURIComponent(part));
    archive = { kind: parts[0] === 'tag' ? 'tag' : 'category', slug: parts[parts.length - 1]! };
  }
  const base = `/events/${archivePath ? `${archivePath}/` : ''}`;
  const barDate = one(query, 'tribe-bar-date', 'eventDate');
  if (barDate !== undefined && barDate !== '' && !isDay(barDate) && !isMonth(barDate))
    throw new SiteError(400, 'Invalid parameter: tribe-bar-date takes a date (YYYY-MM-DD or YYYY-MM).');
  const search = one(query, 'tribe-bar-search');
  if (search && search.length > MAX_SEARCH)
    throw new SiteError(400, `Invalid parameter: tribe-bar-search is longer than ${MAX_SEARCH} characters.`);
  const page = Number(listPage ?? defaultPage ?? 1);
  if (!Number.isSafeInteger(page) || page < 1 || page > 100_000) throw new SiteError(404, 'There is no such page.');
  const state: ViewState = {
    display: month || bareMonth ? 'month' : todayView || dayDate ? 'day' : 'list',
    base,
    archive,
    page,
    past: one(query, 'eventDisplay', 'tribe_event_display') === 'past',
    search: search || undefined,
    filters: {
      categories: list(query, 'tribe_events_cat').length ? list(query, 'tribe_events_cat') : undefined,
      tags: list(query, 'tag').length ? list(query, 'tag') : undefined,
      venue: ids(query, 'tribe_venues'),
      organizer: ids(query, 'tribe_organizers'),
    },
  };
  // The path's date wins over today; tribe-bar-date wins over the path's (TEC's Hooks::filter_view_params).
  const given = barDate || undefined;
  if (state.display === 'month') {
    const chosen = given?.slice(0, 7) ?? monthDate ?? bareMonth ?? today.slice(0, 7);
    if (!isMonth(chosen)) throw new SiteError(404, 'There is no such month.');
    state.date = chosen;
  } else if (state.display === 'day') {
    const chosen = given && isDay(given) ? given : (dayDate ?? today);
    if (!isDay(chosen)) throw new SiteError(404, 'There is no such day.');
    state.date = chosen;
  } else if (given) {
    state.date = isDay(given) ? given : `${given}-01`;
  }
  return state;
}

/** The query arguments that carry the search and filters from view to view. */
function keptArguments(state: ViewState): [string, string][] {
  const args: [string, string][] = [];
  if (state.search) args.push(['tribe-bar-search', state.search]);
  if (state.filters.categories) args.push(['tribe_events_cat', state.filters.categories.join(',')]);
  if (state.filters.tags) args.push(['tag', state.filters.tags.join(',')]);
  if (state.filters.venue) args.push(['tribe_venues', state.filters.venue.join(',')]);
  if (state.filters.organizer) args.push(['tribe_organizers', state.filters.organizer.join(',')]);
  return args;
}

/**
 * The URL of a view (a path, with the search and filters kept): the month or day at `date`, the list
 * at `page` (past or upcoming, from `date`). A date equal to `today` is the view's plain URL.
 */
export function viewUrl(state: ViewState, to: Partial<Pick<ViewState, 'display' | 'date' | 'page' | 'past'>> = {}): string {
  const next = { ...state, ...to };
  let path = state.base;
  const args = keptArguments(state);
  if (next.display === 'month') path += next.date ? `month/${next.date.slice(0, 7)}/` : 'month/';
  else if (next.display === 'day') path += next.date ? `${next.date}/` : 'today/';
  else {
    path += next.page > 1 ? `list/page/${next.page}/` : 'list/';
    if (next.past) args.unshift(['eventDisplay', 'past']);
    if (next.date) args.push(['tribe-bar-date', next.date]);
  }
  const query = new URLSearchParams(args).toString();
  return query ? `${path}?${query}` : path;
}

/** The hidden fields a view's search form carries, so a search keeps the filters. */
export function filterFields(state: ViewState): [string, string][] {
  const fields = keptArguments(state).filter(([name]) => name !== 'tribe-bar-search');
  if (state.display === 'list' && state.past) fields.unshift(['eventDisplay', 'past']);
  return fields;
}

/** The REST list parameters of the feed with the same events (src/site/feeds.ts reads these names). */
export function feedParameters(state: ViewState, window: { start?: string; end?: string }): Record<string, string> {
  const params: Record<string, string> = {};
  if (window.start) params.start_date = window.start;
  if (window.end) params.end_date = window.end;
  if (state.search) params.search = state.search;
  if (state.filters.categories) params.categories = state.filters.categories.join(',');
  if (state.filters.tags) params.tags = state.filters.tags.join(',');
  if (state.filters.venue) params.venue = state.filters.venue.join(',');
  if (state.filters.organizer) params.organizer = state.filters.organizer.join(',');
  return params;
}
