// The calendar views (month, day, list) at The Events Calendar 6's URLs and tribe-bar-* arguments,
// over HTTP on SQLite and PostgreSQL: navigation, search, filters, archives, time zones, feeds, and
// a month page's statement count that does not grow with the events it holds. The site's zone is
// New York; events are in March 2032 (and the past in 2020), so no test depends on today's date.
import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { createEvent, seedCalendar, SITE_ZONE } from '../support/calendar.js';
import { useTestServer } from '../support/server.js';

/** The month grid's cell of a day: its event titles (with their times) and its "+N more" link. */
function cell(html: string, day: string) {
  const td = html.split('<td').find((chunk) => new RegExp(`class="date" href="[^"]*/${day}/`).test(chunk));
  expect(td, day).toBeDefined();
  const events = [...td!.matchAll(/<span class="time">([^<]*)<\/span> ([^<]+)<\/a>/g)].map((m) => `${m[1]} ${m[2]}`);
  const more = /<a class="more" href="([^"]+)">\+(\d+) more/.exec(td!);
  return { events, more: more ? { href: more[1], count: Number(more[2]) } : null };
}
const titles = (html: string) => [...html.matchAll(/<h2><a href="[^"]+">([^<]+)<\/a><\/h2>/g)].map((m) => m[1]);
const link = (html: string, rel: string) => new RegExp(`rel="${rel}" href="([^"]+)"`).exec(html)?.[1]?.replaceAll('&amp;', '&') ?? null;
/** "Saturday 28 November 2026": the site zone's date of an instant, as the views write days. */
function dayLabel(at: Date) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: SITE_ZONE })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}`;
}

describe.each(DATABASE_KINDS)('calendar views on %s', (kind) => {
  const api = useTestServer(kind, { POSTS_PER_PAGE: '2', SITE_TIMEZONE: SITE_ZONE, SITE_NAME: 'Views' });
  let venue: number;
  beforeAll(async () => {
    ({ venue } = await seedCalendar(api));
  });

  it('the month view shows each day its events at their own times, multi-day and recurring ones on each day, "+N more" past 12', async () => {
    const page = await api.request('GET', '/events/month/2032-03/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).not.toContain('<script');
    expect(page.text).toContain('<h1>March 2032</h1>');
    expect(page.text).toContain('<title>Events in March 2032 – Views</title>');
    // Tokyo's talk is at 20:00 in Tokyo, on the 10th: each event in its own zone.
    expect(cell(page.text, '2032-03-10').events).toEqual(['19:00 EST Jazz Night', '20:00 JST Tokyo Talk']);
    for (const day of ['2032-03-12', '2032-03-13', '2032-03-14']) expect(cell(page.text, day).events).toEqual(['All day Festival']);
    expect(cell(page.text, '2032-03-15').events).toEqual([]);
    for (const day of ['2032-03-02', '2032-03-09', '2032-03-16', '2032-03-23'])
      expect(cell(page.text, day).events).toEqual(['18:00 EST Weekly Jam'.replace('EST', day < '2032-03-14' ? 'EST' : 'EDT')]);
    // A timed event over two days: its start on the first, "Continues" on the second.
    expect(cell(page.text, '2032-03-24').events).toEqual(['09:00 EDT Conference']);
    expect(cell(page.text, '2032-03-25').events).toEqual(['Continues Conference']);
    const busy = cell(page.text, '2032-03-20');
    expect(busy.events).toHaveLength(12);
    expect(busy.more).toEqual({ href: '/events/2032-03-20/', count: 1 });
    // The grid runs Monday to Sunday, with the neighbouring months' days: April Fool on 1 April.
    expect(page.text).toMatch(/<th scope="col" abbr="Monday">Mon<\/th>/);
    expect(cell(page.text, '2032-04-01').events).toEqual(['12:00 EDT April Fool']);
    expect(link(page.text, 'prev')).toBe('/events/month/2032-02/');
    expect(link(page.text, 'next')).toBe('/events/month/2032-04/');
    expect(page.text).toContain('<a href="/events/month/">This month</a>');
    expect(page.text).toContain('href="/events/month/2032-03/?ical=1"');
    // The original's other spellings of the same month.
    for (const url of ['/events/2032-03/', '/events/month/?tribe-bar-date=2032-03-15', '/events/month/2031-01/?eventDate=2032-03']) {
      const same = await api.request('GET', url);
      expect(same.status, url).toBe(200);
      expect(same.text, url).toContain('<h1>March 2032</h1>');
    }
  });

  it('a month page costs the same few statements however many events and weeks it holds', async () => {
    const statementsOf = async (url: string) => {
      await api.request('GET', url);
      let count = 0;
      const stop = api.server.db.observe(() => count++);
      try {
        expect((await api.request('GET', url)).status).toBe(200);
      } finally {
        stop();
      }
      return count;
    };
    // May 2032's grid has six weeks, February 2027's four.
    const before = await statementsOf('/events/month/2032-05/');
    expect(await statementsOf('/events/month/2027-02/')).toBe(before);
    for (let i = 0; i < 30; i++)
      await createEvent(api, {
        title: `May ${i}`,
        startDate: `2032-05-${String(1 + (i % 10)).padStart(2, '0')} 10:00:00`,
        endDate: '2032-05-11 10:00:00',
      });
    const after = await statementsOf('/events/month/2032-05/');
    expect(after).toBe(before);
    // The grid's events (its window's dates, then the events shown) and the page's own few (terms).
    expect(before).toBeLessThanOrEqual(10);
    const may = (await api.request('GET', '/events/month/2032-05/')).text;
    expect(cell(may, '2032-05-10').more).toEqual({ href: '/events/2032-05-10/', count: 18 });
    expect(cell(may, '2032-05-11').events).toHaveLength(12);
    expect(cell(may, '2032-05-11').more).toEqual({ href: '/events/2032-05-11/', count: 18 });
    expect(cell(may, '2032-05-12').events).toEqual([]);
  });

  it('eventDays answers each day as the events list does for that day, and refuses what it cannot answer', async () => {
    const days = ['2032-03-09', '2032-03-10', '2032-03-11', '2032-03-12', '2032-03-13', '2032-03-14', '2032-03-15', '2032-03-20'];
    const { data } = await api.graphql(
      `query($from: String!, $to: String!) { eventDays(from: $from, to: $to, perDay: 3) { day total items { id } } }`,
      { from: days[0], to: '2032-03-20' },
    );
    expect(data.eventDays.map((entry: { day: string }) => entry.day)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2032-03-${String(9 + i).padStart(2, '0')}`),
    );
    for (const day of days) {
      const before = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const list = await api.graphql(
        `query($filter: EventFilter!) { events(filter: $filter, page: { perPage: 3 }) { total items { id } } }`,
        { filter: { startsBefore: day, endsAfter: before } },
      );
      expect(
        data.eventDays.find((entry: { day: string }) => entry.day === day),
        day,
      ).toEqual({ day, ...list.data.events });
    }
    const refused = async (variables: Record<string, unknown>) => {
      const { errors } = await api.graphql(
        `query($from: String!, $to: String!, $perDay: Int, $filter: EventFilter) { eventDays(from: $from, to: $to, perDay: $perDay, filter: $filter) { day } }`,
        variables,
      );
      expect(errors?.[0].extensions.code).toBe('INVALID_INPUT');
      return Object.keys(errors![0].extensions.params);
    };
    expect(await refused({ from: '2032-02-30', to: '2032-03-01' })).toEqual(['from']);
    expect(await refused({ from: '2032-03-02', to: '2032-03-01' })).toEqual(['to']);
    expect(await refused({ from: '2032-01-01', to: '2032-02-12' })).toEqual(['to']); // 43 days
    expect(await refused({ from: '2032-03-01', to: '2032-03-02', perDay: 51 })).toEqual(['perDay']);
    expect(await refused({ from: '2032-03-01', to: '2032-03-02', filter: { startDate: '2032-03-01' } })).toEqual(['filter.startDate']);
  });

  it("the day view lists a day, steps to the days around it, and today is the site zone's today", async () => {
    const festival = await api.request('GET', '/events/2032-03-13/');
    expect(festival.status).toBe(200);
    expect(festival.text).toContain('<h1>Saturday 13 March 2032</h1>');
    expect(titles(festival.text)).toEqual(['Festival']);
    expect(link(festival.text, 'prev')).toBe('/events/2032-03-12/');
    expect(link(festival.text, 'next')).toBe('/events/2032-03-14/');
    expect(festival.text).toContain('<a href="/events/today/">Today</a>');
    const busy = await api.request('GET', '/events/day/2032-03-20/');
    expect(titles(busy.text)).toHaveLength(13);
    const talk = await api.request('GET', '/events/today/?tribe-bar-date=2032-03-10');
    expect(titles(talk.text)).toEqual(['Jazz Night', 'Tokyo Talk']);
    expect(talk.text).toMatch(/20:00 – 21:00 JST/);
    const today = await api.request('GET', '/events/today/');
    expect(today.status).toBe(200);
    expect(today.text).toContain(`<h1>${dayLabel(new Date())}</h1>`);
  });

  it('the list pages upcoming events, goes back to past ones newest first, and starts from tribe-bar-date', async () => {
    const upcoming = await api.request('GET', '/events/list/');
    expect(titles(upcoming.text)).toEqual(['Weekly Jam', 'Weekly Jam']);
    expect(link(upcoming.text, 'next')).toBe('/events/list/page/2/');
    expect(link(upcoming.text, 'prev')).toBe('/events/list/?eventDisplay=past');
    const second = await api.request('GET', '/events/list/page/2/');
    expect(titles(second.text)).toEqual(['Jazz Night', 'Tokyo Talk']);
    expect(link(second.text, 'prev')).toBe('/events/list/');
    expect(titles((await api.request('GET', '/events/page/2/')).text)).toEqual(['Jazz Night', 'Tokyo Talk']);
    expect((await api.request('GET', '/events/list/page/999/')).status).toBe(404);

    const past = await api.request('GET', '/events/list/?eventDisplay=past');
    expect(past.text).toContain('<h1>Past events</h1>');
    expect(titles(past.text)).toEqual(['Older Fair', 'Old Fair']);
    expect(link(past.text, 'next')).toBe('/events/list/');
    expect(link(past.text, 'prev')).toBe('/events/list/page/2/?eventDisplay=past');
    const older = await api.request('GET', '/events/list/page/2/?eventDisplay=past');
    expect(titles(older.text)).toEqual(['Oldest Fair']);
    expect(link(older.text, 'prev')).toBeNull();
    expect(link(older.text, 'next')).toBe('/events/list/?eventDisplay=past');

    const from = await api.request('GET', '/events/list/?tribe-bar-date=2032-03-12');
    expect(from.text).toContain('<h1>Events from Friday 12 March 2032</h1>');
    expect(titles(from.text)).toEqual(['Festival', 'Weekly Jam']);
    expect(link(from.text, 'next')).toBe('/events/list/page/2/?tribe-bar-date=2032-03-12');
  });

  it('search and filters narrow every view and stay in its links; archives have the views too', async () => {
    const search = await api.request('GET', '/events/month/2032-03/?tribe-bar-search=Tokyo');
    expect(cell(search.text, '2032-03-10').events).toEqual(['20:00 JST Tokyo Talk']);
    expect(cell(search.text, '2032-03-20').events).toEqual([]);
    expect(link(search.text, 'next')).toBe('/events/month/2032-04/?tribe-bar-search=Tokyo');
    expect(search.text).toContain('value="Tokyo"');

    const music = await api.request('GET', '/events/month/2032-03/?tribe_events_cat=music');
    expect(cell(music.text, '2032-03-10').events).toEqual(['19:00 EST Jazz Night']);
    expect(cell(music.text, '2032-03-13').events).toEqual(['All day Festival']);
    expect(music.text).toContain('<option value="music" selected>Music</option>');
    expect(link(music.text, 'prev')).toBe('/events/month/2032-02/?tribe_events_cat=music');
    const tag = await api.request('GET', '/events/2032-03-10/?tag=talk');
    expect(titles(tag.text)).toEqual(['Tokyo Talk']);
    const atVenue = await api.request('GET', `/events/list/?tribe-bar-date=2032-03-01&tribe_venues=${venue}`);
    expect(titles(atVenue.text)).toEqual(['Jazz Night']);
    expect(atVenue.text).toContain(`venue ${venue}`);

    const archive = await api.request('GET', '/events/category/music/month/2032-03/');
    expect(archive.status).toBe(200);
    expect(archive.text).toContain('<p class="archive">Category: Music</p>');
    expect(cell(archive.text, '2032-03-10').events).toEqual(['19:00 EST Jazz Night']);
    expect(link(archive.text, 'next')).toBe('/events/category/music/month/2032-04/');
    const tagDay = await api.request('GET', '/events/tag/talk/day/2032-03-10/');
    expect(titles(tagDay.text)).toEqual(['Tokyo Talk']);
    expect(titles((await api.request('GET', '/events/category/science/list/?tribe-bar-date=2032-03-01')).text)).toEqual(['Tokyo Talk']);
  });

  it('each view links its iCalendar feed, with the same filters and dates', async () => {
    const feed = await api.request('GET', '/events/month/2032-03/?tribe_events_cat=music&ical=1');
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(feed.text).toContain('SUMMARY:Jazz Night');
    expect(feed.text).toContain('SUMMARY:Festival');
    expect(feed.text).not.toContain('Tokyo Talk');
    expect(feed.text).not.toContain('April Fool');
    const day = await api.request('GET', '/events/2032-03-10/?ical=1');
    expect(day.text).toContain('SUMMARY:Tokyo Talk');
    expect(day.text).not.toContain('Festival');
    const page = await api.request('GET', '/events/2032-03-10/?tag=talk');
    expect(page.text).toContain('href="/events/2032-03-10/?tag=talk&amp;ical=1"');
    expect(page.text).toContain(
      'type="text/calendar" title="Events on Wednesday 10 March 2032 (iCalendar)" href="http://almanac.test/events/2032-03-10/?tag=talk&amp;ical=1"',
    );
  });

  it('bad arguments are 400 pages, unknown months and archives 404, never a 5xx', async () => {
    for (const [url, status] of [
      ['/events/month/?tribe-bar-date=tomorrow', 400],
      ['/events/list/?tribe_venues=abc', 400],
      ['/events/month/2032-03/?tribe_events_cat=no-such', 400],
      [`/events/list/?tribe-bar-search=${'x'.repeat(300)}`, 400],
      ['/events/month/2032-13/', 404],
      ['/events/2032-02-30/', 404],
      ['/events/category/no-such/month/', 404],
      ['/events/tag/no-such/list/', 404],
      ['/events/category/%E0%A4%A/month/', 404],
      ['/events/category/%E0%A4%A/', 404],
      ['/venue/%E0%A4%A/', 404],
      ['/events/list/?tribe_organizers=0', 400],
      ['/events/list/?tribe-bar-search=a&tribe-bar-search=b&tribe_events_cat[]=music', 200],
    ] as const) {
      const page = await api.request('GET', url);
      expect(page.status, url).toBe(status);
      expect(page.headers.get('content-type'), url).toBe('text/html; charset=utf-8');
    }
    expect((await api.request('POST', '/events/month/')).status).toBe(405);
  });
});
