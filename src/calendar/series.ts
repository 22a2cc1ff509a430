// Recurring events. A series (EventSeries) holds an RFC 5545 rule; each of its occurrences is an
// Event row of its own (own id, own page /event/<series slug>/<YYYY-MM-DD>/), made from the rule up
// to a horizon that moves forward by itself. Every list, filter, page and feed therefore reads
// occurrences as the events they are, at the cost of a single event, and no read expands a rule.
//
// An occurrence changed alone is "detached" (an exception): changes to the whole series skip it.
// A change to "this and following" splits the series at the occurrence; a change to "all" reaches
// every occurrence that is not an exception.
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import { eventSchedule } from './dates/schedule.js';
import { isWallTime, parseWall, wallAsUtcMillis, wallString, normalizeWall, utcToWall } from './dates/wall-times.js';
import { timezoneAbbr } from './dates/zones.js';
import { CalendarError, invalidInput } from './errors.js';
import { isFloatingStatus, retryOnConflict, trashedSlug, uniquePostSlug, type Db } from './posts.js';
import { expandOccurrences, formatRrule, parseRrule, RecurrenceError, validateRule, type RecurrenceRule } from './recurrence/index.js';
import { nextUniqueSlug } from './slugs.js';
import { refreshTermCounts, termIdsOf } from './terms.js';

/** What the caller's right on an occurrence is decided by. */
export type AccessRow = { id: number; status: string; authorId: number; password: string };
const ACCESS = { id: true, status: true, authorId: true, password: true } as const;

/**
 * The ids of `rows`, when the caller may act on every one; a change to several occurrences is
 * all or nothing (the caller's transaction rolls back).
 */
function allowedIds(rows: AccessRow[], allowed: (row: AccessRow) => boolean): number[] {
  if (!rows.every(allowed))
    throw new CalendarError('FORBIDDEN', 'Sorry, you are not allowed to change every occurrence this change reaches.');
  return rows.map((row) => row.id);
}

/** Which occurrences a change to one of them reaches. */
export type RecurrenceScope = 'THIS' | 'FOLLOWING' | 'ALL';

/** A recurrence as a create or update gives it: an RRULE text or a structured rule, plus exceptions. */
export interface RecurrenceFields {
  rrule?: string | null;
  rule?: { [K in keyof RecurrenceRule]?: RecurrenceRule[K] | null } | null;
  /** Event-local "YYYY-MM-DD HH:MM:SS", or a day "YYYY-MM-DD" (at the series' start time). */
  exdates?: string[] | null;
  rdates?: string[] | null;
}

/** A checked recurrence, ready to store. */
export interface SeriesPlan {
  rule: RecurrenceRule;
  exdates: string[];
  rdates: string[];
}

const LAST_WALL = '9999-12-31 23:59:59';
/** How far past the horizon an expansion goes: each series is extended about once in this many days. */
export const HORIZON_STEP_DAYS = 28;

function wallPlusSeconds(wall: string, seconds: number): string {
  const w = parseWall(wall)!;
  return wallString(normalizeWall({ ...w, s: w.s + seconds }));
}

const secondsBetween = (from: string, to: string) =>
  Math.round((wallAsUtcMillis(parseWall(to)!) - wallAsUtcMillis(parseWall(from)!)) / 1000);

