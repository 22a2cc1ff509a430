/**
 * RFC 5545 recurrence rules (RRULE): the structured form, parsing and canonical formatting, and the
 * checks shared by both (text from an iCalendar feed, structured input from GraphQL).
 *
 * Supported: FREQ=DAILY/WEEKLY/MONTHLY/YEARLY with INTERVAL, COUNT or UNTIL, BYMONTH, BYMONTHDAY,
 * BYDAY (ordinals for MONTHLY/YEARLY), BYSETPOS and WKST. Sub-daily frequencies and BYHOUR,
 * BYMINUTE, BYSECOND, BYWEEKNO and BYYEARDAY are rejected with a RecurrenceError: an event happens
 * at its own wall-clock time on the days a rule picks.
 *
 * UNTIL is kept as an event-local wall time ("YYYY-MM-DD HH:MM:SS", inclusive) so expansion can
 * work on floating wall times; the zone only matters when reading or writing the RRULE text.
 *
 * Pure domain code: no HTTP, no GraphQL, no storage.
 */
import { isWallTime, utcToWall, wallToUtc, type WallTime } from '../dates/wall-times.js';

export type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';

export interface RecurrenceRule {
  frequency: Frequency;
  /** >= 1, default 1 */
  interval: number;
  /** COUNT (>= 1): instances generated, DTSTART included */
  count?: number;
  /** UNTIL as an event-local wall time, inclusive; for all-day events the day's "YYYY-MM-DD 23:59:59" */
  until?: WallTime;
  /** ["MO","TU"], with ordinals ["2SA","-1FR"] (ordinals only with MONTHLY/YEARLY) */
  byDay?: string[];
  /** 1..31 / -31..-1 */
  byMonthDay?: number[];
  /** 1..12 */
  byMonth?: number[];
  /** ±1..366, needs another BYxxx */
  bySetPos?: number[];
  /** WKST, default 'MO' */
  weekStart?: string;
}

/** A rule that cannot be accepted; the message is a sentence naming the offending part. */
export class RecurrenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecurrenceError';
  }
}

export const FREQUENCIES: readonly Frequency[] = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MAX_INTERVAL = 1000;
export const MAX_COUNT = 10000;

const SUB_DAILY = ['HOURLY', 'MINUTELY', 'SECONDLY'];
const UNSUPPORTED_PARTS: Record<string, string> = {
  BYHOUR: 'BYHOUR is not supported: an event repeats at its own start time.',
  BYMINUTE: 'BYMINUTE is not supported: an event repeats at its own start time.',
  BYSECOND: 'BYSECOND is not supported: an event repeats at its own start time.',
  BYWEEKNO: 'BYWEEKNO is not supported: use BYMONTH, BYMONTHDAY or BYDAY to pick the days.',
  BYYEARDAY: 'BYYEARDAY is not supported: use BYMONTH with BYMONTHDAY or BYDAY to pick the days.',
};
const PART_ORDER = ['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYMONTH', 'BYMONTHDAY', 'BYDAY', 'BYSETPOS', 'WKST'];

const BYDAY_RE = /^([+-]?\d{1,3})?(MO|TU|WE|TH|FR|SA|SU)$/;
const INTEGER_RE = /^[+-]?\d{1,6}$/;

/** A BYDAY entry split into its ordinal (undefined for "every") and weekday. */
export function splitByDay(entry: string): { ordinal: number | undefined; weekday: Weekday } | null {
  const m = BYDAY_RE.exec(entry.trim().toUpperCase());
  if (!m) return null;
  return { ordinal: m[1] === undefined ? undefined : Number(m[1]), weekday: m[2] as Weekday };
}

function byDayMessage(entry: string): string {
  return `BYDAY: ${JSON.stringify(entry)} is not a weekday (MO, TU, WE, TH, FR, SA, SU, optionally with an ordinal like 2SA or -1FR).`;
}

function sortSigned(values: number[]): number[] {
  // Positive values ascending, then negative ones ascending (1,15,-3,-1): the order people write them.
  return [...new Set(values)].sort((a, b) => (a > 0 === b > 0 ? a - b : a > 0 ? -1 : 1));
}

function checkIntegers(part: string, values: unknown, ok: (n: number) => boolean, range: string): number[] {
  if (!Array.isArray(values)) throw new RecurrenceError(`${part} must be a list of whole numbers.`);
  if (values.length === 0) throw new RecurrenceError(`${part} is empty: give at least one value or leave it out.`);
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new RecurrenceError(`${part}: ${JSON.stringify(v)} is not a whole number.`);
    if (!ok(v)) throw new RecurrenceError(`${part}: ${v} is out of range; use ${range}.`);
  }
  return values as number[];
}

