// Recurring events imported from an iCalendar feed stay recurring: a master VEVENT (RRULE, EXDATE,
// RDATE) becomes a series, each RECURRENCE-ID a change to that one occurrence, a cancelled one its
// removal. A second import updates without duplicating; a rule Almanac cannot hold is expanded as
// before, and the single events an earlier import made of a rule give way to the series. On SQLite
// and PostgreSQL, through GraphQL, the feed served over HTTP.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';

const files = new Map<string, string>();
const site = createServer((request, response) => {
  const body = files.get(request.url ?? '');
  response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/calendar; charset=utf-8' });
  response.end(body ?? '');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const port = (site.address() as AddressInfo).port;
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

const NEW_YORK = `BEGIN:VTIMEZONE
TZID:America/New_York
BEGIN:DAYLIGHT
TZOFFSETFROM:-0500
TZOFFSETTO:-0400
TZNAME:EDT
DTSTART:19700308T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:-0400
TZOFFSETTO:-0500
TZNAME:EST
DTSTART:19701101T020000
RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
END:STANDARD
END:VTIMEZONE`;

const calendar = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Test//EN', 'X-WR-TIMEZONE:America/New_York', NEW_YORK, ...events, 'END:VCALENDAR']
    .join('\n')
    .replace(/\n/g, '\r\n');

const vevent = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20271120T120000Z', ...lines, 'END:VEVENT'].join('\n');

const JAM = (title = 'Jam Session') =>
  vevent(
    'UID:jam@example.com',
    'DTSTART;TZID=America/New_York:20280104T190000',
    'DTEND;TZID=America/New_York:20280104T210000',
    'RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20280301T045959Z',
    'EXDATE;TZID=America/New_York:20280118T190000',
    `SUMMARY:${title}`,
    'LOCATION:Riverside Hall',
  );
const LATE = vevent(
  'UID:jam@example.com',
  'RECURRENCE-ID;TZID=America/New_York:20280111T190000',
  'DTSTART;TZID=America/New_York:20280111T200000',
  'DTEND;TZID=America/New_York:20280111T220000',
  'SUMMARY:Jam Session (late start)',
);
/** Cancelled, its RECURRENCE-ID given in UTC: Tuesday 1 February 19:00 in New York. */
const cancelled = (utc: string) => vevent('UID:jam@example.com', `RECURRENCE-ID:${utc}`, 'STATUS:CANCELLED', 'SUMMARY:Jam Session');
const FAIR = vevent(
  'UID:fair@example.com',
  'DTSTART;VALUE=DATE:20280301',
  'DTEND;VALUE=DATE:20280303',
  'RRULE:FREQ=YEARLY;COUNT=3',
  'SUMMARY:Book Fair',
);
const CALL = vevent(
  'UID:call@example.com',
  'DTSTART:20280105T170000Z',
  'DTEND:20280105T173000Z',
  'RRULE:FREQ=WEEKLY;COUNT=3',
  'SUMMARY:Team Call',
);
const TALK = vevent('UID:talk@example.com', 'DTSTART:20280410T160000Z', 'DTEND:20280410T180000Z', 'SUMMARY:Author Talk');

const EVENTS = `query($filter: EventFilter) { events(filter: $filter, page: { perPage: 100 }) { items {
  id title allDay startDate endDate timezone recurrenceId isException venue { name }
  series { id rrule exdates startDate timezone } } } }`;

async function importFeed(api: TestServer, path: string, window: { windowStart?: string; windowEnd?: string } = {}) {
  const started = await api.graphql(
    `mutation($source: String!, $windowStart: String, $windowEnd: String) {
      startImport(kind: ICAL, source: $source, windowStart: $windowStart, windowEnd: $windowEnd) { id } }`,
    { source: `http://127.0.0.1:${port}${path}`, ...window },
    api.keys.administrator,
  );
  expect(started.errors, JSON.stringify(started.errors)).toBeUndefined();
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const { data } = await api.graphql(
      `{ importJob(id: ${started.data.startImport.id}) { status error counts { kind created updated unchanged skipped removed failed } warnings } }`,
      {},
      api.keys.administrator,
    );
    if (data.importJob.status !== 'RUNNING' && data.importJob.status !== 'QUEUED') {
      const events = data.importJob.counts.find((c: any) => c.kind === 'event');
      return { ...data.importJob, events };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('import still running');
}

describe.each(DATABASE_KINDS)('iCalendar series import on %s', (kind) => {
  const api = useTestServer(kind, { TASK_ALLOWED_HOSTS: `127.0.0.1:${port}` });
  const list = async (title: string) => {
    const result = await api.graphql(EVENTS, { filter: { startDate: '2027-12-01', endDate: '2031-12-31' } }, api.keys.administrator);
    expect(result.errors).toBeUndefined();
    return (result.data.events.items as any[]).filter((e) => e.title.startsWith(title));
  };

  it('keeps a series as a series: rule, excluded dates, an occurrence moved alone, one cancelled', async () => {
    files.set(`/${kind}/feed.ics`, calendar(JAM(), LATE, cancelled('20280202T000000Z'), FAIR, CALL, TALK));
    const job = await importFeed(api, `/${kind}/feed.ics`);
    expect(job).toMatchObject({ status: 'COMPLETED', error: '', warnings: [] });
    expect(job.events).toMatchObject({ created: 4, updated: 1, removed: 1, failed: 0 });

    const jams = await list('Jam Session');
    // Tuesdays 4 January to 29 February, without 18 January (EXDATE) and 1 February (cancelled).
    expect(jams.map((e) => e.startDate)).toEqual([
      '2028-01-04 19:00:00',
      '2028-01-11 20:00:00',
      '2028-01-25 19:00:00',
      '2028-02-08 19:00:00',
      '2028-02-15 19:00:00',
      '2028-02-22 19:00:00',
      '2028-02-29 19:00:00',
    ]);
    expect(new Set(jams.map((e) => e.series.id)).size).toBe(1);
    expect(jams[0].series).toMatchObject({
      rrule: 'FREQ=WEEKLY;UNTIL=20280301T045959Z;BYDAY=TU',
      exdates: ['2028-01-18 19:00:00'],
      startDate: '2028-01-04 19:00:00',
      timezone: 'America/New_York',
    });
    expect(jams[0].venue).toMatchObject({ name: 'Riverside Hall' });
    expect(jams[1]).toMatchObject({
      title: 'Jam Session (late start)',
      isException: true,
      recurrenceId: '2028-01-11 19:00:00',
      startDate: '2028-01-11 20:00:00',
      endDate: '2028-01-11 22:00:00',
    });
    expect(jams.filter((e) => e.isException)).toHaveLength(1);

    const [fair] = await list('Book Fair');
    expect(fair).toMatchObject({ allDay: true, startDate: '2028-03-01 00:00:00', endDate: '2028-03-02 23:59:59' });
    expect(fair.series.rrule).toBe('FREQ=YEARLY;COUNT=3');
    // A rule whose start is in UTC is read in UTC, as RFC 5545 reads it.
    const calls = await list('Team Call');
    expect(calls.map((e) => [e.startDate, e.timezone])).toEqual([
      ['2028-01-05 17:00:00', 'UTC'],
      ['2028-01-12 17:00:00', 'UTC'],
      ['2028-01-19 17:00:00', 'UTC'],
    ]);
    expect((await list('Author Talk')).map((e) => [e.startDate, e.series])).toEqual([['2028-04-10 12:00:00', null]]);
  });

  it('updates on a second run without duplicating; a change reaches the series, a new cancellation its occurrence', async () => {
    const before = await list('');
    const again = await importFeed(api, `/${kind}/feed.ics`);
    expect(again.status).toBe('COMPLETED');
    expect(again.events).toMatchObject({ created: 0, updated: 0, unchanged: 5, skipped: 1, failed: 0 });
    expect((await list('')).map((e) => [e.id, e.startDate])).toEqual(before.map((e) => [e.id, e.startDate]));

    files.set(
      `/${kind}/feed.ics`,
      calendar(JAM('Jam Night'), LATE, cancelled('20280202T000000Z'), cancelled('20280216T000000Z'), FAIR, CALL, TALK),
    );
    const third = await importFeed(api, `/${kind}/feed.ics`);
    expect(third.events).toMatchObject({ created: 0, removed: 1, failed: 0 });
    const jams = await list('Jam ');
    expect(jams.map((e) => [e.title, e.startDate])).toEqual([
      ['Jam Night', '2028-01-04 19:00:00'],
      ['Jam Session (late start)', '2028-01-11 20:00:00'],
      ['Jam Night', '2028-01-25 19:00:00'],
      ['Jam Night', '2028-02-08 19:00:00'],
      ['Jam Night', '2028-02-22 19:00:00'],
      ['Jam Night', '2028-02-29 19:00:00'],
    ]);
    expect(jams.map((e) => e.id)).toEqual(
      before.filter((e) => e.title.startsWith('Jam') && e.startDate !== '2028-02-15 19:00:00').map((e) => e.id),
    );
  });

  it('expands a rule Almanac cannot hold over the window; made holdable, the series replaces those copies', async () => {
    const hourly = (rule: string) =>
      calendar(
        vevent(
          'UID:drill@example.com',
          'DTSTART;TZID=America/New_York:20280301T090000',
          'DTEND;TZID=America/New_York:20280301T093000',
          `RRULE:${rule}`,
          'SUMMARY:Fire Drill',
        ),
      );
    files.set(`/${kind}/drill.ics`, hourly('FREQ=DAILY;BYHOUR=9,15;COUNT=4'));
    const window = { windowStart: '2028-01-01', windowEnd: '2028-12-31' };
    expect((await importFeed(api, `/${kind}/drill.ics`, window)).events).toMatchObject({ created: 4, failed: 0 });
    const expanded = await list('Fire Drill');
    expect(expanded.map((e) => [e.startDate, e.series])).toEqual([
      ['2028-03-01 09:00:00', null],
      ['2028-03-01 15:00:00', null],
      ['2028-03-02 09:00:00', null],
      ['2028-03-02 15:00:00', null],
    ]);

    files.set(`/${kind}/drill.ics`, hourly('FREQ=DAILY;COUNT=4'));
    const job = await importFeed(api, `/${kind}/drill.ics`, window);
    expect(job.events).toMatchObject({ created: 1, removed: 4, failed: 0 });
    const series = await list('Fire Drill');
    expect(series.map((e) => e.startDate)).toEqual([
      '2028-03-01 09:00:00',
      '2028-03-02 09:00:00',
      '2028-03-03 09:00:00',
      '2028-03-04 09:00:00',
    ]);
    expect(new Set(series.map((e) => e.series?.id)).size).toBe(1);
    expect(series[0].series.rrule).toBe('FREQ=DAILY;COUNT=4');
  });
});
