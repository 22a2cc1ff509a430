// VTIMEZONE components (RFC 5545 3.6.5) for the zones an iCalendar feed names in TZID parameters,
// made from the IANA database through luxon: the offset transitions over the years the feed's data
// spans, each as a STANDARD or DAYLIGHT observance. Where the last years follow one yearly rule
// ("the last Sunday of March at 02:00"), checked year by year against the database, those
// transitions are written as RRULE observances, so a client expanding a series past the covered
// years still gets the right offsets; earlier or irregular transitions are written one by one.
// WordPress's manual offsets ("UTC+2", "UTC-5:30") are fixed-offset zones.
//
// Pure domain code: no HTTP, no GraphQL, no storage.
import { DateTime, IANAZone } from 'luxon';
import { daysInMonth } from '../recurrence/rule.js';
import { isIanaZone, isValidTimezone, timezoneAbbr, toZone } from './zones.js';

/** Transitions are looked for a week at a time (no zone changes its offset twice within a week), then to the second. */
const STEP_MS = 7 * 86_400_000;
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
/** Years scanned past the last one the data needs, to check that a yearly rule still holds. */
const CHECK_YEARS = 12;
/** At most this many years are described one transition at a time (a series from long ago). */
const MAX_YEARS = 100;

interface Transition {
  /** The instant (ms) from which `to` applies. */
  at: number;
  /** Offsets in minutes east of UTC. */
  from: number;
  to: number;
  name: string;
  daylight: boolean;
}

