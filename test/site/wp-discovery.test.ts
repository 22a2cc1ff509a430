// WordPress REST discovery as a new user tries it: `wpapi` (1.x, the usual WordPress REST client)
// given only the site's address finds the API through the `Link: <…/wp-json/>; rel="https://api.w.org/"`
// header of the site's pages (from a HEAD request, which follows no redirect: the front page answers
// itself), reads the root index, and reads events through the routes it found. The server's SITE_URL
// is its own address, so the links it sends lead back to it.
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { freePort } from '../support/ports.js';
import { useTestServer } from '../support/server.js';

// wpapi ships no type declarations: the client is used as the untyped CommonJS module it is.
const WPAPI = createRequire(import.meta.url)('wpapi');

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id slug url } }`;
const day = (days: number) => daysFromNow(days).slice(0, 10);

describe.each(DATABASE_KINDS)('WordPress REST discovery on %s', (kind) => {
  const api = useTestServer(kind, async () => {
    const port = await freePort();
    return { PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` };
  });
  const made: { id: number; slug: string; url: string }[] = [];
  beforeAll(async () => {
    for (const [title, days] of [
      ['Harbour lights', 3],
      ['Night market', 4],
    ] as const) {
      const result = await api.graphql(
        CREATE,
        { input: { title, startDate: `${day(days)} 19:00:00`, endDate: `${day(days)} 21:00:00` } },
        api.keys.administrator,
      );
      expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
      made.push(result.data.createEvent);
    }
  });

  it('every front-end page names the API root in a Link header, HEAD included', async () => {
    const link = `<${api.url}/wp-json/>; rel="https://api.w.org/"`;
    const eventPath = new URL(made[0].url).pathname;
    for (const [method, path] of [
      ['GET', '/'],
      ['HEAD', '/'],
      ['GET', '/events/'],
      ['HEAD', '/events/'],
      ['GET', eventPath],
      ['HEAD', eventPath],
      ['GET', '/event/no-such-event/'],
    ]) {
      const response = await fetch(`${api.url}${path}`, { method, redirect: 'manual' });
      expect(response.status, `${method} ${path}`).toBe(path.includes('no-such') ? 404 : 200);
      expect(response.headers.get('link'), `${method} ${path}`).toBe(link);
    }
  });

  it("wpapi's discover() finds the API from the site's address and reads events through it", async () => {
    const wp = await WPAPI.discover(api.url);
    const calendar = wp.namespace('calendar/events/v1');
    const list = await calendar.events().get();
    expect(list.events.map((event: { title: string }) => event.title)).toEqual(['Harbour lights', 'Night market']);
    expect(list.rest_url.startsWith(`${api.url}/wp-json/calendar/events/v1/events/`)).toBe(true);
    const one = await calendar.events().id(made[1].id).get();
    expect(one).toMatchObject({ id: made[1].id, title: 'Night market', slug: made[1].slug });
    // The alias namespace was discovered too, as a client written for The Events Calendar uses it.
    const tribe = await wp.namespace('tribe/events/v1').events().param('per_page', 1).get();
    expect(tribe.events.map((event: { title: string }) => event.title)).toEqual(['Harbour lights']);
    expect(tribe.total).toBe(2);
  });
});
