import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.js';
import { defaultListStatuses } from '../visibility.js';
import { Event, Organizer } from './refs.js';
import { PageArgs, pageRequest, pageType } from './pagination.js';

builder.prismaObjectFields(Organizer, (t) => ({
    name: t.exposeString('title', { description: 'The organizer name.' }),
    slug: t.exposeString('slug', { description: 'The URL slug, unique among organizers.' }),
    status: t.exposeString('status', { description: 'publish, draft, pending, private or trash.' }),
    description: t.exposeString('content', { description: 'The description as entered.' }),
    phone: t.exposeString('phone', { description: 'Phone number.' }),
    email: t.exposeString('email', { description: 'E-mail address.' }),
    website: t.exposeString('website', { description: 'Website URL.' }),
    events: t.field({
      type: [Event],
      description: 'Events this organizer runs that the caller may see, by start date.',
      select: (_args, ctx, nested) => ({
        events: {
          where: { event: { status: { in: defaultListStatuses(ctx.viewer) } } },
          orderBy: { event: { startLocal: 'asc' } },
          select: { event: nested(true) },
        },
      }),
      resolve: (organizer) => organizer.events.map((link) => link.event),
    }),
}));

const OrganizerPage = pageType('OrganizerPage', Organizer, 'organizers');

builder.queryFields((t) => ({
  organizer: t.prismaField({
    type: Organizer,
    nullable: true,
    description: 'One organizer by id, when the caller may see it.',
    args: { id: t.arg.int({ required: true, description: 'The organizer id.' }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.organizer.findFirst({ ...query, where: { id: args.id, status: { in: defaultListStatuses(ctx.viewer) } } }),
  }),
  organizers: t.field({
    type: OrganizerPage,
    description: 'Organizers the caller may see, newest first.',
    args: { page: t.arg({ type: PageArgs, description: 'Which page.' }) },
    resolve: async (_root, args, ctx, info) => {
      const { page, perPage, skip } = pageRequest(ctx, args.page);
      const where = { status: { in: defaultListStatuses(ctx.viewer) } };
      const [items, total] = await Promise.all([
        ctx.prisma.organizer.findMany({
          ...queryFromInfo({ context: ctx, info, typeName: 'Organizer', path: ['items'] }),
          where,
          orderBy: [{ dateUtc: 'desc' }, { id: 'desc' }],
          skip,
          take: perPage,
        }),
        ctx.prisma.organizer.count({ where }),
      ]);
      return { items, total, page, perPage };
    },
  }),
}));