/** A TZID as a parameter value: quoted when it holds a character a parameter value cannot. */
export function tzidParam(tzid: string): string {
  return /[;:,"]/.test(tzid) ? `"${tzid.replace(/"/g, '')}"` : tzid;
}

/** "+0100", "-0530" (seconds when there are any, as "+005328"). */
function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const total = Math.round(Math.abs(minutes) * 60);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${sign}${pad(h)}${pad(m)}${s ? pad(s) : ''}`;
}

/** The wall time of an instant at an offset, as RFC 5545's local DATE-TIME "YYYYMMDDTHHMMSS". */
function localBasic(at: number, offsetMinutes: number): string {
  const iso = new Date(at + Math.round(offsetMinutes * 60_000)).toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

/** Is `zone` a fixed offset (WordPress's "UTC+2", "+05:30")? Those have no transitions. */
function isFixed(zone: string): boolean {
  return !isIanaZone(zone) && isValidTimezone(zone);
}

/** The zone's offset transitions in [from, to) (ms). */
function transitions(zone: IANAZone, from: number, to: number): Transition[] {
  const found: Transition[] = [];
  let previous = zone.offset(from);
  for (let t = from + STEP_MS; t <= to; t += STEP_MS) {
    const offset = zone.offset(t);
    if (offset === previous) continue;
    // The first second with the new offset lies in (t - STEP_MS, t].
    let low = t - STEP_MS;
    let high = t;
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (zone.offset(middle) === previous) low = middle;
      else high = middle;
    }
    const at = high;
    found.push({
      at,
      from: previous,
      to: offset,
      name: timezoneAbbr(zone.name, new Date(at)),
      daylight: DateTime.fromMillis(at, { zone }).isInDST,
    });
    previous = offset;
  }
  return found;
}

/** What a yearly rule must keep the same: kind, month, weekday, time and offsets. */
interface Shape {
  key: string;
  year: number;
  month: number;
  weekday: string;
  day: number;
  /** The BYDAY ordinals that name the day: its n-th from the start, and -1 when it is the last. */
  ordinals: number[];
}

function shapeOf(t: Transition): Shape {
  const local = new Date(t.at + Math.round(t.from * 60_000));
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + 1;
  const day = local.getUTCDate();
  const weekday = WEEKDAYS[(local.getUTCDay() + 6) % 7]!;
  const ordinals = [Math.ceil(day / 7)];
  if (day + 7 > daysInMonth(year, month)) ordinals.push(-1);
  const time = local.toISOString().slice(11, 19);
  return { key: `${t.daylight}|${month}|${weekday}|${time}|${t.from}|${t.to}|${t.name}`, year, month, weekday, day, ordinals };
}

/**
 * The BYDAY (and BYMONTHDAY) parts every shape of a kind fits: "2SU", "-1SU", or the weekday on or
 * after a day ("SU;BYMONTHDAY=2,3,4,5,6,7,8", tzdata's "Sun>=2") once all seven days were seen.
 */
function sharedDay(shapes: Shape[]): string | null {
  const weekday = shapes[0]!.weekday;
  let common = shapes[0]!.ordinals;
  for (const shape of shapes) common = common.filter((n) => shape.ordinals.includes(n));
  // One year alone may fit both: "the 4th" and "the last" of a month of four; the last is the usual rule.
  if (common.length) return `${common.includes(-1) && (common[0]! >= 4 || common.length === 1) ? -1 : common[0]!}${weekday}`;
  const days = new Set(shapes.map((shape) => shape.day));
  const first = Math.min(...days);
  if (days.size !== 7 || Math.max(...days) !== first + 6) return null;
  return `${weekday};BYMONTHDAY=${[...days].sort((a, b) => a - b).join(',')}`;
}

/**
 * Whether transitions[start..] follow yearly rules up to `lastYear`: at most two kinds, each once a
 * year every year to the end, on the same weekday of the month at the same time.
 */
function yearlyRules(
  list: Transition[],
  start: number,
  lastYear: number,
): Map<string, { first: Transition; shape: Shape; byDay: string }> | null {
  const kinds = new Map<string, { first: Transition; shapes: Shape[] }>();
  for (const t of list.slice(start)) {
    const shape = shapeOf(t);
    const kind = kinds.get(shape.key);
    if (!kind) kinds.set(shape.key, { first: t, shapes: [shape] });
    else {
      if (shape.year !== kind.shapes[kind.shapes.length - 1]!.year + 1) return null;
      kind.shapes.push(shape);
    }
  }
  if (!kinds.size || kinds.size > 2) return null;
  const rules = new Map<string, { first: Transition; shape: Shape; byDay: string }>();
  for (const [key, kind] of kinds) {
    if (kind.shapes[kind.shapes.length - 1]!.year !== lastYear || kind.shapes.length < 2) return null;
    const byDay = sharedDay(kind.shapes);
    if (byDay === null) return null;
    rules.set(key, { first: kind.first, shape: kind.shapes[0]!, byDay });
  }
  return rules;
}

function observance(t: Transition, rrule?: string): string[] {
  const kind = t.daylight ? 'DAYLIGHT' : 'STANDARD';
  return [
    `BEGIN:${kind}`,
    `DTSTART:${localBasic(t.at, t.from)}`,
    ...(rrule ? [`RRULE:${rrule}`] : []),
    `TZOFFSETFROM:${utcOffset(t.from)}`,
    `TZOFFSETTO:${utcOffset(t.to)}`,
    `TZNAME:${t.name.replace(/[\\;,\r\n]/g, '')}`,
    `END:${kind}`,
  ];
}

/**
 * The VTIMEZONE lines for `zone` (an IANA name or a fixed offset), covering the years
 * `fromYear`…`toYear` exactly, and later years as far as the zone's current yearly rule goes.
 */
export function vtimezoneLines(zone: string, fromYear: number, toYear: number): string[] {
  const key = `${zone}|${fromYear}|${toYear}`;
  let lines = made.get(key);
  if (!lines) {
    lines = makeLines(zone, fromYear, toYear);
    if (made.size >= MAX_CACHED) made.delete(made.keys().next().value!);
    made.set(key, lines);
  }
  return lines;
}

/** Feeds ask for the same few zones and years again and again. */
const made = new Map<string, string[]>();
const MAX_CACHED = 500;

function makeLines(zone: string, fromYear: number, toYear: number): string[] {
  const header = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  if (isFixed(zone)) {
    const offset = toZone(zone, 'UTC').offset(Date.UTC(2000, 0, 1));
    return [...header, ...observance({ at: Date.UTC(1970, 0, 1), from: offset, to: offset, name: zone, daylight: false }), 'END:VTIMEZONE'];
  }
  const iana = IANAZone.create(zone);
  const last = Math.max(fromYear, toYear);
  const first = Math.max(Math.min(fromYear, last), last - MAX_YEARS);
  const begin = Date.UTC(first, 0, 1);
  const startOffset = iana.offset(begin);
  const initial: Transition = {
    at: begin - Math.round(startOffset * 60_000),
    from: startOffset,
    to: startOffset,
    name: timezoneAbbr(zone, new Date(begin)),
    daylight: DateTime.fromMillis(begin, { zone: iana }).isInDST,
  };
  const lines = [...header, `X-LIC-LOCATION:${zone}`, ...observance(initial)];
  const list = transitions(iana, begin, Date.UTC(last + CHECK_YEARS + 1, 0, 1));
  // The earliest start from which every later transition follows a yearly rule.
  let start = list.length;
  let rules: ReturnType<typeof yearlyRules> = null;
  for (let i = 0; i < list.length; i++) {
    rules = yearlyRules(list, i, last + CHECK_YEARS);
    if (rules) {
      start = i;
      break;
    }
  }
  for (const t of list.slice(0, start)) lines.push(...observance(t));
  if (rules) {
    for (const { first: t, shape, byDay } of rules.values())
      lines.push(...observance(t, `FREQ=YEARLY;BYMONTH=${shape.month};BYDAY=${byDay}`));
  }
  lines.push('END:VTIMEZONE');
  return lines;
}