/** An exception date as given: a wall time, or a day at the series' start time. */
function exceptionWall(value: string, startLocal: string): string | null {
  const text = String(value).trim().replace('T', ' ');
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}${startLocal.slice(10)}`;
  const full = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
  return isWallTime(full) ? full : null;
}

/** A structured rule as given, its absent parts dropped; an UNTIL day means the whole day. */
function structuredRule(given: NonNullable<RecurrenceFields['rule']>): RecurrenceRule {
  const rule = Object.fromEntries(Object.entries(given).filter(([, value]) => value != null)) as unknown as RecurrenceRule;
  if (typeof rule.until === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(rule.until)) rule.until = `${rule.until} 23:59:59`;
  return rule;
}

/**
 * Checks a recurrence input; throws INVALID_INPUT naming the part that is wrong. `startLocal` is the
 * series' first start (DTSTART), which gives day-only exception dates their time.
 */
export function planRecurrence(input: RecurrenceFields, timezone: string, allDay: boolean, startLocal: string): SeriesPlan {
  const fail = (message: string): never => {
    throw invalidInput({ recurrence: message });
  };
  const hasText = input.rrule != null && input.rrule !== '';
  if (hasText === (input.rule != null))
    fail('Give the recurrence either as rrule (RFC 5545 text) or as rule (structured), not both or neither.');
  let rule: RecurrenceRule;
  try {
    rule = hasText ? parseRrule(String(input.rrule), timezone, allDay) : validateRule(structuredRule(input.rule!));
  } catch (error) {
    if (error instanceof RecurrenceError) return fail(error.message);
    throw error;
  }
  const dates = (name: 'exdates' | 'rdates') => {
    const list = input[name] ?? [];
    if (list.length > 1000) fail(`${name}: at most 1000 dates.`);
    return [
      ...new Set(
        list.map(
          (value) =>
            exceptionWall(value, startLocal) ?? fail(`${name}: "${value}" is not a date "YYYY-MM-DD" or a time "YYYY-MM-DD HH:MM:SS".`),
        ),
      ),
    ].sort();
  };
  return { rule, exdates: dates('exdates'), rdates: dates('rdates') };
}

type SeriesRow = NonNullable<Awaited<ReturnType<Prisma['eventSeries']['findUnique']>>>;
type EventRow = NonNullable<Awaited<ReturnType<Prisma['event']['findUnique']>>>;

const ruleOf = (series: SeriesRow) => parseRrule(series.rule, series.timezone, series.allDay);
const listOf = (json: string): string[] => JSON.parse(json) as string[];

/** The occurrences' start walls in [from, before), at most `limit`. */
function seriesWalls(series: SeriesRow, range: { from?: string; before: string; limit: number }, rule = ruleOf(series)): string[] {
  return expandOccurrences({
    rule,
    startLocal: series.startLocal,
    timezone: series.timezone,
    exdates: listOf(series.exdates),
    rdates: listOf(series.rdates),
    ...range,
  });
}

/**
 * Occurrences exist before this event-local wall time: `horizonDays` from now, or from the series'
 * start when it lies ahead (a series that begins next year has its first two years too).
 */
export function horizonOf(series: Pick<SeriesRow, 'timezone' | 'startLocal'>, config: Config, now: Date): string {
  const today = utcToWall(now.toISOString().slice(0, 19).replace('T', ' '), series.timezone);
  const from = series.startLocal > today ? series.startLocal : today;
  return wallPlusSeconds(from, config.recurrence.horizonDays * 86_400);
}

/** The columns an occurrence takes from its series' other occurrences. */
const COPIED = [
  'status',
  'authorId',
  'date',
  'dateUtc',
  'modified',
  'modifiedUtc',
  'title',
  'content',
  'excerpt',
  'password',
  'parentId',
  'menuOrder',
  'imageId',
  'timezone',
  'allDay',
  'cost',
  'currencySymbol',
  'currencyCode',
  'currencyPosition',
  'website',
  'showMap',
  'showMapLink',
  'hideFromListings',
  'featured',
  'eventStatus',
  'eventStatusReason',
] as const satisfies readonly (keyof EventRow)[];
/** What a change to the whole series writes to every occurrence that is not an exception. */
const SHARED = new Set<string>(COPIED.filter((column) => column !== 'timezone' && column !== 'allDay'));

/** An occurrence's dates from its start wall. */
function occurrenceTimes(series: Pick<SeriesRow, 'timezone' | 'allDay' | 'duration'>, wall: string) {
  const schedule = eventSchedule({
    start: wall,
    end: wallPlusSeconds(wall, series.duration),
    timezone: series.timezone,
    allDay: series.allDay,
  })!;
  return { ...schedule, timezoneAbbr: timezoneAbbr(series.timezone, new Date(schedule.startUtc.replace(' ', 'T') + 'Z')) };
}

/**
 * The slugs occurrences get: none while floating (draft, pending), else "<series slug>/<day>", made
 * unique within the series. The series' taken names are read once for all of them.
 */
async function occurrenceSlugs(
  db: Db,
  seriesSlug: string,
  occurrences: { status: string; wall: string }[],
  exceptIds: number[] = [],
): Promise<(string | null)[]> {
  if (occurrences.every((occurrence) => isFloatingStatus(occurrence.status))) return occurrences.map(() => null);
  const rows = await db.event.findMany({
    where: { slug: { startsWith: `${seriesSlug}/` }, ...(exceptIds.length ? { id: { notIn: exceptIds } } : {}) },
    select: { slug: true },
  });
  const taken = new Set(rows.map((row) => row.slug));
  const slugs: (string | null)[] = [];
  for (const { status, wall } of occurrences) {
    if (isFloatingStatus(status)) {
      slugs.push(null);
      continue;
    }
    const slug = await nextUniqueSlug(`${seriesSlug}/${wall.slice(0, 10)}`, (candidate) => taken.has(candidate));
    taken.add(slug);
    slugs.push(status === 'trash' ? trashedSlug(slug) : slug);
  }
  return slugs;
}

/** Makes occurrences at `walls`, copying `template`'s fields and links. */
async function createOccurrences(tx: Db, series: SeriesRow, template: EventRow, walls: string[]) {
  if (!walls.length) return;
  // One statement allocates the ids, in insertion order.
  const ids = (await tx.post.createManyAndReturn({ data: walls.map(() => ({ type: 'event' })), select: { id: true } }))
    .map((post) => post.id)
    .sort((a, b) => a - b);
  const slugs = await occurrenceSlugs(
    tx,
    series.slug,
    walls.map((wall) => ({ status: template.status, wall })),
  );
  const copied = Object.fromEntries(COPIED.map((column) => [column, template[column]]));
  await tx.event.createMany({
    data: walls.map((wall, i) => ({
      ...(copied as Pick<EventRow, (typeof COPIED)[number]>),
      ...occurrenceTimes(series, wall),
      id: ids[i]!,
      slug: slugs[i]!,
      seriesId: series.id,
      recurrenceId: wall,
      detached: false,
      listed: true,
    })),
  });
  if (await copyLinks(tx, template.id, ids, { fresh: true })) await refreshTermCounts(tx, await termIdsOf(tx, [template.id]));
}

/** The occurrence whose fields new occurrences copy: the latest one that is not an exception. */
async function templateOf(tx: Db, seriesId: number): Promise<EventRow | null> {
  return (
    (await tx.event.findFirst({ where: { seriesId, detached: false }, orderBy: [{ startLocal: 'desc' }, { id: 'desc' }] })) ??
    (await tx.event.findFirst({ where: { seriesId, status: { not: 'trash' } }, orderBy: [{ startLocal: 'desc' }, { id: 'desc' }] }))
  );
}

/**
 * Makes the series' missing occurrences up to its horizon, at most the configured number at a time
 * (the next call goes on from there). Returns how many it made.
 */
export async function expandSeries(tx: Db, seriesId: number, config: Config, now: Date): Promise<number> {
  const series = await tx.eventSeries.findUnique({ where: { id: seriesId } });
  if (!series || !series.open) return 0;
  if (series.expandedUntil && series.expandedUntil >= horizonOf(series, config, now)) return 0;
  // Made a little past the horizon, so that a series comes due again weeks later, not every hour.
  const horizon = horizonOf(series, config, new Date(now.getTime() + HORIZON_STEP_DAYS * 86_400_000));
  const rule = ruleOf(series);
  const limit = config.recurrence.maxOccurrencesPerExpansion;
  const walls = seriesWalls(series, { from: series.expandedUntil || undefined, before: horizon, limit }, rule);
  const existing = new Set(
    (await tx.event.findMany({ where: { seriesId, recurrenceId: { in: walls } }, select: { recurrenceId: true } })).map(
      (row) => row.recurrenceId,
    ),
  );
  const missing = walls.filter((wall) => !existing.has(wall));
  const template = missing.length ? await templateOf(tx, seriesId) : null;
  if (template) await createOccurrences(tx, series, template, missing);
  const until = walls.length >= limit ? wallPlusSeconds(walls[walls.length - 1]!, 1) : horizon;
  const open =
    template !== null || !missing.length ? seriesWalls(series, { from: until, before: LAST_WALL, limit: 1 }, rule).length > 0 : false;
  await tx.eventSeries.update({ where: { id: seriesId }, data: { expandedUntil: until, open } });
  return template ? missing.length : 0;
}

/**
 * Moves every open series' horizon forward: run at start and then periodically by each process
 * (two processes doing it at once collide on the occurrences' unique key; the loser retries and
 * finds the work done). Returns how many occurrences it made.
 */
export async function extendSeriesHorizons(prisma: Prisma, config: Config, now = new Date()): Promise<number> {
  // Walls are event-local: a day's margin covers every zone's offset.
  const due = horizonOf({ timezone: 'UTC', startLocal: '' }, config, new Date(now.getTime() + 86_400_000));
  let made = 0;
  let afterId = 0;
  for (;;) {
    const batch = await prisma.eventSeries.findMany({
      where: { open: true, expandedUntil: { lt: due }, id: { gt: afterId } },
      orderBy: { id: 'asc' },
      take: 100,
      select: { id: true },
    });
    if (!batch.length) return made;
    for (const { id } of batch) {
      made += await retryOnConflict(() => prisma.$transaction((tx) => expandSeries(tx, id, config, now)));
      afterId = id;
    }
  }
}

/** Turns a single event into the first occurrence of a new series and makes the others. */
export async function startSeries(tx: Db, eventId: number, plan: SeriesPlan, config: Config, now: Date): Promise<number> {
  const event = await tx.event.findUniqueOrThrow({ where: { id: eventId } });
  const base = event.slug ? event.slug.replace(/__trashed.*$/, '') : String(event.id);
  const series = await tx.eventSeries.create({
    data: {
      rule: formatRrule(plan.rule, event.timezone, event.allDay),
      exdates: JSON.stringify(plan.exdates),
      rdates: JSON.stringify(plan.rdates),
      timezone: event.timezone,
      allDay: event.allDay,
      startLocal: event.startLocal,
      duration: Math.max(0, secondsBetween(event.startLocal, event.endLocal)),
      slug: await uniquePostSlug(tx, 'event', base, event.id),
    },
  });
  const [slug] = await occurrenceSlugs(tx, series.slug, [{ status: event.status, wall: event.startLocal }], [event.id]);
  await tx.event.update({ where: { id: eventId }, data: { seriesId: series.id, recurrenceId: event.startLocal, detached: false, slug } });
  await expandSeries(tx, series.id, config, now);
  return series.id;
}

/** The series' occurrences from `from` on move to a new series that starts there; the old one ends before it. */
async function splitSeries(tx: Db, series: SeriesRow, from: string): Promise<SeriesRow> {
  const rule = ruleOf(series);
  const before = seriesWalls(series, { before: from, limit: rule.count ?? 100_000 }, rule).length;
  const earlier: RecurrenceRule = { ...rule, count: undefined, until: wallPlusSeconds(from, -1) };
  const later: RecurrenceRule = { ...rule, count: rule.count !== undefined ? Math.max(1, rule.count - before) : undefined };
  const split = (json: string, keep: (wall: string) => boolean) => JSON.stringify(listOf(json).filter(keep));
  const next = await tx.eventSeries.create({
    data: {
      rule: formatRrule(later, series.timezone, series.allDay),
      exdates: split(series.exdates, (wall) => wall >= from),
      rdates: split(series.rdates, (wall) => wall >= from),
      timezone: series.timezone,
      allDay: series.allDay,
      startLocal: from,
      duration: series.duration,
      slug: await uniquePostSlug(tx, 'event', series.slug),
      expandedUntil: series.expandedUntil,
      open: series.open,
    },
  });
  await tx.eventSeries.update({
    where: { id: series.id },
    data: {
      rule: formatRrule(earlier, series.timezone, series.allDay),
      exdates: split(series.exdates, (wall) => wall < from),
      rdates: split(series.rdates, (wall) => wall < from),
      expandedUntil: from,
      open: false,
    },
  });
  await tx.event.updateMany({ where: { seriesId: series.id, recurrenceId: { gte: from } }, data: { seriesId: next.id } });
  await renameOccurrences(tx, next.id);
  return next;
}

/** Gives every occurrence of the series the slug its status and day call for. */
export async function renameOccurrences(tx: Db, seriesId: number, onlyIds?: number[]) {
  const series = await tx.eventSeries.findUniqueOrThrow({ where: { id: seriesId } });
  const rows = await tx.event.findMany({
    where: { seriesId: series.id, ...(onlyIds ? { id: { in: onlyIds } } : {}) },
    select: { id: true, status: true, recurrenceId: true, startLocal: true },
    orderBy: [{ startLocal: 'asc' }, { id: 'asc' }],
  });
  const ids = rows.map((row) => row.id);
  // Free the names first: the new ones may be the old ones of others.
  await tx.event.updateMany({ where: { id: { in: ids } }, data: { slug: null } });
  const slugs = await occurrenceSlugs(
    tx,
    series.slug,
    rows.map((row) => ({ status: row.status, wall: row.recurrenceId ?? row.startLocal })),
    ids,
  );
  for (const [i, row] of rows.entries()) await tx.event.update({ where: { id: row.id }, data: { slug: slugs[i]! } });
}

/**
 * Applies an update already written to `target` (its row before is `before`) to the occurrences
 * the scope names: FOLLOWING splits the series at the target first, then both apply to the
 * series the target is in. A new rule or new times re-make the occurrences: those the new rule
 * still has keep their ids (moved by the same amount as the target), the others go, new ones come.
 */
export async function applyToSeries(
  tx: Db,
  input: {
    before: EventRow;
    data: Record<string, unknown>;
    plan: SeriesPlan | null | undefined;
    linksChanged: boolean;
    retimed: boolean;
    slugGiven: boolean;
    scope: Exclude<RecurrenceScope, 'THIS'>;
  },
  config: Config,
  now: Date,
  mayChange: (occurrence: AccessRow) => boolean,
): Promise<void> {
  const { before } = input;
  let series = await tx.eventSeries.findUniqueOrThrow({ where: { id: before.seriesId! } });
  const from = before.recurrenceId ?? before.startLocal;
  if (input.scope === 'FOLLOWING' && from > series.startLocal) series = await splitSeries(tx, series, from);
  const target = await tx.event.findUniqueOrThrow({ where: { id: before.id } });
  if (input.plan === null) return endSeries(tx, series, target);
  const siblings = allowedIds(
    await tx.event.findMany({ where: { seriesId: series.id, detached: false, id: { not: target.id } }, select: ACCESS }),
    mayChange,
  );
  const shared = Object.fromEntries(Object.entries(input.data).filter(([column]) => SHARED.has(column)));
  const statusChanged = 'status' in shared;
  const termsBefore = statusChanged || input.linksChanged ? await termIdsOf(tx, siblings) : [];
  if (siblings.length && Object.keys(shared).length) await tx.event.updateMany({ where: { id: { in: siblings } }, data: shared });
  if (input.linksChanged && siblings.length) await copyLinks(tx, target.id, siblings);
  if (input.slugGiven && target.slug) {
    const base = target.slug.replace(/\/.*$/, '');
    series = await tx.eventSeries.update({ where: { id: series.id }, data: { slug: await uniquePostSlug(tx, 'event', base, target.id) } });
  }
  if (input.retimed || input.plan) {
    const delta = secondsBetween(before.startLocal, target.startLocal);
    series = await tx.eventSeries.update({
      where: { id: series.id },
      data: {
        ...(input.plan
          ? {
              rule: formatRrule(input.plan.rule, target.timezone, target.allDay),
              exdates: JSON.stringify(input.plan.exdates),
              rdates: JSON.stringify(input.plan.rdates),
            }
          : {}),
        startLocal: wallPlusSeconds(series.startLocal, delta),
        duration: Math.max(0, secondsBetween(target.startLocal, target.endLocal)),
        timezone: target.timezone,
        allDay: target.allDay,
        expandedUntil: '',
        open: true,
      },
    });
    await retime(tx, series, delta, target.id);
    await expandSeries(tx, series.id, config, now);
  }
  if (statusChanged || input.slugGiven || input.retimed || input.plan) await renameOccurrences(tx, series.id);
  if (statusChanged || input.linksChanged) await refreshTermCounts(tx, [...termsBefore, ...(await termIdsOf(tx, siblings))]);
}

/**
 * The event's venue, organizers and terms become those of `toIds` too (`fresh`: they have none
 * yet). Says whether terms were copied, so that their counts change.
 */
async function copyLinks(tx: Db, fromId: number, toIds: number[], { fresh = false } = {}): Promise<boolean> {
  const [venues, organizers, terms] = await Promise.all([
    tx.eventVenue.findMany({ where: { eventId: fromId } }),
    tx.eventOrganizer.findMany({ where: { eventId: fromId } }),
    tx.eventTerm.findMany({ where: { eventId: fromId } }),
  ]);
  const where = { eventId: { in: toIds } };
  if (!fresh)
    await Promise.all([tx.eventVenue.deleteMany({ where }), tx.eventOrganizer.deleteMany({ where }), tx.eventTerm.deleteMany({ where })]);
  if (venues.length) await tx.eventVenue.createMany({ data: toIds.flatMap((eventId) => venues.map((v) => ({ ...v, eventId }))) });
  if (organizers.length)
    await tx.eventOrganizer.createMany({ data: toIds.flatMap((eventId) => organizers.map((o) => ({ ...o, eventId }))) });
  if (terms.length) await tx.eventTerm.createMany({ data: toIds.flatMap((eventId) => terms.map((t) => ({ ...t, eventId }))) });
  return terms.length > 0;
}

/**
 * Moves the series' occurrences by `delta` seconds of wall time onto its (new) rule. Each keeps its
 * id and moves its place in the series (RECURRENCE-ID) with it; those that are not exceptions take
 * the new times, or are deleted when the new rule no longer has them (the target stays, as an
 * exception). Exceptions keep their own times.
 */
async function retime(tx: Db, series: SeriesRow, delta: number, targetId: number) {
  const rows = await tx.event.findMany({
    where: { seriesId: series.id },
    select: { id: true, recurrenceId: true, startLocal: true, detached: true },
  });
  const moved = rows.map((row) => ({ ...row, wall: wallPlusSeconds(row.recurrenceId ?? row.startLocal, delta) }));
  const last = moved.reduce((max, row) => (row.wall > max ? row.wall : max), series.startLocal);
  const walls = new Set(seriesWalls(series, { before: wallPlusSeconds(last, 1), limit: 100_000 }));
  // Free the keys first: the new ones may be the old ones of others.
  await tx.event.updateMany({ where: { seriesId: series.id }, data: { recurrenceId: null } });
  const gone = moved.filter((row) => !row.detached && !walls.has(row.wall) && row.id !== targetId).map((row) => row.id);
  if (gone.length) {
    const terms = await termIdsOf(tx, gone);
    await tx.post.deleteMany({ where: { id: { in: gone } } });
    await refreshTermCounts(tx, terms);
  }
  for (const row of moved) {
    if (gone.includes(row.id)) continue;
    const own = row.detached || row.id === targetId;
    await tx.event.update({
      where: { id: row.id },
      data: {
        recurrenceId: row.wall,
        ...(own ? (row.id === targetId && !walls.has(row.wall) ? { detached: true } : {}) : occurrenceTimes(series, row.wall)),
      },
    });
  }
}

/** The series stops repeating: its target stays as a single event, exceptions too; the other occurrences go. */
async function endSeries(tx: Db, series: SeriesRow, target: EventRow) {
  const gone = (
    await tx.event.findMany({ where: { seriesId: series.id, detached: false, id: { not: target.id } }, select: { id: true } })
  ).map((row) => row.id);
  const terms = await termIdsOf(tx, gone);
  await tx.post.deleteMany({ where: { id: { in: gone } } });
  await tx.event.updateMany({ where: { seriesId: series.id }, data: { seriesId: null, recurrenceId: null, detached: false } });
  const rows = await tx.event.findMany({ where: { id: target.id }, select: { id: true, slug: true } });
  for (const row of rows) if (row.slug?.includes('/')) await tx.event.update({ where: { id: row.id }, data: { slug: series.slug } });
  await tx.eventSeries.delete({ where: { id: series.id } });
  await refreshTermCounts(tx, terms);
}

/**
 * Trashes the occurrences a delete of `target` with `scope` reaches besides the target: none for
 * THIS; the later ones for FOLLOWING (the series then ends before the target); all for ALL. They
 * stay in the series, so that restoring the series restores them.
 */
export async function trashOtherOccurrences(
  tx: Db,
  target: EventRow,
  scope: RecurrenceScope,
  now: { local: string; utc: string },
  mayDelete: (occurrence: AccessRow) => boolean,
) {
  if (!target.seriesId || scope === 'THIS') return;
  const series = await tx.eventSeries.findUniqueOrThrow({ where: { id: target.seriesId } });
  const from = target.recurrenceId ?? target.startLocal;
  const where = {
    seriesId: series.id,
    id: { not: target.id },
    status: { not: 'trash' },
    ...(scope === 'FOLLOWING' ? { recurrenceId: { gte: from } } : {}),
  };
  const ids = allowedIds(await tx.event.findMany({ where, select: ACCESS }), mayDelete);
  const ending = scope === 'FOLLOWING' && from > series.startLocal;
  await tx.eventSeries.update({
    where: { id: series.id },
    data: ending
      ? {
          rule: formatRrule({ ...ruleOf(series), count: undefined, until: wallPlusSeconds(from, -1) }, series.timezone, series.allDay),
          open: false,
        }
      : { open: false },
  });
  if (!ids.length) return;
  const terms = await termIdsOf(tx, ids);
  await tx.event.updateMany({ where: { id: { in: ids } }, data: { status: 'trash', modified: now.local, modifiedUtc: now.utc } });
  await renameOccurrences(tx, series.id, ids);
  await refreshTermCounts(tx, terms);
}
