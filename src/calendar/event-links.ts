// The `venue` and `organizer` arguments of event writes (spec §6.5): ids, `{id}` objects, or data
// objects that create (or reuse) a venue/organizer. Validation first; creation inside the write.
import type { UrlPolicy } from '../net/url-policy.js';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import { CalendarError } from './errors.js';
import { createOrReuseLinked, linkedFieldsFromObject, validateLinkedFields, type LinkedPlan } from './linked.js';
import type { Prisma } from '../db/client.js';
import { isDbId, type Db, type LinkedType } from './posts.js';
import { addPublishedToTermCounts } from './term-lookup.js';
import { Problems } from './validate.js';
import { isPlainObject } from '../values.js';

type Entry = { kind: 'id'; id: number } | { kind: 'create'; plan: LinkedPlan };
/** none: nothing given (or an explicit empty value); entries: what to link; fail: valid but not creatable. */
export type LinkPlan = { kind: 'empty' } | { kind: 'entries'; entries: Entry[] } | { kind: 'uncreatable' };

const isNumericId = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) ||
  (typeof v === 'string' && /^\d+$/.test(v.trim()) && Number.isSafeInteger(Number(v)));

function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === '0' || v === false) return true;
  if (Array.isArray(v)) return v.every(isEmptyValue);
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  return false;
}

/** Validates one entry; records a problem under `name` when invalid. */
async function planEntry(
  db: Db,
  type: LinkedType,
  raw: unknown,
  viewer: Viewer | null,
  policy: UrlPolicy,
  ids: Set<number>,
): Promise<Entry | null> {
  if (isNumericId(raw)) return ids.has(Number(raw)) ? { kind: 'id', id: Number(raw) } : null;
  if (!isPlainObject(raw)) return null;
  if (raw.id !== undefined && raw.id !== null && raw.id !== '') {
    return isNumericId(raw.id) && ids.has(Number(raw.id)) ? { kind: 'id', id: Number(raw.id) } : null;
  }
  const problems = new Problems();
  const plan = await validateLinkedFields(db, type, linkedFieldsFromObject(type, raw), { create: true, viewer, policy, problems });
  return problems.any ? null : { kind: 'create', plan };
}

function idsIn(raw: unknown): number[] {
  const found: number[] = [];
  const visit = (v: unknown) => {
    if (isNumericId(v)) found.push(Number(v));
    else if (typeof v === 'string') v.split(',').forEach((s) => isNumericId(s) && found.push(Number(s)));
    else if (Array.isArray(v)) v.forEach(visit);
    else if (isPlainObject(v) && isNumericId(v.id)) found.push(Number(v.id));
  };
  visit(raw);
  return found;
}

/**
 * Validates a `venue`/`organizer` argument. Returns null when invalid. A CSV of several venue ids, a
 * list of venues, a bare organizer object or a CSV of organizer ids pass validation but cannot be
 * linked — the original answers those with could-not-create-* at write time.
 */
export async function planLinks(
  db: Db,
  type: LinkedType,
  raw: unknown,
  viewer: Viewer | null,
  policy: UrlPolicy,
  postTypes: Map<number, string>,
): Promise<LinkPlan | null> {
  if (isEmptyValue(raw)) return { kind: 'empty' };
  const ids = new Set(idsIn(raw).filter((id) => postTypes.get(id) === type));
  if (typeof raw === 'string' && raw.includes(',')) {
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!items.every((s) => isNumericId(s) && ids.has(Number(s)))) return null;
    return items.length === 1 ? { kind: 'entries', entries: [{ kind: 'id', id: Number(items[0]) }] } : { kind: 'uncreatable' };
  }
  if (isNumericId(raw) || typeof raw === 'string' || typeof raw === 'number') {
    const entry = await planEntry(db, type, raw, viewer, policy, ids);
    return entry ? { kind: 'entries', entries: [entry] } : null;
  }
  const list = Array.isArray(raw) ? raw.filter((v) => !isEmptyValue(v)) : [raw];
  const entries: Entry[] = [];
  for (const item of list) {
    const entry = await planEntry(db, type, item, viewer, policy, ids);
    if (!entry) return null;
    entries.push(entry);
  }
  // TEC's venue insert takes an id or one venue's fields: a list (of ids or of entries, however
  // short) passes validation, then fails to create a venue from it.
  if (type === 'venue' && Array.isArray(raw) && entries.length > 0) return { kind: 'uncreatable' };
  if (type === 'organizer' && !Array.isArray(raw)) return { kind: 'uncreatable' };
  return { kind: 'entries', entries };
}

/** What an event write names by id: each post's type (venues, organizers) and each term's taxonomy. */
export interface NamedRecords {
  postTypes: Map<number, string>;
  termTaxonomies: Map<number, string>;
}

/**
 * The records that the `venue` and `organizer` arguments (`linkRaws`) and the term ids name, in one
 * read for all (planLinks's `postTypes`, resolveEventTerms's `knownIds`).
 */
