// What the Venue and Organizer GraphQL APIs share: the record fields both carry, password masking,
// the list filter, page type, root queries and mutations. venue.ts and organizer.ts add their own
// fields and call `defineLinkedApi` once each, so the two APIs cannot drift apart.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder, type ArgsOf, type InputFields, type SharedFieldBuilder } from '../../graphql/builder.js';
import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { intId, nodeSource } from '../../graphql/node.js';
import { readsColumns } from '../../graphql/selected-columns.js';
import { setUnlock, unlockArgs, unlockFromArgs } from '../../graphql/unlock.js';
import { listTotal } from '../list-totals.js';
import { META_FIELDS, type LinkedFields } from '../linked.js';
import {
  assertLinkedReadable,
  createLinkedPost,
  isLinkedReadable,
  linkedListQuery,
  MOST_NEXT_EVENTS,
  trashLinkedPost,
  updateLinkedPost,
  type LinkedListFilter,
  type LinkedTarget,
  type LinkedType,
} from '../linked-posts.js';
import { linkedTable, permalink, wallNow } from '../posts.js';
import { listableStatuses } from '../capabilities.js';
import { renderContent, renderExcerpt, renderTitle } from '../text.js';
import { connectionTypes, nestedFirstArg, nestedTake, PageArgs, pageRequest } from './pagination.js';
import { Event, type Organizer, type Venue } from './refs.js';
import { imageById, type OrganizerRow, type VenueRow } from './loaders.js';
import { globalIdFields, Image, isMasked, maskedText, PostStatus } from './shared.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a venue's or an organizer's row: each field reads its own type's columns
type Row = { id: number; password: string; status: string; authorId: number; [column: string]: any };

/** Fields masking empties (spec §3.7), and the column behind each where the names differ. */
const MASKABLE_FIELDS: Record<LinkedType, readonly string[]> = {
  venue: [
    'description',
    'excerpt',
    'image',
    'address',
    'city',
    'country',
    'province',
    'zip',
    'phone',
    'website',
    'stateprovince',
    'geoLat',
    'geoLng',
  ],
  organizer: ['description', 'excerpt', 'image', 'phone', 'website', 'email'],
};
const MASKED_COLUMN: Record<string, string> = { description: 'content', image: 'imageId' };
const hasValue = (value: unknown) => (typeof value === 'string' ? value.trim() !== '' : value !== null && value !== undefined);

/** Fields every venue and organizer carries (spec §3.2, §3.3). `t` is the type's Prisma field builder. */
export function linkedRecordFields(type: LinkedType, t: SharedFieldBuilder) {
  const what = type === 'venue' ? 'venue' : 'organizer';
  return {
    ...globalIdFields<Row>(t),
    author: t.exposeInt('authorId', { description: `Id of the user who owns the ${what} (0: none).` }),
    status: t.field({ type: PostStatus, description: 'Publication status.', extensions: readsColumns(), resolve: (r: Row) => r.status }),
    date: t.exposeString('date', { description: 'Publication date, site-local "YYYY-MM-DD HH:MM:SS".' }),
    dateUtc: t.exposeString('dateUtc', { description: 'Publication date in UTC.' }),
    modified: t.exposeString('modified', { description: 'Last modification, site-local.' }),
    modifiedUtc: t.exposeString('modifiedUtc', { description: 'Last modification in UTC.' }),
    url: t.string({
      description: `The ${what} page (permalink).`,
      extensions: readsColumns('slug'),
      resolve: (r: Row, _a: unknown, ctx: GraphQLContext) =>
        permalink(ctx.config.siteUrl, type, { id: r.id, slug: r.slug, status: r.status }),
    }),
    // The original masks the name too (its masked record shows `venue: []`), so both forms read "".
    name: maskedText<Row>(t, 'title', `The ${what} name as entered`),
    title: t.string({
      description: `The name as HTML, typographic quotes and entities applied: the REST record's "${type}" ("" when masked).`,
      extensions: readsColumns('title'),
      resolve: (r: Row, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) => (isMasked(r, ctx, info) ? '' : renderTitle(r.title)),
    }),
    description: maskedText<Row>(t, 'content', 'The description as entered'),
    descriptionHtml: maskedText<Row>(t, 'content', 'The description with paragraphs', renderContent),
    excerpt: maskedText<Row>(t, 'excerpt', 'The excerpt as entered'),
    excerptHtml: maskedText<Row>(t, 'excerpt', 'The excerpt with paragraphs', renderExcerpt),
    slug: t.exposeString('slug', { description: `The URL slug, unique among ${type}s.` }),
    image: t.field({
      type: Image,
      nullable: true,
      description: 'The featured image, if any (null when masked).',
      extensions: readsColumns('imageId'),
      resolve: (r: Row, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) =>
        isMasked(r, ctx, info) ? null : imageById(ctx, r.imageId),
    }),
    website: maskedText<Row>(t, 'website', 'Website URL as stored'),
    phone: maskedText<Row>(t, 'phone', 'Phone number'),
    passwordProtected: t.boolean({
      description: `Whether the ${what} has a password.`,
      extensions: readsColumns(),
      resolve: (r: Row) => r.password !== '',
    }),
    masked: t.boolean({
      description:
        'Whether this record hides its protected fields from this request (pass its password, or editContext as someone who may edit it).',
      resolve: (r: Row, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) => {
        const masked = isMasked(r, ctx, info);
        const hidden = ctx.operationOptions?.hiddenFields;
        if (masked && hidden)
          hidden.set(
            `${type}:${r.id}`,
            MASKABLE_FIELDS[type].filter((field) => hasValue(r[MASKED_COLUMN[field] ?? field])),
          );
        return masked;
      },
    }),
    events: t.field({
      type: [Event],
      description: `Events linked to this ${what} that the caller may list (the status rules of lists), by start date.`,
      args: {
        upcoming: t.arg.boolean({ description: 'Only events starting now or later that are not hidden from listings.' }),
        first: nestedFirstArg(t),
      },
      // Loaded with the records (one statement per level for the whole page), never per row.
      select: (args: { upcoming?: boolean | null; first?: number | null }, ctx: GraphQLContext, nested: SharedFieldBuilder) => ({
        events: {
          take: nestedTake(args.first),
          where: { event: linkedEventsWhere(ctx, args.upcoming === true) },
          orderBy: [{ event: { startLocal: 'asc' } }, { eventId: 'asc' }],
          select: { event: nested(true) },
        },
      }),
      resolve: (r: Row) => r.events.map((link: { event: unknown }) => link.event),
    }),
  };
}

