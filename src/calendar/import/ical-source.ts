// An iCalendar feed (RFC 5545) → items for Almanac's event writes, keyed by UID. A recurring event
// stays one: its master VEVENT (RRULE, EXDATE, RDATE) becomes a series, each VEVENT with a
// RECURRENCE-ID a change to (or, cancelled, the removal of) that one occurrence. A rule Almanac
// cannot hold (sub-daily, BYWEEKNO…) or a zone it does not know is expanded over a bounded window
// into single events instead, as before. Time zones are kept when they name an IANA or Windows zone
// (Outlook's "Pacific Standard Time"), else the instants are kept in the calendar's zone or UTC.
import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { findIana } from 'windows-iana';
import type { UrlPolicy } from '../../net/url-policy.js';
import { isValidTimezone, toZone } from '../dates/zones.js';
import type { EventFields } from '../events.js';
import { parseRrule, RecurrenceError } from '../recurrence/index.js';
import { ImportError, readSource } from './errors.js';

export interface IcalItem {
  /** The UID; for an occurrence of a series "<UID>#<RECURRENCE-ID>". */
  remoteId: string;
  /** STATUS:CANCELLED: an imported copy goes to the trash. */
  cancelled: boolean;
  /** For a series (its master), `fields.recurrence` holds the rule and its dates, event-local. */
  fields: EventFields;
  /** LOCATION: becomes the event's venue (by name). */
  location: string;
  /** ORGANIZER: name (CN) and e-mail. */
  organizer: { name: string; email: string } | null;
  /** An occurrence of a series changed alone: the series' UID and the occurrence's start in the series' zone. */
  occurrenceOf?: { uid: string; recurrenceId: string };
}

export interface IcalWindow {
  /** Occurrences of recurring events starting in [start, end] are imported (UTC ISO dates). */
  start: string;
  end: string;
}

/** Occurrences of one recurring event at most: a rule without end stops here. */
export const MAX_OCCURRENCES = 1000;
const MAX_FEED_BYTES = 20 * 1024 * 1024;

