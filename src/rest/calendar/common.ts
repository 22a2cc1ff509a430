// What the venue, organizer, category and tag routes share: TEC's archive paging args, per-request
// memos of GraphQL outcomes (a validator, the permission callback and the handler read one
// execution), GraphQL-safe scalars, and TEC's rest_url / next_rest_url / previous_rest_url.
import { isValidDateInput } from '../../calendar/dates/strtotime.js';
import { isUrl } from '../../calendar/validate.js';
import { MAX_PER_PAGE } from '../../calendar/paging.js';
import { cappedInt, isPositiveInt, timeValidator } from '../args.js';
import { phpEmpty, phpIntval, phpStrval } from '../../php/casts.js';
import { phpUrlencode } from '../../php/url-encoding.js';
import { RestError } from '../errors.js';
import type { ArgSpec, RestRequest } from '../route-table.js';
import { ref } from './item-schema.js';

/** A create/update arg; `toInput` turns a sent value into its GraphQL input field's (default: as sent). */
export interface WriteArg extends ArgSpec {
  toInput?: (value: unknown) => unknown;
}

/** EDIT_args: the create args, none required. */
export const editArgs = <T extends ArgSpec>(createArgs: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(createArgs).map(([name, spec]) => [name, { ...spec, required: false }]));

// ---------------------------------------------------------------------------------------------
// Archive args (Archive_*::READ_args), keys in TEC's order: the index shows them in that order.

export const pageArg: ArgSpec = { default: 1, description: 'The archive page to return', type: 'integer', validate: isPositiveInt };

/** Default: the site's posts per page, as the string WordPress's option holds; sanitized to min(50, int).
 *  That sanitizing is WordPress's arg rule (the value the answer's links and headers echo), not the
 *  list's cap, which src/calendar/paging.ts's pageSize applies to every list, REST and GraphQL alike. */
export const perPageArg = (what: string): ArgSpec => ({
  default: (req: RestRequest) => String(req.config.postsPerPage),
  description: `The number of ${what} to return on each page`,
  type: 'integer',
  validate: isPositiveInt,
  sanitize: cappedInt(MAX_PER_PAGE),
});

// ---------------------------------------------------------------------------------------------
// TEC's validators (tribe-common Validator/Base) that event and linked-post args share

/** Validator::is_time: a number, or a string strtotime parses. */
export const isTime = timeValidator(isValidDateInput);

/** Validator::is_url_or_empty: PHP-empty ('', '0', 0, false, null) or a URL. */
export const isUrlOrPhpEmpty = (value: unknown): boolean => phpEmpty(value) || isUrl(value);

/** GraphQL's Int: larger numbers cannot name a post, a user or a page. */
export const INT32_MAX = 2 ** 31 - 1;

/** A GraphQL Int from an id-like value (digits, or a whole number), or undefined when it cannot be one. */
export function gqlInt(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && Math.abs(n) <= INT32_MAX ? n : undefined;
}

/** The page a GraphQL list is asked for: the requested one when it is a valid page, capped to Int.
 *  The page size is capped once, by the list itself (src/calendar/paging.ts's pageSize). */
export function pageVariables(raw: Record<string, unknown>): { page: number; perPage?: number } {
  const page = isPositiveInt(raw.page) ? Math.min(INT32_MAX, phpIntval(raw.page)) : 1;
  const perPage = isPositiveInt(raw.per_page) ? Math.min(INT32_MAX, phpIntval(raw.per_page)) : undefined;
  return { page, perPage };
}

// ---------------------------------------------------------------------------------------------
// GraphQL outcomes, memoized per request

export type Outcome<T> = { data: T; error?: undefined } | { data?: undefined; error: unknown };

/** Runs `compute` once per request and key; every caller gets the same outcome (never a rejection). */
export function memo<T>(req: RestRequest, key: string, compute: () => Promise<T>): Promise<Outcome<T>> {
  let entry = req.memo.get(key) as Promise<Outcome<T>> | undefined;
  if (!entry) {
    entry = compute().then(
      (data) => ({ data }),
      (error: unknown) => ({ error }),
    );
    req.memo.set(key, entry);
  }
  return entry;
}

