// The event routes of The Events Calendar REST API v1 (spec §2.1–2.4): one row per route — its
// path, its args exactly as the original registers them (names, order, defaults, descriptions:
// samples/01-index.http), the GraphQL operation each endpoint runs and how the result is shaped.
// Validators here are the original's syntactic checks; existence (venues, users, images, terms…)
// is checked by GraphQL, which reports it as INVALID_INPUT before it checks permission.
import { canCreatePosts, canEditPost, canReadPrivate, isPostStatus } from '../../calendar/capabilities.js';
import { isValidTimezone, toZone } from '../../calendar/dates/zones.js';
import { formatWall } from '../../calendar/dates/wall-times.js';
import { parseDateInput } from '../../calendar/dates/strtotime.js';
import { isStrictFlag } from '../../calendar/dates/schedule.js';
import { tecSanitizeString } from '../../calendar/text.js';
import { isUrlOrEmpty } from '../../calendar/validate.js';
import { isNonEmptyString, isPositiveInt, parseRequestArg } from '../args.js';
import { phpEmpty, phpFloatval, phpIntval, phpIsNumeric } from '../../php/casts.js';
import { listToArray, tribeIsTruthy } from '../../php/tribe.js';
import { isPlainObject } from '../../values.js';
import { ArgError, RestError, forbidden } from '../errors.js';
import {
  CREATABLE,
  DELETABLE,
  EDITABLE,
  READABLE,
  created,
  ok,
  type ArgSpec,
  type Args,
  type Endpoint,
  type HttpMethod,
  type OperationDoc,
  type RestRequest,
  type RestResult,
  type Route,
} from '../route-table.js';
import { INT32_MAX, editArgs, isTime, pageArg, perPageArg, postRights, totalHeaders, type WriteArg } from './common.js';
import { graphqlArgName, run } from './errors.js';
import { ref } from './item-schema.js';
import { eventFields, eventRecord } from './records.js';
import type { GraphQLData } from '../../graphql/execute.js';

// ---------------------------------------------------------------------------------------------
// Validators (TEC Validator/Base), on raw values

const isScalarItem = (v: unknown) => (typeof v === 'string' && !v.includes('\0')) || typeof v === 'number';
/** A numeric id GraphQL can carry (beyond INT32_MAX nothing exists, so those are invalid too). */
const isIdItem = (v: unknown) => isPositiveInt(v) && phpFloatval(v) <= INT32_MAX;

/** is_term_of_taxonomy's and filter_post_status_list's shape: a non-empty list of ids, slugs or
 *  statuses. Whether the terms exist and the caller may list those statuses is GraphQL's to say. */
const isScalarList = (v: unknown) => {
  const items = listToArray(v);
  return items.length > 0 && items.every(isScalarItem);
};
/** is_venue_id_list / is_organizer_id_list's shape: a non-empty list of numeric ids. */
const isIdList = (v: unknown) => {
  const items = listToArray(v);
  return items.length > 0 && items.every(isIdItem);
};
/** is_positive_int_list. */
const isPositiveIntList = (v: unknown) => {
  const items = listToArray(v);
  return items.length > 0 && items.every(isPositiveInt);
};
/** is_event_id: (int) of the value names an event — the id part here, the event part in GraphQL. */
const isEventIdShape = (v: unknown) => !phpEmpty(v) && phpIntval(v) > 0 && phpIntval(v) <= INT32_MAX;
/** is_event_id_format: numeric (0 included: it is the handler that answers "does not exist"). */
const isEventIdFormat = (v: unknown) => v !== '' && v !== false && phpIsNumeric(v);
/** is_user_id: numeric (the user's existence is GraphQL's). */
const isUserIdShape = (v: unknown) => phpIsNumeric(v) && Math.abs(phpFloatval(v)) <= INT32_MAX;
const isPostStatusArg = (v: unknown) => typeof v === 'string' && isPostStatus(v);
const isTimezoneOrEmpty = (v: unknown) => phpEmpty(v) || (typeof v === 'string' && isValidTimezone(v));
/** is_image: an attachment id or an image URL (which one exists and may be used is GraphQL's). */
const isImageShape = (v: unknown) => phpIsNumeric(v) || typeof v === 'string';