/** Reads a file (command line only) or an http(s)/webcal URL through the outbound policy. */
export async function readIcal(
  source: string,
  policy: UrlPolicy,
  options: { allowFiles: boolean; headers?: Record<string, string>; signal?: AbortSignal },
): Promise<string> {
  const url = source.replace(/^webcals?:\/\//i, (scheme) => (scheme.toLowerCase() === 'webcals://' ? 'https://' : 'http://'));
  if (!/^https?:\/\//i.test(url)) {
    if (!options.allowFiles) throw new ImportError('invalid', 'An iCalendar import needs an http(s) or webcal URL.');
    try {
      return await readFile(source, 'utf8');
    } catch (error) {
      throw new ImportError('invalid', `cannot read ${source}: ${(error as Error).message}`);
    }
  }
  const response = await readSource(policy, url, {
    headers: { accept: 'text/calendar', ...options.headers },
    timeoutMs: 60_000,
    maxBytes: MAX_FEED_BYTES,
    signal: options.signal,
  });
  if (response.status !== 200) throw new ImportError('source_invalid', `${url} answered ${response.status}`);
  return response.body.toString('utf8');
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const wall = (t: ICAL.Time) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;

/** An IANA zone for a TZID: itself, or the zone a Windows name stands for; null when neither. */
function ianaZone(tzid: string | null | undefined): string | null {
  if (!tzid) return null;
  const name = tzid.replace(/^\/+/, '');
  if (isValidTimezone(name) && name !== '') return name;
  const mapped = findIana(name)?.[0];
  return mapped && isValidTimezone(mapped) ? mapped : null;
}

/** A time as Almanac stores it: the wall time and the zone it is in (undefined: the site's). */
function placed(time: ICAL.Time, tzid: string | null, calendarZone: string | null): { wall: string; zone: string | undefined } {
  const zone = ianaZone(tzid);
  if (zone) return { wall: wall(time), zone };
  const isUtc = time.zone === ICAL.Timezone.utcTimezone || time.zone?.tzid === 'UTC';
  if (!tzid && !isUtc) return { wall: wall(time), zone: calendarZone ?? undefined }; // floating
  // UTC, or a zone known only by the file's own VTIMEZONE: keep the instant.
  const target = calendarZone ?? 'UTC';
  return { wall: DateTime.fromSeconds(time.toUnixTime(), { zone: target }).toFormat('yyyy-MM-dd HH:mm:ss'), zone: target };
}

function text(component: ICAL.Component, name: string): string {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' ? value : value == null ? '' : String(value);
}

function organizerOf(component: ICAL.Component): IcalItem['organizer'] {
  const property = component.getFirstProperty('organizer');
  if (!property) return null;
  const value = String(property.getFirstValue() ?? '');
  const email = value.replace(/^mailto:/i, '');
  const cn = property.getParameter('cn');
  const name = (Array.isArray(cn) ? cn[0] : cn) || email;
  return name ? { name: String(name), email: /@/.test(email) ? email : '' } : null;
}

function categoriesOf(component: ICAL.Component): string[] {
  return component
    .getAllProperties('categories')
    .flatMap((property) => property.getValues().map(String))
    .map((name) => name.trim())
    .filter(Boolean);
}

/** The zone of a time's TZID, for reading it as an instant: IANA, Windows or a fixed offset. */
function tzidOf(property: ICAL.Property | null): string | null {
  const tzid = property?.getParameter('tzid');
  return (Array.isArray(tzid) ? tzid[0] : tzid) ?? null;
}

const isUtcTime = (time: ICAL.Time) => time.zone === ICAL.Timezone.utcTimezone || time.zone?.tzid === 'UTC';

/**
 * A time given with `tzid` as a wall time in `zone`: as written when it is in that zone already (or
 * floating), else its instant converted. An all-day value is its day at midnight.
 */
function wallIn(time: ICAL.Time, tzid: string | null, zone: string): string {
  if (time.isDate) return `${wall(time).slice(0, 10)} 00:00:00`;
  const own = ianaZone(tzid);
  if (own === zone || (!tzid && !isUtcTime(time))) return wall(time);
  let millis: number;
  if (isUtcTime(time)) millis = time.toUnixTime() * 1000;
  else if (own) {
    millis = DateTime.fromObject(
      { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second },
      { zone: toZone(own, 'UTC') },
    ).toMillis();
  } else millis = time.toUnixTime() * 1000; // a zone the file's own VTIMEZONE defines
  return DateTime.fromMillis(millis, { zone: toZone(zone, 'UTC') }).toFormat('yyyy-MM-dd HH:mm:ss');
}

/** Every value of a date property (EXDATE, RDATE: several per line, several lines) as walls in `zone`. */
function wallsOf(component: ICAL.Component, name: string, zone: string): string[] {
  return component.getAllProperties(name).flatMap((property) =>
    property.getValues().flatMap((value: unknown) => {
      const time = value instanceof ICAL.Period ? value.start : value;
      return time instanceof ICAL.Time ? [wallIn(time, tzidOf(property), zone)] : [];
    }),
  );
}

/**
 * The recurrence Almanac keeps for a master, or null when it must be expanded instead: one RRULE it
 * can hold, in a zone it knows (a floating or UTC start stays so).
 */
function seriesRecurrence(component: ICAL.Component, item: IcalItem): EventFields['recurrence'] | null {
  const rules = component.getAllProperties('rrule');
  if (rules.length !== 1 || component.hasProperty('exrule')) return null;
  const dtstart = component.getFirstProperty('dtstart')!;
  const start = dtstart.getFirstValue() as ICAL.Time;
  const tzid = tzidOf(dtstart);
  // A zone known only by the file's own VTIMEZONE: its rule cannot be read in an Almanac zone.
  if (!start.isDate && tzid && !ianaZone(tzid)) return null;
  const zone = item.fields.timezone ?? 'UTC';
  const rrule = String(rules[0]!.getFirstValue());
  try {
    parseRrule(rrule, zone, start.isDate);
  } catch (error) {
    if (error instanceof RecurrenceError) return null;
    throw error;
  }
  return { rrule, exdates: wallsOf(component, 'exdate', zone), rdates: wallsOf(component, 'rdate', zone) };
}

function itemFor(component: ICAL.Component, start: ICAL.Time, end: ICAL.Time, remoteId: string, calendarZone: string | null): IcalItem {
  const tzid = (component.getFirstProperty('dtstart')?.getParameter('tzid') as string | undefined) ?? null;
  const endTzid = (component.getFirstProperty('dtend')?.getParameter('tzid') as string | undefined) ?? tzid;
  const fields: EventFields = {
    title: text(component, 'summary').trim() || '(no title)',
    // Almanac's writes refuse an empty description (as the original does): none is sent.
    description: text(component, 'description').trim() || undefined,
    website: text(component, 'url'),
    categories: categoriesOf(component),
    status:
      text(component, 'class').toUpperCase() === 'PRIVATE' || text(component, 'class').toUpperCase() === 'CONFIDENTIAL'
        ? 'private'
        : 'publish',
  };
  if (start.isDate) {
    // All-day: DTEND is the day after the last one (exclusive); none means a single day.
    const last = end.clone();
    if (end.compare(start) > 0) last.adjust(-1, 0, 0, 0);
    else last.adjust(start.day - last.day, 0, 0, 0);
    fields.allDay = true;
    fields.startDate = `${wall(start).slice(0, 10)} 00:00:00`;
    fields.endDate = `${wall(last.compare(start) < 0 ? start : last).slice(0, 10)} 23:59:59`;
    fields.timezone = calendarZone ?? undefined;
  } else {
    const from = placed(start, tzid, calendarZone);
    const to = placed(end.compare(start) >= 0 ? end : start, endTzid, calendarZone);
    fields.allDay = false;
    fields.startDate = from.wall;
    fields.timezone = from.zone;
    // Almanac keeps one zone per event: an end in another zone is moved into the start's.
    fields.endDate =
      to.zone === from.zone
        ? to.wall
        : DateTime.fromSeconds(end.toUnixTime(), { zone: from.zone ?? calendarZone ?? 'UTC' }).toFormat('yyyy-MM-dd HH:mm:ss');
  }
  return {
    remoteId,
    cancelled: text(component, 'status').toUpperCase() === 'CANCELLED',
    fields,
    location: text(component, 'location').trim(),
    organizer: organizerOf(component),
  };
}

/**
 * Every event of a feed, in the feed's order: single events, series (each master followed by its
 * changed occurrences), and recurring events Almanac cannot hold as series expanded over `window`.
 */
export function icalItems(source: string, window: IcalWindow): IcalItem[] {
  let calendar: ICAL.Component;
  try {
    calendar = new ICAL.Component(ICAL.parse(source));
  } catch (error) {
    throw new ImportError('source_invalid', `not an iCalendar file: ${(error as Error).message}`);
  }
  if (calendar.name !== 'vcalendar') throw new ImportError('source_invalid', 'not an iCalendar file: no VCALENDAR');
  // The file's own zone definitions make its times exact even for zones unknown to the IANA database.
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(vtimezone);
    if (zone.tzid && !ICAL.TimezoneService.has(zone.tzid)) ICAL.TimezoneService.register(zone);
  }
  const calendarZone = ianaZone(text(calendar, 'x-wr-timezone'));
  const vevents = calendar.getAllSubcomponents('vevent');
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Component[] = [];
  // Each master is given its own exceptions below (left alone, ical.js relates every RECURRENCE-ID of the file to it).
  for (const vevent of vevents) {
    if (vevent.hasProperty('recurrence-id')) exceptions.push(vevent);
    else masters.set(text(vevent, 'uid'), new ICAL.Event(vevent, { exceptions: [] }));
  }
  for (const exception of exceptions) masters.get(text(exception, 'uid'))?.relateException(exception);

  const from = ICAL.Time.fromJSDate(new Date(window.start), true);
  const until = ICAL.Time.fromJSDate(new Date(window.end), true);
  const items: IcalItem[] = [];
  for (const [uid, event] of masters) {
    if (!uid || !event.component.hasProperty('dtstart')) continue;
    if (!event.isRecurring()) {
      items.push(itemFor(event.component, event.startDate, event.endDate, uid, calendarZone));
      continue;
    }
    const series = seriesItems(event, uid, calendarZone);
    if (series) {
      items.push(...series);
      continue;
    }
    const iterator = event.iterator();
    let count = 0;
    for (let next = iterator.next(); next && count < MAX_OCCURRENCES; next = iterator.next()) {
      if (next.compare(until) > 0) break;
      const details = event.getOccurrenceDetails(next);
      if (details.endDate.compare(from) < 0) continue;
      count++;
      items.push(
        itemFor(details.item.component, details.startDate, details.endDate, `${uid}#${details.recurrenceId.toString()}`, calendarZone),
      );
    }
  }
  return items;
}

/** A recurring event as a series (its master, then each changed occurrence); null when it cannot be one. */
function seriesItems(event: ICAL.Event, uid: string, calendarZone: string | null): IcalItem[] | null {
  // A rule read in UTC stays in UTC: in another zone its occurrences would move with that zone's DST.
  const utcStart = isUtcTime(event.startDate);
  const master = itemFor(event.component, event.startDate, event.endDate, uid, utcStart ? 'UTC' : calendarZone);
  const recurrence = seriesRecurrence(event.component, master);
  if (!recurrence) return null;
  master.fields.recurrence = recurrence;
  const zone = master.fields.timezone ?? calendarZone ?? 'UTC';
  const items = [master];
  const changed = Object.values(event.exceptions as unknown as Record<string, ICAL.Event>).sort((a, b) =>
    a.recurrenceId.compare(b.recurrenceId),
  );
  for (const exception of changed) {
    const property = exception.component.getFirstProperty('recurrence-id')!;
    const recurrenceId = event.startDate.isDate
      ? `${wall(exception.recurrenceId).slice(0, 10)} 00:00:00`
      : wallIn(exception.recurrenceId, tzidOf(property), zone);
    // A changed occurrence without times of its own keeps the ones its place in the rule gives it.
    const start = exception.component.hasProperty('dtstart') ? exception.startDate : exception.recurrenceId;
    const end = exception.component.hasProperty('dtstart') ? exception.endDate : start;
    const item = itemFor(
      exception.component,
      start,
      end,
      `${uid}#${exception.recurrenceId.toString()}`,
      master.fields.timezone ?? calendarZone,
    );
    items.push({ ...item, occurrenceOf: { uid, recurrenceId } });
  }
  return items;
}
