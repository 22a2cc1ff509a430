// Recurring events in GraphQL: the EventSeries type, an event's place in its series, the
// recurrence input of event writes and the scope of a change to an occurrence.
import DataLoader from 'dataloader';
import { builder, type SharedFieldBuilder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { EVENT_TABLE } from '../../db/tables.js';
import { firstIdsPerKeySql } from '../../db/where-sql.js';
import { readsColumns } from '../../graphql/selected-columns.js';
import { listStatuses } from '../capabilities.js';
import { isEventReadable } from '../events.js';
import { describeRule, isBounded, parseRrule } from '../recurrence/index.js';
import type { RecurrenceScope } from '../series.js';
import { loader } from './loaders.js';
import { Event } from './refs.js';

const MAX_EXCEPTIONS = 1000;

export const EventSeries = builder.prismaObject('EventSeries', {
  description:
    'A recurring event: an RFC 5545 rule read in the event time zone. Each occurrence is an Event of its own; occurrences exist up to a horizon that moves forward by itself (RECURRENCE_HORIZON_DAYS).',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The series id.' }),
    rrule: t.exposeString('rule', { description: 'The RRULE value, e.g. "FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T215959Z".' }),
    recurrenceText: t.string({
      description: 'The rule as a sentence, e.g. "Every month on the 2nd Saturday until 30 June 2027".',
      resolve: textOf,
    }),
    bounded: t.boolean({
      description: 'Whether the rule ends (COUNT or UNTIL).',
      resolve: (s) => isBounded(parseRrule(s.rule, s.timezone, s.allDay)),
    }),
    timezone: t.exposeString('timezone', { description: 'The time zone the rule is read in.' }),
    startDate: t.exposeString('startLocal', { description: 'DTSTART: the first occurrence’s start, event-local "YYYY-MM-DD HH:MM:SS".' }),
    exdates: t.stringList({ description: 'Starts left out of the rule (EXDATE), event-local.', resolve: (s) => JSON.parse(s.exdates) }),
    rdates: t.stringList({ description: 'Starts added to the rule (RDATE), event-local.', resolve: (s) => JSON.parse(s.rdates) }),
    expandedUntil: t.exposeString('expandedUntil', { description: 'Every occurrence starting before this event-local time exists.' }),
    slug: t.exposeString('slug', { description: 'Names the occurrences’ pages: /event/<slug>/<YYYY-MM-DD>/.' }),
    occurrences: occurrencesField(t, (s: { id: number }) => s.id),
    exceptions: t.prismaField({
      type: [Event],
      description: `The occurrences changed alone (RFC 5545 RECURRENCE-ID exceptions) the caller may read, in start order (at most ${MAX_EXCEPTIONS}).`,
      resolve: async (query, series, _args, ctx) => {
        const rows = await ctx.prisma.event.findMany({
          ...query,
          where: { seriesId: series.id, detached: true, status: { in: listStatuses(ctx.viewer, null) ?? ['publish'] } },
          orderBy: [{ startLocal: 'asc' }, { id: 'asc' }],
          take: MAX_EXCEPTIONS,
        });
        return rows.filter((row) => isEventReadable(row, ctx.viewer));
      },
    }),
    removedDates: t.stringList({
      description:
        'Starts (event-local, as RECURRENCE-IDs) of occurrences removed alone from what the caller sees: trashed alone, or changed alone to a status the caller may not read. With exdates, the starts a calendar client leaves out of the rule.',
      resolve: async (series, _args, ctx) => {
        const statuses = listStatuses(ctx.viewer, null) ?? ['publish'];
        const rows = await ctx.prisma.event.findMany({
          where: { seriesId: series.id, detached: true },
          select: { status: true, authorId: true, recurrenceId: true },
          orderBy: { recurrenceId: 'asc' },
        });
        return rows
          .filter((row) => row.recurrenceId !== null && !(statuses.includes(row.status) && isEventReadable(row, ctx.viewer)))
          .map((row) => row.recurrenceId!);
      },
    }),
  }),
});

function textOf(series: { rule: string; timezone: string; allDay: boolean; startLocal: string }): string {
  return describeRule(parseRrule(series.rule, series.timezone, series.allDay), series.startLocal);
}

const OccurrenceWindow = builder.inputType('OccurrenceWindow', {
  description: 'Event-local bounds of the occurrences asked for ("YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS").',
  fields: (t) => ({
    start: t.string({ description: 'Occurrences starting at or after this.' }),
    end: t.string({ description: 'Occurrences starting before this (a day: before its end).' }),
  }),
});

