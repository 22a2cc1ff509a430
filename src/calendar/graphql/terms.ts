// Event categories (hierarchical) and tags (flat) share the Term model; each is its own GraphQL type.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.js';
import { defaultListStatuses } from '../visibility.js';
import { Event, EventCategory, Tag } from './refs.js';
import { PageArgs, pageRequest, pageType } from './pagination.js';

export const CATEGORY_TAXONOMY = 'tribe_events_cat';
export const TAG_TAXONOMY = 'post_tag';

builder.prismaObjectFields(EventCategory, (t) => ({
    name: t.exposeString('name', { description: 'The category name.' }),
    slug: t.exposeString('slug', { description: 'The URL slug, unique among categories.' }),
    description: t.exposeString('description', { description: 'The description as entered.' }),
    parent: t.relation('parent', { type: EventCategory, nullable: true, description: 'The parent category, if any.' }),
    children: t.relation('children', { type: EventCategory, description: 'Direct child categories, by name.', query: { orderBy: { name: 'asc' } } }),
    events: t.field({
      type: [Event],
      description: 'Events in this category that the caller may see, by start date.',
      select: (_args, ctx, nested) => ({
        events: {
          where: { event: { status: { in: defaultListStatuses(ctx.viewer) } } },
          orderBy: { event: { startLocal: 'asc' } },
          select: { event: nested(true) },
        },
      }),
      resolve: (term) => term.events.map((link) => link.event),
    }),
}));

builder.prismaObjectFields(Tag, (t) => ({
    name: t.exposeString('name', { description: 'The tag name.' }),
    slug: t.exposeString('slug', { description: 'The URL slug, unique among tags.' }),
    description: t.exposeString('description', { description: 'The description as entered.' }),
    events: t.field({
      type: [Event],
      description: 'Events with this tag that the caller may see, by start date.',
      select: (_args, ctx, nested) => ({
        events: {
          where: { event: { status: { in: defaultListStatuses(ctx.viewer) } } },
          orderBy: { event: { startLocal: 'asc' } },
          select: { event: nested(true) },
        },
      }),
      resolve: (term) => term.events.map((link) => link.event),
    }),
}));

const EventCategoryPage = pageType('EventCategoryPage', EventCategory, 'event categories');
const TagPage = pageType('TagPage', Tag, 'tags');

function termQueries(taxonomy: string, ref: any, page: any, typeName: string) {
  return {
    one: (t: any, what: string) =>
      t.prismaField({
        type: ref,
        nullable: true,
        description: `One ${what} by id.`,
        args: { id: t.arg.int({ required: true, description: 'The term id.' }) },
        resolve: (query: object, _root: unknown, args: { id: number }, ctx: any) =>
          ctx.prisma.term.findFirst({ ...query, where: { id: args.id, taxonomy } }),
      }),
    list: (t: any, what: string) =>
      t.field({
        type: page,
        description: `${what}, by name.`,
        args: { page: t.arg({ type: PageArgs, description: 'Which page.' }) },
        resolve: async (_root: unknown, args: any, ctx: any, info: any) => {
          const { page: p, perPage, skip } = pageRequest(ctx, args.page);
          const where = { taxonomy };
          const [items, total] = await Promise.all([
            ctx.prisma.term.findMany({
              ...queryFromInfo({ context: ctx, info, typeName, path: ['items'] }),
              where,
              orderBy: [{ name: 'asc' }, { id: 'asc' }],
              skip,
              take: perPage,
            }),
            ctx.prisma.term.count({ where }),
          ]);
          return { items, total, page: p, perPage };
        },
      }),
  };
}

const categoryQueries = termQueries(CATEGORY_TAXONOMY, EventCategory, EventCategoryPage, 'EventCategory');
const tagQueries = termQueries(TAG_TAXONOMY, Tag, TagPage, 'Tag');

builder.queryFields((t) => ({
  eventCategory: categoryQueries.one(t, 'event category'),
  eventCategories: categoryQueries.list(t, 'Event categories'),
  tag: tagQueries.one(t, 'tag'),
  tags: tagQueries.list(t, 'Tags'),
}));
