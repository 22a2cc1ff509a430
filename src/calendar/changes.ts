// The calendar's change log, read by cursor: what a mirror (an app, a site, another Almanac) needs
// to follow the calendar without reading it all again. Database triggers write the log in the
// transaction of every write (the calendar_changes migration), so nothing here is called by writes.
//
// A cursor names a place in the log: (seq, id) of the last change read. Rows come in commit order
// (seq), so a client that reads on from its cursor never misses a change that commits later. Each
// caller sees the log through its own rights: a change to a record it cannot list is left out, and
// a record leaving its view (unpublished, trashed, deleted) reaches it as a removal.
import type { Prisma } from '../db/client.js';
import { canReadPost, listableStatuses, type Viewer } from './capabilities.js';
import { CalendarError, invalidInput } from './errors.js';
import { isPostgres } from './term-lookup.js';

export const CHANGE_TYPES = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** What happened to the record, as the caller sees it. ADDED and REMOVED: it came into or left the caller's view. */
export const CHANGE_KINDS = ['CREATED', 'UPDATED', 'TRASHED', 'RESTORED', 'DELETED', 'ADDED', 'REMOVED'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const MAX_CHANGES_PER_PAGE = 500;

type Db = Pick<Prisma, 'calendarChange' | 'dataVersion'>;

export interface ChangeCursor {
  seq: number;
  id: number;
}

export interface CalendarChangeView {
  cursor: string;
  type: ChangeType;
  id: number;
  kind: ChangeKind;
  /** True when the caller should drop its copy: the record is gone or out of its view. */
  removed: boolean;
  /** The API fields that changed (empty for creations and removals). */
  fields: string[];
  /** UTC wall "YYYY-MM-DD HH:MM:SS" of the (last) write. */
  atUtc: string;
}

export interface ChangePage {
  changes: CalendarChangeView[];
  /** Where to read on from: the last change read, whether or not the caller could see it. */
  cursor: string;
  hasMore: boolean;
}

// Where pruning got to: every change at or before this place is gone (DataVersion rows).
const PRUNED_SEQ = 'calendar-changes-pruned-seq';
const PRUNED_ID = 'calendar-changes-pruned-id';

const CURSOR_PREFIX = 'c1.';

export function encodeCursor({ seq, id }: ChangeCursor): string {
  return Buffer.from(`${CURSOR_PREFIX}${seq}.${id}`).toString('base64url');
}

/** The cursor's place, or INVALID_INPUT naming `param`. */
export function decodeCursor(cursor: string, param = 'after'): ChangeCursor {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const match = /^c1\.(\d{1,15})\.(\d{1,15})$/.exec(text);
  if (!match) throw invalidInput({ [param]: 'is not a cursor this server gave out' });
  return { seq: Number(match[1]), id: Number(match[2]) };
}

const after = (a: ChangeCursor, b: ChangeCursor) => a.seq > b.seq || (a.seq === b.seq && a.id > b.id);

async function prunedThrough(db: Db): Promise<ChangeCursor> {
  const rows = await db.dataVersion.findMany({ where: { scope: { in: [PRUNED_SEQ, PRUNED_ID] } } });
  const of = (scope: string) => rows.find((row) => row.scope === scope)?.version ?? 0;
  return { seq: of(PRUNED_SEQ), id: of(PRUNED_ID) };
}

/** The end of the log now: read it before a full read, then follow the changes after it. */
export async function changeLogHead(db: Db): Promise<string> {
  const last = await db.calendarChange.findFirst({
    where: { seq: { not: null } },
    orderBy: [{ seq: 'desc' }, { id: 'desc' }],
    select: { seq: true, id: true },
  });
  return encodeCursor(last ? { seq: last.seq!, id: last.id } : await prunedThrough(db));
}

// Stored column → the API field it shows as (columns not named here keep their names).
const FIELD_OF_COLUMN: Record<string, string> = {
  authorId: 'author',
  content: 'description',
  password: 'passwordProtected',
  imageId: 'image',
  startLocal: 'startDate',
  endLocal: 'endDate',
  startUtc: 'utcStartDate',
  endUtc: 'utcEndDate',
  currencySymbol: 'costDetails',
  currencyCode: 'costDetails',
  currencyPosition: 'costDetails',
  seriesId: 'series',
  detached: 'isException',
  menuOrder: 'sticky',
};
// Bookkeeping a client never reads.
const HIDDEN_COLUMNS = new Set(['id', 'listed']);

export function apiFields(columns: string[]): string[] {
  const fields = columns.filter((column) => !HIDDEN_COLUMNS.has(column)).map((column) => FIELD_OF_COLUMN[column] ?? column);
  return [...new Set(fields)].sort();
}

type ChangeRow = Awaited<ReturnType<Db['calendarChange']['findMany']>>[number];

/** Whether the caller's full read lists the record in this state (terms: always). */
function inView(viewer: Viewer, type: string, status: string | null, authorId: number, exists: boolean): boolean {
  if (!exists) return false;
  if (type === 'category' || type === 'tag') return true;
  return status !== null && listableStatuses(viewer).includes(status) && canReadPost(viewer, { status, authorId });
}

/**
 * The rows of one record within a page as one change: the state before the first, the state after
 * the last, every field any of them changed. A client that keeps only final states loses nothing.
 */
function mergeByRecord(rows: ChangeRow[]): ChangeRow[] {
  const merged = new Map<string, ChangeRow>();
  for (const row of rows) {
    const key = `${row.type}:${row.recordId}`;
    const earlier = merged.get(key);
    if (earlier) merged.delete(key); // re-inserted below: a merged change takes the place of its last row
    merged.set(
      key,
      earlier
        ? {
            ...row,
            op: row.op === 'delete' ? 'delete' : earlier.op === 'insert' ? 'insert' : 'update',
            statusBefore: earlier.statusBefore,
            fields: JSON.stringify([...new Set([...parseFields(earlier.fields), ...parseFields(row.fields)])]),
          }
        : row,
    );
  }
  return [...merged.values()];
}

function parseFields(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.map(String) : [];
}

/** The change as `viewer` sees it, or null when it saw the record neither before nor after. */
function viewOf(row: ChangeRow, viewer: Viewer): CalendarChangeView | null {
  const before = inView(viewer, row.type, row.statusBefore, row.authorId, row.op !== 'insert');
  const now = inView(viewer, row.type, row.statusAfter, row.authorId, row.op !== 'delete');
  if (!before && !now) return null;
  const kind: ChangeKind =
    row.op === 'delete'
      ? 'DELETED'
      : row.op === 'insert'
        ? 'CREATED'
        : row.statusAfter === 'trash' && row.statusBefore !== 'trash'
          ? 'TRASHED'
          : row.statusBefore === 'trash' && row.statusAfter !== 'trash'
            ? 'RESTORED'
            : !before
              ? 'ADDED'
              : !now
                ? 'REMOVED'
                : 'UPDATED';
  return {
    cursor: encodeCursor({ seq: row.seq!, id: row.id }),
    type: row.type as ChangeType,
    id: row.recordId,
    kind,
    removed: !now,
    fields: kind === 'UPDATED' ? apiFields(parseFields(row.fields)) : [],
    atUtc: row.atUtc,
  };
}

/**
 * The changes after `cursor` (null: from the oldest kept), at most `first` rows of the log, in
 * commit order. CURSOR_EXPIRED when changes after the cursor were already pruned: the client must
 * read everything again (and take a new cursor from changeLogHead first).
 */
export async function readChanges(
  db: Db,
  options: { after: string | null; first: number; types: readonly ChangeType[] | null; viewer: Viewer },
): Promise<ChangePage> {
  const { first, types, viewer } = options;
  if (!Number.isInteger(first) || first < 1 || first > MAX_CHANGES_PER_PAGE)
    throw invalidInput({ first: `must be an integer from 1 to ${MAX_CHANGES_PER_PAGE}` });
  const pruned = await prunedThrough(db);
  const from = options.after === null ? pruned : decodeCursor(options.after);
  if (after(pruned, from))
    throw new CalendarError(
      'CURSOR_EXPIRED',
      'Changes after this cursor are no longer kept: read everything again, taking a new cursor (calendarChangeCursor) before you start.',
    );
  const rows = await db.calendarChange.findMany({
    where: {
      // (seq, id) > from, written as a range on seq the (seq, id) index reads from its start.
      seq: { gte: from.seq },
      NOT: { seq: from.seq, id: { lte: from.id } },
      ...(types ? { type: { in: [...types] } } : {}),
    },
    orderBy: [{ seq: 'asc' }, { id: 'asc' }],
    take: first + 1,
  });
  const page = rows.slice(0, first);
  const last = page.at(-1);
  const changes = mergeByRecord(page)
    .map((row) => viewOf(row, viewer))
    .filter((change): change is CalendarChangeView => change !== null);
  return { changes, cursor: last ? encodeCursor({ seq: last.seq!, id: last.id }) : encodeCursor(from), hasMore: rows.length > first };
}

/**
 * Deletes the changes written before `keepFromUtc` (a UTC wall), oldest first, a batch at a time,
 * recording in the same transaction how far it got, so that older cursors expire rather than skip.
 * Safe to run from several processes.
 */
export async function pruneChanges(prisma: Prisma, keepFromUtc: string, batch = 5000): Promise<number> {
  let removed = 0;
  for (;;) {
    const old = await prisma.calendarChange.findMany({
      where: { seq: { not: null }, atUtc: { lt: keepFromUtc } },
      orderBy: [{ seq: 'asc' }, { id: 'asc' }],
      take: batch,
      select: { seq: true, id: true },
    });
    const last = old.at(-1);
    if (!last) return removed;
    const place = (scope: string, version: number) =>
      prisma.dataVersion.upsert({ where: { scope }, create: { scope, version }, update: { version } });
    const [, , gone] = await prisma.$transaction([
      place(PRUNED_SEQ, last.seq!),
      place(PRUNED_ID, last.id),
      prisma.calendarChange.deleteMany({ where: { id: { in: old.map((row) => row.id) } } }),
    ]);
    removed += gone.count;
    if (old.length < batch) return removed;
  }
}

/**
 * The start of the retention window: changes written before this UTC wall are pruned. Measured on
 * the database's clock, which wrote the changes' times (the triggers), not on this process's.
 */
export async function retentionStartUtc(db: Pick<Prisma, '$queryRawUnsafe'>, retentionDays: number): Promise<string> {
  const days = Math.floor(retentionDays);
  const [row] = await db.$queryRawUnsafe<{ start: string }[]>(
    isPostgres(db)
      ? `SELECT to_char((now() AT TIME ZONE 'UTC') - make_interval(days => ${days}), 'YYYY-MM-DD HH24:MI:SS') AS "start"`
      : `SELECT strftime('%Y-%m-%d %H:%M:%S', 'now', '-${days} days') AS "start"`,
  );
  return row!.start;
}

/** An event that left the caller's view by trash or deletion, with the dates it had (a feed cancels it). */
export interface RemovedEvent {
  /** The event's id, or the series' id when `series` (every occurrence of it is gone). */
  id: number;
  series: boolean;
  title: string;
  allDay: boolean;
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
  /** Its last revision before it went (UTC wall). */
  modifiedUtc: string;
  removedAtUtc: string;
}

type RemovedDb = Pick<Prisma, 'calendarChange' | 'event'>;
const REMOVED_COLUMNS = {
  id: true,
  status: true,
  seriesId: true,
  title: true,
  allDay: true,
  startLocal: true,
  endLocal: true,
  startUtc: true,
  endUtc: true,
  modifiedUtc: true,
} as const;
const removedColumnsOf = (db: RemovedDb, ids: number[]) => db.event.findMany({ where: { id: { in: ids } }, select: REMOVED_COLUMNS });
/** What a cancellation needs of an event: its columns now, or those its delete kept (snapshotOf). */
type RemovedRow = Omit<Awaited<ReturnType<typeof removedColumnsOf>>[number], 'status'>;

/**
 * The events the caller could list that were trashed or deleted since `sinceUtc` and are still
 * gone, newest first: single events as themselves, a recurring event once, as its series, when no
 * occurrence of it is left (while one is, the series' rule and exceptions already tell).
 */
export async function recentlyRemovedEvents(db: RemovedDb, viewer: Viewer, sinceUtc: string, limit: number): Promise<RemovedEvent[]> {
  const rows = await db.calendarChange.findMany({
    where: { type: 'event', seq: { not: null }, atUtc: { gte: sinceUtc }, OR: [{ op: 'delete' }, { statusAfter: 'trash' }] },
    // By time (an index the window reads backwards, or the op/statusAfter indexes when removals are rare).
    orderBy: [{ atUtc: 'desc' }, { id: 'desc' }],
    take: limit * 4,
  });
  // Per event: when it went last, whether the caller could list it before (a trash then a delete
  // leaves the event before the trash), and the delete's snapshot.
  const latest = new Map<number, { at: string; seen: boolean; snapshot: string | null }>();
  for (const row of rows) {
    const one = latest.get(row.recordId) ?? { at: row.atUtc, seen: false, snapshot: null };
    one.seen ||= inView(viewer, 'event', row.statusBefore, row.authorId, true);
    one.snapshot ??= row.snapshot;
    latest.set(row.recordId, one);
  }
  if (!latest.size) return [];
  const now = new Map((await removedColumnsOf(db, [...latest.keys()])).map((event) => [event.id, event]));
  const gone: { event: RemovedRow; at: string }[] = [];
  for (const [id, { at, seen, snapshot }] of latest) {
    const current = now.get(id);
    if (!seen || (current && current.status !== 'trash')) continue; // never the caller's, or restored since
    const event = current ?? snapshotOf(snapshot);
    if (event) gone.push({ event, at });
  }
  const seriesIds = [...new Set(gone.map((one) => one.event.seriesId).filter((id): id is number => id !== null))];
  const alive = new Set(
    seriesIds.length
      ? (
          await db.event.findMany({
            where: { seriesId: { in: seriesIds }, status: { not: 'trash' } },
            select: { seriesId: true },
            distinct: ['seriesId'],
          })
        ).map((event) => event.seriesId)
      : [],
  );
  // A series is cancelled from its first occurrence among those removed.
  const firstOfSeries = new Map<number, RemovedRow>();
  for (const { event } of gone) {
    const earlier = event.seriesId === null ? undefined : firstOfSeries.get(event.seriesId);
    if (event.seriesId !== null && (!earlier || event.startUtc < earlier.startUtc)) firstOfSeries.set(event.seriesId, event);
  }
  const removed: RemovedEvent[] = [];
  const seriesDone = new Set<number>();
  for (const { event, at } of gone) {
    const seriesId = event.seriesId;
    if (seriesId !== null && (alive.has(seriesId) || seriesDone.has(seriesId))) continue;
    if (seriesId !== null) seriesDone.add(seriesId);
    const first = seriesId === null ? event : firstOfSeries.get(seriesId)!;
    removed.push({
      id: seriesId ?? event.id,
      series: seriesId !== null,
      title: first.title,
      allDay: first.allDay,
      startLocal: first.startLocal,
      endLocal: first.endLocal,
      startUtc: first.startUtc,
      endUtc: first.endUtc,
      modifiedUtc: first.modifiedUtc,
      removedAtUtc: at,
    });
    if (removed.length >= limit) break;
  }
  return removed;
}

/** A deleted event's last columns, as the delete trigger kept them. */
function snapshotOf(snapshot: string | null): RemovedRow | null {
  if (!snapshot) return null;
  const value = JSON.parse(snapshot) as Record<string, unknown>;
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : '');
  return {
    id: Number(value.id),
    seriesId: typeof value.seriesId === 'number' ? value.seriesId : null,
    title: text('title'),
    // SQLite keeps booleans as 0/1.
    allDay: value.allDay === true || value.allDay === 1,
    startLocal: text('startLocal'),
    endLocal: text('endLocal'),
    startUtc: text('startUtc'),
    endUtc: text('endUtc'),
    modifiedUtc: text('modifiedUtc'),
  };
}