function linkedEventsWhere(ctx: GraphQLContext, upcoming: boolean) {
  const where: Record<string, unknown> = { status: { in: listableStatuses(ctx.viewer) } };
  if (upcoming) Object.assign(where, { hideFromListings: false, startLocal: { gte: wallNow(ctx.config.siteTimezone).local } });
  return where;
}

/** Input fields of create and update shared by both types; `create` makes the name required. */
export function linkedInputFields(type: LinkedType, t: InputFields, create: boolean) {
  const what = type === 'venue' ? 'venue' : 'organizer';
  return {
    name: t.string({
      required: create,
      description: `The ${what} name (REST "${type}"; required on create, never empty). On create, a non-trashed ${what} with the same name (case-insensitive) — and the same description, when one is given — is reused.`,
    }),
    description: t.string({
      description: create ? 'Description (HTML allowed).' : 'Description (HTML allowed); "" is ignored, as in the original.',
    }),
    excerpt: t.string({ description: 'Excerpt ("" or null clears).' }),
    slug: t.string({ description: 'URL slug (not empty); made unique with -2, -3… on clash. Default: from the name.' }),
    status: t.string({ description: 'Status (publish, draft…); roles that cannot publish get pending/draft instead.' }),
    author: t.int({ description: 'Id of an existing user who owns the record (default: the caller).' }),
    date: t.string({ description: 'Publication date, site-local: a date/time, a Unix timestamp or a relative expression.' }),
    dateUtc: t.string({ description: 'Publication date in UTC.' }),
    image: t.string({
      description: 'Featured image: an image attachment id or an image URL (URLs need the upload capability); "" or null removes.',
    }),
    website: t.string({ description: 'Website URL ("" or null clears).' }),
    phone: t.string({ description: 'Phone number ("" or null clears).' }),
    password: t.string({
      description: 'Password protecting the record ("" or null removes). Protected records are masked unless unlocked.',
    }),
  };
}

/**
 * GraphQL sends explicit nulls; a null clears the fields that "" clears (address and contact fields,
 * image, excerpt, password) and means "not given" for the others.
 */
function fieldsFrom(type: LinkedType, input: Record<string, unknown>): LinkedFields {
  const clearable = new Set([...META_FIELDS[type], 'image', 'excerpt', 'password']);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null && !clearable.has(key)) continue;
    fields[key] = value === null ? '' : value;
  }
  return fields as LinkedFields;
}

const target = (args: { id?: number | null; slug?: string | null }): LinkedTarget =>
  args.id != null ? { id: args.id } : { slug: args.slug ?? '' };

type LinkedRow = VenueRow | OrganizerRow;

const linkedModel = (ctx: GraphQLContext, type: LinkedType) => linkedTable<LinkedRow>(ctx.prisma, type);

