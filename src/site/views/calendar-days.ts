// Calendar-date arithmetic for the views: days as "YYYY-MM-DD", months as "YYYY-MM", computed on
// UTC midnights so no zone's daylight-saving change moves a day. Which day "today" is comes from the
// site's zone (luxon, as the rest of the calendar's dates).
import { DateTime } from 'luxon';
import { toZone } from '../../calendar/dates/zones.js';

/** WordPress's start_of_week default: Monday. */
const WEEK_STARTS_ON = 1;

const utc = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  const date = utc(day);
  date.setUTCDate(date.getUTCDate() + days);
  return dayOf(date);
}

export function addMonths(month: string, months: number): string {
  const date = utc(`${month}-01`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return dayOf(date).slice(0, 7);
}

/** The days a month's grid shows: whole weeks from the week of its 1st to the week of its last day. */
export function monthGrid(month: string): string[] {
  const first = utc(`${month}-01`);
  const start = addDays(dayOf(first), -((first.getUTCDay() - WEEK_STARTS_ON + 7) % 7));
  const last = addDays(addMonths(month, 1) + '-01', -1);
  const end = addDays(last, (WEEK_STARTS_ON + 6 - utc(last).getUTCDay()) % 7);
  const days: string[] = [];
  for (let day = start; day <= end; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The site's date now, in its zone. */
export function todayIn(timezone: string): string {
  return DateTime.now().setZone(toZone(timezone, 'UTC')).toISODate()!;
}

/** The current instant as a UTC wall time ("YYYY-MM-DD HH:MM:SS"), as strict date filters take it. */
export function nowUtcWall(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

const format = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' });
const monthFormat = format({ month: 'long', year: 'numeric' });
const weekdayFormat = format({ weekday: 'short' });
const longWeekdayFormat = format({ weekday: 'long' });

/** "December 2026". */
export const monthLabel = (month: string) => monthFormat.format(utc(`${month}-01`));
/** "Saturday 5 December 2026" (assembled: ICU versions differ on a comma after the weekday). */
export const dayLabel = (day: string) => `${weekdayLong(day)} ${Number(day.slice(8))} ${monthLabel(day.slice(0, 7))}`;
/** "Sat". */
export const weekdayShort = (day: string) => weekdayFormat.format(utc(day));
/** "Saturday". */
export const weekdayLong = (day: string) => longWeekdayFormat.format(utc(day));
