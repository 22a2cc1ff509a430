/**
 * Event schedules (spec §2.1, §2.2, §6.1, §6.11): an event's local and UTC start/end from
 * create/update input (all-day days, the multi-day cutoff), and the list filter's date window.
 * Both read their date arguments with the strtotime port.
 *
 * Pure domain code: no HTTP, no GraphQL, no storage. Everything takes an explicit `now` so callers
 * (and tests) control the clock.
 */
import { type DateTime } from 'luxon';
import { toZone, UTC } from './zones.js';
import { formatWall, isWallTime, normalizeWall, parseWall, wallString, wallToDateTime, type Wall, type WallTime } from './wall-times.js';
import { parseDateInput, parseNatural } from './strtotime.js';

// ---------------------------------------------------------------------------------------------
// Day boundaries (tribe_beginning_of_day / tribe_end_of_day)
// ---------------------------------------------------------------------------------------------

/** The `multiDayCutoff` option, "HH:MM" (default "00:00"), in minutes. */
function cutoffMinutes(cutoff: string | undefined): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(cutoff ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
}

/** `date` (a calendar date) at the cutoff time: "YYYY-MM-DD 00:00:00" by default. */
function beginningOfDay(date: Wall, cutoff: number): WallTime {
  return wallString(normalizeWall({ ...date, h: 0, i: cutoff, s: 0 }));
}

/** One second before the next day's cutoff: "YYYY-MM-DD 23:59:59" by default. */
function endOfDay(date: Wall, cutoff: number): WallTime {
  return wallString(normalizeWall({ ...date, d: date.d + 1, h: 0, i: cutoff, s: -1 }));
}

function wallOf(dt: DateTime): Wall {
  return { y: dt.year, m: dt.month, d: dt.day, h: dt.hour, i: dt.minute, s: dt.second };
}

// ---------------------------------------------------------------------------------------------
// Event schedule (create/update, §2.2)
// ---------------------------------------------------------------------------------------------

/**
 * Event start/end from create/update input: parse start and end in the event zone; all_day →
 * 00:00:00 of start day, 23:59:59 of end day; end before start → local end = start (the UTC end
 * stays the end given). Returns local
 * walls and UTC walls; null when either date is unparseable or outside the years 0001–9999.
 *
 * Like the original, the stored local time is the wall time *as parsed*: a string carrying its
 * own zone ("…T16:00:00+02:00") or a unix timestamp (rendered in UTC) keeps that wall time,
 * which is then read in the event zone. For inputs without a zone this is the obvious result.
 * `timezone` is the event's zone (the caller substitutes the site zone when none is given).
 */
export function eventSchedule(input: {
  start: unknown;
  end: unknown;
  timezone: string;
  allDay: boolean;
  now?: Date;
  multiDayCutoff?: string;
}): { startLocal: WallTime; endLocal: WallTime; startUtc: WallTime; endUtc: WallTime } | null {
  const zone = toZone(input.timezone, 'UTC');
  const now = input.now ?? new Date();
  const start = parseNatural(input.start, zone, now);
  const end = parseNatural(input.end, zone, now);
  if (!start || !end) return null;

  let startWall = wallOf(start);
  let endWall = wallOf(end);
  if (input.allDay) {
    const cutoff = cutoffMinutes(input.multiDayCutoff);
    startWall = parseWall(beginningOfDay(startWall, cutoff))!;
    endWall = parseWall(endOfDay(endWall, cutoff))!;
  }
  const startAt = wallToDateTime(startWall, zone);
  const endAt = wallToDateTime(endWall, zone);
  // No error for an end before the start: the local end becomes the start, but the UTC end keeps
  // the end given, as the original stores them (its _EventEndDateUTC is computed before the clamp).
  if (endAt < startAt) endWall = startWall;
  const walls = {
    startLocal: wallString(startWall),
    endLocal: wallString(endWall),
    startUtc: formatWall(startAt.setZone(UTC)),
    endUtc: formatWall(endAt.setZone(UTC)),
  };
  // Dates past the years a wall time holds (in the event's zone or in UTC) are unparseable here.
  return Object.values(walls).every(isWallTime) ? walls : null;
}

// ---------------------------------------------------------------------------------------------
// List date window (§6.1)
// ---------------------------------------------------------------------------------------------

/** PHP's FILTER_VALIDATE_BOOLEAN-style strict flag: 1,true,on,yes (case-insensitive) → true. */
export function isStrictFlag(raw: unknown): boolean {
  if (raw === true) return true;
  if (typeof raw === 'number') return raw === 1;
  return typeof raw === 'string' && ['1', 'true', 'on', 'yes'].includes(raw.trim().toLowerCase());
}

