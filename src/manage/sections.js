// @ts-check
// What the calendar editor edits: for each kind of record, its GraphQL operations, its form's
// fields (named as the API's input fields, so the API's errors land next to them) and the
// conversions between a record, the form's values and the mutation's variables.

/**
 * @typedef {{ name: string, label: string, type?: string, required?: boolean, hint?: string, options?: [string, string][] }} Field
 * @typedef {{
 *   name: string, singular: string, plural: string, trash: boolean,
 *   list: string, get: string, create: string, update: string, remove?: string, restore?: string,
 *   fields: Field[],
 *   page: (data: any) => ListPage,
 *   toForm: (data: any) => Record<string, any>,
 *   toInput: (state: Record<string, any>, loaded: any) => Record<string, any>,
 *   saved: (data: any) => any,
 *   rowActions?: (item: any) => RowAction[],
 *   defaults?: Record<string, any>,
 * }} Section
 * @typedef {{ label: string, query: string, done: string }} RowAction
 * @typedef {{ items: any[], total: number, totalPages: number }} ListPage
 */

/** Records a list shows at a time; the list pages through the rest. */
export const PER_PAGE = 20;
const PAGE = `page: { page: $page, perPage: ${PER_PAGE} }`;

const STATUS_OPTIONS = /** @type {[string, string][]} */ ([
  ['draft', 'Draft'],
  ['pending', 'Pending review'],
  ['publish', 'Published'],
  ['private', 'Private'],
  ['future', 'Scheduled (publication date below)'],
]);
/** Whether the event takes place as announced (GraphQL's EventStatus). */
const EVENT_STATUS_OPTIONS = /** @type {[string, string][]} */ ([
  ['SCHEDULED', 'No: takes place as scheduled'],
  ['CANCELED', 'Canceled'],
  ['POSTPONED', 'Postponed'],
]);
const LIVE = ['publish', 'draft', 'pending', 'private', 'future'];

/** "YYYY-MM-DD HH:MM:SS" (the API's wall time) for a datetime-local value, and back. */
const toWall = (/** @type {string} */ value) => (value ? `${value.replace('T', ' ')}${value.length === 16 ? ':00' : ''}` : undefined);
const fromWall = (/** @type {string | null | undefined} */ value) => (value ? value.slice(0, 16).replace(' ', 'T') : '');
/** The value, or undefined when empty (the API leaves the field alone). */
const given = (/** @type {string} */ value) => (value === '' || value === undefined ? undefined : value);
const names = (/** @type {string} */ text) =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

export function emptyRecurrence() {
  return { recurrence: '', interval: '', until: '', count: '', byDay: [], exdates: '', rdates: '' };
}

/** One date a line, as the form shows exception dates; and the lines back as a list. */
const lines = (/** @type {string[] | undefined} */ list) => (list ?? []).join('\n');
const listOfLines = (/** @type {string | undefined} */ text) =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The form's recurrence values from the event's series: its RRULE ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;UNTIL=…")
 * and its exception dates.
 * @param {{ rrule: string, exdates?: string[], rdates?: string[] } | null | undefined} series
 */
export function recurrenceOf(series) {
  const state = emptyRecurrence();
  if (!series?.rrule) return state;
  const parts = Object.fromEntries(series.rrule.split(';').map((part) => part.split('=')));
  state.recurrence = parts.FREQ ?? '';
  state.interval = parts.INTERVAL ?? '';
  state.count = parts.COUNT ?? '';
  state.until = parts.UNTIL ? `${parts.UNTIL.slice(0, 4)}-${parts.UNTIL.slice(4, 6)}-${parts.UNTIL.slice(6, 8)}` : '';
  state.byDay = parts.BYDAY ? parts.BYDAY.split(',') : [];
  state.exdates = lines(series.exdates);
  state.rdates = lines(series.rdates);
  return state;
}

/** The API's RecurrenceInput for the form's values; null when the event does not repeat. */
export function recurrenceInput(/** @type {Record<string, any>} */ state) {
  if (!state.recurrence) return null;
  return {
    rule: {
      frequency: state.recurrence,
      interval: state.interval ? Number(state.interval) : undefined,
      until: given(state.until),
      count: state.count ? Number(state.count) : undefined,
      byDay: state.byDay?.length ? state.byDay : undefined,
    },
    exdates: listOfLines(state.exdates),
    rdates: listOfLines(state.rdates),
  };
}

