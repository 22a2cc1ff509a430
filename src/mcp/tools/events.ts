// Event tools: search (every filter of the REST list, cursor paging, series occurrences), get, create
// and update (recurrence, venues and organizers by id or inline), trash and restore.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { bounded, defined, defineTool, runAs, ToolFailure, type McpDeps } from '../tool-kit.js';
import { todayIn } from '../site-time.js';

/** What a tool shows of an event (descriptions cut: outputs stay bounded). */
export const EVENT_FIELDS = `id title slug status startDate endDate allDay timezone url featured eventStatus eventStatusReason cost excerpt description
  recurrenceText isException series { id rrule }
  venue { id name city } organizers { id name } categories { id name slug } tags { id name slug }`;

const idName = z.object({ id: z.number().int(), name: z.string() });
const term = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });
export const eventOutput = z.object({
  id: z.number().int().describe('The event id (an occurrence of a series has its own id).'),
  title: z.string(),
  slug: z.string(),
  status: z.string().describe('publish, draft, pending, future, private or trash.'),
  startDate: z.string().describe('Event-local "YYYY-MM-DD HH:MM:SS".'),
  endDate: z.string().describe('Event-local "YYYY-MM-DD HH:MM:SS".'),
  allDay: z.boolean().nullable(),
  timezone: z.string(),
  url: z.string(),
  featured: z.boolean().nullable(),
  eventStatus: z.enum(['SCHEDULED', 'CANCELED', 'POSTPONED']).describe('Whether it takes place as announced.'),
  eventStatusReason: z.string().describe('Why it was canceled or postponed.'),
  cost: z.string(),
  excerpt: z.string(),
  description: z.string().describe('Cut at 2,000 characters, with a note saying so.'),
  recurrenceText: z.string().nullable().describe('How the series repeats, as a sentence; null for a single event.'),
  isException: z.boolean(),
  series: z.object({ id: z.number().int(), rrule: z.string() }).nullable(),
  venue: z.object({ id: z.number().int(), name: z.string(), city: z.string() }).nullable(),
  organizers: z.array(idName),
  categories: z.array(term),
  tags: z.array(term),
});
type EventView = z.infer<typeof eventOutput>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the shape of EVENT_FIELDS, as GraphQL answers it
export function eventView(event: any): EventView {
  return { ...event, status: String(event.status).toLowerCase(), description: bounded(event.description) };
}

function eventLine(event: EventView): string {
  const where = event.venue ? ` at ${event.venue.name}` : '';
  const repeats = event.recurrenceText ? ` (${event.recurrenceText})` : '';
  const state = event.eventStatus === 'SCHEDULED' ? '' : ` ${event.eventStatus}`;
  return `#${event.id} ${event.title}: ${event.startDate} – ${event.endDate} ${event.timezone}${where}${repeats} [${event.status}]${state}`;
}

const dateText = (what: string) => z.string().optional().describe(what);

const searchInput = {
  startDate: dateText('Events starting on or after this date (the whole day unless strictDates). Default: yesterday.'),
  endDate: dateText('Events ending on or before this date (the whole day unless strictDates). Default: 24 months ahead.'),
  startsAfter: dateText('Events starting after this date/time; drops the default window.'),
  startsBefore: dateText('Events starting before this date/time; drops the default window.'),
  endsAfter: dateText('Events ending after this date/time; drops the default window.'),
  endsBefore: dateText('Events ending before this date/time; drops the default window.'),
  strictDates: z.boolean().optional().describe('Compare the exact times given instead of whole days.'),
  search: z.string().optional().describe('Words that must all appear in the title, excerpt or description; "-word" excludes.'),
  categories: z.array(z.string()).optional().describe('Category ids or slugs: events in any of them (or their children).'),
  tags: z.array(z.string()).optional().describe('Tag ids or slugs: events with any of them.'),
  venue: z.array(z.number().int()).optional().describe('Venue ids: events at any of them.'),
  organizer: z.array(z.number().int()).optional().describe('Organizer ids: events by any of them.'),
  featured: z.boolean().optional().describe('Only featured (true) or only not featured (false) events.'),
  status: z
    .array(z.string())
    .optional()
    .describe('Statuses to list (publish, draft, pending, private, future). Only those who can edit events may ask for more than publish.'),
  series: z.array(z.number().int()).optional().describe('Only occurrences of these series (the series ids get_event shows).'),
  firstOccurrenceOnly: z.boolean().optional().describe('Of each series, only its first occurrence in the list.'),
  first: z.number().int().min(1).max(50).default(20).describe('How many events on this page (1–50).'),
  cursor: z.string().optional().describe('The nextCursor of the previous page, to read on.'),
};