export interface DateWindow {
  /** event local start >= startGte (start_date) */
  startGte?: WallTime;
  /** event local end <= endLte (end_date) */
  endLte?: WallTime;
  /** start < startLt (starts_before) */
  startLt?: WallTime;
  /** start > startGt (starts_after) */
  startGt?: WallTime;
  /** end < endLt (ends_before) */
  endLt?: WallTime;
  /** end > endGt (ends_after) */
  endGt?: WallTime;
  /** The same values under their query names, for building rest_url (§6.3). */
  effective: {
    startDate?: WallTime;
    endDate?: WallTime;
    startsBefore?: WallTime;
    startsAfter?: WallTime;
    endsBefore?: WallTime;
    endsAfter?: WallTime;
  };
}

/**
 * The list filter's date bounds (§6.1), following Archive_Event::get step by step:
 *  1. start_date/end_date always have a value: the caller's, else the defaults
 *     (start: "yesterday 23:59" UTC as a site-local wall; end: UTC wall of "+24 months").
 *  2. Each value becomes a bound: inclusive mode → the UTC calendar date of the raw value at
 *     00:00:00 (start_date) or 23:59:59 (all others); strict mode → the raw value parsed in UTC,
 *     converted to the site zone. (In strict mode the default start, already site-local, is read
 *     as UTC and converted again — faithful.)
 *  3. With `include`, start/end fall back to the *raw* defaults, without the inclusive rounding
 *     (the original unsets them and re-merges the route defaults: quirk §6.4).
 *  4. If any starts_/ends_ filter is present, start/end survive only if the caller gave them.
 * Raw values that do not parse (the caller validates first) are treated as absent.
 */
export function listDateWindow(input: {
  startDate?: string;
  endDate?: string;
  startsBefore?: string;
  startsAfter?: string;
  endsBefore?: string;
  endsAfter?: string;
  strict: boolean;
  include: boolean;
  siteTimezone: string;
  now?: Date;
  multiDayCutoff?: string;
}): DateWindow {
  const now = input.now ?? new Date();
  const site = toZone(input.siteTimezone, 'UTC');
  const cutoff = cutoffMinutes(input.multiDayCutoff);
  const given = (v: string | undefined): v is string => v !== undefined && v !== null;

  // PHP parses these in its default zone, which WordPress pins to UTC.
  const inUtc = (raw: string): DateTime | null => parseDateInput(raw, 'UTC', now);
  /** Tribe__Timezones::localize_date: raw read as UTC, shown in the site zone. */
  const localize = (raw: string): WallTime | undefined => {
    const dt = inUtc(raw);
    return dt ? formatWall(dt.setZone(site)) : undefined;
  };
  const bound = (raw: string | undefined, kind: 'start' | 'end'): WallTime | undefined => {
    if (!given(raw)) return undefined;
    if (input.strict) return localize(raw);
    // tribe_beginning_of_day / tribe_end_of_day take a PHP-empty date ('0') as today.
    const dt = inUtc(raw === '0' ? 'today' : raw);
    if (!dt) return undefined;
    return kind === 'start' ? beginningOfDay(wallOf(dt), cutoff) : endOfDay(wallOf(dt), cutoff);
  };

  const defaultStart = localize('yesterday 23:59')!;
  const defaultEnd = formatWall(inUtc('+24 months')!);

  let startDate = bound(given(input.startDate) ? input.startDate : defaultStart, 'start');
  let endDate = bound(given(input.endDate) ? input.endDate : defaultEnd, 'end');
  if (input.include) {
    startDate = defaultStart;
    endDate = defaultEnd;
  }
  const relative = [input.startsBefore, input.startsAfter, input.endsBefore, input.endsAfter].some(given);
  if (relative) {
    if (!given(input.startDate)) startDate = undefined;
    if (!given(input.endDate)) endDate = undefined;
  }

  const effective = {
    startDate,
    endDate,
    startsBefore: bound(input.startsBefore, 'end'),
    startsAfter: bound(input.startsAfter, 'end'),
    endsBefore: bound(input.endsBefore, 'end'),
    endsAfter: bound(input.endsAfter, 'end'),
  };
  // start_date and starts_after set the same condition of TEC's event query, and so do end_date and
  // ends_before; the query applies its args in key order, so starts_after and ends_before win.
  return dropUndefined({
    startGte: effective.startsAfter === undefined ? effective.startDate : undefined,
    endLte: effective.endsBefore === undefined ? effective.endDate : undefined,
    startLt: effective.startsBefore,
    startGt: effective.startsAfter,
    endLt: effective.endsBefore,
    endGt: effective.endsAfter,
    effective: dropUndefined(effective),
  });
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
