// Event categories (hierarchical) and tags (flat) share the Term model; each is its own GraphQL type
// with its queries and mutations here. Resolvers stay thin: rules live in src/calendar/terms.ts.
// `count` (published events per term) and category `url`s are loaded once per request for every
// term in the response, never per row.
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { builder, type InputFields, type MutationFields, type QueryFields, type SharedFieldBuilder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { intId, nodeSource } from '../../graphql/node.js';
import { MAX_PER_PAGE } from '../paging.js';
import { readsColumns, selectedColumns } from '../../graphql/selected-columns.js';
import {
  CATEGORY_TAXONOMY,
  categoryTree,
  createTerm,
  deleteTerm,
  findTermId,
  listTerms,
  TAG_TAXONOMY,
  termForAnswer,
  updateTerm,
  type CategoryTree,
  type Taxonomy,
  type TermInput,
  type TermListFilter,
} from '../terms.js';
import { slugPath, termUrl } from '../term-rules.js';
import { listableStatuses } from '../capabilities.js';
import { nestedFirstArg, nestedTake, PageArgs, pageType } from './pagination.js';
import { Event, EventCategory, Tag } from './refs.js';
import { childTermsOf, TERM_READ, termById, type TermRow } from './loaders.js';

type TermPlace = { id: number; slug: string; parentId: number | null };

function categories(ctx: GraphQLContext): Promise<CategoryTree> {
  let tree = ctx.cache.get('terms:categoryTree') as Promise<CategoryTree> | undefined;
  if (!tree) {
    tree = categoryTree(ctx.prisma);
    ctx.cache.set('terms:categoryTree', tree);
  }
  return tree;
}

async function archiveUrl(term: TermPlace, taxonomy: Taxonomy, ctx: GraphQLContext): Promise<string> {
  const path = taxonomy === CATEGORY_TAXONOMY ? slugPath(await categories(ctx), term) : [term.slug];
  return termUrl(ctx.config.siteUrl, taxonomy, path);
}

/** Fields both term types have; `what` names the type in descriptions. */
function termFields(t: SharedFieldBuilder, taxonomy: Taxonomy, what: string) {
  return {
    name: t.exposeString('name', { description: `The ${what} name, as stored (HTML special characters as entities: "Rock &amp; Roll").` }),
    slug: t.exposeString('slug', { description: `The URL slug, unique among ${what === 'tag' ? 'tags' : 'categories'}.` }),
    description: t.exposeString('description', { description: 'The description as entered ("" when none).' }),
    taxonomy: t.exposeString('taxonomy', { description: `The WordPress taxonomy: "${taxonomy}".` }),
    termGroup: t.exposeInt('termGroup', { description: 'WordPress term group (0: no alias group).' }),
    termTaxonomyId: t.exposeInt('id', { description: 'WordPress term_taxonomy_id; the same as id here.' }),
    // Stored on the term and kept current by event writes (refreshTermCounts): reads never count.
    count: t.exposeInt('count', { description: `How many published events carry this ${what}.` }),
    url: t.string({
      description:
        taxonomy === CATEGORY_TAXONOMY
          ? 'The category archive page: <site>/events/category/<ancestor slugs…>/<slug>/.'
          : 'The tag archive page: <site>/tag/<slug>/.',
      extensions: readsColumns('slug', 'parentId'),
      resolve: (term: TermPlace, _args: unknown, ctx: GraphQLContext) => archiveUrl(term, taxonomy, ctx),
    }),
    events: t.field({
      type: [Event],
      description: `Events with this ${what} that the caller may see, by start date.`,
      args: { first: nestedFirstArg(t) },
      select: (args: { first?: number | null }, ctx: GraphQLContext, nested: (selection: boolean) => object) => ({
        events: {
          take: nestedTake(args.first),
          where: { event: { status: { in: listableStatuses(ctx.viewer) } } },
          orderBy: { event: { startLocal: 'asc' } },
          select: { event: nested(true) },
        },
      }),
      resolve: (term: { events: Array<{ event: unknown }> }) => term.events.map((link) => link.event),
    }),
  };
}

builder.prismaObjectFields(EventCategory, (t) => ({
  ...termFields(t, CATEGORY_TAXONOMY, 'category'),
  parentId: t.int({
    description: 'The parent category id; 0 for a top-level category.',
    extensions: readsColumns('parentId'),
    resolve: (term) => term.parentId ?? 0,
  }),
  // Through the request's loaders, as Event.categories: one statement for every category of a page.
  parent: t.field({
    type: EventCategory,
    nullable: true,
    description: 'The parent category; null at the top level.',
    extensions: readsColumns('parentId'),
    resolve: (term, _args, ctx, info) => termById(ctx, term.parentId, selectedColumns(info, TERM_READ)),
  }),
  children: t.field({
    type: [EventCategory],
    description: 'Direct child categories, by name.',
    args: { first: nestedFirstArg(t) },
    extensions: readsColumns(),
    resolve: async (term, args, ctx, info) =>
      (await childTermsOf(ctx, term.id, selectedColumns(info, TERM_READ))).slice(0, nestedTake(args.first)),
  }),
}));

builder.prismaObjectFields(Tag, (t) => ({ ...termFields(t, TAG_TAXONOMY, 'tag') }));

const EventCategoryPage = pageType('EventCategoryPage', EventCategory, 'event categories');
const TagPage = pageType('TagPage', Tag, 'tags');

/** The list filters of GET /categories and /tags (§2.7), same names in camelCase. */
function filterFields(t: InputFields, hierarchical: boolean) {
  const what = hierarchical ? 'categories' : 'tags';
  return {
    search: t.string({ description: `Only ${what} whose name or slug contains this text (any case). Not empty.` }),
    include: t.idList({ description: `Only these ${what}, by id or slug. Every one must exist.` }),
    exclude: t.idList({ description: `Leave out these ${what}, by id or slug; ignored when include is given. Every one must exist.` }),
    order: t.string({ description: '"asc" (any case) for ascending; any other non-empty value is descending. Default ascending.' }),
    orderby: t.string({
      description:
        'Sort key: id (term_id), name, slug, count, description, parent, term_group, include (the include order), none; anything else sorts by name (the default). Text sorts ignore case.',
    }),
    hideEmpty: t.boolean({
      defaultValue: true,
      description: hierarchical
        ? 'Leave out categories without published events, but keep an empty category whose descendant has some. Default true; ignored with post/event.'
        : 'Leave out tags without published events. Default true; ignored with post/event.',
    }),
    ...(hierarchical
      ? { parent: t.id({ description: 'Only direct children of this category (id or slug; must exist).' }) }
      : {
          offset: t.int({
            description:
              'Start after this many tags (of the filtered, ordered list) instead of at (page - 1) × perPage; 0 means no offset. The total is unaffected (WordPress tags). Not negative.',
          }),
        }),
    post: t.id({ description: `Only the ${what} of this event (an existing event id).` }),
    event: t.id({ description: 'Alias of post; wins when both are given.' }),
    slug: t.string({ description: `Only the ${hierarchical ? 'category' : 'tag'} with this slug. Not empty.` }),
  };
}

const EventCategoryFilter = builder.inputType('EventCategoryFilter', {
  description: 'Filters of the category list (all must hold). Invalid values fail with INVALID_INPUT, params keyed by field name.',
  fields: (t) => filterFields(t, true),
});
const TagFilter = builder.inputType('TagFilter', {
  description: 'Filters of the tag list (all must hold). Invalid values fail with INVALID_INPUT, params keyed by field name.',
  fields: (t) => filterFields(t, false),
});

function inputFields(t: InputFields, create: boolean, hierarchical: boolean) {
  const what = hierarchical ? 'category' : 'tag';
  return {
    name: t.string({
      required: create,
      description: `The ${what} name (${create ? 'required; ' : ''}not empty). Stored as plain text. A name already used ${hierarchical ? 'under the same parent' : 'by another tag'} (any case) is TERM_EXISTS unless a new slug is given.`,
    }),
    description: t.string({ description: 'The description (not empty when given).' }),
    slug: t.string({
      description: create
        ? 'The URL slug (not empty when given; sanitised). Taken by another term: made unique (-2, -3…). Default: from the name.'
        : 'The URL slug (not empty when given; sanitised). Taken by another term: CONFLICT, unless the parent changes too.',
    }),
    parent: t.id({
      description: hierarchical
        ? 'The parent category: id or slug of an existing category. A parent that would make a loop puts the category at the top level.'
        : 'Tags are flat: any value fails with NOT_HIERARCHICAL (after the permission check), as the REST API does.',
    }),
  };
}

const CreateEventCategoryInput = builder.inputType('CreateEventCategoryInput', {
  description: 'A new event category.',
  fields: (t) => inputFields(t, true, true),
});
const UpdateEventCategoryInput = builder.inputType('UpdateEventCategoryInput', {
  description: 'Changes to an event category: only the fields given change.',
  fields: (t) => inputFields(t, false, true),
});
const CreateTagInput = builder.inputType('CreateTagInput', { description: 'A new tag.', fields: (t) => inputFields(t, true, false) });
const UpdateTagInput = builder.inputType('UpdateTagInput', {
  description: 'Changes to a tag: only the fields given change.',
  fields: (t) => inputFields(t, false, false),
});

interface TermApi {
  taxonomy: Taxonomy;
  ref: typeof EventCategory | typeof Tag;
  typeName: 'EventCategory' | 'Tag';
  page: typeof EventCategoryPage | typeof TagPage;
  filter: typeof EventCategoryFilter | typeof TagFilter;
  createInput: typeof CreateEventCategoryInput | typeof CreateTagInput;
  updateInput: typeof UpdateEventCategoryInput | typeof UpdateTagInput;
  what: string;
  /** "an event category" / "a tag", for descriptions. */
  aWhat: string;
}

const CATEGORY_API: TermApi = {
  taxonomy: CATEGORY_TAXONOMY,
  ref: EventCategory,
  typeName: 'EventCategory',
  page: EventCategoryPage,
  filter: EventCategoryFilter,
  createInput: CreateEventCategoryInput,
  updateInput: UpdateEventCategoryInput,
  what: 'event category',
  aWhat: 'an event category',
};
const TAG_API: TermApi = {
  taxonomy: TAG_TAXONOMY,
  ref: Tag,
  typeName: 'Tag',
  page: TagPage,
  filter: TagFilter,
  createInput: CreateTagInput,
  updateInput: UpdateTagInput,
  what: 'tag',
  aWhat: 'a tag',
};

const roles = (api: TermApi) => (api.taxonomy === CATEGORY_TAXONOMY ? 'author, editor and administrator' : 'editor and administrator');

function oneQuery(t: QueryFields, api: TermApi) {
  return t.prismaField({
    type: api.ref,
    description: `One ${api.what} by id or slug. An unknown id or slug (or one of the other taxonomy) is INVALID_INPUT on that argument.`,
    args: {
      id: t.arg.int({ description: `The ${api.what} id.` }),
      slug: t.arg.string({ description: `The ${api.what} slug (used when no id is given).` }),
    },
    resolve: async (query: object, _root: unknown, args: { id?: number | null; slug?: string | null }, ctx: GraphQLContext) => {
      const id = await findTermId(ctx.prisma, api.taxonomy, args);
      return termForAnswer(ctx.prisma, query, id);
    },
  });
}

function listQuery(t: QueryFields, api: TermApi) {
  return t.field({
    type: api.page,
    description: `${api.what === 'tag' ? 'Tags' : 'Event categories'} with the filters, order and paging of the REST list (by name by default; perPage at most ${MAX_PER_PAGE}). A page past the end is empty. Invalid arguments (page, perPage and the filter fields) fail together with INVALID_INPUT.`,
    args: {
      filter: t.arg({ type: api.filter, description: 'Filters; absent means every term (hideEmpty still applies).' }),
      page: t.arg({ type: PageArgs, description: 'Which page (page and perPage must be positive).' }),
    },
    resolve: (
      _root: unknown,
      args: { filter?: TermListFilter | null; page?: { page?: number | null; perPage?: number | null } | null },
      ctx: GraphQLContext,
      info: GraphQLResolveInfo,
    ) =>
      listTerms<TermRow>(ctx.prisma, api.taxonomy, args.filter ?? {}, args.page ?? {}, {
        defaultPerPage: ctx.config.postsPerPage,
        query: queryFromInfo({ context: ctx, info, typeName: api.typeName, path: ['items'] }),
      }),
  });
}

/** Term writes change slugs and parents: later fields of the same request must not reuse the tree. */
const forgetTree = (ctx: GraphQLContext) => ctx.cache.delete('terms:categoryTree');

function mutations(t: MutationFields, api: TermApi) {
  const errors = `INVALID_INPUT (a reason per field in extensions.params; checked before anything else), UNAUTHENTICATED (no API key), FORBIDDEN (only ${roles(api)} may)`;
  const flat = api.taxonomy === TAG_TAXONOMY ? 'NOT_HIERARCHICAL (a parent was given), ' : '';
  return {
    create: t.prismaField({
      type: api.ref,
      description: `Creates ${api.aWhat}. Errors: ${errors}, ${flat}TERM_EXISTS (the name is taken; extensions.termId is the existing term).`,
      args: { input: t.arg({ type: api.createInput, required: true, description: `The new ${api.what}.` }) },
      resolve: async (query: object, _root: unknown, args: { input: TermInput }, ctx: GraphQLContext) => {
        const id = await createTerm(ctx, api.taxonomy, args.input);
        forgetTree(ctx);
        return termForAnswer(ctx.prisma, query, id);
      },
    }),
    update: t.prismaField({
      type: api.ref,
      description: `Updates ${api.aWhat}; only the fields given change. Errors: ${errors}; an unknown id is INVALID_INPUT on id; ${flat}CONFLICT (the slug belongs to another term, extensions.termId).`,
      args: {
        id: t.arg.int({ required: true, description: `The ${api.what} id.` }),
        input: t.arg({ type: api.updateInput, required: true, description: 'The changes.' }),
      },
      resolve: async (query: object, _root: unknown, args: { id: number; input: TermInput }, ctx: GraphQLContext) => {
        const id = await updateTerm(ctx, api.taxonomy, args.id, args.input);
        forgetTree(ctx);
        return termForAnswer(ctx.prisma, query, id);
      },
    }),
    delete: t.prismaField({
      type: api.ref,
      description: `Deletes ${api.aWhat} for good (no trash) and returns it as it was. ${api.taxonomy === CATEGORY_TAXONOMY ? 'Its children move up to its parent. ' : ''}Errors: ${errors}; an unknown id — also when deleting again — is INVALID_INPUT on id.`,
      args: { id: t.arg.int({ required: true, description: `The ${api.what} id.` }) },
      resolve: async (query: object, _root: unknown, args: { id: number }, ctx: GraphQLContext) => {
        // Loaded (count included) before the delete: the record as it was.
        const { term } = await deleteTerm<TermRow>(ctx, api.taxonomy, args.id, query);
        forgetTree(ctx);
        return term;
      },
    }),
  };
}

// node(nodeId): every term is public; a global id of one taxonomy never names a term of the other.
for (const api of [CATEGORY_API, TAG_API]) {
  nodeSource({
    typeName: api.typeName,
    ref: api.ref,
    parseId: intId,
    prisma: true,
    load: (ctx, ids, query) => ctx.prisma.term.findMany({ ...query, where: { id: { in: ids as number[] }, taxonomy: api.taxonomy } }),
  });
}

builder.queryFields((t) => ({
  eventCategory: oneQuery(t, CATEGORY_API),
  eventCategories: listQuery(t, CATEGORY_API),
  tag: oneQuery(t, TAG_API),
  tags: listQuery(t, TAG_API),
}));

builder.mutationFields((t) => {
  const category = mutations(t, CATEGORY_API);
  const tag = mutations(t, TAG_API);
  return {
    createEventCategory: category.create,
    updateEventCategory: category.update,
    deleteEventCategory: category.delete,
    createTag: tag.create,
    updateTag: tag.update,
    deleteTag: tag.delete,
  };
});