const MAX_OCCURRENCES = 100;
const asWall = (value: string, endOfDay: boolean) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value} ${endOfDay ? '23:59:59' : '00:00:00'}` : value.replace('T', ' ');

/** A series' occurrences the caller may read, in start order, paged by the last one seen. */
function occurrencesField<Parent>(t: SharedFieldBuilder, seriesIdOf: (parent: Parent) => number | null) {
  return t.prismaField({
    type: [Event],
    description: `The series' occurrences the caller may read, in start order (at most ${MAX_OCCURRENCES}; [] for a single event).`,
    args: {
      between: t.arg({ type: OccurrenceWindow, description: 'Only occurrences starting within these bounds.' }),
      first: t.arg.int({ defaultValue: 10, description: `How many (1–${MAX_OCCURRENCES}).` }),
      after: t.arg.int({ description: 'The id of the last occurrence of the previous page.' }),
    },
    extensions: readsColumns('seriesId'),
    resolve: async (query: object, parent: Parent, args: OccurrenceArgs, ctx: GraphQLContext) => {
      const seriesId = seriesIdOf(parent);
      return seriesId == null ? [] : occurrencesLoader(ctx, query, args).load(seriesId);
    },
  });
}

interface OccurrenceArgs {
  between?: { start?: string | null; end?: string | null } | null;
  first?: number | null;
  after?: number | null;
}
type EventRow = { id: number; status: string; authorId: number };

/**
 * The occurrences of every series a page's events belong to, for one selection and arguments: the
 * first `first` ids of each series in one statement, then their rows in one more (two statements for
 * a page of 5 or of 50, where reading each series alone cost one per event of a series).
 */
function occurrencesLoader(ctx: GraphQLContext, query: object, args: OccurrenceArgs): DataLoader<number, EventRow[]> {
  const name = `occurrences\u0000${JSON.stringify(query)}\u0000${JSON.stringify(args)}`;
  return loader<number, EventRow[]>(ctx, name, async (seriesIds) => {
    const where: Record<string, unknown> = { status: { in: listStatuses(ctx.viewer, null) ?? ['publish'] } };
    const startLocal: Record<string, string> = {};
    if (args.between?.start) startLocal.gte = asWall(args.between.start, false);
    if (args.between?.end) startLocal.lte = asWall(args.between.end, true);
    where.startLocal = startLocal;
    if (args.after != null) {
      // Prisma's cursor, spelled out: what follows the given occurrence in (startLocal, id) order.
      const cursor = await ctx.prisma.event.findUnique({ where: { id: args.after }, select: { id: true, startLocal: true } });
      if (!cursor) return seriesIds.map(() => []);
      where.OR = [{ startLocal: { gt: cursor.startLocal } }, { startLocal: cursor.startLocal, id: { gt: cursor.id } }];
    }
    const take = Math.min(MAX_OCCURRENCES, Math.max(1, args.first ?? 10));
    const orderBy: Record<string, 'asc'>[] = [{ startLocal: 'asc' }, { id: 'asc' }];
    const firstIds = firstIdsPerKeySql(ctx.dbKind, EVENT_TABLE, { key: 'seriesId', keys: seriesIds, where, orderBy, take });
    if (!firstIds) throw new Error('occurrences: a filter outside what where-sql compiles');
    const picked = await ctx.readRows<{ id: number; _key: number }>(firstIds.sql, firstIds.args);
    const rows = picked.length
      ? ((await ctx.prisma.event.findMany({ ...query, where: { id: { in: picked.map((row) => Number(row.id)) } } })) as EventRow[])
      : [];
    const byId = new Map(rows.map((row) => [row.id, row]));
    const bySeries = new Map<number, EventRow[]>(seriesIds.map((id) => [id, []]));
    for (const { id, _key } of picked) {
      const row = byId.get(Number(id));
      if (row && isEventReadable(row, ctx.viewer)) bySeries.get(Number(_key))?.push(row);
    }
    return seriesIds.map((id) => bySeries.get(id)!);
  });
}

function seriesLoader(ctx: GraphQLContext) {
  return loader<number, unknown>(ctx, 'eventSeries', async (ids) => {
    const rows = await ctx.prisma.eventSeries.findMany({ where: { id: { in: [...ids] } } });
    return ids.map((id) => rows.find((row) => row.id === id) ?? null);
  });
}