/** PostgreSQL cannot store U+0000 (WordPress's MySQL can): values holding it are refused as invalid. */
const hasNul = (v: unknown): boolean =>
  typeof v === 'string'
    ? v.includes('\0')
    : Array.isArray(v)
      ? v.some(hasNul)
      : isPlainObject(v) && Object.entries(v).some(([k, x]) => k.includes('\0') || hasNul(x));

/** A table whose every arg also refuses what the database cannot store. */
function storable<T extends ArgSpec = ArgSpec>(args: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(args).map(([name, spec]) => {
      const check = spec.validate;
      return [
        name,
        { ...spec, validate: (v: unknown, req: RestRequest, n: string) => (hasNul(v) ? false : check ? check(v, req, n) : true) },
      ];
    }),
  );
}

/** supports_ticketed: falsy passes; truthy needs Event Tickets, which Almanac does not have. */
function supportsTicketed(value: unknown) {
  if (!tribeIsTruthy(value)) return true;
  return new ArgError('event-tickets-not-active', 'Event Tickets plugin is not activated.', { status: 400 });
}

/** `image` is a string arg; Almanac also takes a JSON number (attachment id), decision 9. */
function sanitizeImage(value: unknown, _req: RestRequest, name: string) {
  return typeof value === 'number' ? String(value) : parseRequestArg(value, { type: 'string' }, name);
}

// ---------------------------------------------------------------------------------------------
// Per-request defaults of the list (Archive_Event::READ_args)

/**
 * start_date: Tribe__Timezones::localize_date('Y-m-d H:i:s', 'yesterday 23:59') — read in UTC, shown
 * site-local; end_date: date('Y-m-d H:i:s', strtotime('+24 months')) in PHP's UTC. Both change at
 * most once a second, so they are computed once a second.
 */
let defaults = { second: -1, zone: '', start: '', end: '' };
function listDefaults(req: RestRequest) {
  const second = Math.floor(Date.now() / 1000);
  const zone = req.config.siteTimezone;
  if (defaults.second !== second || defaults.zone !== zone) {
    const now = new Date(second * 1000);
    const start = formatWall(parseDateInput('yesterday 23:59', 'UTC', now)!.setZone(toZone(zone, 'UTC')));
    defaults = { second, zone, start, end: formatWall(parseDateInput('+24 months', 'UTC', now)!) };
  }
  return defaults;
}

// ---------------------------------------------------------------------------------------------
// Arg tables. Key order inside each spec is the order the index prints its keywords.

const asString = (v: unknown) => String(v);
const time = (description: string, extra: ArgSpec = {}): ArgSpec => ({ ...extra, description, validate: isTime, swaggerType: 'string' });
const list = (description: string, validate: (v: unknown) => boolean): ArgSpec => ({
  description,
  items: { type: 'integer' },
  validate,
  swaggerType: 'array',
  collectionFormat: 'csv',
});

const READ_ARGS: Args = storable({
  page: pageArg,
  per_page: perPageArg('events'),
  start_date: time('Events that start on the specified date', { default: (req: RestRequest) => listDefaults(req).start }),
  end_date: time('Events that end on the specified date', { default: (req: RestRequest) => listDefaults(req).end }),
  starts_before: time('Events that start before the specified date'),
  starts_after: time('Events that start after the specified date'),
  ends_before: time('Events that end before the specified date'),
  ends_after: time('Events that end after the specified date'),
  strict_dates: {
    default: 'false',
    description:
      'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.',
    validate: isNonEmptyString,
    swaggerType: 'string',
  },
  search: {
    description: 'Events should contain the specified string in the title or description',
    type: 'string',
    validate: isNonEmptyString,
  },
  categories: list('Events should be assigned one of the specified categories slugs or IDs', isScalarList),
  tags: list('Events should be assigned one of the specified tags slugs or IDs', isScalarList),
  venue: list('Events should be assigned one of the specified venue IDs', isIdList),
  organizer: list('Events should be assigned one of the specified organizer IDs', isIdList),
  featured: { type: 'boolean', description: 'Events should be filtered by their featured status' },
  status: { format: 'string', description: 'The event post status', validate: isScalarList, swaggerType: 'string' },
  geoloc: {
    type: 'boolean',
    description: 'Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data',
  },
  geoloc_lat: {
    format: 'double',
    description: 'Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng',
    swaggerType: 'number',
  },
  geoloc_lng: {
    format: 'double',
    description: 'Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat',
    swaggerType: 'number',
  },
  include: {
    ...list('Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.', isPositiveIntList),
    sanitize: (value) => listToArray(value),
  },
  post_parent: {
    type: 'integer',
    description: 'Events should be filtered by their post_parent being the specified one.',
    validate: isEventIdShape,
  },
  ticketed: { type: 'boolean', description: 'Filter events with or without tickets.', validate: supportsTicketed },
});

