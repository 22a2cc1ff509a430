// iCalendar (RFC 5545) for events: one VCALENDAR of VEVENTs, as calendar clients subscribe to it.
// Timed single events are written in UTC (no VTIMEZONE needed, every client converts); all-day
// events as DATE values with the exclusive end day RFC 5545 asks for. UIDs name the event, never its
// dates, so a moved event updates in a subscribed calendar instead of appearing twice; SEQUENCE and
// LAST-MODIFIED follow every edit.
//
// A recurring event (a series) is one master VEVENT (UID series-<id>@host) whose DTSTART, RRULE,
// EXDATE and RDATE are written in the series' own zone (DTSTART;TZID=Europe/Paris:…), so clients
// repeat it at the same wall time across DST changes; each occurrence changed alone is a VEVENT of
// its own with the same UID and its RECURRENCE-ID. Every zone named by a TZID gets a VTIMEZONE.
import { basicDate, basicUtc, dayAfter, venueLine } from './add-to-calendar.js';
import { tzidParam, vtimezoneLines } from './dates/vtimezone.js';
import { icalEventStatus } from './event-status.js';
import { plainText } from './text.js';

export interface ICalEvent {
  id: number;
  title: string;
  /** The description as stored (HTML allowed); written as plain text. */
  description: string;
  url: string;
  allDay: boolean;
  /** Event-local "YYYY-MM-DD HH:MM:SS" (all-day events use the day). */
  startDate: string;
  endDate: string;
  /** UTC "YYYY-MM-DD HH:MM:SS". */
  utcStartDate: string;
  utcEndDate: string;
  /** UTC "YYYY-MM-DD HH:MM:SS" of the first publication and of the last edit. */
  dateUtc: string;
  modifiedUtc: string;
  status: string;
  /** scheduled, canceled or postponed (src/calendar/event-status.ts). */
  eventStatus: string;
  cost: string;
  venue: {
    name: string;
    address: string;
    city: string;
    stateprovince: string;
    zip: string;
    country: string;
    geoLat: number | null;
    geoLng: number | null;
  } | null;
  organizers: { name: string; email: string }[];
  categories: string[];
  tags: string[];
  /** The event's zone (IANA name or "UTC+2"): a series' occurrences are written in it. */
  timezone?: string;
}

/** An occurrence of a series changed alone: its own fields, and the start the rule gave it. */
export interface ICalException extends ICalEvent {
  /** RECURRENCE-ID: event-local "YYYY-MM-DD HH:MM:SS" in the series' zone. */
  recurrenceId: string;
}

/** A recurring event: its rule, and the fields its occurrences share. */
export interface ICalSeries {
  series: {
    id: number;
    /** The RRULE value (UNTIL in UTC for timed series, a DATE for all-day ones). */
    rule: string;
    timezone: string;
    allDay: boolean;
    /** DTSTART and DTEND of the first occurrence, event-local "YYYY-MM-DD HH:MM:SS". */
    startLocal: string;
    endLocal: string;
    /** Event-local starts left out of (EXDATE) and added to (RDATE) the rule. */
    exdates: string[];
    rdates: string[];
  };
  /** The fields of the occurrences that are not exceptions (dates aside); `url` is the series' page. */
  master: ICalEvent;
  exceptions: ICalException[];
}

/** An event or a whole recurring event that is gone: written as STATUS:CANCELLED so that subscribed calendars drop it. */
export interface ICalCancellation {
  cancelled: 'event' | 'series';
  id: number;
  title: string;
  allDay: boolean;
  startDate: string;
  endDate: string;
  utcStartDate: string;
  utcEndDate: string;
  /** Its last revision, and when it went (UTC walls): its SEQUENCE is above both. */
  modifiedUtc: string;
  removedAtUtc: string;
}

export type ICalEntry = ICalEvent | ICalSeries | ICalCancellation;

const isSeries = (entry: ICalEntry): entry is ICalSeries => 'series' in entry && 'master' in entry;
const isCancellation = (entry: ICalEntry): entry is ICalCancellation => 'cancelled' in entry;

export interface ICalOptions {
  /** The site's URL: its host names the UIDs. */
  siteUrl: string;
  /** X-WR-CALNAME, the name clients show for a subscribed calendar. */
  calendarName: string;
  /** When this copy was made: the DTSTAMP of an entry with no modification time, and the years
   *  the VTIMEZONEs cover. Every other DTSTAMP is its entry's last modification, so that the same
   *  calendar gives the same bytes, whenever it is asked for. */
  now: Date;
  /** REFRESH-INTERVAL (RFC 7986) and X-PUBLISHED-TTL (Outlook's, Google's): how often a subscribed
   *  client should poll, in minutes. */
  refreshMinutes?: number;
  /** VTIMEZONEs describe each zone exactly up to this year at least (default: two years from now). */
  untilYear?: number;
}

