// Recurring events through GraphQL, REST and the pages, as clients see them, on both databases:
// series and their occurrences, exceptions, splits, cancellation, and the moving horizon.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { ADMIN_KEY } from '../support/server.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';

const OCCURRENCE = `id title slug url status startDate endDate utcStartDate utcEndDate timezoneAbbr recurrenceId isException
  categories { slug } venue { name }`;
const SERIES = `series { id rrule recurrenceText bounded startDate exdates slug }`;
const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { ${OCCURRENCE} recurrenceText ${SERIES} } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateEventInput!, $scope: RecurrenceScope) {
  updateEvent(id: $id, input: $input, scope: $scope) { ${OCCURRENCE} ${SERIES} } }`;
const DELETE = `mutation($id: Int!, $scope: RecurrenceScope) { deleteEvent(id: $id, scope: $scope) { id status } }`;
const OCCURRENCES = `query($id: Int!, $first: Int, $after: Int, $between: OccurrenceWindow) {
  event(id: $id) { occurrences(first: $first, after: $after, between: $between) { ${OCCURRENCE} } } }`;
const LIST = `query($filter: EventFilter, $page: PageInput) { events(filter: $filter, page: $page) { total items { id title startDate seriesId: series { id } } } }`;

const code = (result: { errors?: any[] }) => result.errors?.[0]?.extensions?.code;

async function ok<T = any>(api: TestServer, query: string, variables: Record<string, unknown>): Promise<T> {
  const result = await api.graphql(query, variables, api.keys.administrator);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

async function occurrencesOf(api: TestServer, id: number, first = 100) {
  return (await ok(api, OCCURRENCES, { id, first })).event.occurrences as any[];
}

describe.each(DATABASE_KINDS)('Recurring events on %s', (kind) => {
  const api = useTestServer(kind);

  it('makes a weekly series whose occurrences stay at 19:00 Paris time across the change to summer time', async () => {
    const { createEvent: first } = await ok(api, CREATE, {
      input: {
        title: 'Jazz Night',
        startDate: '2027-03-09 19:00:00',
        endDate: '2027-03-09 22:00:00',
        timezone: 'Europe/Paris',
        categories: ['Music'],
        venue: { venue: 'Blue Room', city: 'Paris' },
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=6' },
      },
    });
    expect(first).toMatchObject({
      slug: 'jazz-night',
      url: 'http://almanac.test/event/jazz-night/2027-03-09/',
      recurrenceId: '2027-03-09 19:00:00',
      isException: false,
      series: { rrule: 'FREQ=WEEKLY;COUNT=6', bounded: true, startDate: '2027-03-09 19:00:00', slug: 'jazz-night' },
    });
    expect(first.recurrenceText).toMatch(/week/i);
    const all = await occurrencesOf(api, first.id);
    expect(all.map((o) => o.startDate)).toEqual([
      '2027-03-09 19:00:00',
      '2027-03-16 19:00:00',
      '2027-03-23 19:00:00',
      '2027-03-30 19:00:00',
      '2027-04-06 19:00:00',
      '2027-04-13 19:00:00',
    ]);
    // Summer time starts on 28 March 2027: the UTC start moves, the wall time does not.
    expect(all.map((o) => o.utcStartDate.slice(11))).toEqual(['18:00:00', '18:00:00', '18:00:00', '17:00:00', '17:00:00', '17:00:00']);
    expect(all.map((o) => o.timezoneAbbr)).toEqual(['CET', 'CET', 'CET', 'CEST', 'CEST', 'CEST']);
    expect(new Set(all.map((o) => o.id)).size).toBe(6);
    expect(all[1]).toMatchObject({
      title: 'Jazz Night',
      slug: 'jazz-night',
      url: 'http://almanac.test/event/jazz-night/2027-03-16/',
      categories: [{ slug: 'music' }],
      venue: { name: 'Blue Room' },
    });
    // Paged by the last one seen, and bounded by dates.
    const page = (await ok(api, OCCURRENCES, { id: first.id, first: 2, after: all[1].id })).event.occurrences;
    expect(page.map((o: any) => o.id)).toEqual([all[2].id, all[3].id]);
    const april = (await ok(api, OCCURRENCES, { id: first.id, between: { start: '2027-04-01', end: '2027-04-30' } })).event.occurrences;
    expect(april).toHaveLength(2);
  });

  it('lists occurrences among single events in date order, with every filter applying to them', async () => {
    const { createEvent: series } = await ok(api, CREATE, {
      input: {
        title: 'Market',
        startDate: '2028-01-08 09:00:00',
        endDate: '2028-01-08 13:00:00',
        timezone: 'America/New_York',
        categories: ['Markets'],
        recurrence: { rule: { frequency: 'MONTHLY', byDay: ['2SA'], until: '2028-06-30' } },
      },
    });
    expect(series.recurrenceText).toMatch(/2nd Saturday/);
    await ok(api, CREATE, { input: { title: 'Single talk', startDate: '2028-02-01 10:00:00', endDate: '2028-02-01 11:00:00' } });
    const list = (await ok(api, LIST, { filter: { startDate: '2028-01-01', endDate: '2028-12-31' }, page: { perPage: 50 } })).events;
    expect(list.items.map((e: any) => `${e.startDate.slice(0, 10)} ${e.title}`)).toEqual([
      '2028-01-08 Market',
      '2028-02-01 Single talk',
      '2028-02-12 Market',
      '2028-03-11 Market',
      '2028-04-08 Market',
      '2028-05-13 Market',
      '2028-06-10 Market',
    ]);
    const filtered = (await ok(api, LIST, { filter: { startDate: '2028-01-01', endDate: '2028-12-31', categories: ['markets'] } })).events;
    expect(filtered.total).toBe(6);
    const firsts = (await ok(api, LIST, { filter: { startDate: '2028-01-01', endDate: '2028-12-31', firstOccurrenceOnly: true } })).events;
    expect(firsts.items.map((e: any) => `${e.startDate.slice(0, 10)} ${e.title}`)).toEqual(['2028-01-08 Market', '2028-02-01 Single talk']);
    const fromMarch = (await ok(api, LIST, { filter: { startDate: '2028-03-01', endDate: '2028-12-31', firstOccurrenceOnly: true } }))
      .events;
    expect(fromMarch.items.map((e: any) => e.startDate.slice(0, 10))).toEqual(['2028-03-11']);
    const ofSeries = (await ok(api, LIST, { filter: { startDate: '2028-01-01', endDate: '2028-12-31', series: [series.series.id] } }))
      .events;
    expect(ofSeries.total).toBe(6);
    const searched = (await ok(api, LIST, { filter: { startDate: '2028-03-01', endDate: '2028-04-30', search: 'market' } })).events;
    expect(searched.items.map((e: any) => e.startDate.slice(0, 10))).toEqual(['2028-03-11', '2028-04-08']);

    // The REST list and single routes read occurrences as events.
    const rest = await api.request('GET', '/wp-json/tribe/events/v1/events?start_date=2028-01-01&end_date=2028-12-31&categories=markets');
    expect(rest.status).toBe(200);
    expect(rest.json.events.map((e: any) => e.start_date.slice(0, 10))).toEqual([
      '2028-01-08',
      '2028-02-12',
      '2028-03-11',
      '2028-04-08',
      '2028-05-13',
      '2028-06-10',
    ]);
    expect(rest.json.events[1]).toMatchObject({ slug: 'market', url: 'http://almanac.test/event/market/2028-02-12/' });
    const one = await api.request('GET', `/wp-json/tribe/events/v1/events/${rest.json.events[2].id}`);
    expect(one.json).toMatchObject({ title: 'Market', start_date: '2028-03-11 09:00:00' });
    // By slug: the series' slug names its next occurrence (here: all are past or future alike, the first to come).
    const bySlug = await api.request('GET', '/wp-json/tribe/events/v1/events/by-slug/market');
    expect(bySlug.status).toBe(200);
    expect(bySlug.json.title).toBe('Market');
  });

  it('changes one occurrence alone, then all of them, then this and the following ones', async () => {
    const { createEvent: first } = await ok(api, CREATE, {
      input: {
        title: 'Course',
        startDate: '2029-01-09 18:00:00',
        endDate: '2029-01-09 20:00:00',
        timezone: 'Australia/Sydney',
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU,TH;COUNT=8' },
      },
    });
    let all = await occurrencesOf(api, first.id);
    expect(all.map((o) => o.startDate.slice(0, 10))).toEqual([
      '2029-01-09',
      '2029-01-11',
      '2029-01-16',
      '2029-01-18',
      '2029-01-23',
      '2029-01-25',
      '2029-01-30',
      '2029-02-01',
    ]);
    const ids = all.map((o) => o.id);

    // This one alone: an exception with its own title and time.
    const exception = (
      await ok(api, UPDATE, {
        id: ids[2],
        input: { title: 'Course (room 2)', startDate: '2029-01-16 19:00:00', endDate: '2029-01-16 21:00:00' },
      })
    ).updateEvent;
    expect(exception).toMatchObject({ title: 'Course (room 2)', isException: true, recurrenceId: '2029-01-16 18:00:00' });

    // All: every occurrence but the exception; ids stay when the time moves.
    await ok(api, UPDATE, {
      id: ids[0],
      scope: 'ALL',
      input: { title: 'Evening course', startDate: '2029-01-09 18:30:00', endDate: '2029-01-09 20:30:00' },
    });
    all = await occurrencesOf(api, first.id);
    expect(all.map((o) => o.id).sort()).toEqual([...ids].sort());
    const byId = new Map(all.map((o) => [o.id, o]));
    expect(byId.get(ids[2])).toMatchObject({ title: 'Course (room 2)', startDate: '2029-01-16 19:00:00' });
    for (const id of ids.filter((id) => id !== ids[2])) {
      expect(byId.get(id).title).toBe('Evening course');
      expect(byId.get(id).startDate.slice(11)).toBe('18:30:00');
    }

    // This and following: the series is split at the fifth occurrence.
    const split = (await ok(api, UPDATE, { id: ids[4], scope: 'FOLLOWING', input: { title: 'Advanced course' } })).updateEvent;
    expect(split.series.id).not.toBe(first.series.id);
    expect(split.series.rrule).toBe('FREQ=WEEKLY;COUNT=4;BYDAY=TU,TH');
    const earlier = await occurrencesOf(api, ids[0]);
    const later = await occurrencesOf(api, ids[4]);
    expect(earlier.map((o) => o.id)).toEqual(ids.slice(0, 4));
    expect(later.map((o) => o.id)).toEqual(ids.slice(4));
    expect(later.map((o) => o.title)).toEqual(['Advanced course', 'Advanced course', 'Advanced course', 'Advanced course']);
    expect(earlier[0].title).toBe('Evening course');
    const firstSeries = (await ok(api, `query($id: Int!) { event(id: $id) { series { rrule } } }`, { id: ids[0] })).event.series;
    expect(firstSeries.rrule).toMatch(/^FREQ=WEEKLY;UNTIL=2029012\dT\d{6}Z;BYDAY=TU,TH$/);
    expect(later[0].url).toMatch(/\/event\/course-2\/2029-01-23\/$/);
  });

  it('cancels one occurrence, then the rest of the series', async () => {
    const { createEvent: first } = await ok(api, CREATE, {
      input: {
        title: 'Yoga',
        startDate: '2030-05-01 07:00:00',
        endDate: '2030-05-01 08:00:00',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=5' },
      },
    });
    const ids = (await occurrencesOf(api, first.id)).map((o) => o.id);
    expect((await ok(api, DELETE, { id: ids[1] })).deleteEvent.status).toBe('TRASH');
    let left = await occurrencesOf(api, first.id);
    expect(left.map((o) => o.id)).toEqual([ids[0], ids[2], ids[3], ids[4]]);
    await ok(api, DELETE, { id: ids[3], scope: 'FOLLOWING' });
    left = await occurrencesOf(api, first.id);
    expect(left.map((o) => o.id)).toEqual([ids[0], ids[2]]);
    const list = (await ok(api, LIST, { filter: { startDate: '2030-05-01', endDate: '2030-05-31', search: 'yoga' } })).events;
    expect(list.total).toBe(2);
  });

  it('changes several occurrences only when the caller may change every one, else nothing', async () => {
    const as = async (key: string, query: string, variables: Record<string, unknown>) => api.graphql(query, variables, key);
    const mine = await as(api.keys.author, CREATE, {
      input: {
        title: 'Walk',
        startDate: '2033-04-02 10:00:00',
        endDate: '2033-04-02 12:00:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
      },
    });
    expect(mine.errors).toBeUndefined();
    const ids = (await occurrencesOf(api, mine.data.createEvent.id)).map((o) => o.id);
    const editorsOwn = await as(api.keys.editor, CREATE, {
      input: { title: 'Probe', startDate: '2033-01-01 10:00', endDate: '2033-01-01 11:00' },
    });
    const editorId = (await ok(api, `query($id: Int!) { event(id: $id) { author } }`, { id: editorsOwn.data.createEvent.id })).event.author;
    // An administrator gives the last occurrence to the editor: an exception the author may not delete.
    await ok(api, UPDATE, { id: ids[2], input: { author: editorId } });
    const refused = await as(api.keys.author, DELETE, { id: ids[0], scope: 'ALL' });
    expect(code(refused)).toBe('FORBIDDEN');
    expect((await occurrencesOf(api, ids[0])).map((o) => o.status)).toEqual(['PUBLISH', 'PUBLISH', 'PUBLISH']);
    // What the author owns, the author may change together.
    const renamed = await as(api.keys.author, UPDATE, { id: ids[0], scope: 'ALL', input: { title: 'Long walk' } });
    expect(renamed.errors).toBeUndefined();
    expect((await occurrencesOf(api, ids[0])).map((o) => o.title)).toEqual(['Long walk', 'Long walk', 'Walk']);
  });

  it('turns a single event into a series, changes its rule for all, and ends it', async () => {
    const { createEvent: single } = await ok(api, CREATE, {
      input: { title: 'Reading group', startDate: '2031-06-03 18:00:00', endDate: '2031-06-03 19:00:00', timezone: 'America/New_York' },
    });
    expect(single.series).toBeNull();
    const made = (await ok(api, UPDATE, { id: single.id, input: { recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' } } })).updateEvent;
    expect(made).toMatchObject({ id: single.id, url: 'http://almanac.test/event/reading-group/2031-06-03/', isException: false });
    const ids = (await occurrencesOf(api, single.id)).map((o) => o.id);
    expect(ids).toHaveLength(4);
    // A new rule for all: every other week, three times; those it still has keep their ids.
    await ok(api, UPDATE, { id: single.id, scope: 'ALL', input: { recurrence: { rrule: 'FREQ=WEEKLY;INTERVAL=2;COUNT=3' } } });
    const fortnightly = await occurrencesOf(api, single.id);
    expect(fortnightly.map((o) => o.startDate.slice(0, 10))).toEqual(['2031-06-03', '2031-06-17', '2031-07-01']);
    expect(fortnightly[1].id).toBe(ids[2]);
    // No rule for all: the event stands alone again.
    const ended = (await ok(api, UPDATE, { id: single.id, scope: 'ALL', input: { recurrence: null } })).updateEvent;
    expect(ended).toMatchObject({ series: null, url: 'http://almanac.test/event/reading-group/' });
    const left = (await ok(api, LIST, { filter: { search: 'Reading group', startDate: '2031-06-01', endDate: '2031-07-31' } })).events;
    expect(left.items.map((e: any) => e.id)).toEqual([single.id]);
  });

  it('refuses bad rules with INVALID_INPUT naming what is wrong, and writes nothing', async () => {
    const input = { title: 'Bad', startDate: '2031-01-01 10:00:00', endDate: '2031-01-01 11:00:00' };
    for (const recurrence of [
      { rrule: 'FREQ=FORTNIGHTLY' },
      { rrule: 'FREQ=WEEKLY;COUNT=3;UNTIL=20310301T000000Z' },
      { rrule: 'FREQ=WEEKLY;BYDAY=XX' },
      { rrule: 'FREQ=WEEKLY', rule: { frequency: 'WEEKLY' } },
      { rrule: 'FREQ=WEEKLY', exdates: ['soon'] },
    ]) {
      const result = await api.graphql(CREATE, { input: { ...input, recurrence } }, api.keys.administrator);
      expect(code(result), JSON.stringify(recurrence)).toBe('INVALID_INPUT');
      expect(result.errors![0].extensions.params.recurrence).toMatch(/\w{4,}/);
    }
    const list = (await ok(api, LIST, { filter: { search: 'Bad', startDate: '2031-01-01', endDate: '2031-12-31' } })).events;
    expect(list.total).toBe(0);
    // A rule belongs to the series: changing it on one occurrence alone is refused.
    const { createEvent: first } = await ok(api, CREATE, {
      input: { ...input, title: 'Fine', recurrence: { rrule: 'FREQ=DAILY;COUNT=2' } },
    });
    const alone = await api.graphql(
      UPDATE,
      { id: first.id, input: { recurrence: { rrule: 'FREQ=DAILY;COUNT=3' } } },
      api.keys.administrator,
    );
    expect(code(alone)).toBe('INVALID_INPUT');
  });

  it('keeps an unbounded series made up to the horizon, which moves forward by itself', async () => {
    const start = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const { createEvent: first } = await ok(api, CREATE, {
      input: { title: 'Endless', startDate: `${start} 12:00:00`, endDate: `${start} 13:00:00`, recurrence: { rrule: 'FREQ=WEEKLY' } },
    });
    expect(first.series.bounded).toBe(false);
    // The default horizon is 730 days, and an expansion goes 28 days past it: 758 days of weekly occurrences.
    const count = async () =>
      (await ok(api, LIST, { filter: { search: 'Endless', startDate: start, endDate: '2100-01-01' }, page: { perPage: 1 } })).events.total;
    expect([108, 109, 110]).toContain(await count());
    // Another process with a longer horizon extends the series when it starts.
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: api.databaseUrl,
      LOG_LEVEL: 'silent',
      ALMANAC_ADMIN_KEY: ADMIN_KEY,
      SITE_URL: 'http://almanac.test',
      RECURRENCE_HORIZON_DAYS: '1095',
      TASK_WORKERS: '0',
    });
    const other = await startServer(config);
    try {
      const deadline = Date.now() + 60_000;
      while ((await count()) < 160 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect([160, 161, 162]).toContain(await count());
    } finally {
      await other.close();
    }
  });

  it('serves an occurrence page at /event/<slug>/<date>/ saying how the event repeats', async () => {
    const { createEvent: first } = await ok(api, CREATE, {
      input: {
        title: 'Choir',
        startDate: '2032-09-07 20:00:00',
        endDate: '2032-09-07 21:30:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
      },
    });
    const page = await api.request('GET', '/event/choir/2032-09-14/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Repeats: ');
    expect(page.text).toContain('/event/choir/2032-09-21/');
    expect(first.url).toBe('http://almanac.test/event/choir/2032-09-07/');
    expect((await api.request('GET', '/event/choir/2032-09-15/')).status).toBe(404);
  });
});