export async function namedRecords(db: Db, linkRaws: unknown[], termIds: number[]): Promise<NamedRecords> {
  const postIds = [...new Set(linkRaws.flatMap((raw) => (isEmptyValue(raw) ? [] : idsIn(raw))).filter(isDbId))];
  const terms = [...new Set(termIds)];
  const found: NamedRecords = { postTypes: new Map(), termTaxonomies: new Map() };
  if (!postIds.length && !terms.length) return found;
  const postgres = (db as { _activeProvider?: string })._activeProvider === 'postgresql';
  const list = (from: number, n: number) =>
    n ? Array.from({ length: n }, (_, i) => (postgres ? `$${from + i}` : '?')).join(', ') : 'NULL';
  const rows = await (db as unknown as Prisma).$queryRawUnsafe<{ kind: string; id: number | bigint; name: string }[]>(
    `SELECT 'post' AS "kind", "id", "type" AS "name" FROM "Post" WHERE "id" IN (${list(1, postIds.length)})
     UNION ALL SELECT 'term', "id", "taxonomy" FROM "Term" WHERE "id" IN (${list(postIds.length + 1, terms.length)})`,
    ...postIds,
    ...terms,
  );
  for (const row of rows) (row.kind === 'post' ? found.postTypes : found.termTaxonomies).set(Number(row.id), row.name);
  return found;
}

/** Resolves a plan to linked ids, creating (or reusing) records as needed. Inside the write's transaction. */
export async function applyLinks(
  tx: Db,
  type: LinkedType,
  plan: LinkPlan,
  context: { viewer: Viewer | null; config: Config },
): Promise<number[]> {
  if (plan.kind === 'empty') return [];
  if (plan.kind === 'uncreatable') {
    throw type === 'venue'
      ? new CalendarError('COULD_NOT_CREATE_VENUE', 'The venue could not be created from the provided data')
      : new CalendarError('COULD_NOT_CREATE_ORGANIZER', 'The organizer could not be created from the provided data');
  }
  const ids: number[] = [];
  for (const entry of plan.entries) {
    const id = entry.kind === 'id' ? entry.id : (await createOrReuseLinked(tx, type, entry.plan, context)).id;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * A created event's links, and its terms' counts when it is published; on PostgreSQL a published
 * event's terms as the statement left them (null where they are not known without a read). On PostgreSQL one statement
 * (data-modifying CTEs), its terms locked in id order as every count update locks them; on SQLite,
 * which runs one write at a time in-process, one per table. Terms are linked from their rows, so a
 * term deleted since the write named it is left out rather than failing the write.
 */
export async function insertEventLinks(
  tx: Db,
  eventId: number,
  links: { venueIds: number[]; organizerIds: number[]; termIds: number[] },
  published: boolean,
): Promise<LinkedTermRow[] | null> {
  const { venueIds, organizerIds, termIds } = links;
  const counted = published ? termIds : [];
  const raw = tx as unknown as Prisma;
  if ((tx as { _activeProvider?: string })._activeProvider === 'postgresql') {
    if (!venueIds.length && !organizerIds.length && !termIds.length) return [];
    // The counted terms' rows come back as they now are: every term the event has when published.
    const rows = await raw.$queryRawUnsafe<LinkedTermRow[]>(
      `WITH "venues" AS (INSERT INTO "EventVenue" ("eventId", "venueId") SELECT $1::int, unnest($2::int[])),
        "organizers" AS (INSERT INTO "EventOrganizer" ("eventId", "organizerId", "position")
          SELECT $1::int, o."id", (o."n" - 1)::int FROM unnest($3::int[]) WITH ORDINALITY AS o("id", "n")),
        "terms" AS (INSERT INTO "EventTerm" ("eventId", "termId") SELECT $1::int, "id" FROM "Term" WHERE "id" = ANY($4::int[]))
      UPDATE "Term" SET "count" = "count" + 1 WHERE "id" IN (SELECT "id" FROM "Term" WHERE "id" = ANY($5::int[]) ORDER BY "id" FOR NO KEY UPDATE)
      RETURNING "Term".*`,
      eventId,
      venueIds,
      organizerIds,
      termIds,
      counted,
    );
    return published ? rows : null;
  }
  if (venueIds.length) await tx.eventVenue.createMany({ data: venueIds.map((venueId) => ({ eventId, venueId })) });
  if (organizerIds.length)
    await tx.eventOrganizer.createMany({ data: organizerIds.map((organizerId, position) => ({ eventId, organizerId, position })) });
  const ids = termIds.join(','); // integers only: safe to inline, as the count updates do
  if (termIds.length)
    await raw.$executeRawUnsafe(`INSERT INTO "EventTerm" ("eventId", "termId") SELECT ?, "id" FROM "Term" WHERE "id" IN (${ids})`, eventId);
  if (counted.length) await addPublishedToTermCounts(tx, counted);
  return null;
}

/** A term's row as a create's count update returns it. */
export interface LinkedTermRow {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  termGroup: number;
  count: number;
  parentId: number | null;
}