const isAbsent = (v: unknown[] | undefined | null): boolean => v === undefined || v === null;

/**
 * Checks a structured rule and returns it normalized: interval and weekStart defaulted, lists
 * deduplicated and sorted, weekdays upper-cased. Absent (or null) optional parts stay absent.
 */
export function validateRule(rule: RecurrenceRule): RecurrenceRule {
  if (rule === null || typeof rule !== 'object') throw new RecurrenceError('The recurrence rule is missing.');
  const frequency = typeof rule.frequency === 'string' ? (rule.frequency.toUpperCase() as Frequency) : rule.frequency;
  if (frequency === undefined || frequency === null) {
    throw new RecurrenceError('FREQ is missing: a rule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY.');
  }
  if (SUB_DAILY.includes(frequency)) {
    throw new RecurrenceError(`FREQ=${frequency} is not supported: events can repeat daily, weekly, monthly or yearly.`);
  }
  if (!FREQUENCIES.includes(frequency)) {
    throw new RecurrenceError(`FREQ: ${JSON.stringify(rule.frequency)} is not a frequency (DAILY, WEEKLY, MONTHLY or YEARLY).`);
  }
  const out: RecurrenceRule = { frequency, interval: 1 };

  const interval = rule.interval ?? 1;
  if (typeof interval !== 'number' || !Number.isInteger(interval)) {
    throw new RecurrenceError(`INTERVAL: ${JSON.stringify(interval)} is not a whole number.`);
  }
  if (interval < 1 || interval > MAX_INTERVAL)
    throw new RecurrenceError(`INTERVAL must be between 1 and ${MAX_INTERVAL}, not ${interval}.`);
  out.interval = interval;

  const hasCount = rule.count !== undefined && rule.count !== null;
  const hasUntil = rule.until !== undefined && rule.until !== null;
  if (hasCount && hasUntil) throw new RecurrenceError('COUNT and UNTIL cannot both be given: use one of them.');
  if (hasCount) {
    const count = rule.count;
    if (typeof count !== 'number' || !Number.isInteger(count))
      throw new RecurrenceError(`COUNT: ${JSON.stringify(count)} is not a whole number.`);
    if (count < 1 || count > MAX_COUNT) throw new RecurrenceError(`COUNT must be between 1 and ${MAX_COUNT}, not ${count}.`);
    out.count = count;
  }
  if (hasUntil) {
    if (typeof rule.until !== 'string' || !isWallTime(rule.until) || !isRealDate(rule.until)) {
      throw new RecurrenceError(`UNTIL: ${JSON.stringify(rule.until)} is not a date and time like "2027-06-30 19:00:00".`);
    }
    out.until = rule.until;
  }

  if (!isAbsent(rule.byMonth)) {
    out.byMonth = sortSigned(checkIntegers('BYMONTH', rule.byMonth, (n) => n >= 1 && n <= 12, '1 to 12'));
  }
  if (!isAbsent(rule.byMonthDay)) {
    if (frequency === 'WEEKLY') throw new RecurrenceError('BYMONTHDAY cannot be used with FREQ=WEEKLY.');
    out.byMonthDay = sortSigned(
      checkIntegers(
        'BYMONTHDAY',
        rule.byMonthDay,
        (n) => n !== 0 && n >= -31 && n <= 31,
        '1 to 31, or -1 to -31 counting from the end of the month',
      ),
    );
  }
  if (!isAbsent(rule.byDay)) {
    out.byDay = normalizeByDay(rule.byDay!, frequency, out.byMonth !== undefined);
  }
  if (!isAbsent(rule.bySetPos)) {
    out.bySetPos = sortSigned(checkIntegers('BYSETPOS', rule.bySetPos, (n) => n !== 0 && n >= -366 && n <= 366, '1 to 366 or -1 to -366'));
    if (!out.byDay && !out.byMonthDay && !out.byMonth) {
      throw new RecurrenceError('BYSETPOS needs another BY part (BYDAY, BYMONTHDAY or BYMONTH) to pick from.');
    }
  }
  const weekStart = rule.weekStart ?? 'MO';
  if (typeof weekStart !== 'string' || !(WEEKDAYS as readonly string[]).includes(weekStart.trim().toUpperCase())) {
    throw new RecurrenceError(`WKST: ${JSON.stringify(weekStart)} is not a weekday (MO, TU, WE, TH, FR, SA or SU).`);
  }
  out.weekStart = weekStart.trim().toUpperCase();
  return out;
}

