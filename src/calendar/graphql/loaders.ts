// What an event's fields read besides its own row — featured images, venues, organizers, terms —
// and a category's parent and children, loaded once per request for every record that asks
// (DataLoader batches the records of a tick).
// Each link is one joined statement, raw: Prisma's relation loading took two statements per link
// (the link table, then the records) and ~0.2 ms of CPU each, where one raw statement for a page of
// 50 events costs less than Prisma's mapping of its rows; it runs through the driver adapter
// (ctx.readRows), as Prisma's raw-query pipeline cost as much again as the statement.
import DataLoader from 'dataloader';
import type { GraphQLContext } from '../../graphql/context.js';
import { EVENT_TABLE, ORGANIZER_TABLE, TERM_TABLE, VENUE_TABLE } from '../../db/tables.js';
import { columnList, oneOfSql } from '../../db/where-sql.js';
import { rowColumns, unionOfColumns, type RowColumns, type Selected } from '../../graphql/selected-columns.js';

type Rows<M extends 'attachment' | 'venue' | 'organizer' | 'term'> = Awaited<ReturnType<GraphQLContext['prisma'][M]['findMany']>>;
export type AttachmentRow = Rows<'attachment'>[number];
export type VenueRow = Rows<'venue'>[number];
export type OrganizerRow = Rows<'organizer'>[number];
export type TermRow = Rows<'term'>[number];

/** The request's loader named `name`, created on first use. */
export function loader<K, V, C = K>(
  ctx: GraphQLContext,
  name: string,
  batch: (keys: readonly K[]) => Promise<V[]>,
  options?: DataLoader.Options<K, V, C>,
): DataLoader<K, V, C> {
  let found = ctx.cache.get(name) as DataLoader<K, V, C> | undefined;
  if (!found) ctx.cache.set(name, (found = new DataLoader(batch, options)));
  return found;
}

/**
 * Rows of a statement for each of `keys`, as `sql` selects them given the condition that `column`
 * is one of the keys; the statement returns each row's key as `_key`.
 */
async function rowsByKey<T>(
  ctx: GraphQLContext,
  keys: readonly number[],
  column: string,
  sql: (keyIsOneOf: string) => string,
): Promise<T[][]> {
  const condition = oneOfSql(ctx.dbKind, column, keys);
  const rows = await ctx.readRows<T & { _key: number }>(sql(condition.sql), condition.args);
  const byKey = new Map<number, T[]>(keys.map((key) => [key, []]));
  // The rows keep `_key` (no field reads it): copying each row without it cost more than the statement.
  for (const row of rows) byKey.get(Number(row._key))?.push(row);
  return keys.map((key) => byKey.get(key)!);
}

// What is read whatever is selected: of a post (event, venue, organizer) what permission checks and
// masking read (isEventReadable, isLinkedReadable, isMasked); of a term what Event.categories/tags
// filter and sort by.
const POST_ACCESS = ['id', 'status', 'authorId', 'password'];
export const EVENT_READ = rowColumns(EVENT_TABLE.columns, POST_ACCESS);
export const VENUE_READ = rowColumns(VENUE_TABLE.columns, POST_ACCESS);
export const ORGANIZER_READ = rowColumns(ORGANIZER_TABLE.columns, POST_ACCESS);
export const TERM_READ = rowColumns(TERM_TABLE.columns, ['id', 'taxonomy', 'name']);

interface KeyedLoad {
  /** An event id (linked records), a term id (a category's parent) or a parent id (its children). */
  key: number;
  columns: Selected;
}
const columnKeys = new WeakMap<readonly string[], string>();
function columnsKey(columns: Selected): string {
  if (columns === null) return '*';
  let key = columnKeys.get(columns);
  if (key === undefined) columnKeys.set(columns, (key = columns.join(',')));
  return key;
}

const WRITTEN = 'written-rows';
type WrittenRows = Map<string, Map<number, unknown[]>>;

/**
 * Rows that a write of this request left as they now are (a created event's terms), for the
 * loader `name` and `key`: answered without a read. Whole rows, so any selection finds its columns.
 */
export function primeWrittenRows(ctx: GraphQLContext, name: 'event-terms', key: number, rows: unknown[]): void {
  let byName = ctx.cache.get(WRITTEN) as WrittenRows | undefined;
  if (!byName) ctx.cache.set(WRITTEN, (byName = new Map()));
  let byKey = byName.get(name);
  if (!byKey) byName.set(name, (byKey = new Map()));
  byKey.set(key, rows);
}

/**
 * The rows of one key (an event's venues, a category's parent…): the loads of a tick are read in
 * one statement, for the union of the columns they ask (a page's categories and tags select
 * different fields). A load is kept per key and column set, so a later one never gets rows without
 * a column it asked for. `column` is the key's column in `sql`, which selects it as `_key`.
 */