const eventId = {
  id: z.number().int().optional().describe('The event id.'),
  slug: z.string().optional().describe('The event slug (when no id).'),
};

const linkedObject = (type: 'venue' | 'organizer') =>
  z
    .union([
      z.number().int().describe(`An existing ${type}'s id.`),
      z
        .object({
          id: z.number().int().optional().describe(`An existing ${type}'s id.`),
          name: z.string().optional().describe(`The ${type}'s name: an existing one of that name is reused, else one is created.`),
          ...(type === 'venue'
            ? {
                address: z.string().optional().describe('Street address.'),
                city: z.string().optional().describe('City.'),
                stateprovince: z.string().optional().describe('State or province.'),
                zip: z.string().optional().describe('Postal code.'),
                country: z.string().optional().describe('Country.'),
              }
            : { email: z.string().optional().describe('E-mail address.') }),
          phone: z.string().optional().describe('Phone number.'),
          website: z.string().optional().describe('Website URL.'),
        })
        .describe(`A ${type} by id, or by name (found or created inline).`),
    ])
    .describe(`A ${type}: its id, or {name, …} to reuse the ${type} of that name or create it.`);

const recurrenceInput = z
  .object({
    rrule: z.string().optional().describe('An RFC 5545 RRULE value, e.g. "FREQ=WEEKLY;BYDAY=TU;COUNT=10".'),
    rule: z
      .object({
        frequency: z.enum(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']).describe('FREQ.'),
        interval: z.number().int().min(1).optional().describe('Every n-th period (default 1).'),
        byDay: z.array(z.string()).optional().describe('Weekdays MO…SU, with an ordinal in monthly/yearly rules ("2SA").'),
        byMonthDay: z.array(z.number().int()).optional().describe('Days of the month, 1…31 or -31…-1.'),
        byMonth: z.array(z.number().int()).optional().describe('Months 1…12.'),
        count: z.number().int().min(1).optional().describe('This many occurrences (not with until).'),
        until: z.string().optional().describe('The last possible start: "YYYY-MM-DD" or event-local "YYYY-MM-DD HH:MM:SS".'),
      })
      .optional()
      .describe('The rule, part by part (instead of rrule).'),
    exdates: z.array(z.string()).optional().describe('Starts to leave out, event-local.'),
    rdates: z.array(z.string()).optional().describe('Starts to add, event-local.'),
  })
  .describe('Makes the event a series whose first occurrence it is (or, with scope ALL/FOLLOWING, changes its rule).');

const eventFields = {
  title: z.string().describe('The title (not empty).'),
  startDate: z.string().describe('Start, event-local "YYYY-MM-DD HH:MM:SS" (or "YYYY-MM-DD HH:MM"), or a relative expression.'),
  endDate: z.string().describe('End, as startDate.'),
  allDay: z.boolean().optional().describe('An all-day event (00:00:00 to 23:59:59).'),
  timezone: z.string().optional().describe('IANA time zone (America/New_York) or UTC±N; default: the site time zone.'),
  description: z.string().optional().describe('Description (HTML allowed).'),
  excerpt: z.string().optional().describe('A short summary.'),
  status: z.string().optional().describe('publish, draft, pending, private or future; roles that cannot publish get pending/draft.'),
  featured: z.boolean().optional().describe('Feature the event.'),
  hideFromListings: z.boolean().optional().describe('Hide it from event lists.'),
  eventStatus: z
    .enum(['SCHEDULED', 'CANCELED', 'POSTPONED'])
    .optional()
    .describe('Cancel or postpone the event (it stays listed, labelled), or schedule it again.'),
  eventStatusReason: z.string().max(500).optional().describe('Why it was canceled or postponed, shown beside the label; "" clears.'),
  categories: z.array(z.string()).optional().describe('Category ids, slugs or names (unknown names are created); replaces the set.'),
  tags: z.array(z.string()).optional().describe('Tag ids, slugs or names (unknown names are created); replaces the set.'),
  cost: z.string().optional().describe('The cost, e.g. "20$" or "Free".'),
  website: z.string().optional().describe('The event website URL.'),
  venue: linkedObject('venue').optional(),
  organizers: z.array(linkedObject('organizer')).max(10).optional().describe('Organizers in order, by id or by name; [] clears.'),
  recurrence: recurrenceInput.optional(),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tool's arguments, as zod parsed them
function eventInput(args: Record<string, any>): Record<string, unknown> {
  const { organizers, cost, ...rest } = args;
  return defined({ ...rest, organizer: organizers, cost: cost === undefined ? undefined : [cost] });
}

const scope = z
  .enum(['THIS', 'FOLLOWING', 'ALL'])
  .default('THIS')
  .describe('For an occurrence of a series: this one alone (THIS), this and the following (FOLLOWING), or all (ALL).');

const eventAnswer = { event: eventOutput };

export function registerEventTools(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'search_events',
    {
      title: 'Search events',
      description:
        'Lists events the caller may see, ordered by start, with every filter of the REST list. Each occurrence of a series is its own event (search by `series` for one series). Paged: pass nextCursor as cursor.',
      input: searchInput,
      output: {
        events: z.array(eventOutput),
        total: z.number().int().describe('How many events match, over all pages.'),
        nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
      },
      kind: 'read',
    },
    async ({ first, cursor, ...filter }, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `query($filter: EventFilter, $first: Int, $after: String) { eventsConnection(filter: $filter, first: $first, after: $after) {
          totalCount pageInfo { hasNextPage endCursor } edges { node { ${EVENT_FIELDS} } } } }`,
        { filter: defined(filter), first, after: cursor },
      );
      const page = data.eventsConnection;
      const events = page.edges.map((edge: { node: unknown }) => eventView(edge.node));
      const nextCursor = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      const lines = events.map(eventLine);
      const more = nextCursor ? `\nMore: call again with cursor "${nextCursor}".` : '';
      return {
        summary: `${page.totalCount} event(s) match; ${events.length} here.\n${lines.join('\n')}${more}`,
        data: { events, total: page.totalCount, nextCursor },
      };
    },
  );

  defineTool(
    server,
    deps,
    'get_event',
    {
      title: 'Get an event',
      description:
        'One event by id or slug: venue, organizers, categories and tags, and for an occurrence of a series its rule and its next occurrences.',
      input: {
        ...eventId,
        occurrences: z.number().int().min(1).max(50).default(5).describe('How many next occurrences of its series to show (1–50).'),
      },
      output: {
        event: eventOutput,
        seriesRule: z
          .object({
            rrule: z.string(),
            text: z.string(),
            startDate: z.string(),
            exdates: z.array(z.string()),
            rdates: z.array(z.string()),
            nextOccurrences: z.array(z.object({ id: z.number().int(), startDate: z.string(), endDate: z.string() })),
          })
          .nullable(),
      },
      kind: 'read',
    },
    async ({ id, slug, occurrences }, { viewer }) => {
      if (id === undefined && !slug) throw new ToolFailure("INVALID_INPUT: give the event's id or its slug.\nid: required when no slug");
      const data = await runAs(
        deps,
        viewer,
        `query($id: Int, $slug: String, $first: Int!, $from: String!) { event(id: $id, slug: $slug) { ${EVENT_FIELDS}
          series { rrule recurrenceText startDate exdates rdates occurrences(first: $first, between: { start: $from }) { id startDate endDate } } } }`,
        { id, slug, first: occurrences, from: todayIn(deps.siteTimezone) },
      );
      const { series, ...rest } = data.event;
      const event = eventView({ ...rest, series: series ? { id: series.id, rrule: series.rrule } : null });
      const seriesRule = series
        ? {
            rrule: series.rrule,
            text: series.recurrenceText,
            startDate: series.startDate,
            exdates: series.exdates,
            rdates: series.rdates,
            nextOccurrences: series.occurrences,
          }
        : null;
      const next = seriesRule ? `\nNext: ${seriesRule.nextOccurrences.map((o: { startDate: string }) => o.startDate).join(', ')}` : '';
      return { summary: `${eventLine(event)}${next}`, data: { event, seriesRule } };
    },
  );

  defineTool(
    server,
    deps,
    'create_event',
    {
      title: 'Create an event',
      description:
        'Creates an event (contributors and up; their events wait for review). A recurrence makes it a series. Venues and organizers are given by id, or by name: an existing one of that name is reused, else it is created.',
      input: eventFields,
      output: eventAnswer,
      kind: 'write',
    },
    async (args, { viewer }) => {
      const data = await runAs(deps, viewer, `mutation($input: CreateEventInput!) { createEvent(input: $input) { ${EVENT_FIELDS} } }`, {
        input: eventInput(args),
      });
      const event = eventView(data.createEvent);
      return { summary: `Created ${eventLine(event)}`, data: { event } };
    },
  );

  defineTool(
    server,
    deps,
    'update_event',
    {
      title: 'Update an event',
      description:
        'Changes the given fields of an event (by id or slug); the others stay. For an occurrence of a series, scope says which occurrences change. recurrence: null ends a series (scope ALL).',
      input: {
        ...eventId,
        scope,
        ...z.object(eventFields).partial().shape,
        recurrence: recurrenceInput
          .nullable()
          .optional()
          .describe(
            'A new rule for the series (with scope ALL or FOLLOWING), a rule that makes a single event a series, or null to end the series.',
          ),
      },
      output: eventAnswer,
      kind: 'write',
      idempotent: true,
    },
    async ({ id, slug, scope, ...changes }, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `mutation($id: Int, $slug: String, $scope: RecurrenceScope, $input: UpdateEventInput!) {
          updateEvent(id: $id, slug: $slug, scope: $scope, input: $input) { ${EVENT_FIELDS} } }`,
        { id, slug, scope, input: eventInput(changes) },
      );
      const event = eventView(data.updateEvent);
      return { summary: `Updated ${eventLine(event)}`, data: { event } };
    },
  );

  defineTool(
    server,
    deps,
    'delete_event',
    {
      title: 'Trash an event',
      description:
        'Moves an event to the trash (not deleted for good): restore_event brings it back. For an occurrence of a series, scope says which occurrences go.',
      input: { ...eventId, scope },
      output: { event: eventOutput, restoreWith: z.string().describe('How to bring it back.') },
      kind: 'destructive',
    },
    async ({ id, slug, scope }, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `mutation($id: Int, $slug: String, $scope: RecurrenceScope) { deleteEvent(id: $id, slug: $slug, scope: $scope) { ${EVENT_FIELDS} } }`,
        { id, slug, scope },
      );
      const event = eventView(data.deleteEvent);
      const restoreWith = `restore_event with {"id": ${event.id}}`;
      return { summary: `Moved ${eventLine(event)} to the trash. To restore it: ${restoreWith}.`, data: { event, restoreWith } };
    },
  );

  defineTool(
    server,
    deps,
    'restore_event',
    {
      title: 'Restore an event from the trash',
      description:
        'Takes a trashed event out of the trash, under its former slug: published, or a draft for those who may not publish (those who may edit it).',
      input: { id: z.number().int().describe('The trashed event id (delete_event names it).') },
      output: eventAnswer,
      kind: 'write',
      idempotent: true,
    },
    async ({ id }, { viewer }) => {
      // An update that names no status brings a trashed event back (The Events Calendar's rule);
      // on an event that is not in the trash it would change nothing, so say so instead.
      const notTrashed = await runAs(deps, viewer, `query($id: Int) { event(id: $id) { id } }`, { id }).then(
        () => true,
        () => false,
      );
      if (notTrashed) throw new ToolFailure(`INVALID_INPUT: event ${id} is not in the trash.\nid: not trashed`);
      const data = await runAs(
        deps,
        viewer,
        `mutation($id: Int, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { ${EVENT_FIELDS} } }`,
        {
          id,
          input: {},
        },
      );
      const event = eventView(data.updateEvent);
      return { summary: `Restored ${eventLine(event)}`, data: { event } };
    },
  );
}
