// Rules the original inherits from WordPress that show in the REST answers (issue 38), over HTTP on
// both databases: a category filter reaches the category's descendants; lists hold every status
// the caller may read, in WordPress's publication-date order; a wrong-type id on a venue or
// organizer route is refused with the Allow header WordPress computes from the route's permission
// callbacks on the post the id names; a sticky event is saved twice on create.
import { beforeAll, describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';
const WINDOW = 'start_date=2020-01-01&end_date=2040-12-31';
const day = (days: number) => daysFromNow(days).slice(0, 10);

describe.each(DATABASE_KINDS)('WordPress rules in REST answers on %s', (kind) => {
  const api = useTestServer(kind);
  const get = (path: string, key?: string) => api.request('GET', NS + path, { key });
  const send = (method: string, path: string, body: unknown, key = api.keys.administrator) => api.request(method, NS + path, { body, key });
  async function created(path: string, body: Record<string, unknown>, key = api.keys.administrator) {
    const response = await send('POST', path, body, key);
    expect(response.status, response.text).toBe(201);
    return response.json;
  }
  const titles = (response: { json: { events: { title: string }[] } }) => response.json.events.map((event) => event.title);

  describe('a category filter includes the categories below it', () => {
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      ids.music = (await created('/categories', { name: 'Music' })).id;
      ids.jazz = (await created('/categories', { name: 'Jazz', parent: ids.music })).id;
      ids.bebop = (await created('/categories', { name: 'Bebop', parent: ids.jazz })).id;
      ids.art = (await created('/categories', { name: 'Art' })).id;
      const event = (title: string, days: number, categories: number[]) =>
        created('/events', { title, start_date: `${day(days)} 19:00:00`, end_date: `${day(days)} 21:00:00`, categories });
      await event('Orchestra', 10, [ids.music]);
      await event('Trio', 11, [ids.jazz]);
      await event('Late set', 12, [ids.bebop]);
      await event('Gallery night', 13, [ids.art]);
    });

    it('by slug or id, a parent lists the events of its children and grandchildren', async () => {
      expect(titles(await get(`/events?${WINDOW}&categories=music`))).toEqual(['Orchestra', 'Trio', 'Late set']);
      expect(titles(await get(`/events?${WINDOW}&categories=${ids.jazz}`))).toEqual(['Trio', 'Late set']);
      expect(titles(await get(`/events?${WINDOW}&categories=bebop`))).toEqual(['Late set']);
      expect(titles(await get(`/events?${WINDOW}&categories[]=jazz&categories[]=art`))).toEqual(['Trio', 'Late set', 'Gallery night']);
      const page = await get(`/events?${WINDOW}&categories=music&per_page=2`);
      expect(page.json.total).toBe(3);
      expect(page.headers.get('x-tec-total')).toBe('3');
    });

    it('GraphQL lists the same by default, and only the named categories with includeChildCategories: false', async () => {
      const list = `query($filter: EventFilter) { events(filter: $filter) { items { title } } }`;
      const read = async (filter: Record<string, unknown>) => {
        const result = await api.graphql(list, { filter: { startDate: '2020-01-01', endDate: '2040-12-31', ...filter } });
        expect(result.errors).toBeUndefined();
        return result.data.events.items.map((event: { title: string }) => event.title);
      };
      expect(await read({ categories: ['music'] })).toEqual(['Orchestra', 'Trio', 'Late set']);
      expect(await read({ categories: ['music'], includeChildCategories: true })).toEqual(['Orchestra', 'Trio', 'Late set']);
      expect(await read({ categories: ['music'], includeChildCategories: false })).toEqual(['Orchestra']);
    });

    it("a parent category's archive page and feed list its children's events", async () => {
      const page = await api.request('GET', '/events/category/music/');
      expect(page.status).toBe(200);
      for (const title of ['Orchestra', 'Trio', 'Late set']) expect(page.text).toContain(title);
      expect(page.text).not.toContain('Gallery night');
      const feed = await api.request('GET', '/events/category/music/?ical=1');
      expect(feed.text.match(/^SUMMARY:/gm)).toHaveLength(3);
    });
  });

  describe('a list shows every status the caller may read, by publication date as WordPress orders it', () => {
    // A draft has no UTC publication date, only a local one (when it was written): WordPress orders
    // by the local one (post_date), so a draft sits among the others, not after them.
    const tomorrow = `${day(1)} 12:00:00`;

    for (const [plural, name] of [
      ['venues', 'venue'],
      ['organizers', 'organizer'],
    ] as const) {
      it(`an administrator's /${plural} lists drafts and scheduled ones in date order; a visitor's only the published`, async () => {
        await created(`/${plural}`, { [name]: `Old ${name}`, date: '2020-01-01 10:00:00' });
        await created(`/${plural}`, { [name]: `Draft ${name}`, status: 'draft' });
        const scheduled = await created(`/${plural}`, { [name]: `Scheduled ${name}`, date: tomorrow });
        expect(scheduled.status).toBe('future');
        const names = (response: { json: Record<string, Record<string, string>[]> }) => response.json[plural].map((record) => record[name]);
        const admin = await get(`/${plural}`, api.keys.administrator);
        expect(names(admin)).toEqual([`Scheduled ${name}`, `Draft ${name}`, `Old ${name}`]);
        expect(admin.json.total).toBe(3);
        const editor = await get(`/${plural}?per_page=1&page=2`, api.keys.editor);
        expect(names(editor)).toEqual([`Draft ${name}`]);
        expect(names(await get(`/${plural}`))).toEqual([`Old ${name}`]);
      });
    }

    it('an events list by include is in publication-date order, drafts included for those who may read them', async () => {
      const event = (title: string, extra: Record<string, unknown>) =>
        created('/events', { title, start_date: `${day(20)} 10:00:00`, end_date: `${day(20)} 11:00:00`, ...extra });
      const later = await event('Announced later', { date: tomorrow });
      const draft = await event('Still a draft', { status: 'draft' });
      const old = await event('Announced long ago', { date: '2020-01-01 10:00:00' });
      const include = `include=${later.id},${draft.id},${old.id}`;
      expect(titles(await get(`/events?${include}`, api.keys.administrator))).toEqual([
        'Announced long ago',
        'Still a draft',
        'Announced later',
      ]);
      expect(titles(await get(`/events?${include}`))).toEqual(['Announced long ago']);
    });
  });

  describe('a wrong-type id is refused with the Allow header of the post it names', () => {
    const ALL = 'GET, DELETE, POST, PUT, PATCH';
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      const when = { start_date: `${day(30)} 10:00:00`, end_date: `${day(30)} 11:00:00` };
      ids.event = (await created('/events', { title: 'Published by the administrator', ...when })).id;
      ids.venue = (await created('/venues', { venue: 'Administrator venue' })).id;
      ids.ownDraft = (await created('/events', { title: 'A contributor draft', ...when }, api.keys.contributor)).id;
    });
    const refusal = (response: { status: number; json: { code: string; data: { params: object } } }) => {
      expect(response.status).toBe(400);
      expect(response.json.code).toBe('rest_invalid_param');
      expect(Object.keys(response.json.data.params)).toEqual(['id']);
    };

    it("an administrator's POST, PUT or DELETE on /venues/<event id> or /organizers/<venue id> names every method of the route", async () => {
      for (const [path, body] of [
        [`/venues/${ids.event}`, { venue: 'Event as venue' }],
        [`/organizers/${ids.venue}`, { organizer: 'Venue as organizer' }],
      ] as const) {
        for (const method of ['POST', 'PUT', 'DELETE']) {
          const response = await send(method, path, method === 'DELETE' ? undefined : body);
          refusal(response);
          expect(response.headers.get('allow'), `${method} ${path}`).toBe(ALL);
        }
      }
      // No post at all: WordPress allows nothing but reading.
      const unknown = await send('POST', '/venues/999999', { venue: 'Ghost' });
      refusal(unknown);
      expect(unknown.headers.get('allow')).toBe('GET');
    });

    it('the rights are those on the post the id names, under its own rules, on every id route', async () => {
      // A contributor may edit their own draft event, not the administrator's published one.
      const own = await send('POST', `/venues/${ids.ownDraft}`, { venue: 'Draft as venue' }, api.keys.contributor);
      refusal(own);
      expect(own.headers.get('allow')).toBe(ALL);
      const others = await send('DELETE', `/organizers/${ids.event}`, undefined, api.keys.contributor);
      refusal(others);
      expect(others.headers.get('allow')).toBe('GET');
      // The events route asks the same about a venue's id.
      const venue = await send('DELETE', `/events/${ids.venue}`, undefined, api.keys.contributor);
      expect(venue.status).toBe(400);
      expect(venue.json.code).toBe('rest-invalid-event-id');
      expect(venue.headers.get('allow')).toBe('GET');
      const asAdmin = await send('DELETE', `/events/${ids.venue}`, undefined);
      expect(asAdmin.headers.get('allow')).toBe(ALL);
      // Visitors may do nothing but read, whatever the id.
      expect((await send('DELETE', `/venues/${ids.event}`, undefined, '')).headers.get('allow')).toBe('GET');
    });
  });

  describe('a create saves a sticky event twice, as the original does', () => {
    const nearNow = (wallUtc: string) => Math.abs(Date.parse(`${wallUtc.replace(' ', 'T')}Z`) - Date.now()) < 10_000;
    const everything = {
      description: 'Every optional field',
      excerpt: 'All of them',
      date: '2020-03-01 10:00:00',
      start_date: `${day(40)} 18:00:00`,
      end_date: `${day(40)} 20:00:00`,
      timezone: 'America/Chicago',
      website: 'https://example.com/everything',
      cost: '7',
      featured: true,
      show_map: true,
      show_map_link: true,
      hide_from_listings: false,
      venue: { venue: 'Everything Hall' },
      organizer: [{ organizer: 'Everything Society' }],
      categories: ['Everything'],
      tags: ['everything'],
    };

    it('an event created sticky with a past date comes back modified at the time of the request', async () => {
      const event = await created('/events', { title: 'Sticky with a past date', ...everything, sticky: true });
      expect([event.date, event.date_utc]).toEqual(['2020-03-01 10:00:00', '2020-03-01 10:00:00']);
      expect(nearNow(event.modified_utc), event.modified_utc).toBe(true);
      expect(event.modified).toBe(event.modified_utc); // the site's zone is UTC
      const read = await get(`/events/${event.id}`);
      expect([read.json.date, read.json.modified]).toEqual([event.date, event.modified]);
    });

    it('without sticky, no other field saves it again: modified is its publication date', async () => {
      const event = await created('/events', { title: 'Not sticky, past date', ...everything, sticky: false });
      expect([event.date, event.modified, event.modified_utc]).toEqual([
        '2020-03-01 10:00:00',
        '2020-03-01 10:00:00',
        '2020-03-01 10:00:00',
      ]);
    });

    it('GraphQL creates the same way', async () => {
      const result = await api.graphql(
        `mutation($input: CreateEventInput!) { createEvent(input: $input) { date modified modifiedUtc } }`,
        {
          input: {
            title: 'Sticky through GraphQL',
            date: '2020-03-01 10:00:00',
            startDate: `${day(41)} 10:00:00`,
            endDate: `${day(41)} 11:00:00`,
            sticky: true,
          },
        },
        api.keys.administrator,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data.createEvent.date).toBe('2020-03-01 10:00:00');
      expect(nearNow(result.data.createEvent.modifiedUtc)).toBe(true);
    });
  });
});