builder.prismaObjectFields(Event, (t) => ({
  series: t.field({
    type: EventSeries,
    nullable: true,
    description: 'The series this event is an occurrence of (null for a single event).',
    extensions: readsColumns('seriesId'),
    resolve: (e, _a, ctx) => (e.seriesId == null ? null : (seriesLoader(ctx).load(e.seriesId) as never)),
  }),
  recurrenceId: t.string({
    nullable: true,
    description: 'The start its series’ rule gave this occurrence, event-local (RFC 5545 RECURRENCE-ID); kept when it alone is moved.',
    extensions: readsColumns('recurrenceId'),
    resolve: (e) => e.recurrenceId,
  }),
  isException: t.boolean({
    description: 'Whether this occurrence was changed alone: changes to its whole series skip it.',
    extensions: readsColumns('detached'),
    resolve: (e) => e.detached,
  }),
  recurrenceText: t.string({
    nullable: true,
    description: 'How the event repeats, as a sentence ("Every week on Tuesday"); null for a single event.',
    extensions: readsColumns('seriesId'),
    resolve: async (e, _a, ctx) => {
      if (e.seriesId == null) return null;
      const series = (await seriesLoader(ctx).load(e.seriesId)) as Parameters<typeof textOf>[0] | null;
      return series ? textOf(series) : null;
    },
  }),
  occurrences: occurrencesField(t, (e: { seriesId: number | null }) => e.seriesId),
}));

export const RecurrenceFrequency = builder.enumType('RecurrenceFrequency', {
  description: 'How often a rule repeats (RFC 5545 FREQ).',
  values: {
    DAILY: { value: 'DAILY', description: 'Every day (or every INTERVAL days).' },
    WEEKLY: { value: 'WEEKLY', description: 'Every week (or every INTERVAL weeks).' },
    MONTHLY: { value: 'MONTHLY', description: 'Every month (or every INTERVAL months).' },
    YEARLY: { value: 'YEARLY', description: 'Every year (or every INTERVAL years).' },
  } as const,
});

const RecurrenceRuleInput = builder.inputType('RecurrenceRuleInput', {
  description: 'A recurrence rule, part by part (RFC 5545 RRULE).',
  fields: (t) => ({
    frequency: t.field({ type: RecurrenceFrequency, required: true, description: 'FREQ.' }),
    interval: t.int({ description: 'INTERVAL: every n-th period (default 1).' }),
    count: t.int({ description: 'COUNT: this many occurrences (not with until).' }),
    until: t.string({ description: 'UNTIL: the last possible start, event-local "YYYY-MM-DD HH:MM:SS" or a day "YYYY-MM-DD".' }),
    byDay: t.stringList({ description: 'BYDAY: weekdays MO…SU, with an ordinal in monthly and yearly rules ("2SA", "-1FR").' }),
    byMonthDay: t.intList({ description: 'BYMONTHDAY: days of the month, 1…31 or -31…-1 from the end.' }),
    byMonth: t.intList({ description: 'BYMONTH: months 1…12.' }),
    bySetPos: t.intList({ description: 'BYSETPOS: which of each period’s matches (1 first, -1 last).' }),
    weekStart: t.string({ description: 'WKST: the first day of the week (default MO).' }),
  }),
});

export const RecurrenceInput = builder.inputType('RecurrenceInput', {
  description: 'How an event repeats: an RRULE text or a structured rule (one of the two), plus dates left out or added.',
  fields: (t) => ({
    rrule: t.string({ description: 'RFC 5545 RRULE value, e.g. "FREQ=MONTHLY;BYDAY=2SA" (a leading "RRULE:" is allowed).' }),
    rule: t.field({ type: RecurrenceRuleInput, description: 'The rule, part by part.' }),
    exdates: t.stringList({ description: 'Starts to leave out (EXDATE): event-local times, or days at the series’ start time.' }),
    rdates: t.stringList({ description: 'Starts to add (RDATE): event-local times, or days at the series’ start time.' }),
  }),
});

export const RecurrenceScopeEnum = builder.enumType('RecurrenceScope', {
  description: 'Which occurrences of a series a change to one of them reaches.',
  values: {
    THIS: { value: 'THIS', description: 'This occurrence alone; it becomes an exception.' },
    FOLLOWING: { value: 'FOLLOWING', description: 'This and the following ones: the series is split here.' },
    ALL: { value: 'ALL', description: 'Every occurrence that is not an exception.' },
  } as const satisfies Record<RecurrenceScope, { value: RecurrenceScope; description: string }>,
});