/** A picked or inline-created venue as the API's JSON input. */
function linked(
  /** @type {Record<string, any>} */ state,
  /** @type {string} */ name,
  /** @type {string} */ label,
  /** @type {string[]} */ extra,
) {
  const value = state[name];
  if (value === 'new') {
    const fields = { [label]: state[`${name}New_name`] };
    for (const field of extra) if (state[`${name}New_${field}`]) fields[field] = state[`${name}New_${field}`];
    return fields;
  }
  return value ? Number(value) : undefined;
}

/**
 * The event's organizers, in order: linked ones by id, new ones as their fields (the API creates
 * them, or reuses one of the same name).
 * @typedef {{ id: number, name: string } | { new: Record<string, string> }} OrganizerPick
 */

/** The organizers a form holds (its hidden JSON value). @returns {OrganizerPick[]} */
export function organizersOf(/** @type {string | undefined} */ value) {
  try {
    const list = JSON.parse(value || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** The API's organizer input for the form's organizers. */
const organizersInput = (/** @type {string | undefined} */ value) => organizersOf(value).map((pick) => ('id' in pick ? pick.id : pick.new));

/** What the caller may do to a record, as the API decides: the editor shows its buttons by it. */
const RIGHTS = 'rights { edit delete publish }';

const EVENT_FIELDS = `id title description excerpt startDate endDate timezone allDay cost website featured sticky status eventStatus eventStatusReason date slug url
  passwordProtected image { id url } venue { id name } organizers(all: true) { id name } categories { name } tags { name }
  series { rrule exdates rdates } ${RIGHTS}`;

const EVENT_ITEMS = `total totalPages items { id title status startDate timezone ${RIGHTS} }`;

/** @type {Section} */
const events = {
  name: 'events',
  singular: 'event',
  plural: 'Events',
  trash: true,
  list: `query ManageEvents($search: String, $trashed: Boolean!, $page: Int!) {
    all: events(filter: { search: $search, startDate: "1970-01-01", endDate: "2999-12-31", status: ${JSON.stringify(LIVE)} }, ${PAGE}) @skip(if: $trashed) { ${EVENT_ITEMS} }
    trash: events(filter: { search: $search, startDate: "1970-01-01", endDate: "2999-12-31", status: ["trash"] }, ${PAGE}) @include(if: $trashed) { ${EVENT_ITEMS} }
  }`,
  get: `query ManageEvent($id: Int!) { event(id: $id, editContext: true) { ${EVENT_FIELDS} } }`,
  create: `mutation ManageCreateEvent($input: CreateEventInput!) { createEvent(input: $input) { id status } }`,
  update: `mutation ManageUpdateEvent($id: Int!, $input: UpdateEventInput!, $scope: RecurrenceScope) { updateEvent(id: $id, input: $input, scope: $scope) { id status } }`,
  remove: `mutation ManageTrashEvent($id: Int!) { deleteEvent(id: $id) { id } }`,
  // A trashed event given no status comes out of the trash (published, or a draft for roles that may not publish).
  restore: `mutation ManageRestoreEvent($id: Int!) { updateEvent(id: $id, input: {}) { id } }`,
  fields: [
    { name: 'title', label: 'Title', required: true },
    { name: 'status', label: 'Status', type: 'select', options: STATUS_OPTIONS },
    { name: 'startDate', label: 'Starts', type: 'datetime-local', required: true },
    { name: 'endDate', label: 'Ends', type: 'datetime-local', required: true },
    { name: 'timezone', label: 'Time zone', hint: 'e.g. Europe/Paris; empty: the site time zone' },
    { name: 'allDay', label: 'All day', type: 'checkbox' },
    { name: 'description', label: 'Description', type: 'textarea', hint: 'HTML allowed' },
    { name: 'excerpt', label: 'Excerpt', type: 'textarea' },
    { name: 'categories', label: 'Categories', hint: 'Names, separated by commas; new ones are created' },
    { name: 'tags', label: 'Tags', hint: 'Names, separated by commas; new ones are created' },
    { name: 'cost', label: 'Cost', hint: 'e.g. 20$' },
    { name: 'website', label: 'Website', type: 'url' },
    { name: 'image', label: 'Featured image', hint: 'An image URL or a media id; empty removes it' },
    { name: 'date', label: 'Publication date', type: 'datetime-local', hint: 'For a scheduled event: when it goes live' },
    { name: 'password', label: 'Password', type: 'password', hint: 'Only when changing it' },
    { name: 'featured', label: 'Featured', type: 'checkbox' },
    { name: 'eventStatus', label: 'Canceled or postponed', type: 'select', options: EVENT_STATUS_OPTIONS },
    { name: 'eventStatusReason', label: 'Why', hint: 'Shown beside "Canceled" or "Postponed"' },
    { name: 'sticky', label: 'Sticky (pinned)', type: 'checkbox' },
  ],
  page: (data) => data.all ?? data.trash,
  toForm: ({ event }) => ({
    title: event.title,
    status: event.status.toLowerCase(),
    startDate: fromWall(event.startDate),
    endDate: fromWall(event.endDate),
    timezone: event.timezone,
    allDay: event.allDay,
    description: event.description,
    excerpt: event.excerpt,
    categories: event.categories.map((/** @type {any} */ term) => term.name).join(', '),
    tags: event.tags.map((/** @type {any} */ term) => term.name).join(', '),
    cost: event.cost,
    website: event.website,
    image: event.image ? event.image.url : '',
    date: fromWall(event.date),
    password: '',
    featured: event.featured,
    eventStatus: event.eventStatus,
    eventStatusReason: event.eventStatusReason,
    sticky: event.sticky,
    venue: event.venue ? String(event.venue.id) : '',
    organizers: JSON.stringify(event.organizers.map((/** @type {any} */ organizer) => ({ id: organizer.id, name: organizer.name }))),
    ...recurrenceOf(event.series),
  }),
  toInput: (state, loaded) => {
    const venue = linked(state, 'venue', 'venue', ['address', 'city', 'country']);
    const organizers = organizersInput(state.organizers);
    /** @type {Record<string, any>} */
    const input = {
      title: state.title,
      status: state.status,
      startDate: toWall(state.startDate) ?? '',
      endDate: toWall(state.endDate) ?? '',
      timezone: given(state.timezone),
      allDay: state.allDay,
      description: given(state.description),
      excerpt: given(state.excerpt),
      categories: names(state.categories),
      tags: names(state.tags),
      cost: state.cost ? [state.cost] : loaded ? [] : undefined,
      website: loaded ? state.website : given(state.website),
      date: state.date ? toWall(state.date) : undefined,
      password: given(state.password),
      featured: state.featured,
      eventStatus: state.eventStatus || undefined,
      eventStatusReason: loaded ? state.eventStatusReason : given(state.eventStatusReason),
      sticky: state.sticky,
      venue: venue ?? (loaded ? '' : undefined),
      organizer: organizers.length || loaded ? organizers : undefined,
    };
    const image = state.image.trim();
    const before = loaded?.event.image?.url ?? '';
    if (image !== before && (image || loaded)) input.image = image;
    // A series' rule and exceptions are the whole series': sent (with the scope ALL) only when changed;
    // "Does not repeat" sends null, which ends the series.
    const rule = recurrenceInput(state);
    const was = loaded?.event.series;
    const scope = loaded && (rule || was) ? 'ALL' : undefined;
    if (!loaded ? rule : JSON.stringify(recurrenceInput(recurrenceOf(was))) !== JSON.stringify(rule)) input.recurrence = rule;
    return loaded ? { id: loaded.event.id, input, scope } : { input };
  },
  saved: (data) => data.createEvent ?? data.updateEvent,
};

/**
 * Venues and organizers: the same shape, named by `kind`. Restoring is an update to publish.
 * @param {'venue' | 'organizer'} kind @param {Field[]} extra
 */
function place(kind, extra) {
  const Kind = kind[0].toUpperCase() + kind.slice(1);
  const fieldNames = extra.map((field) => field.name);
  const selection = `id name status description ${fieldNames.join(' ')} ${RIGHTS}`;
  return /** @type {Section} */ ({
    name: `${kind}s`,
    singular: kind,
    plural: `${Kind}s`,
    trash: true,
    list: `query Manage${Kind}s($search: String, $trashed: Boolean!, $page: Int!) {
      all: ${kind}s(filter: { search: $search, status: ${JSON.stringify(LIVE)} }, ${PAGE}) @skip(if: $trashed) { total totalPages items { id name status ${RIGHTS} } }
      trash: ${kind}s(filter: { search: $search, status: ["trash"] }, ${PAGE}) @include(if: $trashed) { total totalPages items { id name status ${RIGHTS} } }
    }`,
    get: `query Manage${Kind}($id: Int!) { record: ${kind}(id: $id, editContext: true) { ${selection} } }`,
    create: `mutation ManageCreate${Kind}($input: Create${Kind}Input!) { saved: create${Kind}(input: $input) { id status } }`,
    update: `mutation ManageUpdate${Kind}($id: Int!, $input: Update${Kind}Input!) { saved: update${Kind}(id: $id, input: $input) { id status } }`,
    remove: `mutation ManageTrash${Kind}($id: Int!) { delete${Kind}(id: $id) { id } }`,
    restore: `mutation ManageRestore${Kind}($id: Int!) { update${Kind}(id: $id, input: { status: "publish" }) { id } }`,
    fields: [
      { name: 'name', label: 'Name', required: true },
      { name: 'status', label: 'Status', type: 'select', options: STATUS_OPTIONS.slice(0, 4) },
      { name: 'description', label: 'Description', type: 'textarea' },
      ...extra,
    ],
    page: (data) => data.all ?? data.trash,
    toForm: ({ record }) => ({ ...record, status: record.status.toLowerCase() }),
    toInput: (state, loaded) => {
      /** @type {Record<string, any>} */
      const input = { name: state.name, status: state.status, description: given(state.description) };
      for (const name of fieldNames) input[name] = loaded ? state[name] : given(state[name]);
      return loaded ? { id: loaded.record.id, input } : { input };
    },
    saved: (data) => data.saved,
  });
}

/**
 * Categories and tags: terms, deleted for good (no trash).
 * @param {string} name @param {string} singular @param {string} type @param {string} query @param {string} mutation
 */
function terms(name, singular, type, query, mutation) {
  const Plural = name[0].toUpperCase() + name.slice(1);
  return /** @type {Section} */ ({
    name,
    singular,
    plural: Plural,
    trash: false,
    list: `query Manage${Plural}($search: String, $page: Int!) { ${query}(filter: { search: $search, hideEmpty: false }, ${PAGE}) { total totalPages items { id name } } }`,
    get: `query Manage${type}($id: Int!) { record: ${mutation[0].toLowerCase()}${mutation.slice(1)}(id: $id) { id name slug description } }`,
    create: `mutation ManageCreate${type}($input: Create${mutation}Input!) { saved: create${mutation}(input: $input) { id } }`,
    update: `mutation ManageUpdate${type}($id: Int!, $input: Update${mutation}Input!) { saved: update${mutation}(id: $id, input: $input) { id } }`,
    remove: `mutation ManageDelete${type}($id: Int!) { delete${mutation}(id: $id) { id } }`,
    fields: [
      { name: 'name', label: 'Name', required: true },
      { name: 'slug', label: 'Slug', hint: 'Empty: made from the name' },
      { name: 'description', label: 'Description', type: 'textarea' },
    ],
    page: (data) => data[query],
    toForm: ({ record }) => record,
    toInput: (state, loaded) => {
      const input = { name: state.name, slug: given(state.slug), description: loaded ? state.description : given(state.description) };
      return loaded ? { id: loaded.record.id, input } : { input };
    },
    saved: (data) => data.saved,
  });
}

const SOURCE_FIELDS = `id name kind address hasCredentials refreshSeconds windowDaysBack windowDaysAhead defaultStatus authority
  trashRemoved state failures nextRunAt lastRun { at outcome error }`;
const number = (/** @type {string} */ value) => (value === '' || value === undefined ? undefined : Number(value));

/** How a calendar source stands, in a line: its schedule, its last run and its next. @param {any} source */
export function sourceSummary(source) {
  const every = source.refreshSeconds ? `every ${source.refreshSeconds} s` : 'runs when asked';
  const last = source.lastRun
    ? `last run ${source.lastRun.outcome} ${source.lastRun.at.slice(0, 16).replace('T', ' ')} UTC${source.lastRun.error ? ` (${source.lastRun.error})` : ''}`
    : 'not run yet';
  const failing = source.state === 'FAILING' ? `failing: ${source.failures} failed runs in a row; ` : '';
  const next = source.nextRunAt ? `; next ${source.nextRunAt.slice(0, 16).replace('T', ' ')} UTC` : '';
  return `${failing}${every}; ${last}${next}`;
}

/**
 * Calendar sources (administrators): other calendars imported on a schedule. Deleting one keeps
 * the events it brought; pause, resume and run now are row actions.
 * @type {Section}
 */
const sources = {
  name: 'sources',
  singular: 'source',
  plural: 'Sources',
  trash: false,
  list: `query ManageSources { calendarSources { ${SOURCE_FIELDS} } }`,
  get: `query ManageSource($id: Int!) { record: calendarSource(id: $id) { ${SOURCE_FIELDS} } }`,
  create: `mutation ManageCreateSource($input: CalendarSourceInput!) { saved: createCalendarSource(input: $input) { id } }`,
  update: `mutation ManageUpdateSource($id: Int!, $input: CalendarSourceInput!) { saved: updateCalendarSource(id: $id, input: $input) { id } }`,
  remove: `mutation ManageDeleteSource($id: Int!) { deleteCalendarSource(id: $id) { trashedEvents } }`,
  fields: [
    { name: 'name', label: 'Name' },
    {
      name: 'kind',
      label: 'Kind',
      type: 'select',
      options: [
        ['ICAL', 'iCalendar feed (URL)'],
        ['TEC', 'The Events Calendar site, or another Almanac'],
        ['CSV', "CSV file (The Events Calendar's import columns)"],
      ],
    },
    { name: 'address', label: 'Address', type: 'url', required: true },
    {
      name: 'headers',
      label: 'Request headers',
      type: 'textarea',
      hint: 'One "Name: value" a line, e.g. an Authorization. Stored encrypted, never shown again; empty keeps the stored ones.',
    },
    { name: 'refreshSeconds', label: 'Refresh every (seconds)', type: 'number', hint: '0: off (runs only when asked)' },
    { name: 'windowDaysBack', label: 'Window: days back', type: 'number' },
    { name: 'windowDaysAhead', label: 'Window: days ahead', type: 'number' },
    {
      name: 'defaultStatus',
      label: 'Status of new events',
      type: 'select',
      options: [
        ['PUBLISH', "The source's (published, or private)"],
        ['DRAFT', 'Draft, for review'],
      ],
    },
    {
      name: 'authority',
      label: 'When an event edited here changes at the source',
      type: 'select',
      options: [
        ['OVERWRITE', "Overwrite it with the source's change"],
        ['KEEP_LOCAL_EDITS', 'Keep it as edited here'],
        ['OVERWRITE_UNEDITED', 'Overwrite only the fields not edited here'],
      ],
    },
    { name: 'trashRemoved', label: 'Trash events the source removes (iCalendar feeds, other Almanacs)', type: 'checkbox' },
  ],
  page: (data) => {
    const items = data.calendarSources.map((/** @type {any} */ source) => ({
      ...source,
      name: source.name || source.address,
      status: source.state,
      detail: sourceSummary(source),
    }));
    return { items, total: items.length, totalPages: 1 };
  },
  toForm: ({ record }) => ({ ...record, headers: '' }),
  toInput: (state, loaded) => {
    const headers = listOfLines(state.headers);
    const input = {
      name: state.name,
      kind: state.kind,
      address: state.address,
      headers: headers.length ? headers : loaded ? undefined : [],
      refreshSeconds: number(state.refreshSeconds) ?? 0,
      windowDaysBack: number(state.windowDaysBack),
      windowDaysAhead: number(state.windowDaysAhead),
      defaultStatus: state.defaultStatus,
      authority: state.authority,
      trashRemoved: state.trashRemoved,
    };
    return loaded ? { id: loaded.record.id, input } : { input };
  },
  saved: (data) => data.saved,
  defaults: { kind: 'ICAL', refreshSeconds: '3600', defaultStatus: 'PUBLISH', authority: 'OVERWRITE', trashRemoved: true },
  rowActions: (source) => [
    source.state === 'PAUSED'
      ? { label: 'Resume', query: 'mutation ManageResumeSource($id: Int!) { resumeCalendarSource(id: $id) { id } }', done: 'resumed' }
      : { label: 'Pause', query: 'mutation ManagePauseSource($id: Int!) { pauseCalendarSource(id: $id) { id } }', done: 'paused' },
    { label: 'Run now', query: 'mutation ManageRunSource($id: Int!) { runCalendarSource(id: $id) { id } }', done: 'running' },
  ],
};

/** @type {Record<string, Section>} */
export const SECTIONS = {
  events,
  venues: place('venue', [
    { name: 'address', label: 'Address' },
    { name: 'city', label: 'City' },
    { name: 'stateprovince', label: 'State or province' },
    { name: 'zip', label: 'Postal code' },
    { name: 'country', label: 'Country' },
    { name: 'phone', label: 'Phone', type: 'tel' },
    { name: 'website', label: 'Website', type: 'url' },
  ]),
  organizers: place('organizer', [
    { name: 'email', label: 'Email', type: 'email' },
    { name: 'phone', label: 'Phone', type: 'tel' },
    { name: 'website', label: 'Website', type: 'url' },
  ]),
  categories: terms('categories', 'category', 'Category', 'eventCategories', 'EventCategory'),
  tags: terms('tags', 'tag', 'Tag', 'tags', 'Tag'),
  sources,
};