interface LinkedPageShape {
  items: LinkedRow[];
  total: number;
  page: number;
  perPage: number;
  statuses: string[];
}

export interface LinkedApiSpec {
  type: LinkedType;
  /** The Prisma object ref (Venue or Organizer from refs.ts). */
  ref: typeof Venue | typeof Organizer;
  /** "Venue" / "Organizer": the GraphQL type name, and the stem of every other name. */
  typeName: 'Venue' | 'Organizer';
  /** Which fields `search` looks in, for the filter's description. */
  searchedFields: string;
  /** Type-specific input fields (both create and update). */
  ownInputFields: (t: InputFields) => Record<string, unknown>;
}

/** Registers the filter, page, queries and mutations of one linked type. */
export function defineLinkedApi(spec: LinkedApiSpec): void {
  const { type, ref, typeName } = spec;
  const plural = `${type}s`;
  const what = type === 'venue' ? 'venue' : 'organizer';

  const Filter = builder.inputType(`${typeName}Filter`, {
    description: `Filters of the ${what} list, with the semantics of the REST list route (every filter must hold).`,
    fields: (t) => ({
      search: t.string({
        description: `Split into fragments at every character other than ASCII letters, digits and "-"; fragments "0" are dropped; a ${what} matches when one field contains every fragment (case-insensitive), and none when no fragment is left. Fields: ${spec.searchedFields}. Not empty.`,
      }),
      event: t.int({ description: `Only ${plural} linked to this event (the id of an existing event).` }),
      hasEvents: t.boolean({
        description: `true: only ${plural} linked to an event whose status is not draft or pending; false: only the others.`,
      }),
      onlyWithUpcoming: t.boolean({
        description: `true: only ${plural} linked to an upcoming event the caller may list that is not hidden from listings; false: no filtering.`,
      }),
      linkedToNextEvents: t.int({
        description: `Only ${plural} linked to one of the next N upcoming events: the events onlyWithUpcoming looks at, soonest first (ties by id). 1 to ${MOST_NEXT_EVENTS}.`,
      }),
      status: t.stringList({
        description:
          'Statuses to list. Only callers who can edit may ask for more than publish. Default: publish, or every status but trash for contributors and up.',
      }),
    }),
  });

  const Page = builder.objectRef<LinkedPageShape>(`${typeName}Page`).implement({
    description: `One page of ${plural}, newest publication first.`,
    fields: (t) => ({
      items: t.field({ type: [ref], description: `The ${plural} on this page.`, resolve: (p) => p.items }),
      total: t.exposeInt('total', { description: 'How many match, over all pages.' }),
      totalPages: t.int({ description: 'ceil(total / perPage); 0 when nothing matches.', resolve: (p) => Math.ceil(p.total / p.perPage) }),
      page: t.exposeInt('page', { description: 'This page, from 1. A page past the end is empty (REST answers it with 404).' }),
      perPage: t.exposeInt('perPage', { description: 'The page size used.' }),
      statuses: t.exposeStringList('statuses', { description: 'The statuses listed (the REST rest_url carries them as status).' }),
    }),
  });

  const listArgs = (t: ArgsOf) => ({
    filter: t.arg({ type: Filter, description: 'Filters.' }),
    ...unlockArgs(t, `${plural} (and events)`),
  });
  const listQuery = (ctx: GraphQLContext, filter: unknown) => linkedListQuery(ctx.prisma, type, (filter ?? {}) as LinkedListFilter, ctx);

  const [connectionType, edgeType] = connectionTypes(typeName, what);

  builder.queryFields((t) => ({
    [type]: t.prismaField({
      type: ref,
      description: `One ${what} by id or slug (any status the caller may read). Errors: INVALID_INPUT on "id" (unknown, or not a ${what}) or "slug" (unknown); NOT_ACCESSIBLE (not published and not readable by the caller). Protected ${plural} are masked, not refused.`,
      args: {
        id: t.arg.int({ description: `The ${what} id.` }),
        slug: t.arg.string({ description: `The ${what} slug (when no id); sanitised like a WordPress slug before lookup.` }),
        ...unlockArgs(t, `${plural} (and events)`),
      },
      resolve: async (query, _root, args, ctx, info) => {
        unlockFromArgs(ctx, info, args);
        const id = await assertLinkedReadable(ctx.prisma, type, target(args), ctx.viewer);
        return linkedModel(ctx, type).findUniqueOrThrow({ ...query, where: { id } });
      },
    }),
    [plural]: t.field({
      type: Page,
      description: `${typeName}s the caller may see, publication date descending, then id descending. Errors: INVALID_INPUT on search, event, status.`,
      args: { ...listArgs(t), page: t.arg({ type: PageArgs, description: 'Which page.' }) },
      resolve: async (_root, args, ctx, info) => {
        unlockFromArgs(ctx, info, args);
        const { page, perPage, skip } = pageRequest(ctx, args.page);
        const list = await listQuery(ctx, args.filter);
        const model = linkedModel(ctx, type);
        const [items, total] = await Promise.all([
          model.findMany({
            ...queryFromInfo({ context: ctx, info, typeName, path: ['items'] }),
            where: list.where,
            orderBy: list.orderBy,
            skip,
            take: perPage,
          }),
          listTotal(ctx, type, list.where),
        ]);
        return { items, total, page, perPage, statuses: list.statuses };
      },
    }),
    [`${plural}Connection`]: t.prismaConnection(
      {
        type: ref,
        cursor: 'id',
        description: `${typeName}s as a Relay connection, for clients that page deeply; same filters and order as \`${plural}\`.`,
        args: listArgs(t),
        maxSize: 50,
        defaultSize: 10,
        totalCount: async (_parent, args, ctx) => listTotal(ctx, type, (await listQuery(ctx, args.filter)).where),
        resolve: async (query, _root, args, ctx, info) => {
          unlockFromArgs(ctx, info, args);
          const list = await listQuery(ctx, args.filter);
          return linkedModel(ctx, type).findMany({ ...query, where: list.where, orderBy: list.orderBy });
        },
      },
      connectionType,
      edgeType,
    ),
  }));

  // node(nodeId): the records the one-record query would answer (protected ones masked, as there).
  nodeSource({
    typeName,
    ref,
    parseId: intId,
    prisma: true,
    load: async (ctx, ids, query) =>
      (await linkedModel(ctx, type).findMany({ ...query, where: { id: { in: ids } } })).filter((row) => isLinkedReadable(row, ctx.viewer)),
  });

  const inputFields = (t: InputFields, create: boolean) => ({ ...linkedInputFields(type, t, create), ...spec.ownInputFields(t) });
  const CreateInput = builder.inputType(`Create${typeName}Input`, { description: `A new ${what}.`, fields: (t) => inputFields(t, true) });
  const UpdateInput = builder.inputType(`Update${typeName}Input`, {
    description: `Changes to a ${what}: only the fields given change; "" clears an address or contact field.`,
    fields: (t) => inputFields(t, false),
  });
  const targetArgs = (t: ArgsOf) => ({
    id: t.arg.int({ description: `The ${what} id (ownership is checked).` }),
    slug: t.arg.string({ description: `The ${what} slug, when no id (ownership is checked too).` }),
  });
  // Write results are the caller's own work: never masked.
  const reread = (ctx: GraphQLContext, info: GraphQLResolveInfo, query: object, id: number) => {
    setUnlock(ctx, info, { showAll: true });
    return linkedModel(ctx, type).findUniqueOrThrow({ ...query, where: { id } });
  };

  builder.mutationFields((t) => ({
    [`create${typeName}`]: t.prismaField({
      type: ref,
      description: `Creates a ${what} (contributor and up), or reuses a duplicate (see input.name) and returns it. Errors, in this order: INVALID_INPUT (params per field), UNAUTHENTICATED, FORBIDDEN.`,
      args: { input: t.arg({ type: CreateInput, required: true, description: `The ${what}.` }) },
      resolve: async (query, _root, args, ctx, info) => {
        const { id } = await createLinkedPost(ctx, type, fieldsFrom(type, args.input));
        return reread(ctx, info, query, id);
      },
    }),
    [`update${typeName}`]: t.prismaField({
      type: ref,
      description: `Updates a ${what} by id or slug; only given fields change. Errors, in this order: INVALID_INPUT (unknown id/slug, bad fields), UNAUTHENTICATED, FORBIDDEN (contributors: own drafts; authors: own; editors: any).`,
      args: { ...targetArgs(t), input: t.arg({ type: UpdateInput, required: true, description: 'The changes.' }) },
      resolve: async (query, _root, args, ctx, info) => {
        const id = await updateLinkedPost(ctx, type, target(args), fieldsFrom(type, args.input));
        return reread(ctx, info, query, id);
      },
    }),
    [`delete${typeName}`]: t.prismaField({
      type: ref,
      description: `Moves a ${what} to the trash and returns it. As in The Events Calendar, the first page (posts per page) of upcoming published events linked to it lose all their ${what}s; other events keep it, trashed. Errors, in this order: INVALID_INPUT (unknown id/slug), UNAUTHENTICATED, FORBIDDEN, ALREADY_TRASHED (a second delete: gone).`,
      args: targetArgs(t),
      resolve: async (query, _root, args, ctx, info) => {
        const id = await trashLinkedPost(ctx, type, target(args));
        return reread(ctx, info, query, id);
      },
    }),
  }));
}
