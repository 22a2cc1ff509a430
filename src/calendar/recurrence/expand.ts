/**
 * Expansion of a recurrence rule into event-local wall times.
 *
 * Library choice: `rrule` 2.8.1, wrapped with thin fix-ups (below). Compared with ical.js 2.2.1 on
 * every RFC 5545 §3.8.5.3 example (DTSTART 09:00 America/New_York, run as floating wall times,
 * UTC UNTILs converted to local first) and on DST / short-month cases:
 *  - rrule: 34 of the 35 expandable RFC examples (both forms of the two-form ones) right. The 35th:
 *    like ical.js it leaves out a DTSTART that does not match the rule (the Friday-the-13th
 *    example), which the RFC's set includes (and its EXDATE then removes). Invalid dates are
 *    skipped as the RFC says (FREQ=YEARLY from 2024-02-29 → 2028-02-29, 2032-02-29). Impossible
 *    rules terminate but scan to year 9999 first: measured 0.15 s for FREQ=YEARLY;BYMONTH=2;
 *    BYMONTHDAY=30, 0.5 s for FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6, 2.1 s for
 *    FREQ=DAILY;INTERVAL=7;BYDAY=MO from a Saturday, 9.2 s for FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30.
 *    Its TZID mode returns instants that depend on the host's TZ, so it is used in floating mode only.
 *  - ical.js: 33 of 35 right; wrong on "every 20th Monday of the year" (FREQ=YEARLY;BYDAY=20MO gave every Monday:
 *    1997-05-19, 05-26, 06-02); rolls invalid dates into the next month (FREQ=YEARLY from 2024-02-29
 *    gave 2025-03-01, 2026-03-01; FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30 gave 2 March every year);
 *    never returns (a synchronous loop nothing can interrupt) on impossible DAILY rules
 *    (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30, FREQ=DAILY;INTERVAL=7;BYDAY=MO from a Saturday); throws
 *    on FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=20.
 *  - DST (weekly 19:00 Europe/Paris over the last Sundays of March and October, daily 02:30
 *    America/New_York over the spring-forward gap, Australia/Sydney in April and October), monthly
 *    -1FR and BYMONTHDAY=31 skipping short months: both libraries agree and are right in floating
 *    mode, where the wall time stays constant by construction.
 *
 * Fix-ups around rrule:
 *  - DTSTART is always the first instance (as ical.js's RecurExpansion and Google do), and COUNT and
 *    UNTIL are applied here: COUNT counts DTSTART plus the instances after it, before EXDATEs are
 *    removed; RDATEs do not count.
 *  - Bounded work for every input. rrule only stops at a candidate past the horizon or at year 9999,
 *    so: (1) `neverMatches` rejects, in constant time, the usual impossible rules (February 30, the
 *    31st of April/June, months an INTERVAL never reaches, BYSETPOS past any period's set, DAILY
 *    whole-week steps off BYDAY, 1MO with BYMONTHDAY=20); (2) the Gregorian calendar repeats every
 *    400 years (146097 days, a whole number of weeks), so the whole computation is shifted by whole
 *    400-year cycles to put the horizon in 9600–9999: whatever rrule scans past the horizon is at
 *    most 400 years; (3) FREQ=DAILY;INTERVAL=1 with BY parts runs as the equivalent FREQ=YEARLY rule
 *    (one period a year instead of one a day); (4) DAILY BYSETPOS is decided here (a day's set has
 *    one instance); (5) DAILY, WEEKLY and MONTHLY scans stop SCAN_PERIODS periods after DTSTART, so
 *    a far horizon on a sparse rule returns what lies within that budget.
 *  - Not done: skipping ahead to `from`. rrule always starts at DTSTART, so a daily event that began
 *    30 years before `from` costs about 11,000 periods (tens of milliseconds).
 *
 * Pure domain code: no HTTP, no GraphQL, no storage.
 */
import * as rrulePkg from 'rrule';
import type { Options } from 'rrule';
import { isWallTime, parseWall, wallAsUtcMillis, wallOfUtcMillis, wallString, type WallTime } from '../dates/wall-times.js';
import { RecurrenceError, validateRule, WEEKDAYS, splitByDay, type RecurrenceRule } from './rule.js';

// rrule ships a CommonJS bundle (Node's ESM loader exposes it as the default export) and an ES
// module build (bundlers): take the classes from whichever is there.
const lib: typeof rrulePkg =
  'RRule' in rrulePkg && rrulePkg.RRule ? rrulePkg : (rrulePkg as unknown as { default: typeof rrulePkg }).default;
const { RRule, Weekday } = lib;

