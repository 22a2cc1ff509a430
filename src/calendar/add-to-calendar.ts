// "Add to calendar" links of an event, as the original's event page offers them: the event's own
// iCalendar file, and Google Calendar's and Outlook's compose pages filled with the event.
import { plainText } from './text.js';
import { ellipsize } from '../values.js';

export interface CalendarLinkEvent {
  title: string;
  /** The description as stored (HTML allowed; "" when the caller may not see it). */
  content: string;
  /** The event page, ending in "/". */
  url: string;
  allDay: boolean;
  timezone: string;
  /** Event-local and UTC "YYYY-MM-DD HH:MM:SS". */
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
  /** The venue as one line ("" when none). */
  location: string;
}

// Compose pages take the details in the URL: keep it well under the 2,000 characters some browsers allow.
const MAX_DETAILS = 1000;
/** "YYYY-MM-DD…" → "YYYYMMDD" (the basic date form of RFC 5545 and of Google's links). */
export const basicDate = (wall: string) => wall.slice(0, 10).replaceAll('-', '');
/** UTC "YYYY-MM-DD HH:MM:SS" → "YYYYMMDDTHHMMSSZ". */
export const basicUtc = (wall: string) => `${basicDate(wall)}T${wall.slice(11, 19).replaceAll(':', '')}Z`;
/** The day after a "YYYY-MM-DD…" day, as "YYYY-MM-DD" (all-day ends are exclusive). */
export function dayAfter(wall: string): string {
  const day = new Date(`${wall.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

function details(event: CalendarLinkEvent): string {
  const text = plainText(event.content);
  return ellipsize(text, MAX_DETAILS);
}

export const icalUrl = (event: Pick<CalendarLinkEvent, 'url'>) => `${event.url}ical/`;

/** The UTC end a calendar can take: an event saved with its end before its start ends when it starts. */
const utcEnd = (event: CalendarLinkEvent) => (event.endUtc < event.startUtc ? event.startUtc : event.endUtc);

export function googleCalendarUrl(event: CalendarLinkEvent): string {
  const dates = event.allDay
    ? `${basicDate(event.startLocal)}/${basicDate(dayAfter(event.endLocal))}`
    : `${basicUtc(event.startUtc)}/${basicUtc(utcEnd(event))}`;
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates,
    details: details(event),
    location: event.location,
    trp: 'false',
    sprop: `website:${event.url}`,
  });
  // Google shows the times in the event's own zone when it is a named one.
  if (event.timezone.includes('/')) params.set('ctz', event.timezone);
  return `https://calendar.google.com/calendar/render?${params}`;
}

export function outlookUrl(event: CalendarLinkEvent): string {
  const iso = (wall: string) => `${wall.slice(0, 19).replace(' ', 'T')}Z`;
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.title,
    startdt: event.allDay ? event.startLocal.slice(0, 10) : iso(event.startUtc),
    enddt: event.allDay ? dayAfter(event.endLocal) : iso(utcEnd(event)),
    allday: String(event.allDay),
    body: details(event),
    location: event.location,
  });
  return `https://outlook.live.com/calendar/0/action/compose?${params}`;
}

/** A venue as one line: name, street, city, state or province, postal code, country. */
export function venueLine(
  venue: { name: string; address: string; city: string; region: string; zip: string; country: string } | null | undefined,
): string {
  if (!venue) return '';
  return [venue.name, venue.address, venue.city, venue.region, venue.zip, venue.country]
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .join(', ');
}
