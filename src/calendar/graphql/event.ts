import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.js';
import { defaultListStatuses } from '../visibility.js';
import { PageArgs, pageRequest, pageType } from './pagination.js';
import { Event, EventCategory, Organizer, Tag, Venue } from './refs.js';

builder.prismaObjectFields(Event, (t) => ({
    title: t.exposeString('title', { description: 'The title as entered.' }),
    slug: t.exposeString('slug', { description: 'The URL slug, unique among events.' }),
    status: t.exposeString('status', { description: 'publish, future, draft, pending, private or trash.' }),
    description: t.exposeString('content', { description: 'The description as entered (no paragraph markup).' }),
    excerpt: t.exposeString('excerpt', { description: 'The excerpt as entered.' }),
    allDay: t.exposeBoolean('allDay', { description: 'Whether the event lasts whole days.' }),
    timezone: t.exposeString('timezone', { description: 'The event time zone (IANA id or UTC±N).' }),
    startDate: t.exposeString('startLocal', { description: 'Start, local wall time "YYYY-MM-DD HH:MM:SS".' }),
    endDate: t.exposeString('endLocal', { description: 'End, local wall time "YYYY-MM-DD HH:MM:SS".' }),
    utcStartDate: t.exposeString('startUtc', { description: 'Start in UTC "YYYY-MM-DD HH:MM:SS".' }),
    utcEndDate: t.exposeString('endUtc', { description: 'End in UTC "YYYY-MM-DD HH:MM:SS".' }),
    featured: t.exposeBoolean('featured', { description: 'Whether the event is featured.' }),
    venue: t.field({
      type: Venue,
      nullable: true,
      description: 'The linked venue, if any.',
      select: (_args, _ctx, nested) => ({ venues: { take: 1, orderBy: { venueId: 'asc' }, select: { venue: nested(true) } } }),
      resolve: (event) => event.venues[0]?.venue ?? null,
    }),
    organizers: t.field({
      type: [Organizer],
      description: 'The linked organizers, in the order they were given.',
      select: (_args, _ctx, nested) => ({ organizers: { orderBy: { position: 'asc' }, select: { organizer: nested(true) } } }),
      resolve: (event) => event.organizers.map((link) => link.organizer),
    }),
    categories: t.field({
      type: [EventCategory],
      description: 'Event categories, by name.',
      select: (_args, _ctx, nested) => ({
        terms: { where: { term: { taxonomy: 'tribe_events_cat' } }, orderBy: { term: { name: 'asc' } }, select: { term: nested(true) } },
      }),
      resolve: (event) => event.terms.map((link) => link.term),
    }),
    tags: t.field({
      type: [Tag],
      description: 'Tags, by name.',
      select: (_args, _ctx, nested) => ({
        terms: { where: { term: { taxonomy: 'post_tag' } }, orderBy: { term: { name: 'asc' } }, select: { term: nested(true) } },
      }),
      resolve: (event) => event.terms.map((link) => link.term),
    }),
}));

const EventPage = pageType('EventPage', Event, 'events');

builder.queryFields((t) => ({
  event: t.prismaField({
    type: Event,
    nullable: true,
    description: 'One event by id, when the caller may see it.',
    args: { id: t.arg.int({ required: true, description: 'The event id.' }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.event.findFirst({ ...query, where: { id: args.id, status: { in: defaultListStatuses(ctx.viewer) } } }),
  }),
  events: t.field({
    type: EventPage,
    description: 'Events the caller may see, by start date.',
    args: { page: t.arg({ type: PageArgs, description: 'Which page.' }) },
    resolve: async (_root, args, ctx, info) => {
      const { page, perPage, skip } = pageRequest(ctx, args.page);
      const where = { status: { in: defaultListStatuses(ctx.viewer) }, hideFromListings: false };
      const [items, total] = await Promise.all([
        ctx.prisma.event.findMany({
          ...queryFromInfo({ context: ctx, info, typeName: 'Event', path: ['items'] }),
          where,
          orderBy: [{ startLocal: 'asc' }, { id: 'asc' }],
          skip,
          take: perPage,
        }),
        ctx.prisma.event.count({ where }),
      ]);
      return { items, total, page, perPage };
    },
  }),
}));