const flag = (description: string): ArgSpec => ({ type: 'boolean', description });
const text = (description: string, validate: (v: unknown) => boolean = isNonEmptyString): ArgSpec => ({
  type: 'string',
  description,
  validate,
});
const linked = (description: string): WriteArg => ({
  default: null,
  items: { type: 'integer' },
  description,
  swaggerType: 'array',
  toInput: fitLinked,
});
/** categories, tags: ids or names, as strings (CSV items too). */
const terms = (description: string): WriteArg => ({
  default: null,
  items: { type: 'integer' },
  description,
  swaggerType: 'array',
  toInput: (v) => stringList(v, true).map((item) => String(fitId(item))),
});

const CREATE_ARGS = storable<WriteArg>({
  author: { type: 'integer', description: 'The event author ID', validate: isUserIdShape },
  date: { ...text('The event publication date', isTime), toInput: asString },
  date_utc: { ...text('The event publication date (UTC time zone)', isTime), toInput: asString },
  title: { ...text('The event title'), required: true },
  description: text('The event description'),
  slug: text('The event slug'),
  excerpt: text('The event excerpt'),
  status: text('The event post status', isPostStatusArg),
  timezone: text('The event time zone', isTimezoneOrEmpty),
  all_day: { default: false, type: 'boolean', description: 'Whether the event lasts the whole day or not' },
  start_date: { ...text('The event start date and time', isTime), required: true, toInput: asString },
  end_date: { ...text('The event end date and time', isTime), required: true, toInput: asString },
  image: { ...text('The event featured image ID or URL', isImageShape), sanitize: sanitizeImage, toInput: (v) => String(fitId(v)) },
  cost: { description: 'The event cost', swaggerType: 'string', toInput: (v) => stringList(v, false) },
  website: { default: null, description: 'The event website URL', validate: isUrlOrEmpty, swaggerType: 'string' },
  show_map: flag('Whether the event should show a map or not'),
  show_map_link: flag('Whether the event should show a map link or not'),
  hide_from_listings: flag('Whether events should be hidden in the calendar view or not'),
  sticky: flag('Whether the event should be sticky in the calendar view or not'),
  featured: flag('Whether the event should be featured on the site or not'),
  categories: terms('The event category ID or name'),
  tags: terms('The event tag ID or name'),
  venue: linked('The event venue IDs or data'),
  organizer: linked('The event organizer IDs or data'),
});

const UPDATE_ARGS = editArgs(CREATE_ARGS);

const ID_ARGS: Args = storable({
  id: { in: 'path', type: 'integer', description: 'the event post ID', required: true, validate: isEventIdFormat },
  password: { in: 'query', type: 'string', description: 'The event password', validate: isNonEmptyString },
});

const SLUG_ARGS: Args = storable({
  slug: { in: 'path', type: 'string', description: 'the event post name', required: true, validate: (v) => !phpEmpty(v) },
});

/** On slug routes the update's own `slug` arg replaces the path one in place (PHP array_merge). */
const SLUG_UPDATE_ARGS: Args = { slug: UPDATE_ARGS.slug, ...UPDATE_ARGS };

// ---------------------------------------------------------------------------------------------
// GraphQL operations (parsed once, at first use)

const RECORD = eventFields(false);
const LIST = `query($filter: EventFilter, $page: PageInput, $password: String, $editContext: Boolean) {
  events(filter: $filter, page: $page, password: $password, editContext: $editContext) {
    total totalPages page perPage statuses dates { startDate endDate startsBefore startsAfter endsBefore endsAfter }
    items { ${RECORD} } } }`;
