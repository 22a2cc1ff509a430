// WordPress REST conventions shared by every route, as WordPress clients use them: discovery through
// the API root (what wpapi's discover() does), `_fields` and `_envelope`.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';

describe.each(DATABASE_KINDS)('WordPress REST conventions on %s', (kind) => {
  const api = useTestServer(kind, { SITE_NAME: 'Springfield Events', SITE_TIMEZONE: 'America/New_York' });

  it('discovery: the Link header of any answer leads to the root index, which lists the namespaces and their routes', async () => {
    const first = await api.request('GET', `${NS}/events`);
    const link = /<([^>]+)>;\s*rel="https:\/\/api\.w\.org\/"/.exec(first.headers.get('link')!)![1];
    expect(link).toBe('http://almanac.test/wp-json/');
    const root = await api.request('GET', new URL(link).pathname);
    expect(root.status).toBe(200);
    expect(root.json).toMatchObject({
      name: 'Springfield Events',
      url: 'http://almanac.test',
      home: 'http://almanac.test',
      timezone_string: 'America/New_York',
      namespaces: ['calendar/events/v1', 'tribe/events/v1'],
      authentication: [],
    });
    expect([-4, -5]).toContain(root.json.gmt_offset);
    expect(root.json.routes['/']).toMatchObject({
      namespace: '',
      methods: ['GET'],
      _links: { self: [{ href: 'http://almanac.test/wp-json/' }] },
    });
    for (const namespace of ['calendar/events/v1', 'tribe/events/v1']) {
      expect(root.json.routes[`/${namespace}/events`]).toMatchObject({ namespace, methods: expect.arrayContaining(['GET', 'POST']) });
      // The same description as the namespace's own index.
      const index = await api.request('GET', `/wp-json/${namespace}`);
      expect(root.json.routes[`/${namespace}/events/(?P<id>\\d+)`]).toEqual(index.json.routes[`/${namespace}/events/(?P<id>\\d+)`]);
    }
    expect((await api.request('GET', '/wp-json')).json.routes['/']).toBeDefined();
    expect((await api.request('HEAD', '/wp-json/')).status).toBe(200);
  });

  it('_fields keeps only the named fields, dotted names reaching into nested ones, in the record’s own order', async () => {
    const created = await api.request('POST', `${NS}/events`, {
      key: api.keys.administrator,
      body: {
        title: 'Fielded',
        start_date: '2031-05-01 10:00:00',
        end_date: '2031-05-01 12:00:00',
        venue: { venue: 'Hall', city: 'Springfield', address: '1 Main St' },
      },
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    const one = await api.request('GET', `${NS}/events/${id}?_fields=venue.city,title,id,venue.address`);
    expect(one.text).toBe(JSON.stringify({ id, title: 'Fielded', venue: { address: '1 Main St', city: 'Springfield' } }));
    // A parent asked for whole wins over its sub-fields, whatever the order; spaces and commas both separate.
    const whole = await api.request('GET', `${NS}/events/${id}?_fields=venue.city venue,id`);
    expect(Object.keys(whole.json)).toEqual(['id', 'venue']);
    expect(whole.json.venue.id).toBe(created.json.venue.id);
    // Lists are objects in this API: `_fields` names their top-level keys.
    const list = await api.request('GET', `${NS}/events?start_date=2031-01-01&end_date=2031-12-31&_fields=total,total_pages`);
    expect(list.json).toEqual({ total: 1, total_pages: 1 });
    expect(list.headers.get('x-tec-total')).toBe('1');
    // Nothing named that exists: PHP's empty array.
    expect((await api.request('GET', `${NS}/events/${id}?_fields=nothing`)).text).toBe('[]');
    // Errors are never filtered.
    const missing = await api.request('GET', `${NS}/events/999999?_fields=id`);
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('rest-event-not-found');
  });

  it('_fields naming __proto__ or constructor filters like any other name and changes no prototype', async () => {
    // These masks once wrote `polluted` into Object.prototype, and the next batched Prisma query
    // crashed the process (the hostile suite found it: hostile/fuzz.test.ts).
    const fields = '__proto__.polluted,constructor.prototype.polluted,__proto__,total';
    const answer = await api.request('GET', `${NS}/venues?_fields=${fields}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ total: expect.any(Number) });
    expect(Object.prototype).not.toHaveProperty('polluted');
    const events = await api.request('GET', `${NS}/events?_fields=${fields}`);
    expect(events.status).toBe(200);
    expect(events.json).toEqual({ total: expect.any(Number) });
  });

  it('a method no route serves answers 404 rest_no_route, whatever the method', async () => {
    // PROPFIND (like TRACE) once became 501 on the way out, with the 404 body (hostile/fuzz.test.ts).
    for (const path of [NS, `${NS}/events`, `${NS}/venues/1`]) {
      const answer = await api.request('PROPFIND', path);
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
    }
  });

  it('_envelope answers 200 with the status and headers in the body', async () => {
    const listed = await api.request('GET', `${NS}/venues?_envelope`);
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({ status: 200, headers: { 'X-TEC-Total': expect.any(String) }, body: { venues: expect.any(Array) } });
    const missing = await api.request('GET', `${NS}/events/999999?_envelope=1`);
    expect(missing.status).toBe(200);
    expect(missing.json).toMatchObject({ status: 404, body: { code: 'rest-event-not-found', data: { status: 404 } } });
    const both = await api.request('GET', `${NS}/venues?_envelope&_fields=total`);
    expect(both.json.body).toEqual({ total: expect.any(Number) });
  });
});
