/**
 * English sentences for recurrence rules: "Every week on Tuesday and Thursday", "Every month on the
 * 2nd Saturday until 30 June 2027", "Weekly on Tuesday, 10 times".
 *
 * Pure domain code: no HTTP, no GraphQL, no storage.
 */
import { isWallTime, type WallTime } from '../dates/wall-times.js';
import { splitByDay, validateRule, WEEKDAYS, type Frequency, type RecurrenceRule, type Weekday } from './rule.js';

const DAY_NAMES: Record<Weekday, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const UNITS: Record<Frequency, [string, string, string]> = {
  DAILY: ['day', 'days', 'Daily'],
  WEEKLY: ['week', 'weeks', 'Weekly'],
  MONTHLY: ['month', 'months', 'Monthly'],
  YEARLY: ['year', 'years', 'Yearly'],
};
const FROM_END = ['', 'last', 'second-to-last', 'third-to-last', 'fourth-to-last', 'fifth-to-last'];

/** "A", "A and B", "A, B and C" (or "or"). */
function list(items: string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

/** 1 → "1st", 22 → "22nd", -1 → "last", -2 → "second-to-last", -8 → "8th-to-last". */
export function ordinal(n: number): string {
  if (n < 0) return FROM_END[-n] ?? `${ordinal(-n)}-to-last`;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function dateText(wall: WallTime): string {
  return `${Number(wall.slice(8, 10))} ${MONTH_NAMES[Number(wall.slice(5, 7)) - 1]} ${Number(wall.slice(0, 4))}`;
}

function weekdayOf(wall: WallTime): Weekday {
  const t = new Date(0);
  t.setUTCFullYear(Number(wall.slice(0, 4)), Number(wall.slice(5, 7)) - 1, Number(wall.slice(8, 10)));
  return WEEKDAYS[(t.getUTCDay() + 6) % 7]!;
}

function dayList(byDay: string[]): string {
  const plain = byDay.map((d) => splitByDay(d)!).filter((p) => p.ordinal === undefined);
  const weekdays = ['MO', 'TU', 'WE', 'TH', 'FR'];
  if (plain.length === 5 && plain.every((p) => weekdays.includes(p.weekday))) return 'weekdays';
  return list(plain.map((p) => DAY_NAMES[p.weekday]));
}

/** "the 2nd Saturday", "the 1st and last Sunday", "Tuesday and Thursday". */
function byDayText(byDay: string[]): string {
  const parsed = byDay.map((d) => splitByDay(d)!);
  const parts: string[] = [];
  const plain = parsed.filter((p) => p.ordinal === undefined);
  if (plain.length > 0) parts.push(dayList(plain.map((p) => p.weekday)));
  for (const weekday of WEEKDAYS) {
    const ordinals = parsed.filter((p) => p.weekday === weekday && p.ordinal !== undefined).map((p) => ordinal(p.ordinal!));
    if (ordinals.length > 0) parts.push(`the ${list(ordinals)} ${DAY_NAMES[weekday]}`);
  }
  return list(parts);
}

/** "day 15", "days 2 and 15", "the last day", "day 1 and the last day". */
function byMonthDayText(days: number[]): string {
  const positive = days.filter((d) => d > 0);
  const negative = days.filter((d) => d < 0);
  const parts: string[] = [];
  if (positive.length > 0) parts.push(`${positive.length === 1 ? 'day' : 'days'} ${list(positive.map(String))}`);
  if (negative.length > 0) parts.push(`the ${list(negative.map(ordinal))} ${negative.length === 1 ? 'day' : 'days'}`);
  return list(parts);
}

/**
 * An English sentence for the rule; `startLocal` (DTSTART) supplies the day a rule without BYDAY or
 * BYMONTHDAY repeats on. Invalid rules get a plain "Repeats" rather than an exception.
 */
export function describeRule(rule: RecurrenceRule, startLocal: string): string {
  let r: RecurrenceRule;
  try {
    r = validateRule(rule);
  } catch {
    return 'Repeats';
  }
  const [unit, units, adverb] = UNITS[r.frequency];
  const start = typeof startLocal === 'string' && isWallTime(startLocal) ? startLocal : undefined;
  // "Weekly on Tuesday, 10 times" reads better than "Every week on Tuesday, 10 times".
  let text = r.interval > 1 ? `Every ${r.interval} ${units}` : r.count !== undefined ? adverb : `Every ${unit}`;

  const months = r.byMonth ? list(r.byMonth.map((m) => MONTH_NAMES[m - 1]!)) : undefined;
  const days = r.byDay ? (r.bySetPos ? undefined : byDayText(r.byDay)) : undefined;
  const monthDays = r.byMonthDay ? byMonthDayText(r.byMonthDay) : undefined;

  if (months) text += ` in ${months}`;
  if (r.bySetPos) {
    // "on the 3rd Tuesday, Wednesday or Thursday", "on the second-to-last weekday"
    const set = r.byDay
      ? dayList(r.byDay) === 'weekdays'
        ? 'weekday'
        : list(
            r.byDay.map((d) => DAY_NAMES[splitByDay(d)!.weekday]),
            'or',
          )
      : 'day';
    text += ` on the ${list(r.bySetPos.map(ordinal), 'or')} ${set}`;
    if (monthDays) text += ` among ${monthDays}`;
  } else if (days && monthDays) {
    text += ` on ${days} falling on ${monthDays}`;
  } else if (days) {
    text += ` on ${days}`;
  } else if (monthDays) {
    text += ` on ${monthDays}`;
  } else if (start) {
    // The day comes from DTSTART.
    if (r.frequency === 'WEEKLY') text += ` on ${DAY_NAMES[weekdayOf(start)]}`;
    if (r.frequency === 'MONTHLY') text += ` on day ${Number(start.slice(8, 10))}`;
    if (r.frequency === 'YEARLY') {
      text += months
        ? ` on day ${Number(start.slice(8, 10))}`
        : ` on ${Number(start.slice(8, 10))} ${MONTH_NAMES[Number(start.slice(5, 7)) - 1]}`;
    }
  }
  if (r.weekStart && r.weekStart !== 'MO' && r.frequency === 'WEEKLY' && r.interval > 1) {
    text += `, weeks starting on ${DAY_NAMES[r.weekStart as Weekday]}`;
  }
  if (r.until) text += ` until ${dateText(r.until)}`;
  if (r.count !== undefined) text += r.count === 1 ? ', once' : `, ${r.count} times`;
  return text;
}
