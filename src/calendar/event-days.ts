// The events of a run of calendar days (a month's grid), each day's first few and its total, at a
// fixed cost whatever the days hold: one read of the whole window's events (their dates only), split
// by day here with the conditions the list itself applies to a day (startsBefore the day, endsAfter
// the day before: a multi-day event is on each day it covers, in each event's own zone), then one
// read of the events the days show. Asking the list once per day cost two statements a day.
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { Database, Prisma } from '../db/client.js';
import { invalidInput } from './errors.js';
import { addDaysToWall, isWallTime } from './dates/wall-times.js';
import { cachedWindow, dateConditions, eventListQuery, eventPageRows, type EventFilter, type EventRow } from './event-filters.js';
import { MAX_PER_PAGE } from './paging.js';
import { Problems } from './validate.js';

/** Six weeks: the largest month grid. */
export const MAX_DAYS = 42;
/** The window's events read to split by day; far past any calendar's six weeks. */
const MAX_WINDOW_EVENTS = 1_000_000;
const DATE_COLUMNS = ['id', 'startLocal', 'endLocal', 'startUtc', 'endUtc'] as const;
const DATE_FILTERS = ['startDate', 'endDate', 'startsBefore', 'startsAfter', 'endsBefore', 'endsAfter', 'strictDates'] as const;

type DateRow = Pick<EventRow, (typeof DATE_COLUMNS)[number]>;
export interface EventDay<Row> {
  /** "YYYY-MM-DD". */
  day: string;
  /** How many events the day has. */
  total: number;
  /** Its first `perDay` events, in the list's order (start, then id). */
  items: Row[];
}

type Db = Pick<Database, 'readRows'> & { prisma: Prisma; dbKind: 'sqlite' | 'postgresql' };
type Context = { viewer: Viewer | null; config: Config; dbKind: 'sqlite' | 'postgresql' };

/** "YYYY-MM-DD" → the day after `days` days; null when `day` is no calendar date of the years 1000–9999. */
function dayAfter(day: string, days: number): string | null {
  const wall = `${day} 00:00:00`;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day < '1000' || !isWallTime(wall) || addDaysToWall(wall, 0) !== wall) return null;
  return addDaysToWall(wall, days).slice(0, 10);
}

/** Whether a row meets conditions of the shape dateConditions builds ({column: {gt, lt…}}), as SQL compares the text. */
function meets(row: DateRow, conditions: Record<string, unknown>[]): boolean {
  return conditions.every((condition) =>
    Object.entries(condition).every(([column, bounds]) => {
      const value = row[column as keyof DateRow] as string;
      return Object.entries(bounds as Record<string, string>).every(([op, bound]) =>
        op === 'gt' ? value > bound : op === 'gte' ? value >= bound : op === 'lt' ? value < bound : value <= bound,
      );
    }),
  );
}

/**
 * The days from `from` to `to` (at most MAX_DAYS), each with its total and first `perDay` events
 * of the list `filter` makes (which must leave the dates to the days). `readShown` reads the shown
 * events by id, with what the caller needs of them.
 */
export async function eventDays<Row extends { id: number }>(
  db: Db,
  filter: EventFilter,
  range: { from: string; to: string; perDay: number },
  context: Context,
  readShown: (ids: number[]) => Promise<Row[]>,
): Promise<EventDay<Row>[]> {
  const problems = new Problems();
  const days: string[] = [];
  const first = dayAfter(range.from, 0);
  problems.check('from', first !== null);
  problems.check('to', dayAfter(range.to, 0) !== null && (first === null || range.to >= range.from));
  if (first !== null && range.to >= range.from)
    for (let day = first; day <= range.to && days.length <= MAX_DAYS; day = dayAfter(day, 1)!) days.push(day);
  if (days.length > MAX_DAYS) problems.fail('to');
  problems.check('perDay', Number.isInteger(range.perDay) && range.perDay >= 1 && range.perDay <= MAX_PER_PAGE);
  for (const name of DATE_FILTERS) if (filter[name] != null) problems.fail(`filter.${name}`);
  if (problems.any) throw invalidInput(problems.params);

  const beforeFirst = dayAfter(days[0]!, -1)!;
  const list = await eventListQuery(db.prisma, { ...filter, startsBefore: days[days.length - 1], endsAfter: beforeFirst }, context);
  const rows = await eventPageRows(db, list, { skip: 0, take: MAX_WINDOW_EVENTS }, {}, DATE_COLUMNS);
  const siteTimezone = context.config.siteTimezone;
  const split = days.map((day, i) => {
    const window = cachedWindow({
      startsBefore: day,
      endsAfter: i ? days[i - 1] : beforeFirst,
      strict: false,
      include: false,
      siteTimezone,
    });
    const conditions = dateConditions(window, siteTimezone);
    const ids = rows.filter((row) => meets(row, conditions)).map((row) => row.id);
    return { day, total: ids.length, ids: ids.slice(0, range.perDay) };
  });
  // Read even when no day shows an event: a statement count that never depends on the data.
  const shownIds = [...new Set(split.flatMap((entry) => entry.ids))];
  const shown = new Map((await readShown(shownIds)).map((row) => [row.id, row]));
  return split.map(({ day, total, ids }) => ({ day, total, items: ids.flatMap((id) => shown.get(id) ?? []) }));
}