const ONE = `query($id: Int, $slug: String, $password: String, $editContext: Boolean) {
  event(id: $id, slug: $slug, password: $password, editContext: $editContext) { ${eventFields(true)} } }`;
const ACCESS = `query($id: Int) { event(id: $id, editContext: true) { author status } }`;
const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { ${RECORD} } }`;
const UPDATE = `mutation($id: Int, $slug: String, $input: UpdateEventInput!) { updateEvent(id: $id, slug: $slug, input: $input) { ${RECORD} } }`;
const DELETE = `mutation($id: Int, $slug: String) { deleteEvent(id: $id, slug: $slug) { ${RECORD} } }`;

// ---------------------------------------------------------------------------------------------
// Request → GraphQL variables

/** Scalars of a list as strings (categories, tags: ids or names; cost values). */
function stringList(value: unknown, splitCommas: boolean): string[] {
  if (typeof value === 'string') return splitCommas ? value.split(/\s*,\s*/) : [value];
  const items = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : [value];
  return items.filter(isScalarItem).map(String);
}

/** Ids are looked up as GraphQL Ints: a larger one names nothing (and PostgreSQL would refuse the lookup). */
const fitId = (v: unknown) =>
  (typeof v === 'number' || (typeof v === 'string' && /^\s*\d+\s*$/.test(v))) && Number(v) > INT32_MAX
    ? typeof v === 'number'
      ? INT32_MAX
      : String(INT32_MAX)
    : v;

/** `venue`/`organizer` as sent, ids fitted: scalars, CSV items, list items, and an entry's id/image/author. */
function fitLinked(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fitLinked);
  if (isPlainObject(v))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ['id', 'image', 'author'].includes(k) ? fitId(x) : x]));
  if (typeof v === 'string' && v.includes(',')) return v.split(',').map(fitId).join(',');
  return fitId(v);
}

/** The write's input: what the request carries (an explicit JSON null clears where GraphQL allows it). */
function eventInput(req: RestRequest, skip: string[] = []): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, { toInput }] of Object.entries(CREATE_ARGS)) {
    if (!req.has(name) || skip.includes(name)) continue;
    const value = req.params[name];
    if (name === 'timezone' && phpEmpty(value)) continue; // an empty time zone is ignored (prepare_postarr)
    input[graphqlArgName(name, 'event')] = value === undefined ? null : toInput ? toInput(value) : value;
  }
  return input;
}

/** What an id or slug route acts on. Ids beyond GraphQL's Int name nothing: 404 after the general
 *  capability check, as the original's get_post() miss does. */
function target(req: RestRequest, write: boolean): { id: number } | { slug: string } {
  if (Object.hasOwn(req.sources.url, 'slug')) return { slug: String(req.params.slug) };
  const id = req.params.id as number;
  if (Math.abs(id) > INT32_MAX) {
    if (write && !canCreatePosts(req.viewer)) throw forbidden(req.viewer !== null);
    throw new RestError('rest-event-not-found', `Event with ID ${id} does not exist.`, 404);
  }
  return { id };
}

/** The request's unlock of password-protected events: `password`, or `context=edit` (§3.7). */
const unlock = (req: RestRequest) => ({
  password: typeof req.params.password === 'string' ? req.params.password : undefined,
  editContext: req.params.context === 'edit',
});

// ---------------------------------------------------------------------------------------------
// Handlers

const given = (req: RestRequest, name: string, convert: (v: unknown) => unknown = asString) =>
  req.has(name) && req.params[name] !== undefined ? convert(req.params[name]) : undefined;

/**
 * TEC's event query (Tribe__Events__Query::getEvents) searches for the request variable
 * `tribe-bar-search` when it is not PHP-empty, over the `search` arg (which rest_url still shows).
 * The variable comes from $_REQUEST (a form body over the query) as WordPress slashed it, then
 * through TEC's sanitising (htmlspecialchars_decode, strip_tags); WP_Query strips the slashes.
 */
function barSearch(req: RestRequest): string | undefined {
  const value = req.sources.body['tribe-bar-search'] ?? req.sources.query['tribe-bar-search'];
  if (typeof value !== 'string') return undefined;
  const slashed = value.replace(/[\\'"\0]/g, (char) => (char === '\0' ? '\\0' : `\\${char}`));
  const sanitized = tecSanitizeString(slashed);
  return phpEmpty(sanitized) ? undefined : sanitized;
}

/** The list's filter: the caller's own values only (GraphQL applies the default date window). */
function listFilter(req: RestRequest): Record<string, unknown> {
  const ids = (v: unknown) => listToArray(v).map((id) => Math.min(phpIntval(id), INT32_MAX));
  return {
    startDate: given(req, 'start_date'),
    endDate: given(req, 'end_date'),
    startsBefore: given(req, 'starts_before'),
    startsAfter: given(req, 'starts_after'),
    endsBefore: given(req, 'ends_before'),
    endsAfter: given(req, 'ends_after'),
    strictDates: isStrictFlag(req.params.strict_dates),
    search: barSearch(req) ?? given(req, 'search'),
    categories: given(req, 'categories', (v) => listToArray(v).map((item) => String(fitId(item)))),
    tags: given(req, 'tags', (v) => listToArray(v).map((item) => String(fitId(item)))),
    venue: given(req, 'venue', ids),
    organizer: given(req, 'organizer', ids),
    featured: given(req, 'featured', Boolean),
    status: given(req, 'status', (v) => listToArray(v).map(String)),
    include: given(req, 'include', ids),
    postParent: given(req, 'post_parent', Number),
  };
}

interface EventPage {
  items: Record<string, GraphQLData>[];
  total: number;
  totalPages: number;
  page: number;
  perPage: number;
  statuses: string[];
  dates: Record<string, string | null>;
}

/** tribe's to_list(): arrays as CSV, anything else as sent. */
const toList = (v: unknown) => (Array.isArray(v) ? v.join(',') : isPlainObject(v) ? Object.values(v).join(',') : v);

/**
 * The effective arguments of `rest_url`, in the original's order (§6.3): the supported query vars,
 * then venue, organizer and featured. Categories and tags are not carried (quirk 7).
 */
function restUrlQuery(req: RestRequest, page: EventPage): Array<[string, unknown]> {
  const p = req.params;
  // Without `status`: WP's `any` for callers who may edit events, else `publish`; with it, the list asked.
  const status = p.status !== undefined ? page.statuses.join(',') : page.statuses.join(',') === 'publish' ? 'publish' : 'any';
  const geoloc: Array<[string, unknown]> =
    p.geoloc === true
      ? [
          ['geoloc', 1],
          ['geoloc_lat', p.geoloc_lat ?? ''],
          ['geoloc_lng', p.geoloc_lng ?? ''],
        ]
      : [];
  return [
    ['page', page.page],
    ['per_page', page.perPage],
    ['start_date', page.dates.startDate],
    ['end_date', page.dates.endDate],
    ['search', p.search],
    ...geoloc,
    ['status', status],
    ['post_parent', p.post_parent],
    ['include', p.include],
    ['starts_before', page.dates.startsBefore],
    ['starts_after', page.dates.startsAfter],
    ['ends_before', page.dates.endsBefore],
    ['ends_after', page.dates.endsAfter],
    ['venue', toList(p.venue)],
    ['organizer', toList(p.organizer)],
    ['featured', p.featured === true ? 1 : undefined],
  ];
}

/** GET /events (§2.1, §4): the page, its URLs and the X-TEC-* headers. */
async function listEvents(req: RestRequest): Promise<RestResult> {
  const variables = {
    filter: listFilter(req),
    page: { page: Math.min(req.params.page as number, INT32_MAX), perPage: req.params.per_page },
    ...unlock(req),
  };
  const page: EventPage = (await run(req, 'event', LIST, variables)).events;
  if (!page.items.length && page.page > 1) {
    throw new RestError('event-archive-page-not-found', 'The requested event archive page does not exist', 404);
  }
  const query = restUrlQuery(req, page);
  const withoutPage = query.filter(([name]) => name !== 'page');
  const body: Record<string, unknown> = { events: page.items.map((node) => eventRecord(node, req)), rest_url: req.url('/events/', query) };
  if (page.page * page.perPage < page.total) body.next_rest_url = req.url('/events/', [...withoutPage, ['page', page.page + 1]]);
  if (page.page > 1) body.previous_rest_url = req.url('/events/', page.page > 2 ? [...withoutPage, ['page', page.page - 1]] : withoutPage);
  body.total = page.total;
  body.total_pages = page.totalPages;
  return ok(body, totalHeaders(page.total, page.totalPages));
}

/** GET /events/{id}, /events/by-slug/{slug} (§2.3): the single-context record, with JSON-LD. */
async function readEvent(req: RestRequest): Promise<RestResult> {
  const data = await run(req, 'event', ONE, { ...target(req, false), ...unlock(req) });
  return ok(eventRecord(data.event, req));
}

async function createEvent(req: RestRequest): Promise<RestResult> {
  const data = await run(req, 'event', CREATE, { input: eventInput(req) });
  return created(eventRecord(data.createEvent, req));
}

/** On slug routes `slug` names the event (the body's wins over the path's), it is not a new slug. */
async function updateEvent(req: RestRequest): Promise<RestResult> {
  const on = target(req, true);
  const data = await run(req, 'event', UPDATE, { ...on, input: eventInput(req, 'slug' in on ? ['slug'] : []) });
  return ok(eventRecord(data.updateEvent, req));
}

/** DELETE always trashes (§2.3, §6.9); `force` and other extras are ignored. */
async function deleteEvent(req: RestRequest): Promise<RestResult> {
  const data = await run(req, 'event', DELETE, target(req, true));
  return ok(eventRecord(data.deleteEvent, req));
}

// ---------------------------------------------------------------------------------------------
// Permissions

/** can_create, and the general edit/delete capability of slug routes and unknown ids. */
const mayCreate = (req: RestRequest) => canCreatePosts(req.viewer);

/**
 * can_edit / can_delete on /events/{id}: the general capability for an id no post has, else the
 * right on that post (own drafts for contributors, own posts for authors, any for editors): an
 * event's under the event rules, another type's (a venue's id) under its own, as WordPress answers.
 */
async function mayChange(req: RestRequest): Promise<boolean> {
  const viewer = req.viewer;
  if (!canCreatePosts(viewer)) return false; // anonymous, subscribers
  if (canReadPrivate(viewer)) return true; // editors and administrators act on any event
  const id = phpIntval(req.params.id); // raw when the REST checks refused the request
  if (Math.abs(id) > INT32_MAX) return true; // no such post: the general capability
  if (!req.memo.has('access')) {
    req.memo.set(
      'access',
      run(req, 'event', ACCESS, { id }).then(
        ({ event }) => canEditPost(viewer, { authorId: Number(event.author), status: String(event.status).toLowerCase() }),
        async (error: unknown) => {
          if (!(error instanceof RestError)) return false;
          if (error.code === 'rest-event-not-found') return true;
          return error.code === 'rest-invalid-event-id' && ((await postRights(req, id))?.edit ?? false);
        },
      ),
    );
  }
  return req.memo.get('access') as Promise<boolean>;
}

type Check = (req: RestRequest) => boolean | Promise<boolean>;

/** The pipeline got past step 4: `params` is then the coerced copy of `raw`, not `raw` itself. */
const argsAccepted = (req: RestRequest) => req.params !== req.raw;

/** GraphQL's refusal of the caller (UNAUTHENTICATED/FORBIDDEN), or the REST checks' own. */
const isRefusal = (outcome: unknown) => outcome instanceof RestError && outcome.code === 'rest_forbidden';

/**
 * A write endpoint. GraphQL checks a write's arguments, then whether what it names exists, then
 * the caller's permission — the original's order (spec 0.3: a 400 wins over 401/403) — and it alone
 * decides all three. So the permission callback of the endpoint being served lets the request
 * through to the handler, which runs the operation and answers GraphQL's refusal as the permission
 * step does (rest_forbidden, 401/403). Once the handler ran, the callback answers from its outcome
 * for the Allow header, which WordPress computes after dispatch: refused → no; a 400/404 → the
 * estimate. Everywhere else — the route's other endpoints, and this one when the REST checks
 * refused the request — `estimate` answers from the roles.
 */
function write(methods: readonly HttpMethod[], args: Args, estimate: Check, operation: Endpoint['handler'], doc?: OperationDoc): Endpoint {
  const endpoint: Endpoint = {
    methods,
    args,
    doc,
    permissionAfterHandler: true,
    permission: (req) => {
      if (req.endpoint !== endpoint || !argsAccepted(req)) return estimate(req);
      if (!req.memo.has('outcome')) return true; // GraphQL decides, in the handler
      const outcome = req.memo.get('outcome');
      if (isRefusal(outcome)) return false;
      return outcome instanceof Error ? estimate(req) : true;
    },
    handler: async (req) => {
      try {
        const result = await operation(req);
        req.memo.set('outcome', result);
        return result;
      } catch (error) {
        req.memo.set('outcome', error);
        throw isRefusal(error) ? forbidden(req.viewer !== null) : error;
      }
    },
  };
  return endpoint;
}

// ---------------------------------------------------------------------------------------------
// /doc (TEC get_documentation), response texts verbatim

const EVENT_JSON = { 'application/json': { schema: ref('Event') } };

const LIST_DOC: OperationDoc = {
  responses: {
    '200': {
      description: 'Returns all the upcoming events matching the search criteria',
      content: { 'application/json': { schema: { title: 'events', type: 'array', items: ref('Event') } } },
    },
    '400': { description: 'One or more of the specified query variables has a bad format' },
    '404': { description: 'The requested page was not found.' },
  },
};

const GET_DOC: OperationDoc = {
  responses: {
    '200': { description: 'Returns the data of the event with the specified post ID', content: EVENT_JSON },
    '400': { description: 'The event post ID is missing.' },
    '403': { description: 'The event with the specified ID is not accessible.' },
    '404': { description: 'An event with the specified ID does not exist.' },
  },
};

const postDoc = (parameters: Args): OperationDoc => ({
  operation: 'post',
  parameters,
  requestBody: { args: CREATE_ARGS },
  responses: {
    '200': { description: 'Returns the data of the updated event', content: EVENT_JSON },
    '201': { description: 'Returns the data of the created event', content: EVENT_JSON },
    '400': { description: 'A required parameter is missing or an input parameter is in the wrong format' },
    '403': { description: 'The user is not authorized to create events' },
  },
});

const DELETE_DOC: OperationDoc = {
  responses: {
    '200': { description: 'Deletes an event and returns its data', content: EVENT_JSON },
    '400': { description: 'The event post ID is missing or does not exist.' },
    '403': { description: 'The current user cannot delete the event with the specified ID.' },
    '410': { description: 'The event with the specified ID has been deleted already.' },
    '500': { description: 'The event with the specified ID could not be deleted.' },
  },
};

// ---------------------------------------------------------------------------------------------
// The routes, in the original's registration order

export const eventRoutes: Route[] = [
  {
    path: '/events',
    endpoints: [
      { methods: READABLE, args: READ_ARGS, handler: listEvents, doc: LIST_DOC },
      write(CREATABLE, CREATE_ARGS, mayCreate, createEvent),
    ],
  },
  {
    path: '/events/(?P<id>\\d+)',
    args: ID_ARGS,
    endpoints: [
      { methods: READABLE, handler: readEvent, doc: GET_DOC },
      write(DELETABLE, {}, mayChange, deleteEvent, DELETE_DOC),
      write(EDITABLE, UPDATE_ARGS, mayChange, updateEvent, postDoc(ID_ARGS)),
    ],
  },
  {
    path: '/events/by-slug/(?P<slug>[^/]+)',
    endpoints: [
      { methods: READABLE, args: SLUG_ARGS, handler: readEvent, doc: GET_DOC },
      write(DELETABLE, SLUG_ARGS, mayCreate, deleteEvent, DELETE_DOC),
      write(EDITABLE, SLUG_UPDATE_ARGS, mayCreate, updateEvent, postDoc(SLUG_ARGS)),
    ],
  },
];