const POST_RIGHTS = `query($id: Int!) { postRights(id: $id) { edit delete } }`;

/**
 * WordPress's edit_post / delete_post on the post an id names, whatever its type (null when no post
 * has it): TEC's can_edit / can_delete ask current_user_can(…, id), and WordPress answers under the
 * rules of the post's own type, even on a route that expects another.
 */
export async function postRights(req: RestRequest, id: number): Promise<{ edit: boolean; delete: boolean } | null> {
  const outcome = await memo(req, `post-rights:${id}`, async () => (await req.graphql(POST_RIGHTS, { id })).data?.postRights ?? null);
  return outcome.data ?? null;
}

export function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.error !== undefined) throw outcome.error;
  return outcome.data as T;
}

/** A translated INVALID_INPUT (400 rest_invalid_param). */
export const isInvalidParam = (error: unknown): error is RestError => error instanceof RestError && error.code === 'rest_invalid_param';

/** The REST args a translated INVALID_INPUT (400 rest_invalid_param) names. */
export function invalidArgs(outcome: Outcome<unknown>): Set<string> {
  const error = outcome.error;
  return isInvalidParam(error) ? new Set(Object.keys((error.data.params ?? {}) as object)) : new Set();
}

/** GraphQL status enum names (PUBLISH, AUTO_DRAFT) → WordPress statuses (publish, auto-draft). */
export const wpStatus = (name: unknown) => String(name).toLowerCase().replace('_', '-');

// ---------------------------------------------------------------------------------------------
// TEC's archive URLs (Archive_Base::get_current_rest_url, get_next_rest_url, get_previous_rest_url)

type QueryPairs = Array<[string, unknown]>;

/**
 * add_query_arg's query: null skipped, false dropped, arrays as CSV, an empty value written `k`.
 * Values are urlencoded throughout (spec §6.3; the original leaves rest_url's values raw and only
 * encodes next/previous).
 */
export function queryUrl(base: string, pairs: QueryPairs): string {
  const parts: string[] = [];
  for (const [key, value] of pairs) {
    if (value === null || value === undefined || value === false) continue;
    const text = Array.isArray(value) ? value.map(phpStrval).join(',') : phpStrval(value);
    parts.push(text === '' ? phpUrlencode(key) : `${phpUrlencode(key)}=${phpUrlencode(text)}`);
  }
  return parts.length ? `${base}?${parts.join('&')}` : base;
}

/** next_rest_url: the query without `page`, then page=N+1. */
export const nextUrl = (base: string, pairs: QueryPairs, page: number) => queryUrl(base, [...pairs, ['page', page + 1]]);

/** previous_rest_url: the query without `page`, then page=N-1 unless that is the first page. */
export const previousUrl = (base: string, pairs: QueryPairs, page: number) =>
  queryUrl(base, page === 2 ? pairs : [...pairs, ['page', page - 1]]);

/** The archives' headers (no Link, no X-WP-*). */
export const totalHeaders = (total: number, totalPages: number) => ({
  'X-TEC-Total': String(total),
  'X-TEC-TotalPages': String(totalPages),
});

/** WordPress's `rest_url()` (the REST root with a trailing slash) for the request's site. */
export const restRoot = (req: RestRequest) => req.namespaceUrl.slice(0, req.namespaceUrl.length - req.namespace.length);

// ---------------------------------------------------------------------------------------------
// /doc pieces (TEC's get_documentation responses)

const jsonContent = (schema: unknown) => ({ 'application/json': { schema } });
export const response = (description: string, schema?: unknown) =>
  schema ? { description, content: jsonContent(schema) } : { description };

/** An archive's GET responses: the list, a bad query, a missing page. */
export function archiveResponses(title: string, what: string, schema: string, notFound = 'The requested page was not found.') {
  return {
    '200': response(`Returns all the ${what} matching the search criteria`, { title, type: 'array', items: ref(schema) }),
    '400': response('One or more of the specified query variables has a bad format'),
    '404': response(notFound),
  };
}