/** RFC 5545 TEXT: backslash, semicolon and comma escaped, line breaks as \n. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** A content line folded at 75 octets (RFC 5545 3.1), never inside a UTF-8 sequence. */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // The first line holds 75 octets; continuation lines 74 after their leading space.
    if (octets + size > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const isoOf = (date: Date) => basicUtc(date.toISOString().replace('T', ' '));

// SEQUENCE must grow with every revision and fit a 32-bit integer: seconds from 2000 to the last edit.
const SEQUENCE_EPOCH = Date.UTC(2000, 0, 1);
function sequenceOf(modifiedUtc: string): number {
  const ms = Date.parse(`${modifiedUtc.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? Math.max(0, Math.floor((ms - SEQUENCE_EPOCH) / 1000)) : 0;
}

const isRealDate = (wall: string) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(wall) && !wall.startsWith('0000');

/** An entry's DTSTAMP: its last modification (UTC wall time), or the copy's time when it has none. */
const stampOf = (modifiedUtc: string, now: string) => (isRealDate(modifiedUtc) ? basicUtc(modifiedUtc) : now);

/** An RFC 5545 DURATION of whole minutes: PT1H, PT90M → PT1H30M, P1D. */
export function durationOfMinutes(minutes: number): string {
  if (minutes % 1440 === 0) return `P${minutes / 1440}D`;
  const hours = Math.floor(minutes / 60);
  return `PT${hours ? `${hours}H` : ''}${minutes % 60 ? `${minutes % 60}M` : ''}`;
}

/** "YYYY-MM-DD HH:MM:SS" → local DATE-TIME "YYYYMMDDTHHMMSS". */
const basicLocal = (wall: string) => `${basicDate(wall)}T${wall.slice(11, 19).replaceAll(':', '')}`;

/** A DATE or a local DATE-TIME in `zone`: `;VALUE=DATE:…` or `;TZID=…:…` after the property name. */
function zoned(name: string, walls: string[], zone: string, allDay: boolean): string {
  return allDay
    ? `${name};VALUE=DATE:${walls.map(basicDate).join(',')}`
    : `${name};TZID=${tzidParam(zone)}:${walls.map(basicLocal).join(',')}`;
}

/** DTSTART and DTEND: days, UTC times (no zone given), or local times in the event's zone. */
function datesOf(
  event: Pick<ICalEvent, 'allDay' | 'startDate' | 'endDate' | 'utcStartDate' | 'utcEndDate'> & { timezone?: string },
): string[] {
  // An end before the start (the original allows it) would make the event invalid: end at the start.
  if (event.allDay)
    return [
      `DTSTART;VALUE=DATE:${basicDate(event.startDate)}`,
      `DTEND;VALUE=DATE:${basicDate(dayAfter(event.endDate < event.startDate ? event.startDate : event.endDate))}`,
    ];
  if (event.timezone === undefined)
    return [
      `DTSTART:${basicUtc(event.utcStartDate)}`,
      `DTEND:${basicUtc(event.utcEndDate < event.utcStartDate ? event.utcStartDate : event.utcEndDate)}`,
    ];
  return [
    zoned('DTSTART', [event.startDate], event.timezone, false),
    zoned('DTEND', [event.endDate < event.startDate ? event.startDate : event.endDate], event.timezone, false),
  ];
}

/** Everything after the dates: what the event is, where, by whom, and its revision. */
function bodyLines(event: ICalEvent): string[] {
  const lines = [`SUMMARY:${escapeText(event.title)}`];
  const description = plainText(event.description);
  if (description) lines.push(`DESCRIPTION:${escapeText(description)}`);
  lines.push(`URL:${event.url}`);
  if (event.venue) {
    const v = event.venue;
    const place = venueLine({ ...v, region: v.stateprovince });
    if (place) lines.push(`LOCATION:${escapeText(place)}`);
    if (v.geoLat !== null && v.geoLng !== null) lines.push(`GEO:${v.geoLat};${v.geoLng}`);
  }
  for (const organizer of event.organizers) {
    const name = organizer.name.replace(/["\r\n]/g, '');
    // ORGANIZER is a CAL-ADDRESS: a mailto URI; without an e-mail the name alone goes in a comment.
    if (organizer.email) lines.push(`ORGANIZER;CN="${name}":mailto:${organizer.email}`);
    else if (name) lines.push(`COMMENT:${escapeText(`Organizer: ${name}`)}`);
  }
  if (event.categories.length) lines.push(`CATEGORIES:${event.categories.map(escapeText).join(',')}`);
  if (event.tags.length) lines.push(`X-ALMANAC-TAGS:${event.tags.map(escapeText).join(',')}`);
  if (event.cost) lines.push(`X-COST:${escapeText(event.cost)}`);
  if (isRealDate(event.dateUtc)) lines.push(`CREATED:${basicUtc(event.dateUtc)}`);
  if (isRealDate(event.modifiedUtc)) lines.push(`LAST-MODIFIED:${basicUtc(event.modifiedUtc)}`);
  lines.push(`SEQUENCE:${sequenceOf(event.modifiedUtc)}`);
  // A canceled or postponed event says so (icalEventStatus); one not published yet is only tentative.
  const published = event.status === 'publish' || event.status === 'future';
  const status = icalEventStatus(event.eventStatus);
  lines.push(`STATUS:${status === 'CONFIRMED' && !published ? 'TENTATIVE' : status}`);
  lines.push('END:VEVENT');
  return lines;
}

function eventLines(event: ICalEvent, host: string, stamp: string): string[] {
  // A single event keeps its times in UTC, as it always was written.
  return [
    'BEGIN:VEVENT',
    `UID:event-${event.id}@${host}`,
    `DTSTAMP:${stampOf(event.modifiedUtc, stamp)}`,
    ...datesOf({ ...event, timezone: undefined }),
    ...bodyLines(event),
  ];
}

function cancellationLines(entry: ICalCancellation, host: string, stamp: string): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${entry.cancelled}-${entry.id}@${host}`,
    `DTSTAMP:${stampOf(entry.removedAtUtc, stamp)}`,
    ...datesOf({ ...entry, timezone: undefined }),
    `SUMMARY:${escapeText(entry.title)}`,
    // Strictly above the last revision's SEQUENCE (written by this process's clock, possibly the same second)
    // and the removal's time (the database's clock).
    `SEQUENCE:${Math.max(sequenceOf(entry.removedAtUtc), sequenceOf(entry.modifiedUtc)) + 1}`,
    'STATUS:CANCELLED',
    'END:VEVENT',
  ];
}

function seriesLines({ series, master, exceptions }: ICalSeries, host: string, stamp: string): string[] {
  const uid = `UID:series-${series.id}@${host}`;
  const { timezone: zone, allDay } = series;
  const lines = ['BEGIN:VEVENT', uid, `DTSTAMP:${stampOf(master.modifiedUtc, stamp)}`];
  if (allDay) {
    lines.push(`DTSTART;VALUE=DATE:${basicDate(series.startLocal)}`);
    lines.push(`DTEND;VALUE=DATE:${basicDate(dayAfter(series.endLocal < series.startLocal ? series.startLocal : series.endLocal))}`);
  } else {
    lines.push(zoned('DTSTART', [series.startLocal], zone, false));
    lines.push(zoned('DTEND', [series.endLocal < series.startLocal ? series.startLocal : series.endLocal], zone, false));
  }
  lines.push(`RRULE:${series.rule}`);
  if (series.exdates.length) lines.push(zoned('EXDATE', [...new Set(series.exdates)].sort(), zone, allDay));
  if (series.rdates.length) lines.push(zoned('RDATE', [...new Set(series.rdates)].sort(), zone, allDay));
  lines.push(...bodyLines(master));
  for (const exception of exceptions) {
    lines.push(
      'BEGIN:VEVENT',
      uid,
      `DTSTAMP:${stampOf(exception.modifiedUtc, stamp)}`,
      zoned('RECURRENCE-ID', [exception.recurrenceId], zone, allDay),
    );
    lines.push(...datesOf(exception.allDay ? exception : { ...exception, timezone: exception.timezone || zone }), ...bodyLines(exception));
  }
  return lines;
}

const yearOf = (wall: string) => Number(wall.slice(0, 4));

/** Each zone a TZID names, with the first and last year the feed's data reaches in it. */
function zonesOf(entries: ICalEntry[]): Map<string, { from: number; to: number }> {
  const zones = new Map<string, { from: number; to: number }>();
  const note = (zone: string, walls: string[]) => {
    const years = walls.filter(isRealDate).map(yearOf);
    if (!years.length) return;
    const known = zones.get(zone);
    const from = Math.min(...years, known?.from ?? Infinity);
    const to = Math.max(...years, known?.to ?? -Infinity);
    zones.set(zone, { from, to });
  };
  for (const entry of entries) {
    if (!isSeries(entry)) continue;
    const { series } = entry;
    if (!series.allDay) note(series.timezone, [series.startLocal, series.endLocal, ...series.exdates, ...series.rdates]);
    for (const exception of entry.exceptions) {
      if (!series.allDay) note(series.timezone, [exception.recurrenceId]);
      if (!exception.allDay) note(exception.timezone || series.timezone, [exception.startDate, exception.endDate]);
    }
  }
  return zones;
}

/** The VCALENDAR text of `entries` (single events and series), lines ending in CRLF. */
export function toICalendar(entries: ICalEntry[], options: ICalOptions): string {
  const host = new URL(options.siteUrl).host;
  const stamp = isoOf(options.now);
  const untilYear = options.untilYear ?? options.now.getUTCFullYear() + 2;
  const timezones = [...zonesOf(entries)].flatMap(([zone, years]) => vtimezoneLines(zone, years.from, Math.max(years.to, untilYear)));
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Almanac//Almanac calendar server//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.calendarName)}`,
    `X-ORIGINAL-URL:${options.siteUrl}`,
    ...(options.refreshMinutes
      ? [
          `REFRESH-INTERVAL;VALUE=DURATION:${durationOfMinutes(options.refreshMinutes)}`,
          `X-PUBLISHED-TTL:${durationOfMinutes(options.refreshMinutes)}`,
        ]
      : []),
    ...timezones,
    ...entries.flatMap((entry) =>
      isCancellation(entry)
        ? cancellationLines(entry, host, stamp)
        : isSeries(entry)
          ? seriesLines(entry, host, stamp)
          : eventLines(entry, host, stamp),
    ),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
