// The calendar's change log, read by cursor: what a mirror (an app, a site, another Almanac) needs
// to follow the calendar without reading it all again. Database triggers write the log in the
// transaction of every write (the calendar_changes migration), so nothing here is called by writes.
//
// A cursor names a place in the log: (place, id) of the last change read. A client that reads on
// from its cursor never misses a change that commits later: no change can appear behind a place
// once it was read. SQLite's place is seq, the data version when the row was written (one writer at
// a time: the order of commits). PostgreSQL's is the writing transaction's id, raised to follow the
// record's earlier changes (so one record's changes keep their order), and a read returns only rows
// placed below every transaction still running in the database (as PgQ does): those have all ended,
// and a running transaction places its rows at its id or above. No write waits for another. Each
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

type Db = Pick<Prisma, 'calendarChange' | 'dataVersion' | '$queryRawUnsafe'>;

export interface ChangeCursor {
  /** seq on SQLite, xid on PostgreSQL (see the top of this file). */
  place: number;
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

// Where pruning got to: every change at or before this place is gone (DataVersion rows; the
// place's xid in `place` on PostgreSQL, the seq in `version` on SQLite).
const PRUNED_SEQ = 'calendar-changes-pruned-seq';
const PRUNED_ID = 'calendar-changes-pruned-id';

// PostgreSQL keeps the rows from before the version_shards migration below every transaction id,
// at seq - 2^32, so that cursors given out then ("c1.<seq>.<id>") read on where they were.
const OLD_PLACES = 2 ** 32;

/** "c1.<seq>.<id>": a seq place (SQLite, or PostgreSQL before xids); "c2.<xid>.<id>": PostgreSQL's. */
export function encodeCursor({ place, id }: ChangeCursor, onPostgres: boolean): string {
  const text = onPostgres && place >= 0 ? `c2.${place}.${id}` : `c1.${onPostgres ? place + OLD_PLACES : place}.${id}`;
  return Buffer.from(text).toString('base64url');
}

/** The cursor's place, or INVALID_INPUT naming `param`. */
export function decodeCursor(cursor: string, onPostgres: boolean, param = 'after'): ChangeCursor {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const match = /^c([12])\.(\d{1,15})\.(\d{1,15})$/.exec(text);
  if (!match || (match[1] === '2' && !onPostgres)) throw invalidInput({ [param]: 'is not a cursor this server gave out' });
  const place = Number(match[2]);
  return { place: onPostgres && match[1] === '1' ? place - OLD_PLACES : place, id: Number(match[3]) };
}

const after = (a: ChangeCursor, b: ChangeCursor) => a.place > b.place || (a.place === b.place && a.id > b.id);

type PlacedRow = { seq: number | null; place: bigint | null; id: number };
const placeOf = (row: PlacedRow, onPostgres: boolean): ChangeCursor => ({ place: onPostgres ? Number(row.place) : row.seq!, id: row.id });

// PostgreSQL: the place below which every change row is final. A transaction places its rows at
// its id or above, so this is the oldest id still running in this database (the server's others
// write no change rows, and a long one there must not hold this log back), or, when none is, the
// next id to be given out. The running ids are read after the statement's snapshot: one that ended
// in between has ended, so a read after this one sees its rows; one given out in between is at
// least the next. pg_stat_activity gives 32-bit ids: each is taken back `behind` the next 64-bit
// id, its low bits' distance below (wrapping); ids given out after the snapshot wrap to more than
// 2^31 behind (no running id is that old), and are left out.
const HORIZON_SQL = `SELECT LEAST(x."next", min(x."next" - a."behind") FILTER (WHERE a."behind" < 2147483648))::text AS "horizon"
  FROM (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS "next") x
  LEFT JOIN LATERAL (
    SELECT (x."next" % 4294967296 - "backend_xid"::text::bigint + 4294967296) % 4294967296 AS "behind"
    FROM pg_stat_activity WHERE "datname" = current_database() AND "backend_xid" IS NOT NULL
  ) a ON true
  GROUP BY x."next"`;

async function horizon(db: Pick<Prisma, '$queryRawUnsafe'>): Promise<bigint> {
  const [row] = await db.$queryRawUnsafe<{ horizon: string }[]>(HORIZON_SQL);
  return BigInt(row!.horizon);
}

type Direction = 'asc' | 'desc';

/**
 * The log as a read may see it now: the rows it may return (on PostgreSQL those of ended
 * transactions only), those after a cursor, and their order.
 */
async function logNow(db: Db, onPostgres: boolean) {
  if (!onPostgres)
    return {
      ended: { seq: { not: null } },
      // (seq, id) > cursor, written as a range on seq the (seq, id) index reads from its start.
      after: ({ place, id }: ChangeCursor) => ({ seq: { gte: place }, NOT: { seq: place, id: { lte: id } } }),
      orderBy: (direction: Direction) => [{ seq: direction }, { id: direction }],
    };
  const below = await horizon(db);
  return {
    ended: { place: { lt: below } },
    after: ({ place, id }: ChangeCursor) => ({ place: { gte: place, lt: below }, NOT: { place, id: { lte: id } } }),
    orderBy: (direction: Direction) => [{ place: direction }, { id: direction }],
  };
}

async function prunedThrough(db: Db, onPostgres: boolean): Promise<ChangeCursor> {
  const rows = await db.dataVersion.findMany({ where: { scope: { in: [PRUNED_SEQ, PRUNED_ID] } } });
  const seqRow = rows.find((row) => row.scope === PRUNED_SEQ);
  const id = rows.find((row) => row.scope === PRUNED_ID)?.version ?? 0;
  if (!onPostgres) return { place: seqRow?.version ?? 0, id };
  return { place: seqRow?.place != null ? Number(seqRow.place) : -OLD_PLACES, id };
}

/** The end of the log now: read it before a full read, then follow the changes after it. */
export async function changeLogHead(db: Db): Promise<string> {
  const onPostgres = isPostgres(db);
  const log = await logNow(db, onPostgres);
  const last = await db.calendarChange.findFirst({
    where: log.ended,
    orderBy: log.orderBy('desc'),
    select: { seq: true, place: true, id: true },
  });
  return encodeCursor(last ? placeOf(last, onPostgres) : await prunedThrough(db, onPostgres), onPostgres);
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
function viewOf(row: ChangeRow, viewer: Viewer, onPostgres: boolean): CalendarChangeView | null {
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
    cursor: encodeCursor(placeOf(row, onPostgres), onPostgres),
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
  const onPostgres = isPostgres(db);
  const pruned = await prunedThrough(db, onPostgres);
  const from = options.after === null ? pruned : decodeCursor(options.after, onPostgres);
  if (after(pruned, from))
    throw new CalendarError(
      'CURSOR_EXPIRED',
      'Changes after this cursor are no longer kept: read everything again, taking a new cursor (calendarChangeCursor) before you start.',
    );
  const log = await logNow(db, onPostgres);
  const rows = await db.calendarChange.findMany({
    where: { ...log.after(from), ...(types ? { type: { in: [...types] } } : {}) },
    orderBy: log.orderBy('asc'),
    take: first + 1,
  });
  const page = rows.slice(0, first);
  const last = page.at(-1);
  const changes = mergeByRecord(page)
    .map((row) => viewOf(row, viewer, onPostgres))
    .filter((change): change is CalendarChangeView => change !== null);
  return { changes, cursor: encodeCursor(last ? placeOf(last, onPostgres) : from, onPostgres), hasMore: rows.length > first };
}

/**
 * Deletes the changes written before `keepFromUtc` (a UTC wall), oldest first, a batch at a time,
 * recording in the same transaction how far it got, so that older cursors expire rather than skip.
 * Safe to run from several processes.
 */
export async function pruneChanges(prisma: Prisma, keepFromUtc: string, batch = 5000): Promise<number> {
  const onPostgres = isPostgres(prisma);
  let removed = 0;
  for (;;) {
    // Only rows a read may return: pruning past a running transaction would let its rows appear behind the pruned place.
    const log = await logNow(prisma, onPostgres);
    const old = await prisma.calendarChange.findMany({
      where: { ...log.ended, atUtc: { lt: keepFromUtc } },
      orderBy: log.orderBy('asc'),
      take: batch,
      select: { seq: true, place: true, id: true },
    });
    const last = old.at(-1);
    if (!last) return removed;
    const place = (scope: string, values: { version: number; place?: bigint }) =>
      prisma.dataVersion.upsert({ where: { scope }, create: { scope, ...values }, update: values });
    const lastPlace = placeOf(last, onPostgres).place;
    const [, , gone] = await prisma.$transaction([
      place(PRUNED_SEQ, onPostgres ? { version: 0, place: BigInt(lastPlace) } : { version: lastPlace }),
      place(PRUNED_ID, { version: last.id }),
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
    where: { type: 'event', atUtc: { gte: sinceUtc }, OR: [{ op: 'delete' }, { statusAfter: 'trash' }] },
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