function keyedLoad<T>(
  ctx: GraphQLContext,
  name: string,
  read: RowColumns,
  column: string,
  load: KeyedLoad,
  sql: (columns: Selected, keyIsOneOf: string) => string,
): Promise<T[]> {
  const written = (ctx.cache.get(WRITTEN) as WrittenRows | undefined)?.get(name)?.get(load.key);
  if (written) return Promise.resolve(written as T[]);
  const batch = async (loads: readonly KeyedLoad[]) => {
    const columns = unionOfColumns(
      read,
      loads.map((one) => one.columns),
    );
    const keys = [...new Set(loads.map((one) => one.key))];
    const rows = await rowsByKey<T>(ctx, keys, column, (keyIsOneOf) => sql(columns, keyIsOneOf));
    const byKey = new Map(keys.map((key, i) => [key, rows[i]]));
    return loads.map((one) => byKey.get(one.key)!);
  };
  return loader(ctx, name, batch, { cacheKeyFn: (one) => `${one.key}:${columnsKey(one.columns)}` }).load(load);
}

/** An event's venues, by venue id (the first is "the" venue); `columns`: only these (all by default). */
export const venuesOf = (ctx: GraphQLContext, eventId: number, columns: Selected = null) =>
  keyedLoad<VenueRow>(
    ctx,
    'event-venues',
    VENUE_READ,
    'l."eventId"',
    { key: eventId, columns },
    (selected, eventIdIsOneOf) =>
      `SELECT l."eventId" AS "_key", ${columnList(VENUE_TABLE, 'v', selected)} FROM "EventVenue" l JOIN "Venue" v ON v."id" = l."venueId" WHERE ${eventIdIsOneOf} ORDER BY l."eventId", l."venueId"`,
  );

/** An event's organizers, in the order given; `columns`: only these (all by default). */
export const organizersOf = (ctx: GraphQLContext, eventId: number, columns: Selected = null) =>
  keyedLoad<OrganizerRow>(
    ctx,
    'event-organizers',
    ORGANIZER_READ,
    'l."eventId"',
    { key: eventId, columns },
    (selected, eventIdIsOneOf) =>
      `SELECT l."eventId" AS "_key", ${columnList(ORGANIZER_TABLE, 'o', selected)} FROM "EventOrganizer" l JOIN "Organizer" o ON o."id" = l."organizerId" WHERE ${eventIdIsOneOf} ORDER BY l."eventId", l."position", l."organizerId"`,
  );

/** An event's categories and tags, unordered; `columns`: only these (all by default). */
export const termsOf = (ctx: GraphQLContext, eventId: number, columns: Selected = null) =>
  keyedLoad<TermRow>(
    ctx,
    'event-terms',
    TERM_READ,
    'l."eventId"',
    { key: eventId, columns },
    (selected, eventIdIsOneOf) =>
      `SELECT l."eventId" AS "_key", ${columnList(TERM_TABLE, 't', selected)} FROM "EventTerm" l JOIN "Term" t ON t."id" = l."termId" WHERE ${eventIdIsOneOf}`,
  );

/** A term by id (none: null, without a statement); `columns`: only these (all by default). */
export async function termById(ctx: GraphQLContext, id: number | null, columns: Selected = null): Promise<TermRow | null> {
  if (id == null) return null;
  const rows = await keyedLoad<TermRow>(
    ctx,
    'terms-by-id',
    TERM_READ,
    't."id"',
    { key: id, columns },
    (selected, idIsOneOf) => `SELECT t."id" AS "_key", ${columnList(TERM_TABLE, 't', selected)} FROM "Term" t WHERE ${idIsOneOf}`,
  );
  return rows[0] ?? null;
}

/** A term's direct children by name, then id; `columns`: only these (all by default). */
export const childTermsOf = (ctx: GraphQLContext, parentId: number, columns: Selected = null) =>
  keyedLoad<TermRow>(
    ctx,
    'term-children',
    TERM_READ,
    't."parentId"',
    { key: parentId, columns },
    (selected, parentIdIsOneOf) =>
      `SELECT t."parentId" AS "_key", ${columnList(TERM_TABLE, 't', selected)} FROM "Term" t WHERE ${parentIdIsOneOf} ORDER BY t."parentId", t."name", t."id"`,
  );

/** A featured image by attachment id (none: null, without a statement). */
export function imageById(ctx: GraphQLContext, id: number | null | undefined): Promise<AttachmentRow | null> | null {
  if (id == null) return null;
  return loader<number, AttachmentRow | null>(ctx, 'images', async (ids) => {
    const rows = await ctx.prisma.attachment.findMany({ where: { id: { in: [...ids] } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((one) => byId.get(one) ?? null);
  }).load(id);
}

/** The URL of a record's featured image, for JSON-LD. */
export const imageUrlOf = async (ctx: GraphQLContext, id: number | null | undefined) => (await imageById(ctx, id))?.url ?? null;