export interface ExpandOptions {
  rule: RecurrenceRule;
  /** DTSTART, event-local wall time: the first instance, always included unless excluded by exdates */
  startLocal: WallTime;
  /** Used for UNTIL conversion by the callers; expansion itself works on floating wall times. */
  timezone: string;
  /** Event-local wall times to leave out */
  exdates?: WallTime[];
  /** Event-local wall times to add */
  rdates?: WallTime[];
  /** Only instances >= this local wall time */
  from?: WallTime;
  /** Exclusive upper bound (the horizon), local wall time */
  before: WallTime;
  /** Maximum number returned */
  limit: number;
}

const DAY_MS = 86_400_000;
/** 400 Gregorian years: the same dates fall on the same weekdays. */
const CYCLE_MS = 146_097 * DAY_MS;
/** rrule stops scanning after this year. */
const RRULE_MAX_YEAR = 9999;
/** Scans stop after this many DAILY / WEEKLY / MONTHLY periods from DTSTART (YEARLY: at year 9999). */
export const SCAN_PERIODS = { DAILY: 50_000, WEEKLY: 20_000, MONTHLY: 6_000 } as const;
/** Period lengths in days, rounded up, for the scan budget. */
const PERIOD_DAYS = { DAILY: 1, WEEKLY: 7, MONTHLY: 31 } as const;

function toMs(name: string, wall: unknown): number {
  if (typeof wall !== 'string' || !isWallTime(wall)) {
    throw new RecurrenceError(`${name}: ${JSON.stringify(wall)} is not a wall time like "2027-06-30 19:00:00".`);
  }
  return wallAsUtcMillis(parseWall(wall)!);
}

function toWall(ms: number): WallTime {
  return wallString(wallOfUtcMillis(ms));
}

/**
 * Instances of the rule from DTSTART up to the horizon, sorted, distinct, as event-local wall
 * times: DTSTART, the rule's instances (COUNT/UNTIL applied), RDATEs, minus EXDATEs, then only those
 * in [from, before), at most `limit` of them.
 */
export function expandOccurrences(options: ExpandOptions): WallTime[] {
  const rule = validateRule(options.rule);
  const start = toMs('startLocal', options.startLocal);
  const before = toMs('before', options.before);
  const from = options.from === undefined || options.from === null ? -Infinity : toMs('from', options.from);
  const limit = Math.floor(options.limit);
  if (!(limit >= 1)) return [];
  const excluded = new Set<WallTime>();
  for (const ex of options.exdates ?? []) excluded.add(toWall(toMs('EXDATE', ex)));
  const keep = (ms: number): boolean => ms >= from && ms < before && !excluded.has(toWall(ms));

  const found = new Set<number>();
  if (keep(start)) found.add(start);
  for (const ms of generate(rule, start, from, before, limit, excluded)) found.add(ms);
  for (const rd of options.rdates ?? []) {
    const ms = toMs('RDATE', rd);
    if (keep(ms)) found.add(ms);
  }
  return [...found]
    .sort((a, b) => a - b)
    .slice(0, limit)
    .map(toWall);
}

/** The rule's instances after DTSTART within [from, before), at most `limit`, EXDATEs left out. */
function generate(rule: RecurrenceRule, start: number, from: number, before: number, limit: number, excluded: Set<WallTime>): number[] {
  // DTSTART is the first instance, so COUNT leaves count - 1 to generate.
  const remaining = rule.count === undefined ? Infinity : rule.count - 1;
  if (remaining <= 0) return [];
  if (neverMatches(rule, toWall(start))) return [];
  const options = rruleOptions(rule);
  if (!options) return [];
  const until = rule.until === undefined ? Infinity : wallAsUtcMillis(parseWall(rule.until)!) + 1;
  let end = Math.min(before, until);
  if (rule.frequency !== 'YEARLY') {
    end = Math.min(end, start + SCAN_PERIODS[rule.frequency] * PERIOD_DAYS[rule.frequency] * rule.interval * DAY_MS);
  }
  if (end <= start) return [];

  const endYear = new Date(end - 1).getUTCFullYear();
  const shift = Math.max(0, Math.floor((RRULE_MAX_YEAR - endYear) / 400)) * CYCLE_MS;
  const out: number[] = [];
  let generated = 0;
  new RRule({ ...options, dtstart: new Date(start + shift) }, true).all((date) => {
    const ms = date.getTime() - shift;
    if (ms >= end) return false;
    if (ms <= start) return true;
    generated += 1;
    if (ms >= from && !excluded.has(toWall(ms))) out.push(ms);
    return generated < remaining && out.length < limit;
  });
  return out;
}