function normalizeByDay(values: unknown, frequency: Frequency, hasByMonth: boolean): string[] {
  if (!Array.isArray(values)) throw new RecurrenceError('BYDAY must be a list of weekdays like ["MO", "2SA"].');
  if (values.length === 0) throw new RecurrenceError('BYDAY is empty: give at least one weekday or leave it out.');
  const parsed = values.map((v) => {
    const p = typeof v === 'string' ? splitByDay(v) : null;
    if (!p) throw new RecurrenceError(byDayMessage(String(v)));
    if (p.ordinal !== undefined) {
      if (frequency !== 'MONTHLY' && frequency !== 'YEARLY') {
        throw new RecurrenceError(`BYDAY: ordinals like ${JSON.stringify(v)} only work with FREQ=MONTHLY or FREQ=YEARLY.`);
      }
      const withinMonth = frequency === 'MONTHLY' || hasByMonth;
      const max = withinMonth ? 5 : 53;
      if (p.ordinal === 0 || Math.abs(p.ordinal) > max) {
        throw new RecurrenceError(
          `BYDAY: ${JSON.stringify(v)} is out of range; ${withinMonth ? 'a month' : 'a year'} has at most ${max} of each weekday, so use 1 to ${max} or -1 to -${max}.`,
        );
      }
    }
    return p;
  });
  const seen = new Set<string>();
  return parsed
    .sort((a, b) => {
      const d = WEEKDAYS.indexOf(a.weekday) - WEEKDAYS.indexOf(b.weekday);
      if (d !== 0) return d;
      if (a.ordinal === undefined || b.ordinal === undefined) return a.ordinal === undefined ? -1 : 1;
      return a.ordinal > 0 === b.ordinal > 0 ? a.ordinal - b.ordinal : a.ordinal > 0 ? -1 : 1;
    })
    .map((p) => `${p.ordinal ?? ''}${p.weekday}`)
    .filter((s) => (seen.has(s) ? false : (seen.add(s), true)));
}

/** "2027-02-30 …" passes the wall-time pattern but is not a day. */
function isRealDate(wall: WallTime): boolean {
  const [y, m, d] = [Number(wall.slice(0, 4)), Number(wall.slice(5, 7)), Number(wall.slice(8, 10))];
  const h = Number(wall.slice(11, 13));
  const i = Number(wall.slice(14, 16));
  const s = Number(wall.slice(17, 19));
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m) && h <= 23 && i <= 59 && s <= 59;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function parseIntegerList(part: string, value: string): number[] {
  return value.split(',').map((raw) => {
    const v = raw.trim();
    if (!INTEGER_RE.test(v)) throw new RecurrenceError(`${part}: ${JSON.stringify(raw)} is not a whole number.`);
    return Number(v);
  });
}

function parseInteger(part: string, value: string): number {
  const v = value.trim();
  if (!INTEGER_RE.test(v)) throw new RecurrenceError(`${part}: ${JSON.stringify(value)} is not a whole number.`);
  return Number(v);
}

const UNTIL_RE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;

/** UNTIL text (UTC, floating or DATE) → event-local wall time. */
function parseUntil(value: string, timezone: string, allDay: boolean): WallTime {
  const m = UNTIL_RE.exec(value.trim().toUpperCase());
  const bad = () =>
    new RecurrenceError(`UNTIL: ${JSON.stringify(value)} is not a date like 20270630 or a date-time like 20270630T170000Z.`);
  if (!m) throw bad();
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  let wall: WallTime = m[4] === undefined ? `${date} 23:59:59` : `${date} ${m[4]}:${m[5]}:${m[6]}`;
  if (!isWallTime(wall) || !isRealDate(wall)) throw bad();
  if (m[7] === 'Z') wall = utcToWall(wall, timezone);
  // An all-day event's last day runs to its end.
  if (allDay) wall = `${wall.slice(0, 10)} 23:59:59`;
  if (!isWallTime(wall)) throw bad();
  return wall;
}

/**
 * Reads "FREQ=WEEKLY;BYDAY=TU,TH" (with or without a leading "RRULE:", keys in any case) into a
 * validated, normalized rule. UTC, floating and DATE forms of UNTIL become event-local wall times in
 * `timezone`.
 */
