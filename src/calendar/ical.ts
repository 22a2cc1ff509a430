// iCalendar (RFC 5545) for events: one VCALENDAR of VEVENTs, as calendar clients subscribe to it.
// Timed events are written in UTC (no VTIMEZONE needed, every client converts); all-day events as
// DATE values with the exclusive end day RFC 5545 asks for. UIDs name the event, never its dates,
// so a moved event updates in a subscribed calendar instead of appearing twice; SEQUENCE and
// LAST-MODIFIED follow every edit.
import { basicDate, basicUtc, dayAfter, venueLine } from './add-to-calendar.js';
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
}

export interface ICalOptions {
  /** The site's URL: its host names the UIDs. */
  siteUrl: string;
  /** X-WR-CALNAME, the name clients show for a subscribed calendar. */
  calendarName: string;
  /** DTSTAMP: when this copy was made. */
  now: Date;
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

function eventLines(event: ICalEvent, host: string, stamp: string): string[] {
  const lines = ['BEGIN:VEVENT', `UID:event-${event.id}@${host}`, `DTSTAMP:${stamp}`];
  if (event.allDay) {
    lines.push(`DTSTART;VALUE=DATE:${basicDate(event.startDate)}`);
    lines.push(`DTEND;VALUE=DATE:${basicDate(dayAfter(event.endDate < event.startDate ? event.startDate : event.endDate))}`);
  } else {
    lines.push(`DTSTART:${basicUtc(event.utcStartDate)}`);
    // An end before the start (the original allows it) would make the event invalid: end at the start.
    lines.push(`DTEND:${basicUtc(event.utcEndDate < event.utcStartDate ? event.utcStartDate : event.utcEndDate)}`);
  }
  lines.push(`SUMMARY:${escapeText(event.title)}`);
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
  lines.push(`STATUS:${event.status === 'publish' || event.status === 'future' ? 'CONFIRMED' : 'TENTATIVE'}`);
  lines.push('END:VEVENT');
  return lines;
}

/** The VCALENDAR text of `events`, lines ending in CRLF. */
export function toICalendar(events: ICalEvent[], options: ICalOptions): string {
  const host = new URL(options.siteUrl).host;
  const stamp = isoOf(options.now);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Almanac//Almanac calendar server//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.calendarName)}`,
    `X-ORIGINAL-URL:${options.siteUrl}`,
    ...events.flatMap((event) => eventLines(event, host, stamp)),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