const MAX_MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * Cheap, exact checks for rules that can never produce an instance after DTSTART (so rrule need not
 * scan 400 years to find out): BYMONTH × BYMONTHDAY with no real date (February 30, the 31st of
 * April or June), months an INTERVAL never reaches, BYSETPOS beyond any period's set, DAILY steps of
 * whole weeks that never land on BYDAY, nth-weekday ordinals that cannot fall on a BYMONTHDAY.
 */
export function neverMatches(rule: RecurrenceRule, startLocal: WallTime): boolean {
  const startMonth = Number(startLocal.slice(5, 7));
  const startDay = Number(startLocal.slice(8, 10));
  const byDay = rule.byDay?.map((d) => splitByDay(d)!);

  // Months the rule can visit.
  let months = rule.byMonth ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  if (rule.frequency === 'MONTHLY') {
    const step = gcd(rule.interval, 12);
    months = months.filter((m) => (((m - startMonth) % step) + step) % step === 0);
  }
  if (rule.frequency === 'YEARLY' && !rule.byMonth && !rule.byDay && !rule.byMonthDay) months = [startMonth];
  // Days of the month: BYMONTHDAY, else DTSTART's day when MONTHLY/YEARLY have no BYDAY either.
  const monthDays = rule.byMonthDay ?? ((rule.frequency === 'MONTHLY' || rule.frequency === 'YEARLY') && !byDay ? [startDay] : undefined);
  if (monthDays) months = months.filter((m) => monthDays.some((d) => Math.abs(d) <= MAX_MONTH_DAYS[m - 1]!));
  if (months.length === 0) return true;

  if (rule.bySetPos) {
    const weekdays = byDay ? new Set(byDay.map((p) => p.weekday)).size : 1;
    const largestSet = { DAILY: 1, WEEKLY: weekdays, MONTHLY: 31, YEARLY: 366 }[rule.frequency];
    if (rule.bySetPos.every((pos) => Math.abs(pos) > largestSet)) return true;
  }
  if (rule.frequency === 'DAILY' && byDay && rule.interval % 7 === 0) {
    const t = new Date(toMs('startLocal', startLocal));
    const weekday = WEEKDAYS[(t.getUTCDay() + 6) % 7];
    if (!byDay.some((p) => p.weekday === weekday)) return true;
  }
  const withinMonth = rule.frequency === 'MONTHLY' || (rule.frequency === 'YEARLY' && rule.byMonth !== undefined);
  if (withinMonth && byDay && rule.byMonthDay && byDay.every((p) => p.ordinal !== undefined && p.ordinal > 0)) {
    const fits = byDay.some((p) => rule.byMonthDay!.some((d) => d > 0 && d > 7 * (p.ordinal! - 1) && d <= 7 * p.ordinal!));
    if (!fits && rule.byMonthDay.every((d) => d > 0)) return true;
  }
  return false;
}

/** rrule options for the rule (no DTSTART, COUNT or UNTIL: those are handled above); null if it has no instances. */
function rruleOptions(rule: RecurrenceRule): Partial<Options> | null {
  const freqs = { DAILY: RRule.DAILY, WEEKLY: RRule.WEEKLY, MONTHLY: RRule.MONTHLY, YEARLY: RRule.YEARLY } as const;
  const options: Partial<Options> = {
    freq: freqs[rule.frequency],
    interval: rule.interval,
    wkst: WEEKDAYS.indexOf((rule.weekStart ?? 'MO') as (typeof WEEKDAYS)[number]),
  };
  if (rule.byMonth) options.bymonth = rule.byMonth;
  if (rule.byMonthDay) options.bymonthday = rule.byMonthDay;
  if (rule.byDay) {
    options.byweekday = rule.byDay.map((entry) => {
      const p = splitByDay(entry)!;
      return new Weekday(WEEKDAYS.indexOf(p.weekday), p.ordinal);
    });
  }
  if (rule.bySetPos) options.bysetpos = rule.bySetPos;

  if (rule.frequency === 'DAILY') {
    // A day's set holds one instance: BYSETPOS=1 or -1 keeps it, any other position never matches.
    if (rule.bySetPos) {
      if (!rule.bySetPos.includes(1) && !rule.bySetPos.includes(-1)) return null;
      delete options.bysetpos;
    }
    // Every day that passes the BY filters, i.e. the same set as a yearly rule expanding to them.
    if (rule.interval === 1 && (rule.byMonth || rule.byMonthDay || rule.byDay)) {
      options.freq = RRule.YEARLY;
      if (!rule.byMonthDay && !rule.byDay) options.bymonthday = Array.from({ length: 31 }, (_, i) => i + 1);
    }
  }
  return options;
}
