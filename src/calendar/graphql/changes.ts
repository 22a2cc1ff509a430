// Following the calendar's changes: calendarChangeCursor (where the log ends now) and
// calendarChanges (what changed after a cursor), each change with the record as the caller may
// read it now. The sync model is in the README ("Following a calendar's changes").
import { keyIsActive } from '../../auth/key-management.js';
import { keySignals } from '../../auth/key-signals.js';
import { builder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { eventListQuery, type EventFilter } from '../event-filters.js';
import { EventFilterInput } from './event.js';
import { onCalendarChange } from '../change-watch.js';
import { invalidInput } from '../errors.js';
import { NodeInterface, resolveNode } from '../../graphql/node.js';
import { pollingStream } from '../../graphql/polling-stream.js';
import {
  changeLogHead,
  CHANGE_KINDS,
  CHANGE_TYPES,
  MAX_CHANGES_PER_PAGE,
  readChanges,
  recentlyRemovedEvents,
  retentionStartUtc,
  type RemovedEvent,
  type CalendarChangeView,
  type ChangePage,
  type ChangeType,
} from '../changes.js';

const TYPE_NAMES: Record<ChangeType, string> = {
  event: 'Event',
  venue: 'Venue',
  organizer: 'Organizer',
  category: 'EventCategory',
  tag: 'Tag',
};

export const CalendarRecordType = builder.enumType('CalendarRecordType', {
  description: 'The kinds of record the change log follows.',
  values: Object.fromEntries(
    CHANGE_TYPES.map((type) => [type.toUpperCase(), { value: type, description: `A ${TYPE_NAMES[type]}.` }]),
  ) as Record<Uppercase<ChangeType>, { value: ChangeType; description: string }>,
});

const KIND_DESCRIPTIONS: Record<(typeof CHANGE_KINDS)[number], string> = {
  CREATED: 'The record was created.',
  UPDATED: 'The record changed: `fields` names what.',
  TRASHED: 'The record was moved to the trash.',
  RESTORED: 'The record came back from the trash.',
  DELETED: 'The record was deleted for good.',
  ADDED: 'The record came into your view (published, or given to you).',
  REMOVED: 'The record left your view (unpublished, made private).',
};
export const CalendarChangeKind = builder.enumType('CalendarChangeKind', {
  description: 'What happened to a record, as the caller sees it.',
  values: Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, { description: KIND_DESCRIPTIONS[kind] }])),
});

export const CalendarChange = builder.objectRef<CalendarChangeView>('CalendarChange').implement({
  description:
    'One change to one record. Several writes to a record within one page come as one change, in the place of the last. Apply them in order: drop your copy when `removed`, else take `record` (the record as it is now, or null when you can no longer read it; a later change then says so).',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Where this change is in the log: read on after it with calendarChanges(after:).' }),
    type: t.field({ type: CalendarRecordType, description: 'The kind of record.', resolve: (change) => change.type }),
    id: t.exposeInt('id', { description: "The record's database id." }),
    kind: t.field({ type: CalendarChangeKind, description: 'What happened.', resolve: (change) => change.kind }),
    removed: t.exposeBoolean('removed', { description: 'Drop your copy: the record is gone or out of your view.' }),
    fields: t.exposeStringList('fields', {
      description: 'For UPDATED, the API fields that changed (links: venue, organizers, categories, tags); empty otherwise.',
    }),
    atUtc: t.exposeString('atUtc', { description: 'When it was written: UTC, "YYYY-MM-DD HH:MM:SS".' }),
    record: t.field({
      type: NodeInterface,
      nullable: true,
      description: 'The record now, as its own query shows it to you; null when removed, gone since, or not readable.',
      resolve: async (change, _args, ctx, info) =>
        change.removed ? null : ((await resolveNode(ctx, info, TYPE_NAMES[change.type], change.id)) as never),
    }),
  }),
});

const CalendarChangePage = builder.objectRef<ChangePage>('CalendarChangePage').implement({
  description: 'A page of the change log.',
  fields: (t) => ({
    changes: t.field({ type: [CalendarChange], description: 'The changes you may see, in order.', resolve: (page) => page.changes }),
    cursor: t.exposeString('cursor', {
      description: 'Pass it as `after` for the next page: the end of what was read, also past changes you may not see.',
    }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More changes follow: ask again at once.' }),
  }),
});

const RemovedEventRef = builder.objectRef<RemovedEvent>('RemovedEvent').implement({
  description:
    'An event, or a whole recurring event, that left your view by trash or deletion: what calendar feeds write as STATUS:CANCELLED.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The event's id, or the series' id when `series`." }),
    series: t.exposeBoolean('series', { description: 'Every occurrence of this recurring event is gone.' }),
    title: t.exposeString('title', { description: 'Its title when it went.' }),
    allDay: t.exposeBoolean('allDay', { description: 'Whether it took whole days.' }),
    startDate: t.exposeString('startLocal', { description: 'Its (first) start, event-local "YYYY-MM-DD HH:MM:SS".' }),
    endDate: t.exposeString('endLocal', { description: 'Its (first) end, event-local.' }),
    utcStartDate: t.exposeString('startUtc', { description: 'Its (first) start in UTC.' }),
    utcEndDate: t.exposeString('endUtc', { description: 'Its (first) end in UTC.' }),
    modifiedUtc: t.exposeString('modifiedUtc', { description: 'Its last revision before it went: UTC, "YYYY-MM-DD HH:MM:SS".' }),
    removedAtUtc: t.exposeString('removedAtUtc', { description: 'When it went: UTC, "YYYY-MM-DD HH:MM:SS".' }),
  }),
});

