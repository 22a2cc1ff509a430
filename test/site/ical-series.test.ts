// Recurring events in iCalendar feeds, as a calendar client reads them: each series one master
// VEVENT (RRULE, EXDATE, RDATE in its own zone, with a VTIMEZONE) and its changed occurrences as
// RECURRENCE-ID exceptions; expanded by an independent implementation (ical.js, Mozilla's) into
// exactly the occurrences the API lists; and imported into another, empty server, whose own feed
// says the same. On SQLite and PostgreSQL.
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { parseFeed, type ParsedFeed } from '../support/ical.js';
import { useTestServer, type TestServer } from '../support/server.js';

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id slug url series { id } } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateEventInput!, $scope: RecurrenceScope) {
  updateEvent(id: $id, input: $input, scope: $scope) { id } }`;
const DELETE = `mutation($id: Int!, $scope: RecurrenceScope) { deleteEvent(id: $id, scope: $scope) { id } }`;
const OCCURRENCES = `query($id: Int!) { event(id: $id) { occurrences(first: 100) {
  id title url allDay startDate utcStartDate recurrenceId isException } } }`;
const SERIES_LIST = `query($filter: EventFilter) { events(filter: $filter, page: { perPage: 100 }) { items { id title series { id } } } }`;
const FEED = '/events/?ical=1&start_date=2027-01-01&end_date=2033-12-31';

async function ok<T = any>(api: TestServer, query: string, variables: Record<string, unknown>): Promise<T> {
  const result = await api.graphql(query, variables, api.keys.administrator);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

const prop = (event: ICAL.Component, name: string) => event.getFirstPropertyValue(name);
const summary = (event: ICAL.Component) => String(prop(event, 'summary'));
const masters = (feed: ParsedFeed) => feed.events.filter((e) => e.hasProperty('rrule'));
const masterOf = (feed: ParsedFeed, title: string) => masters(feed).find((e) => summary(e) === title)!;
const uidOf = (event: ICAL.Component) => String(prop(event, 'uid'));
const exceptionsOf = (feed: ParsedFeed, uid: string) => feed.events.filter((e) => uidOf(e) === uid && e.hasProperty('recurrence-id'));
const dates = (event: ICAL.Component, name: string) =>
  event
    .getAllProperties(name)
    .flatMap((p) => p.getValues())
    .map(String)
    .sort();

/** An instant as the API writes UTC times, or the day of an all-day occurrence. */
const instant = (time: ICAL.Time) => (time.isDate ? time.toString() : time.toJSDate().toISOString().slice(0, 19).replace('T', ' '));

/** The series' occurrences as a client computes them: the master's rule, its exceptions applied. */
function expand(feed: ParsedFeed, master: ICAL.Component): string[] {
  const event = new ICAL.Event(master, { exceptions: [] });
  for (const exception of exceptionsOf(feed, uidOf(master))) event.relateException(exception);
  const iterator = event.iterator();
  const found: string[] = [];
  for (let next = iterator.next(); next && found.length < 500; next = iterator.next())
    found.push(instant(event.getOccurrenceDetails(next).startDate));
  return found.sort();
}

/** What a feed says, without what differs between two servers (UIDs, ids, stamps, URLs). */
function summaryOf(feed: ParsedFeed) {
  const time = (event: ICAL.Component, name: string) => {
    const property = event.getFirstProperty(name);
    return property ? `${property.getParameter('tzid') ?? ''}|${String(property.getFirstValue())}` : '';
  };
  return {
    zones: feed.calendar
      .getAllSubcomponents('vtimezone')
      .map((z) => String(z.getFirstPropertyValue('tzid')))
      .sort(),
    series: masters(feed)
      .map((master) => ({
        title: summary(master),
        rrule: String(prop(master, 'rrule')),
        start: time(master, 'dtstart'),
        end: time(master, 'dtend'),
        exdates: dates(master, 'exdate'),
        rdates: dates(master, 'rdate'),
        location: prop(master, 'location'),
        categories: master.getFirstProperty('categories')?.getValues() ?? [],
        exceptions: exceptionsOf(feed, uidOf(master))
          .map((e) => ({ recurrenceId: time(e, 'recurrence-id'), title: summary(e), start: time(e, 'dtstart'), end: time(e, 'dtend') }))
          .sort((a, b) => a.recurrenceId.localeCompare(b.recurrenceId)),
        occurrences: expand(feed, master),
      }))
      .sort((a, b) => a.title.localeCompare(b.title)),
    singles: feed.events
      .filter((e) => !e.hasProperty('rrule') && !e.hasProperty('recurrence-id'))
      .map((e) => ({ title: summary(e), start: time(e, 'dtstart'), end: time(e, 'dtend') }))
      .sort((a, b) => a.title.localeCompare(b.title)),
  };
}

async function importFeed(api: TestServer, source: string) {
  const started = await api.graphql(
    `mutation($source: String!) { startImport(kind: ICAL, source: $source) { id } }`,
    { source },
    api.keys.administrator,
  );
  expect(started.errors, JSON.stringify(started.errors)).toBeUndefined();
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const { data } = await api.graphql(
      `{ importJob(id: ${started.data.startImport.id}) { status error counts { kind created updated skipped removed failed } warnings } }`,
      {},
      api.keys.administrator,
    );
    if (data.importJob.status !== 'RUNNING' && data.importJob.status !== 'QUEUED') return data.importJob;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('import still running');
}

describe.each(DATABASE_KINDS)('Recurring events in iCalendar feeds on %s', (kind) => {
  const api = useTestServer(kind);
  // The second server imports the first one's feed over HTTP: its outbound policy lets it reach it.
  const env: Record<string, string> = {};
  beforeAll(() => {
    env.TASK_ALLOWED_HOSTS = new URL(api.url).host;
  });
  const copy = useTestServer(kind, env);

  const ids: Record<string, number> = {};
  const occurrences = async (server: TestServer, id: number) => (await ok(server, OCCURRENCES, { id })).event.occurrences as any[];
  /** The occurrences anyone may read (the feeds below are read without a key). */
  const publicOccurrences = async (server: TestServer, id: number) => {
    const result = await server.graphql(OCCURRENCES, { id });
    expect(result.errors).toBeUndefined();
    return result.data.event.occurrences as any[];
  };

  beforeAll(async () => {
    const create = async (input: Record<string, unknown>) => (await ok(api, CREATE, { input })).createEvent;
    // Weekly at 19:00 in Paris over the change to summer time (28 March 2027), one date left out.
    ids.jazz = (
      await create({
        title: 'Jazz Night',
        description: '<p>Three sets.</p>',
        startDate: '2027-03-09 19:00:00',
        endDate: '2027-03-09 22:00:00',
        timezone: 'Europe/Paris',
        categories: ['Music'],
        venue: { venue: 'Blue Room', city: 'Paris' },
        recurrence: { rrule: 'FREQ=WEEKLY;UNTIL=20270511T170000Z', exdates: ['2027-04-06'] },
      })
    ).id;
    // Monthly on the second Saturday in New York, with one extra date.
    ids.club = (
      await create({
        title: 'Book Club',
        startDate: '2027-01-09 10:00:00',
        endDate: '2027-01-09 12:00:00',
        timezone: 'America/New_York',
        recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=2SA;COUNT=10', rdates: ['2027-12-18 10:00:00'] },
      })
    ).id;
    // Yearly, all day.
    ids.fair = (
      await create({
        title: 'Summer Fair',
        startDate: '2027-07-14 00:00:00',
        endDate: '2027-07-14 23:59:59',
        allDay: true,
        recurrence: { rrule: 'FREQ=YEARLY;COUNT=2' },
      })
    ).id;
    // A WordPress manual offset: a fixed-offset zone whose name needs quoting in a TZID parameter.
    ids.standup = (
      await create({
        title: 'Standup',
        startDate: '2027-02-01 09:00:00',
        endDate: '2027-02-01 09:15:00',
        timezone: 'UTC-5:30',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
      })
    ).id;
    ids.single = (
      await create({ title: 'Solo Recital', startDate: '2027-05-01 20:00:00', endDate: '2027-05-01 21:30:00', timezone: 'Europe/Paris' })
    ).id;

    const jazz = await occurrences(api, ids.jazz);
    const late = jazz.find((o) => o.startDate === '2027-03-23 19:00:00');
    await ok(api, UPDATE, {
      id: late.id,
      input: { title: 'Jazz Night (late)', startDate: '2027-03-23 20:00:00', endDate: '2027-03-23 23:00:00' },
      scope: 'THIS',
    });
    await ok(api, DELETE, { id: jazz.find((o) => o.startDate === '2027-03-30 19:00:00').id, scope: 'THIS' });
    // One Book Club made private alone: those who may not read it find it left out of the rule.
    const club = await occurrences(api, ids.club);
    await ok(api, UPDATE, { id: club.find((o) => o.startDate === '2027-03-13 10:00:00').id, input: { status: 'private' }, scope: 'THIS' });
  });

  it('writes each series once: a master with its rule in its own zone, exceptions by RECURRENCE-ID, a VTIMEZONE per zone', async () => {
    const response = await api.request('GET', FEED);
    expect(response.status).toBe(200);
    for (const line of response.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const feed = parseFeed(response.text);

    // The list holds ten Jazz Nights, eleven Book Clubs…: each series is one master.
    const list = (await ok(api, SERIES_LIST, { filter: { startDate: '2027-01-01', endDate: '2033-12-31' } })).events.items as any[];
    expect(list.filter((e) => e.title.startsWith('Jazz Night')).length).toBeGreaterThan(1);
    expect(masters(feed).map(summary).sort()).toEqual(['Book Club', 'Jazz Night', 'Standup', 'Summer Fair']);
    const uids = masters(feed).map(uidOf);
    expect(new Set(uids).size).toBe(4);
    for (const uid of uids) expect(uid).toMatch(/^series-\d+@almanac\.test$/);
    expect(feed.events).toHaveLength(4 + 1 + 1); // masters, one exception, one single event

    const zones = feed.calendar.getAllSubcomponents('vtimezone').map((z) => String(z.getFirstPropertyValue('tzid')));
    expect(zones.sort()).toEqual(['America/New_York', 'Europe/Paris', 'UTC-5:30']);
    const paris = feed.calendar.getAllSubcomponents('vtimezone').find((z) => z.getFirstPropertyValue('tzid') === 'Europe/Paris')!;
    expect(paris.getAllSubcomponents('daylight').length).toBeGreaterThan(0);
    expect(paris.getAllSubcomponents('standard').length).toBeGreaterThan(0);

    const jazz = masterOf(feed, 'Jazz Night');
    expect(String(prop(jazz, 'rrule'))).toBe('FREQ=WEEKLY;UNTIL=20270511T170000Z');
    expect(jazz.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('Europe/Paris');
    expect(String(prop(jazz, 'dtstart'))).toBe('2027-03-09T19:00:00');
    expect(String(prop(jazz, 'dtend'))).toBe('2027-03-09T22:00:00');
    // The series' own EXDATE and the occurrence trashed alone.
    expect(dates(jazz, 'exdate')).toEqual(['2027-03-30T19:00:00', '2027-04-06T19:00:00']);
    expect(jazz.getFirstProperty('exdate')!.getParameter('tzid')).toBe('Europe/Paris');
    expect(prop(jazz, 'location')).toBe('Blue Room, Paris');
    expect(prop(jazz, 'description')).toBe('Three sets.');
    expect(prop(jazz, 'url')).toBe('http://almanac.test/event/jazz-night/');

    const [late] = exceptionsOf(feed, uidOf(jazz));
    expect(late.getFirstProperty('recurrence-id')!.getParameter('tzid')).toBe('Europe/Paris');
    expect(String(prop(late, 'recurrence-id'))).toBe('2027-03-23T19:00:00');
    expect(summary(late)).toBe('Jazz Night (late)');
    expect(String(prop(late, 'dtstart'))).toBe('2027-03-23T20:00:00');

    const club = masterOf(feed, 'Book Club');
    expect(String(prop(club, 'rrule'))).toBe('FREQ=MONTHLY;COUNT=10;BYDAY=2SA');
    expect(dates(club, 'rdate')).toEqual(['2027-12-18T10:00:00']);
    // The occurrence made private is no exception to those who may not read it: a date left out.
    expect(dates(club, 'exdate')).toEqual(['2027-03-13T10:00:00']);
    expect(exceptionsOf(feed, uidOf(club))).toHaveLength(0);
    expect(club.getFirstProperty('rdate')!.getParameter('tzid')).toBe('America/New_York');

    const fair = masterOf(feed, 'Summer Fair');
    expect((prop(fair, 'dtstart') as ICAL.Time).isDate).toBe(true);
    expect(String(prop(fair, 'dtstart'))).toBe('2027-07-14');
    expect(String(prop(fair, 'dtend'))).toBe('2027-07-15');

    const standup = masterOf(feed, 'Standup');
    expect(standup.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('UTC-5:30');
    expect(response.text).toContain('DTSTART;TZID="UTC-5:30":20270201T090000');

    // A single event is written as before: its own UID, times in UTC.
    const single = feed.events.find((e) => summary(e) === 'Solo Recital')!;
    expect(uidOf(single)).toBe(`event-${ids.single}@almanac.test`);
    expect(String(prop(single, 'dtstart'))).toBe('2027-05-01T18:00:00Z');
  });

  it("expands each master (ical.js, with the feed's VTIMEZONEs) into exactly the occurrences the API lists", async () => {
    const feed = parseFeed((await api.request('GET', FEED)).text);
    for (const [title, id] of [
      ['Jazz Night', ids.jazz],
      ['Book Club', ids.club],
      ['Summer Fair', ids.fair],
      ['Standup', ids.standup],
    ] as const) {
      const listed = (await publicOccurrences(api, id)).map((o) => (o.allDay ? o.startDate.slice(0, 10) : o.utcStartDate)).sort();
      expect(expand(feed, masterOf(feed, title)), title).toEqual(listed);
    }
    const jazz = expand(feed, masterOf(feed, 'Jazz Night'));
    // 19:00 in Paris: 18:00 UTC in winter, 17:00 UTC in summer; the moved one at 20:00 (19:00 UTC).
    expect(jazz).toContain('2027-03-16 18:00:00');
    expect(jazz).toContain('2027-03-23 19:00:00');
    expect(jazz).toContain('2027-04-13 17:00:00');
    expect(jazz).not.toContain('2027-03-30 17:00:00');
    expect(jazz).toHaveLength(8);
    expect(expand(feed, masterOf(feed, 'Standup'))).toEqual(['2027-02-01 14:30:00', '2027-02-08 14:30:00', '2027-02-15 14:30:00']);
  });

  it('writes what the caller may read: the private occurrence is an exception to an administrator', async () => {
    const feed = parseFeed((await api.request('GET', FEED, { key: api.keys.administrator })).text);
    const club = masterOf(feed, 'Book Club');
    expect(club.getAllProperties('exdate')).toHaveLength(0);
    const [hidden] = exceptionsOf(feed, uidOf(club));
    expect(String(prop(hidden, 'recurrence-id'))).toBe('2027-03-13T10:00:00');
    expect(prop(hidden, 'status')).toBe('TENTATIVE');
    const listed = (await occurrences(api, ids.club)).map((o) => o.utcStartDate).sort();
    expect(expand(feed, club)).toEqual(listed);
  });

  it("writes an occurrence's own feed as its whole series", async () => {
    const [, second] = await occurrences(api, ids.jazz);
    const response = await api.request('GET', `${new URL(second.url).pathname}ical/`);
    expect(response.status).toBe(200);
    const feed = parseFeed(response.text);
    expect(masters(feed).map(summary)).toEqual(['Jazz Night']);
    expect(exceptionsOf(feed, uidOf(masterOf(feed, 'Jazz Night'))).map(summary)).toEqual(['Jazz Night (late)']);
    expect(feed.calendar.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'))).toEqual(['Europe/Paris']);
    // The feed of the changed occurrence itself, and a list holding only it: the series still, its
    // master's fields read from the occurrences that are not exceptions.
    const late = (await occurrences(api, ids.jazz)).find((o) => o.isException);
    for (const path of [`${new URL(late.url).pathname}ical/`, `${FEED}&search=late`]) {
      const alone = parseFeed((await api.request('GET', path)).text);
      expect(masters(alone).map(summary), path).toEqual(['Jazz Night']);
      expect(alone.events.map(summary), path).toEqual(['Jazz Night', 'Jazz Night (late)']);
    }
    const single = parseFeed((await api.request('GET', `/event/solo-recital/ical/`)).text);
    expect(single.events.map(summary)).toEqual(['Solo Recital']);
    expect(single.calendar.getAllSubcomponents('vtimezone')).toHaveLength(0);
  });

  it('imports the feed into an empty server as series, and that server writes the same feed; a second import changes nothing', async () => {
    const source = `${api.url}${FEED}`;
    const job = await importFeed(copy, source);
    expect(job).toMatchObject({ status: 'COMPLETED', error: '', warnings: [] });
    const original = summaryOf(parseFeed((await api.request('GET', FEED)).text));
    const imported = summaryOf(parseFeed((await copy.request('GET', FEED)).text));
    expect(imported).toEqual(original);

    // The copy's own API lists the same occurrences, as series with an exception.
    const list = (await ok(copy, SERIES_LIST, { filter: { startDate: '2027-01-01', endDate: '2033-12-31' } })).events.items as any[];
    const jazz = list.filter((e) => e.title.startsWith('Jazz Night'));
    expect(new Set(jazz.map((e) => e.series?.id)).size).toBe(1);
    const copied = await occurrences(copy, jazz[0].id);
    expect(copied.filter((o) => o.isException).map((o) => [o.title, o.recurrenceId, o.startDate])).toEqual([
      ['Jazz Night (late)', '2027-03-23 19:00:00', '2027-03-23 20:00:00'],
    ]);

    // Imported again: the same series, updated, none twice.
    const again = await importFeed(copy, source);
    expect(again.status).toBe('COMPLETED');
    expect(again.counts.find((c: any) => c.kind === 'event')).toMatchObject({ created: 0, failed: 0 });
    const after = (await ok(copy, SERIES_LIST, { filter: { startDate: '2027-01-01', endDate: '2033-12-31' } })).events.items as any[];
    expect(after.map((e) => e.id).sort()).toEqual(list.map((e) => e.id).sort());
    expect(summaryOf(parseFeed((await copy.request('GET', FEED)).text))).toEqual(original);
  });
});
