// What an event's fields read besides its own row — featured images, venues, organizers, terms —
// loaded once per request for every record that asks (DataLoader batches the records of a tick).
// Each link is one joined statement, raw: Prisma's relation loading took two statements per link
// (the link table, then the records) and ~0.2 ms of CPU each, where one raw statement for a page of
// 50 events costs less than Prisma's mapping of its rows; it runs through the driver adapter
// (ctx.readRows), as Prisma's raw-query pipeline cost as much again as the statement.
import DataLoader from 'dataloader';
import type { GraphQLContext } from '../../graphql/context.js';
import { ORGANIZER_TABLE, TERM_TABLE, VENUE_TABLE } from '../../db/tables.js';
import { columnList, oneOfSql } from '../../db/where-sql.js';
import { rowColumns, type Selected } from '../../graphql/selected-columns.js';

type Rows<M extends 'attachment' | 'venue' | 'organizer' | 'term'> = Awaited<ReturnType<GraphQLContext['prisma'][M]['findMany']>>;
export type AttachmentRow = Rows<'attachment'>[number];
export type VenueRow = Rows<'venue'>[number];
export type OrganizerRow = Rows<'organizer'>[number];
export type TermRow = Rows<'term'>[number];

/** The request's loader named `name`, created on first use. */
function loader<K, V>(ctx: GraphQLContext, name: string, batch: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> {
  let found = ctx.cache.get(name) as DataLoader<K, V> | undefined;
  if (!found) ctx.cache.set(name, (found = new DataLoader(batch)));
  return found;
}

/**
 * Rows of a table linked to each of `eventIds` through a link table `l`, as `sql` selects them
 * (given the condition on `l."eventId"`). The link's event id comes back as `_eventId`.
 */
async function linkedRows<T>(ctx: GraphQLContext, eventIds: readonly number[], sql: (eventIdIsOneOf: string) => string): Promise<T[][]> {
  const condition = oneOfSql(ctx.dbKind, 'l."eventId"', eventIds);
  const rows = await ctx.readRows<T & { _eventId: number }>(sql(condition.sql), condition.args);
  const byEvent = new Map<number, T[]>(eventIds.map((id) => [id, []]));
  // The rows keep `_eventId` (no field reads it): copying each row without it cost more than the statement.
  for (const row of rows) byEvent.get(Number(row._eventId))?.push(row);
  return eventIds.map((id) => byEvent.get(id)!);
}

// What is read whatever is selected: what permission checks and masking read (isLinkedReadable,
// isMasked), and for terms what Event.categories/tags filter and sort by.
export const VENUE_READ = rowColumns(VENUE_TABLE.columns, ['id', 'status', 'authorId', 'password']);
export const ORGANIZER_READ = rowColumns(ORGANIZER_TABLE.columns, ['id', 'status', 'authorId', 'password']);
export const TERM_READ = rowColumns(TERM_TABLE.columns, ['id', 'taxonomy', 'name']);

const loaderKeys = new WeakMap<readonly string[], string>();
/** The loader of a link for rows of these columns: one per column set, so one statement each. */
function linkLoader<T>(ctx: GraphQLContext, link: string, columns: Selected, sql: (eventIdIsOneOf: string) => string) {
  let key = columns === null ? '*' : loaderKeys.get(columns);
  if (key === undefined) loaderKeys.set(columns!, (key = columns!.join(',')));
  return loader<number, T[]>(ctx, `${link}:${key}`, (ids) => linkedRows(ctx, ids, sql));
}

/** An event's venues, by venue id (the first is "the" venue); `columns`: only these (all by default). */
export const venuesOf = (ctx: GraphQLContext, eventId: number, columns: Selected = null) =>
  linkLoader<VenueRow>(
    ctx,
    'event-venues',
    columns,
    (eventIdIsOneOf) =>
      `SELECT l."eventId" AS "_eventId", ${columnList(VENUE_TABLE, 'v', columns ?? undefined)} FROM "EventVenue" l JOIN "Venue" v ON v."id" = l."venueId" WHERE ${eventIdIsOneOf} ORDER BY l."eventId", l."venueId"`,
  ).load(eventId);

/** An event's organizers, in the order given; `columns`: only these (all by default). */
export const organizersOf = (ctx: GraphQLContext, eventId: number, columns: Selected = null) =>
  linkLoader<OrganizerRow>(
    ctx,
    'event-organizers',
    columns,
    (eventIdIsOneOf) =>
      `SELECT l."eventId" AS "_eventId", ${columnList(ORGANIZER_TABLE, 'o', columns ?? undefined)} FROM "EventOrganizer" l JOIN "Organizer" o ON o."id" = l."organizerId" WHERE ${eventIdIsOneOf} ORDER BY l."eventId", l."position", l."organizerId"`,
  ).load(eventId);

/** An event's categories and tags, unordered; `columns`: only these (all by default). */
export const termsOf = (ctx: GraphQLContext, eventId: number, columns: Selected = null) =>
  linkLoader<TermRow>(
    ctx,
    'event-terms',
    columns,
    (eventIdIsOneOf) =>
      `SELECT l."eventId" AS "_eventId", ${columnList(TERM_TABLE, 't', columns ?? undefined)} FROM "EventTerm" l JOIN "Term" t ON t."id" = l."termId" WHERE ${eventIdIsOneOf}`,
  ).load(eventId);

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
