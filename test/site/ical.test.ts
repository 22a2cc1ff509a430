// iCalendar feeds as a calendar client subscribes to them: parsed by an independent parser (ical.js,
// Mozilla's), on SQLite and PostgreSQL.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id slug url icalUrl googleCalendarUrl outlookUrl } }`;
const UPDATE = `mutation($id: Int, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { id } }`;

interface Parsed {
  calendar: ICAL.Component;
  events: ICAL.Component[];
}

function parse(text: string): Parsed {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return { calendar, events: calendar.getAllSubcomponents('vevent') };
}
const prop = (event: ICAL.Component, name: string) => event.getFirstPropertyValue(name);
const byTitle = (parsed: Parsed, title: string) => parsed.events.find((e) => prop(e, 'summary') === title)!;

describe.each(DATABASE_KINDS)('iCalendar feeds on %s', (kind) => {
  const api = useTestServer(kind);

  async function create(input: Record<string, unknown>, key = api.keys.administrator) {
    const result = await api.graphql(CREATE, { input }, key);
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    return result.data.createEvent as {
      id: number;
      slug: string;
      url: string;
      icalUrl: string;
      googleCalendarUrl: string;
      outlookUrl: string;
    };
  }

  it('lists upcoming public events with the properties RFC 5545 requires, times in UTC, all-day events as dates', async () => {
    const day = daysFromNow(10).slice(0, 10);
    const concert = await create({
      title: 'Jazz, Blues; and more',
      description: '<p>Two sets.\nBring friends &amp; family.</p>',
      startDate: `${day} 20:00:00`,
      endDate: `${day} 23:00:00`,
      timezone: 'Europe/Paris',
      venue: { venue: 'Le Hall', address: '1 Rue de la Paix', city: 'Paris', country: 'France', zip: '75002' },
      organizer: [{ organizer: 'Jazz Club', email: 'club@example.com' }],
      categories: ['Music'],
      tags: ['live'],
    });
    await create({ title: 'Market day', startDate: daysFromNow(12), endDate: daysFromNow(13), allDay: true });
    await create({ title: 'Secret draft', startDate: daysFromNow(11), endDate: daysFromNow(11, '12:00:00'), status: 'draft' });

    const response = await api.request('GET', '/events/?ical=1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.text.endsWith('\r\n')).toBe(true);
    for (const line of response.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const feed = parse(response.text);
    expect(feed.calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(feed.calendar.getFirstPropertyValue('prodid')).toBeTruthy();
    expect(feed.calendar.getFirstPropertyValue('x-wr-calname')).toBe('Almanac: events');
    expect(feed.events.map((e) => prop(e, 'summary'))).toEqual(['Jazz, Blues; and more', 'Market day']);
    for (const event of feed.events) for (const required of ['uid', 'dtstamp', 'dtstart']) expect(prop(event, required)).toBeTruthy();

    const jazz = byTitle(feed, 'Jazz, Blues; and more');
    const start = prop(jazz, 'dtstart') as ICAL.Time;
    // 20:00 in Paris is 19:00 UTC (CET) or 18:00 UTC (CEST).
    expect(start.zone?.tzid).toBe('UTC');
    expect(start.toJSDate().toISOString()).toBe(new Date(Date.parse(`${day}T20:00:00Z`) - parisOffsetMinutes(day) * 60_000).toISOString());
    expect((prop(jazz, 'dtend') as ICAL.Time).toJSDate().getTime() - start.toJSDate().getTime()).toBe(3 * 3_600_000);
    expect(prop(jazz, 'description')).toBe('Two sets. Bring friends & family.');
    expect(prop(jazz, 'location')).toBe('Le Hall, 1 Rue de la Paix, Paris, 75002, France');
    expect(prop(jazz, 'url')).toBe(concert.url);
    expect(prop(jazz, 'organizer')).toBe('mailto:club@example.com');
    expect(jazz.getFirstProperty('organizer')!.getParameter('cn')).toBe('Jazz Club');
    expect(jazz.getFirstProperty('categories')!.getValues()).toEqual(['Music']);
    expect(prop(jazz, 'uid')).toBe(`event-${concert.id}@almanac.test`);

    const market = byTitle(feed, 'Market day');
    const marketStart = prop(market, 'dtstart') as ICAL.Time;
    expect(marketStart.isDate).toBe(true);
    expect(marketStart.toString()).toBe(daysFromNow(12).slice(0, 10));
    // DTEND of an all-day event is the day after its last day.
    expect((prop(market, 'dtend') as ICAL.Time).toString()).toBe(daysFromNow(14).slice(0, 10));
  });

  it('keeps the UID of a moved event and raises its SEQUENCE and LAST-MODIFIED, so clients update it', async () => {
    const event = await create({ title: 'Moving talk', startDate: daysFromNow(20, '10:00:00'), endDate: daysFromNow(20, '11:00:00') });
    const before = byTitle(parse((await api.request('GET', new URL(event.icalUrl).pathname)).text), 'Moving talk');
    // Modification times have one-second resolution.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const updated = await api.graphql(
      UPDATE,
      { id: event.id, input: { startDate: daysFromNow(21, '10:00:00'), endDate: daysFromNow(21, '11:00:00') } },
      api.keys.administrator,
    );
    expect(updated.errors).toBeUndefined();
    const after = byTitle(parse((await api.request('GET', `/event/${event.slug}/?ical=1`)).text), 'Moving talk');
    expect(prop(after, 'uid')).toBe(prop(before, 'uid'));
    expect(Number(prop(after, 'sequence'))).toBeGreaterThan(Number(prop(before, 'sequence')));
    expect((prop(after, 'last-modified') as ICAL.Time).compare(prop(before, 'last-modified') as ICAL.Time)).toBe(1);
    expect((prop(after, 'dtstart') as ICAL.Time).toString()).toContain(daysFromNow(21).slice(0, 10));
  });

  it('applies the list filters, and the archive of a category or a tag', async () => {
    await create({
      title: 'Film night',
      startDate: daysFromNow(30, '20:00:00'),
      endDate: daysFromNow(30, '22:00:00'),
      categories: ['Cinema'],
      tags: ['popcorn'],
    });
    await create({
      title: 'Film matinee',
      startDate: daysFromNow(31, '14:00:00'),
      endDate: daysFromNow(31, '16:00:00'),
      categories: ['Cinema'],
    });
    await create({
      title: 'Poetry reading',
      startDate: daysFromNow(30, '18:00:00'),
      endDate: daysFromNow(30, '19:00:00'),
      tags: ['popcorn'],
    });
    const titles = async (path: string) => {
      const response = await api.request('GET', path);
      expect(response.status, path).toBe(200);
      return parse(response.text).events.map((e) => prop(e, 'summary'));
    };
    expect(await titles('/events/category/cinema/?ical=1')).toEqual(['Film night', 'Film matinee']);
    expect(await titles('/events/tag/popcorn/?ical=1')).toEqual(['Poetry reading', 'Film night']);
    expect(await titles('/tag/popcorn/?ical=1')).toEqual(['Poetry reading', 'Film night']);
    expect(await titles('/events/?ical=1&search=film')).toEqual(['Film night', 'Film matinee']);
    expect(await titles(`/events.ics?categories=cinema&start_date=${daysFromNow(31).slice(0, 10)}`)).toEqual(['Film matinee']);
  });

  it('answers 404 for what does not exist, 400 for a bad filter, and never shows what the caller may not read', async () => {
    expect((await api.request('GET', '/events/category/no-such-category/?ical=1')).status).toBe(404);
    expect((await api.request('GET', '/event/no-such-event/ical/')).status).toBe(404);
    const bad = await api.request('GET', '/events/?ical=1&start_date=not-a-date');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('start_date');
    expect((await api.request('GET', '/events/?ical=1', { key: 'wrong-key-0123456789' })).status).toBe(401);

    const draft = await create({
      title: 'Unpublished plan',
      slug: 'unpublished-plan',
      startDate: daysFromNow(40),
      endDate: daysFromNow(40, '12:00:00'),
      status: 'draft',
    });
    expect((await api.request('GET', `/event/${draft.slug}/ical/`)).status).toBe(404);
    const asEditor = await api.request('GET', `/event/${draft.slug}/ical/`, { key: api.keys.editor });
    expect(parse(asEditor.text).events.map((e) => prop(e, 'summary'))).toEqual(['Unpublished plan']);

    const locked = await create({
      title: 'Members only',
      description: 'The secret menu',
      password: 'pw',
      startDate: daysFromNow(41),
      endDate: daysFromNow(41, '12:00:00'),
    });
    const listed = byTitle(parse((await api.request('GET', '/events/?ical=1')).text), 'Members only');
    expect(prop(listed, 'description')).toBeNull();
    expect((await api.request('GET', `/event/${locked.slug}/ical/`)).status).toBe(403);
  });

  it('gives each event add-to-calendar links that carry its title, times and place', async () => {
    const day = daysFromNow(50).slice(0, 10);
    const event = await create({
      title: 'Harbour tour',
      description: 'Meet at the pier.',
      startDate: `${day} 09:00:00`,
      endDate: `${day} 11:00:00`,
      timezone: 'UTC',
      venue: { venue: 'Pier 4', city: 'Portsmouth', country: 'United Kingdom' },
    });
    expect(event.icalUrl).toBe(`${event.url}ical/`);
    const google = new URL(event.googleCalendarUrl);
    expect(google.origin + google.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(Object.fromEntries(google.searchParams)).toMatchObject({
      action: 'TEMPLATE',
      text: 'Harbour tour',
      dates: `${day.replaceAll('-', '')}T090000Z/${day.replaceAll('-', '')}T110000Z`,
      details: 'Meet at the pier.',
      location: 'Pier 4, Portsmouth, United Kingdom',
    });
    const outlook = new URL(event.outlookUrl);
    expect(Object.fromEntries(outlook.searchParams)).toMatchObject({
      subject: 'Harbour tour',
      startdt: `${day}T09:00:00Z`,
      enddt: `${day}T11:00:00Z`,
      allday: 'false',
      location: 'Pier 4, Portsmouth, United Kingdom',
    });
    const file = await api.request('GET', new URL(event.icalUrl).pathname);
    expect(file.headers.get('content-disposition')).toContain(`event-${event.slug}.ics`);
  });
});

/** Paris's offset from UTC in minutes on a day, from the platform's own zone data. */
function parisOffsetMinutes(day: string): number {
  const noon = new Date(`${day}T12:00:00Z`);
  const paris = new Date(noon.toLocaleString('en-US', { timeZone: 'Europe/Paris' }));
  const utc = new Date(noon.toLocaleString('en-US', { timeZone: 'UTC' }));
  return (paris.getTime() - utc.getTime()) / 60_000;
}
