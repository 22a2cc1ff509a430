// EventDay: a calendar day's events (a month grid's cell) and the eventDays query, which answers a
// whole grid in a fixed number of statements (src/calendar/event-days.ts).
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.js';
import { eventDays, MAX_DAYS, type EventDay as EventDayShape } from '../event-days.js';
import { eventPageRows, type EventFilter, type EventRow } from '../event-filters.js';
import { MAX_PER_PAGE } from '../paging.js';
import { selectedColumns } from '../../graphql/selected-columns.js';
import { EventFilterInput } from './event.js';
import { EVENT_READ } from './loaders.js';
import { Event } from './refs.js';

const EventDay = builder.objectRef<EventDayShape<EventRow>>('EventDay').implement({
  description: "One calendar day's events.",
  fields: (t) => ({
    day: t.exposeString('day', { description: 'The day, "YYYY-MM-DD".' }),
    total: t.exposeInt('total', { description: 'How many events the day has (the "+N more" is total minus the items).' }),
    items: t.field({ type: [Event], description: 'Its first perDay events, ordered by start date.', resolve: (d) => d.items }),
  }),
});

builder.queryFields((t) => ({
  eventDays: t.field({
    type: [EventDay],
    description: `The events of each day from \`from\` to \`to\` (at most ${MAX_DAYS} days), as \`events\` lists a day: those starting before its end and ending after its start, in each event's own zone, so an event is on every day it covers. Each day gives its first perDay events and its total. The filter's date fields must be left out: the days set the dates. Errors: INVALID_INPUT (from, to, perDay, filter.<date field>, or a filter's own).`,
    args: {
      filter: t.arg({ type: EventFilterInput, description: 'Filters, as for events, without dates.' }),
      from: t.arg.string({ required: true, description: 'The first day, "YYYY-MM-DD".' }),
      to: t.arg.string({ required: true, description: 'The last day, "YYYY-MM-DD".' }),
      perDay: t.arg.int({ defaultValue: 12, description: `Events listed per day (1–${MAX_PER_PAGE}).` }),
    },
    resolve: (_root, args, ctx, info) =>
      eventDays(ctx, (args.filter ?? {}) as EventFilter, { from: args.from, to: args.to, perDay: args.perDay ?? 12 }, ctx, (ids) =>
        eventPageRows(
          ctx,
          { where: { id: { in: ids } }, orderBy: [{ startLocal: 'asc' }, { id: 'asc' }] },
          { skip: 0, take: ids.length },
          queryFromInfo({ context: ctx, info, typeName: 'Event', path: ['items'] }),
          selectedColumns(info, EVENT_READ, 'items'),
        ),
      ),
  }),
}));