const FILTER =
  "Only changes to events this filter lists now (events(filter:)'s rules, its default date window included); removals always come. Other record types are not filtered.";
const MAX_REMOVED = 1000;

/**
 * The page without the event changes whose event `filter` does not list now (events(filter:)'s
 * rules, default date window included); removals always stay: a client drops what it holds.
 */
async function filtered(ctx: GraphQLContext, page: ChangePage, filter: EventFilter | null | undefined): Promise<ChangePage> {
  if (!filter) return page;
  const ids = [...new Set(page.changes.filter((c) => c.type === 'event' && !c.removed).map((c) => c.id))];
  if (!ids.length) return page;
  const list = await eventListQuery(ctx.prisma, filter, ctx);
  const listed = new Set(
    (await ctx.prisma.event.findMany({ where: { AND: [list.where, { id: { in: ids } }] }, select: { id: true } })).map((event) => event.id),
  );
  return { ...page, changes: page.changes.filter((c) => c.type !== 'event' || c.removed || listed.has(c.id)) };
}

builder.queryFields((t) => ({
  removedEvents: t.field({
    type: [RemovedEventRef],
    description: `Events you could list that were trashed or deleted within the change log's retention window (CHANGES_RETENTION_DAYS) and are still gone, newest first; a recurring event once, when none of its occurrences is left. At most \`first\` (1–${MAX_REMOVED}).`,
    args: { first: t.arg.int({ defaultValue: 100, description: `How many, 1 to ${MAX_REMOVED}.` }) },
    resolve: async (_root, args, ctx) => {
      const first = args.first ?? 100;
      if (!Number.isInteger(first) || first < 1 || first > MAX_REMOVED)
        throw invalidInput({ first: `must be an integer from 1 to ${MAX_REMOVED}` });
      return recentlyRemovedEvents(ctx.prisma, ctx.viewer, await retentionStartUtc(ctx.prisma, ctx.config.changes.retentionDays), first);
    },
  }),
  calendarChangeCursor: t.string({
    description:
      'Where the change log ends now. Take it before a full read, then follow calendarChanges(after:) from it: nothing written after you took it is missed (some changes may repeat what the full read saw).',
    resolve: (_root, _args, ctx) => changeLogHead(ctx.prisma),
  }),
  calendarChanges: t.field({
    type: CalendarChangePage,
    description: `Changes to events, venues, organizers, categories and tags after \`after\`, in the order they were committed, as the caller may see them. Errors: INVALID_INPUT for a malformed cursor or \`first\` outside 1–${MAX_CHANGES_PER_PAGE}; CURSOR_EXPIRED when the changes after the cursor are no longer kept (CHANGES_RETENTION_DAYS): read everything again.`,
    args: {
      after: t.arg.string({ description: 'A cursor from calendarChangeCursor or a previous page; omitted: the oldest change kept.' }),
      first: t.arg.int({ defaultValue: 100, description: `How many changes of the log to read, 1 to ${MAX_CHANGES_PER_PAGE}.` }),
      types: t.arg({ type: [CalendarRecordType], description: 'Only these kinds of record (default: all).' }),
      filter: t.arg({ type: EventFilterInput, description: FILTER }),
    },
    resolve: async (_root, args, ctx) =>
      filtered(
        ctx,
        await readChanges(ctx.prisma, {
          after: args.after ?? null,
          first: args.first ?? 100,
          types: args.types ?? null,
          viewer: ctx.viewer,
        }),
        args.filter as EventFilter | null,
      ),
  }),
}));

// At most this long between two looks at the log, even when no version change was noticed.
const SUBSCRIPTION_IDLE_MS = 10_000;

builder.subscriptionFields((t) => ({
  calendarChanged: t.field({
    type: CalendarChangePage,
    description:
      "The calendar's changes as they are committed, by any server process, as calendarChanges pages: each time changes you may see follow your place in the log. Starts after `after` (default: now), so a client that reconnects with the last `cursor` it got misses nothing. Ends with CURSOR_EXPIRED when the cursor is past the retention window, or when the API key is revoked.",
    args: {
      after: t.arg.string({ description: 'A cursor to start after (calendarChangeCursor, or the last page received).' }),
      types: t.arg({ type: [CalendarRecordType], description: 'Only these kinds of record (default: all).' }),
      filter: t.arg({ type: EventFilterInput, description: FILTER }),
    },
    subscribe: async (_root, args, ctx) => {
      const filter = args.filter as EventFilter | null;
      let cursor = args.after ?? (await changeLogHead(ctx.prisma));
      const types = args.types ?? null;
      // Checked now, so that a bad cursor is an error of the request rather than of the stream.
      await readChanges(ctx.prisma, { after: cursor, first: 1, types, viewer: ctx.viewer });
      const keyId = ctx.viewer?.keyId;
      return pollingStream<ChangePage>({
        intervalMs: SUBSCRIPTION_IDLE_MS,
        listen: (nudge) => {
          const unwatch = onCalendarChange(ctx.prisma, nudge);
          keySignals.on('revoked', nudge);
          return () => {
            unwatch();
            keySignals.off('revoked', nudge);
          };
        },
        round: async (push) => {
          if (keyId !== undefined && !(await keyIsActive(ctx.prisma, keyId))) return 'end';
          const page = await filtered(
            ctx,
            await readChanges(ctx.prisma, { after: cursor, first: MAX_CHANGES_PER_PAGE, types, viewer: ctx.viewer }),
            filter,
          );
          cursor = page.cursor;
          if (page.changes.length) await push(page);
          return page.hasMore ? 'again' : 'wait';
        },
      });
    },
    resolve: (page) => page,
  }),
}));
