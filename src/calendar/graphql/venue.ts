import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.js';
import { defaultListStatuses } from '../visibility.js';
import { Event, Venue } from './refs.js';
import { PageArgs, pageRequest, pageType } from './pagination.js';

builder.prismaObjectFields(Venue, (t) => ({
    name: t.exposeString('title', { description: 'The venue name.' }),
    slug: t.exposeString('slug', { description: 'The URL slug, unique among venues.' }),
    status: t.exposeString('status', { description: 'publish, draft, pending, private or trash.' }),
    description: t.exposeString('content', { description: 'The description as entered.' }),
    address: t.exposeString('address', { description: 'Street address.' }),
    city: t.exposeString('city', { description: 'City.' }),
    country: t.exposeString('country', { description: 'Country.' }),
    province: t.exposeString('province', { description: 'Province (outside the US).' }),
    state: t.exposeString('state', { description: 'State (in the US).' }),
    zip: t.exposeString('zip', { description: 'Postal code.' }),
    phone: t.exposeString('phone', { description: 'Phone number.' }),
    website: t.exposeString('website', { description: 'Website URL.' }),
    events: t.field({
      type: [Event],
      description: 'Events at this venue that the caller may see, by start date.',
      select: (_args, ctx, nested) => ({
        events: {
          where: { event: { status: { in: defaultListStatuses(ctx.viewer) } } },
          orderBy: { event: { startLocal: 'asc' } },
          select: { event: nested(true) },
        },
      }),
      resolve: (venue) => venue.events.map((link) => link.event),
    }),
}));

const VenuePage = pageType('VenuePage', Venue, 'venues');

builder.queryFields((t) => ({
  venue: t.prismaField({
    type: Venue,
    nullable: true,
    description: 'One venue by id, when the caller may see it.',
    args: { id: t.arg.int({ required: true, description: 'The venue id.' }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.venue.findFirst({ ...query, where: { id: args.id, status: { in: defaultListStatuses(ctx.viewer) } } }),
  }),
  venues: t.field({
    type: VenuePage,
    description: 'Venues the caller may see, newest first.',
    args: { page: t.arg({ type: PageArgs, description: 'Which page.' }) },
    resolve: async (_root, args, ctx, info) => {
      const { page, perPage, skip } = pageRequest(ctx, args.page);
      const where = { status: { in: defaultListStatuses(ctx.viewer) } };
      const [items, total] = await Promise.all([
        ctx.prisma.venue.findMany({
          ...queryFromInfo({ context: ctx, info, typeName: 'Venue', path: ['items'] }),
          where,
          orderBy: [{ dateUtc: 'desc' }, { id: 'desc' }],
          skip,
          take: perPage,
        }),
        ctx.prisma.venue.count({ where }),
      ]);
      return { items, total, page, perPage };
    },
  }),
}));
