// The site's clock, for current_datetime and for "next occurrences from today": assistants get
// relative dates wrong unless they are told today's date in the calendar's own time zone.
import { DateTime } from 'luxon';
import { toZone } from '../calendar/dates/zones.js';

export interface SiteNow {
  timezone: string;
  /** Site-local "YYYY-MM-DD HH:MM:SS", the form event tools take. */
  local: string;
  date: string;
  weekday: string;
  /** ISO 8601 with the offset, e.g. 2026-03-01T09:30:00.000+01:00. */
  iso: string;
  utc: string;
  utcOffset: string;
}

export function siteNow(timezone: string, at: Date = new Date()): SiteNow {
  const now = DateTime.fromJSDate(at).setZone(toZone(timezone, 'UTC'));
  return {
    timezone,
    local: now.toFormat('yyyy-LL-dd HH:mm:ss'),
    date: now.toFormat('yyyy-LL-dd'),
    weekday: now.setLocale('en').toFormat('cccc'),
    iso: now.toISO() ?? '',
    utc: now.toUTC().toFormat('yyyy-LL-dd HH:mm:ss'),
    utcOffset: now.toFormat('ZZ'),
  };
}

/** Today's date in the site's zone, "YYYY-MM-DD". */
export const todayIn = (timezone: string): string => siteNow(timezone).date;