export function parseRrule(text: string, timezone: string, allDay: boolean): RecurrenceRule {
  if (typeof text !== 'string') throw new RecurrenceError('The recurrence rule must be text like "FREQ=WEEKLY;BYDAY=TU".');
  const body = text.trim().replace(/^RRULE:/i, '');
  const parts = body.split(';').map((p) => p.trim());
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0) throw new RecurrenceError('The recurrence rule is empty: it needs at least FREQ, e.g. "FREQ=WEEKLY".');

  const values = new Map<string, string>();
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new RecurrenceError(`${JSON.stringify(part)} is not a NAME=VALUE part of a recurrence rule.`);
    const name = part.slice(0, eq).trim().toUpperCase();
    const value = part.slice(eq + 1).trim();
    const unsupported = UNSUPPORTED_PARTS[name];
    if (unsupported) throw new RecurrenceError(unsupported);
    if (!PART_ORDER.includes(name)) throw new RecurrenceError(`${name} is not a recurrence rule part this server understands.`);
    if (values.has(name)) throw new RecurrenceError(`${name} appears twice: each part may be given only once.`);
    if (value === '') throw new RecurrenceError(`${name} has no value.`);
    values.set(name, value);
  }

  const freq = values.get('FREQ');
  if (freq === undefined) throw new RecurrenceError('FREQ is missing: a rule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY.');
  if (values.has('COUNT') && values.has('UNTIL')) throw new RecurrenceError('COUNT and UNTIL cannot both be given: use one of them.');

  const rule: RecurrenceRule = { frequency: freq.toUpperCase() as Frequency, interval: 1 };
  const get = (k: string): string | undefined => values.get(k);
  if (get('INTERVAL') !== undefined) rule.interval = parseInteger('INTERVAL', get('INTERVAL')!);
  if (get('COUNT') !== undefined) rule.count = parseInteger('COUNT', get('COUNT')!);
  if (get('UNTIL') !== undefined) rule.until = parseUntil(get('UNTIL')!, timezone, allDay);
  if (get('BYMONTH') !== undefined) rule.byMonth = parseIntegerList('BYMONTH', get('BYMONTH')!);
  if (get('BYMONTHDAY') !== undefined) rule.byMonthDay = parseIntegerList('BYMONTHDAY', get('BYMONTHDAY')!);
  if (get('BYDAY') !== undefined) {
    rule.byDay = get('BYDAY')!
      .split(',')
      .map((d) => {
        if (!splitByDay(d)) throw new RecurrenceError(byDayMessage(d));
        return d.trim().toUpperCase();
      });
  }
  if (get('BYSETPOS') !== undefined) rule.bySetPos = parseIntegerList('BYSETPOS', get('BYSETPOS')!);
  if (get('WKST') !== undefined) rule.weekStart = get('WKST')!;
  return validateRule(rule);
}

const compact = (wall: WallTime): string => wall.replace(/[-: ]/g, '').replace(/^(\d{8})/, '$1T');

/**
 * Canonical RRULE text, without the "RRULE:" prefix: FREQ;INTERVAL (if >1);COUNT|UNTIL;BYMONTH;
 * BYMONTHDAY;BYDAY;BYSETPOS;WKST (if not MO). UNTIL is written in UTC ("20270630T170000Z") for
 * timed events, as RFC 5545 requires when DTSTART has a TZID, and as a DATE for all-day ones.
 */
export function formatRrule(rule: RecurrenceRule, timezone: string, allDay: boolean): string {
  const r = validateRule(rule);
  const parts = [`FREQ=${r.frequency}`];
  if (r.interval > 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.count !== undefined) parts.push(`COUNT=${r.count}`);
  if (r.until !== undefined) {
    parts.push(`UNTIL=${allDay ? r.until.slice(0, 10).replace(/-/g, '') : `${compact(wallToUtc(r.until, timezone))}Z`}`);
  }
  if (r.byMonth) parts.push(`BYMONTH=${r.byMonth.join(',')}`);
  if (r.byMonthDay) parts.push(`BYMONTHDAY=${r.byMonthDay.join(',')}`);
  if (r.byDay) parts.push(`BYDAY=${r.byDay.join(',')}`);
  if (r.bySetPos) parts.push(`BYSETPOS=${r.bySetPos.join(',')}`);
  if (r.weekStart && r.weekStart !== 'MO') parts.push(`WKST=${r.weekStart}`);
  return parts.join(';');
}

/** Does the rule end by itself (COUNT or UNTIL)? */
export function isBounded(rule: RecurrenceRule): boolean {
  return (rule.count !== undefined && rule.count !== null) || (rule.until !== undefined && rule.until !== null);
}
