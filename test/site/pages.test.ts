// The public pages as visitors and crawlers meet them: over HTTP on SQLite and PostgreSQL, then in a
// real browser (Debian's Chromium), with screenshots in test-artifacts/site/.
import { beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../support/browser.js';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id slug url categories { slug url } tags { slug url } venue { id slug url } organizers { id slug url } } }`;
const ARTIFACTS = 'test-artifacts/site';

interface Made {
  id: number;
  slug: string;
  url: string;
  categories: { slug: string; url: string }[];
  tags: { slug: string; url: string }[];
  venue: { id: number; slug: string; url: string } | null;
  organizers: { id: number; slug: string; url: string }[];
}

async function create(api: TestServer, input: Record<string, unknown>): Promise<Made> {
  const result = await api.graphql(CREATE, { input }, api.keys.administrator);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data.createEvent;
}
const path = (url: string) => new URL(url).pathname;
const day = (days: number) => daysFromNow(days).slice(0, 10);

/** A small calendar: a concert in a child category, a talk, a draft, a protected dinner. */
async function seed(api: TestServer) {
  const parent = await api.graphql(`mutation { createEventCategory(input: { name: "Music" }) { id } }`, {}, api.keys.administrator);
  expect(parent.errors).toBeUndefined();
  const child = await api.graphql(
    `mutation($parent: ID!) { createEventCategory(input: { name: "Jazz", parent: $parent }) { id } }`,
    { parent: String(parent.data.createEventCategory.id) },
    api.keys.administrator,
  );
  expect(child.errors).toBeUndefined();
  const concert = await create(api, {
    title: 'Quartet <live> & friends',
    description: '<p>Two sets of standards.</p><script>document.title = "owned"</script>',
    startDate: `${day(5)} 20:00:00`,
    endDate: `${day(5)} 22:30:00`,
    timezone: 'Europe/Paris',
    venue: { venue: 'Blue Note Hall', address: '5 Rue Royale', city: 'Paris', country: 'France' },
    organizer: [{ organizer: 'Jazz Society', email: 'hello@jazz.example' }],
    categories: ['jazz'],
    tags: ['live'],
    cost: ['15'],
  });
  const talk = await create(api, {
    title: 'Stars over the city',
    startDate: `${day(6)} 18:00:00`,
    endDate: `${day(6)} 19:00:00`,
    tags: ['live'],
  });
  // A draft has no slug unless given one (WordPress names a post when it publishes it).
  const draft = await create(api, {
    title: 'Secret rehearsal',
    slug: 'secret-rehearsal',
    startDate: `${day(7)} 10:00:00`,
    endDate: `${day(7)} 11:00:00`,
    status: 'draft',
  });
  const dinner = await create(api, {
    title: 'Members dinner',
    description: 'The tasting menu.',
    password: 'opensesame',
    startDate: `${day(8)} 19:00:00`,
    endDate: `${day(8)} 22:00:00`,
  });
  return { concert, talk, draft, dinner };
}

describe.each(DATABASE_KINDS)('public pages on %s', (kind) => {
  const api = useTestServer(kind, { POSTS_PER_PAGE: '2', SITE_NAME: 'Paris Jazz' });
  let made: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    made = await seed(api);
  });

  it('the upcoming list pages through the events, with discovery headers, a feed link and a strict CSP', async () => {
    const first = await api.request('GET', '/events/');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(first.headers.get('x-tec-api-version')).toBe('v1');
    expect(first.headers.get('x-tec-api-root')).toBe('http://almanac.test/wp-json/calendar/events/v1/');
    expect(first.headers.get('x-tec-api-origin')).toBe('http://almanac.test');
    expect(first.text).toContain('<title>Upcoming events – Paris Jazz</title>');
    expect(first.text).toContain('<meta name="tec-api-version" content="v1">');
    expect(first.text).toContain('type="text/calendar"');
    const titles = [...first.text.matchAll(/<h2><a href="[^"]+">([^<]+)<\/a><\/h2>/g)].map((m) => m[1]);
    expect(titles).toEqual(['Quartet &lt;live&gt; &amp; friends', 'Stars over the city']);
    expect(first.text).toContain('rel="next" href="/events/?page=2"');
    const second = await api.request('GET', '/events/?page=2');
    expect([...second.text.matchAll(/<h2><a href="[^"]+">([^<]+)<\/a><\/h2>/g)].map((m) => m[1])).toEqual(['Members dinner']);
    expect(second.text).not.toContain('Secret rehearsal');
    expect((await api.request('GET', '/events/?page=3')).status).toBe(404);
    expect((await api.request('GET', '/events/?page=abc')).status).toBe(404);
    // Assets come from Almanac itself.
    const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(first.text)![1];
    expect(stylesheet).toMatch(/^\/assets\/site\.css\?v=\w+$/);
    const css = await api.request('GET', stylesheet);
    expect(css.status).toBe(200);
    expect(css.headers.get('cache-control')).toContain('immutable');
    expect(first.text).not.toMatch(/<(script|link)[^>]+(src|href)="https?:\/\/(?!almanac\.test)/);
  });

  it('an event page shows the event in its own zone, its venue, organizer, terms and add-to-calendar links, with JSON-LD', async () => {
    const page = await api.request('GET', path(made.concert.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('x-tec-api-root')).toBe(`http://almanac.test/wp-json/calendar/events/v1/events/${made.concert.id}`);
    expect(page.text).toContain('<h1>Quartet &lt;live&gt; &amp; friends</h1>');
    expect(page.text).toMatch(/20:00 – 22:30 (CET|CEST)/);
    expect(page.text).toContain('Blue Note Hall');
    expect(page.text).toContain('5 Rue Royale, Paris, France');
    expect(page.text).toContain('mailto:hello@jazz.example');
    expect(page.text).toContain(`href="${path(made.concert.categories[0].url)}"`);
    expect(made.concert.categories[0].url).toBe('http://almanac.test/events/category/music/jazz/');
    expect(page.text).toContain('calendar.google.com/calendar/render');
    expect(page.text).toContain(`${path(made.concert.url)}ical/`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page.text)![1]);
    expect(jsonLd[0] ?? jsonLd).toMatchObject({ '@type': 'Event', name: expect.stringContaining('Quartet') });
    // HEAD answers the same headers.
    const head = await api.request('HEAD', path(made.concert.url));
    expect(head.status).toBe(200);
    expect(head.headers.get('x-tec-api-root')).toBe(page.headers.get('x-tec-api-root'));
  });

  it('archives of a category (nested path), a tag, a venue and an organizer list their events', async () => {
    const category = await api.request('GET', path(made.concert.categories[0].url));
    expect(category.status).toBe(200);
    expect(category.text).toContain('<h1>Category: Jazz</h1>');
    expect(category.text).toContain('Quartet');
    expect(category.text).not.toContain('Stars over the city');
    expect(category.headers.get('x-tec-api-root')).toBe('http://almanac.test/wp-json/calendar/events/v1/events/?categories=jazz');
    expect((await api.request('GET', '/events/category/music/')).status).toBe(200);

    const tag = await api.request('GET', path(made.concert.tags[0].url));
    expect(tag.text).toContain('<h1>Tag: live</h1>');
    expect(tag.headers.get('x-tec-api-root')).toBe('http://almanac.test/wp-json/calendar/events/v1/events/?tags=live');
    expect(tag.text).toContain('Stars over the city');

    const venue = await api.request('GET', path(made.concert.venue!.url));
    expect(venue.text).toContain('<h1>Blue Note Hall</h1>');
    expect(venue.headers.get('x-tec-api-root')).toBe(
      `http://almanac.test/wp-json/calendar/events/v1/events/?venue=${made.concert.venue!.id}`,
    );
    expect(venue.text).toContain('Quartet');
    const organizer = await api.request('GET', path(made.concert.organizers[0].url));
    expect(organizer.text).toContain('<h1>Jazz Society</h1>');
    expect(organizer.text).toContain('Quartet');

    // Each archive is a feed too.
    const feed = await api.request('GET', `${path(made.concert.venue!.url)}?ical=1`);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(feed.text).toContain('SUMMARY:Quartet <live> & friends');
  });

  it('drafts and unknown records are 404 pages; protected events ask for their password', async () => {
    for (const url of [
      `/event/${made.draft.slug}/`,
      '/event/no-such-event/',
      '/events/category/no-such/',
      '/venue/nowhere/',
      '/tag/none/',
    ]) {
      const page = await api.request('GET', url);
      expect(page.status, url).toBe(404);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('<h1>Not found</h1>');
    }
    const locked = await api.request('GET', path(made.dinner.url));
    expect(locked.status).toBe(200);
    expect(locked.text).toContain('name="post_password"');
    expect(locked.text).not.toContain('The tasting menu.');
    const wrong = await api.request('POST', path(made.dinner.url), { form: 'post_password=nope' });
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('That password is not right.');
    const right = await api.request('POST', path(made.dinner.url), { form: 'post_password=opensesame' });
    expect(right.status).toBe(200);
    expect(right.text).toContain('The tasting menu.');
    expect((await api.request('PUT', path(made.dinner.url))).status).toBe(405);
  });

  it('the site root is the upcoming list (no redirect), with the discovery headers naming the primary namespace', async () => {
    const root = await fetch(`${api.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(200);
    const text = await root.text();
    expect(text).toContain('<title>Upcoming events – Paris Jazz</title>');
    expect(text).toContain('<link rel="canonical" href="http://almanac.test/events/">');
    expect(root.headers.get('link')).toBe('<http://almanac.test/wp-json/>; rel="https://api.w.org/"');
    expect(root.headers.get('x-tec-api-root')).toBe('http://almanac.test/wp-json/calendar/events/v1/');
    const head = await fetch(`${api.url}/`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(200);
    expect(head.headers.get('link')).toBe(root.headers.get('link'));
  });
});

describe('public pages in a browser', () => {
  const api = useTestServer('sqlite', { SITE_NAME: 'Paris Jazz' });
  const chromium = useChromium(ARTIFACTS);
  let made: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    made = await seed(api);
  });

  it('a visitor goes from the list to an event, keyboard first, on a wide and a phone screen; no script runs', async () => {
    for (const [name, viewport] of [
      ['wide', { width: 1100, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const page = await chromium.browser.newPage({ viewport });
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/.test(message.text())) violations.push(message.text());
      });
      await page.goto(`${api.url}/events/`);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.screenshot({ path: `${ARTIFACTS}/${name}-list.png`, fullPage: true });
      await page.getByRole('link', { name: 'Quartet <live> & friends' }).click();
      await expect.poll(() => page.url()).toBe(`${api.url}${path(made.concert.url)}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Quartet <live> & friends');
      // The description's <script> was kept out by the page's CSP.
      expect(await page.title()).toBe('Quartet <live> & friends – Paris Jazz');
      expect(violations.length).toBeGreaterThan(0);
      // Nothing overflows the screen sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `${ARTIFACTS}/${name}-event.png`, fullPage: true });
      await page.close();
    }
  });

  it('a visitor unlocks a protected event with its password', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(`${api.url}${path(made.dinner.url)}`);
    await page.getByLabel('Password').fill('opensesame');
    await page.getByRole('button', { name: 'Show the event' }).click();
    await expect.poll(async () => page.locator('.description').textContent()).toContain('The tasting menu.');
    await page.screenshot({ path: `${ARTIFACTS}/unlocked-event.png`, fullPage: true });
    await page.close();
  });
});
