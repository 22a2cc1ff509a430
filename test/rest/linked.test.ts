// Venues and organizers over the REST API (spec §2.5, §2.6, §3.2, §3.3, §3.7), on both databases:
// the original's recorded exchanges replayed exactly, then every route, error code, role outcome,
// duplicate reuse, derived stateprovince and password masking. Behaviour both types share runs
// once per type.
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/auth/viewer.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';
import {
  FORBIDDEN,
  NAMESPACES,
  SITE_URL,
  client,
  expectError,
  expectInvalid,
  expectSameBody,
  expectStatus,
  haveSamples,
  sample,
} from './calendar-support.js';

type Caller = Role | 'anonymous';

interface Kind {
  type: 'venue' | 'organizer';
  plural: 'venues' | 'organizers';
  Name: 'Venue' | 'Organizer';
  /** A meta field of the type and a value for it. */
  meta: [string, string];
}
const TYPES: Kind[] = [
  { type: 'venue', plural: 'venues', Name: 'Venue', meta: ['city', 'Springfield'] },
  { type: 'organizer', plural: 'organizers', Name: 'Organizer', meta: ['email', 'info@example.com'] },
];

/** A name no other record has (search fragments are letters and digits). */
const unique = (stem: string) => `${stem} ${Math.random().toString(36).slice(2, 9)}`;

function helpers(api: TestServer) {
  const rest = client(api);
  const key = (caller: Caller) => (caller === 'anonymous' ? undefined : api.keys[caller]);
  const as = (caller: Caller) => (method: string, path: string, body?: unknown) => rest(method, path, { body, key: key(caller) });
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const result = await api.graphql(query, variables, api.keys.administrator);
    expect(result.errors).toBeUndefined();
    return result.data;
  };
  return {
    rest,
    as,
    admin: as('administrator'),
    anonymous: as('anonymous'),
    gql,
    /** Creates a record over REST as `caller`; returns its body. */
    async create(k: Kind, fields: Record<string, unknown> = {}, caller: Caller = 'administrator') {
      return expectStatus(await as(caller)('POST', `/${k.plural}`, { [k.type]: unique(k.Name), ...fields }), 201);
    },
    /** An event (through GraphQL) linked to the given venue/organizer ids. */
    async event(links: { venue?: number; organizer?: number[] }, extra: Record<string, unknown> = {}) {
      const input = { title: unique('Event'), startDate: 'tomorrow 10am', endDate: 'tomorrow 11am', ...links, ...extra };
      return (await gql('mutation($input: CreateEventInput!) { e: createEvent(input: $input) { id } }', { input })).e.id as number;
    },
    async protect(k: Kind, id: number, password: string) {
      await gql(`mutation($id: Int, $input: Update${k.Name}Input!) { r: update${k.Name}(id: $id, input: $input) { id } }`, {
        id,
        input: { password },
      });
    },
  };
}

describe.each(DATABASE_KINDS)('venues and organizers over REST (%s)', (dbKind) => {
  const api = useTestServer(dbKind, { SITE_URL });

  describe('the original’s recorded exchanges', () => {
    // A fresh database: these run first, so the lists hold exactly the recorded records.
    it.skipIf(!haveSamples)('replays the venue samples (04, 04a, 18, 19)', async () => {
      const { admin, anonymous } = helpers(api);
      const created = await admin('POST', '/venues', sample('04-venue-create').request);
      expectStatus(created, 201);
      expectSameBody(created.json, sample('04-venue-create').body);
      expect(created.headers.get('allow')).toBe('GET, POST');

      // Almanac decision 9: JSON booleans are accepted (the original answers 400, sample 04a).
      const bools = expectStatus(await admin('POST', '/venues', sample('04a-venue-create-json-bool-showmap-400').request), 201);
      expect([bools.show_map, bools.show_map_link]).toEqual([true, true]);
      expectStatus(await admin('DELETE', `/venues/${bools.id}`), 200);

      expectStatus(await admin('POST', '/venues', { venue: 'City Park', city: 'Springfield', country: 'United States' }), 201);
      const list = await anonymous('GET', '/venues');
      expectStatus(list, 200);
      expectSameBody(list.json, sample('18-venues-list').body);
      expect([list.headers.get('x-tec-total'), list.headers.get('x-tec-totalpages'), list.headers.get('allow')]).toEqual(['2', '1', 'GET']);

      const single = await anonymous('GET', `/venues/${created.json.id}`);
      expectStatus(single, 200);
      expectSameBody(single.json, sample('19-venue-get').body);
      expect(single.headers.get('allow')).toBe('GET');
      expect(single.headers.get('x-tec-total')).toBeNull();
    });

    it.skipIf(!haveSamples)('replays the organizer samples (05, 20, 21)', async () => {
      const { admin, anonymous } = helpers(api);
      const created = await admin('POST', '/organizers', sample('05-organizer-create').request);
      expectStatus(created, 201);
      expectSameBody(created.json, sample('05-organizer-create').body);
      expectStatus(await admin('POST', '/organizers', { organizer: 'Art Council', email: 'art@example.com' }), 201);
      const list = await anonymous('GET', '/organizers');
      expectSameBody(expectStatus(list, 200), sample('20-organizers-list').body);
      expect([list.headers.get('x-tec-total'), list.headers.get('x-tec-totalpages')]).toEqual(['2', '1']);
      expectSameBody(expectStatus(await anonymous('GET', `/organizers/${created.json.id}`), 200), sample('21-organizer-get').body);
    });
  });

  describe.each(TYPES)('$plural', (k) => {
    it('creates (201, no json_ld), reads by id and slug (with json_ld), updates (200) and trashes (200, then 410)', async () => {
      const { admin, anonymous, create } = helpers(api);
      const record = await create(k, { description: 'About it', [k.meta[0]]: k.meta[1] });
      expect(record.json_ld).toBeUndefined();
      expect(record.description).toBe('<p>About it</p>');
      expect(record[k.meta[0]]).toBe(k.meta[1]);
      expect(record.url).toBe(`${SITE_URL}/${k.type}/${record.slug}/`);
      expect(record.rest_url).toBeUndefined();

      const byId = expectStatus(await anonymous('GET', `/${k.plural}/${record.id}`), 200);
      const head = await anonymous('HEAD', `/${k.plural}/${record.id}`);
      expect([head.status, head.text]).toEqual([200, '']);
      const bySlug = expectStatus(await anonymous('GET', `/${k.plural}/by-slug/${record.slug}`), 200);
      expect(byId).toEqual(bySlug);
      expect(Object.keys(byId)).toEqual(Object.keys(bySlug));
      expect(byId.json_ld['@type']).toBe(k.type === 'venue' ? 'Place' : 'Person');
      const { json_ld: _ld, ...withoutLd } = byId;
      expect(withoutLd).toEqual(record);

      // Only the given fields change; "" clears a meta field (the key disappears).
      const updated = expectStatus(await admin('POST', `/${k.plural}/${record.id}`, { [k.meta[0]]: '', phone: '555' }), 200);
      expect(updated[k.meta[0]]).toBeUndefined();
      expect(updated.phone).toBe('555');
      expect(updated.description).toBe('<p>About it</p>');
      expect(updated[k.type]).toBe(record[k.type]);
      for (const method of ['PUT', 'PATCH']) {
        expect(expectStatus(await admin(method, `/${k.plural}/${record.id}`, { phone: method }), 200).phone).toBe(method);
      }
      const renamed = expectStatus(await admin('PATCH', `/${k.plural}/by-slug/${record.slug}`, { [k.type]: 'Renamed' }), 200);
      expect(renamed[k.type]).toBe('Renamed');

      const trashed = expectStatus(await admin('DELETE', `/${k.plural}/${record.id}`), 200);
      expect(trashed.status).toBe('trash');
      expect(trashed.id).toBe(record.id);
      expectError(await admin('DELETE', `/${k.plural}/${record.id}`), 410, `${k.type}-is-in-trash`, `The ${k.type} is already trashed`);
      // Trashed: not accessible anonymously, readable by editors.
      expectError(
        await anonymous('GET', `/${k.plural}/${record.id}`),
        403,
        `${k.type}-not-accessible`,
        `The requested ${k.type} is not accessible`,
      );
      expect(expectStatus(await helpers(api).as('editor')('GET', `/${k.plural}/${record.id}`), 200).status).toBe('trash');
    });

    it('validates before checking permissions (§0.3)', async () => {
      const { anonymous, as, create } = helpers(api);
      // Unknown ids and slugs are 400 for everybody, even where the caller may not write.
      for (const caller of ['anonymous', 'subscriber'] as Caller[]) {
        for (const method of ['GET', 'DELETE', 'POST', 'PUT', 'PATCH']) {
          expectInvalid(await as(caller)(method, `/${k.plural}/23`), ['id']);
          expectInvalid(await as(caller)(method, `/${k.plural}/by-slug/no-such-${k.type}`), ['slug']);
        }
      }
      expectError(
        await anonymous('GET', `/${k.plural}/foo`),
        404,
        'rest_no_route',
        'No route was found matching the URL and request method.',
      );
      expectError(await anonymous('POST', `/${k.plural}`, '{"broken'), 400, 'rest_invalid_json', 'Invalid JSON body passed.');
      // Missing name first, then invalid values, then the permission.
      expect(expectStatus(await anonymous('POST', `/${k.plural}`, {}), 400)).toEqual({
        code: 'rest_missing_callback_param',
        message: `Missing parameter(s): ${k.type}`,
        data: { status: 400, params: [k.type] },
      });
      expectInvalid(await anonymous('POST', `/${k.plural}`, { [k.type]: '' }), [k.type]);
      expectInvalid(
        await anonymous('POST', `/${k.plural}`, {
          [k.type]: 'X',
          website: 'foo',
          date: 'foo',
          status: 'kinda_thinking_about_it',
          author: 'me',
        }),
        ['author', 'date', k.type, 'status', 'website'].filter((name) => name !== k.type),
      );
      expectError(await anonymous('POST', `/${k.plural}`, { [k.type]: 'X' }), 401, 'rest_forbidden', FORBIDDEN);
      expectError(await as('subscriber')('POST', `/${k.plural}`, { [k.type]: 'X' }), 403, 'rest_forbidden', FORBIDDEN);
      // Type checks come after the validators (step 4): "12" is an integer, 1.5 is not.
      const record = await create(k);
      expectInvalid(await helpers(api).admin('POST', `/${k.plural}/${record.id}`, { author: 1.5 }), {
        author: 'author is not of type integer.',
      });
      expectInvalid(await helpers(api).admin('POST', `/${k.plural}/${record.id}`, { [k.type]: '' }), [k.type]);
      // An unauthorised caller's write of an existing record is refused.
      expectError(await anonymous('DELETE', `/${k.plural}/${record.id}`), 401, 'rest_forbidden');
      expectError(await as('subscriber')('PUT', `/${k.plural}/${record.id}`, { phone: '1' }), 403, 'rest_forbidden');
    });

    it('checks the data-dependent arguments in GraphQL (author, image)', async () => {
      const { admin, as } = helpers(api);
      expectInvalid(await admin('POST', `/${k.plural}`, { [k.type]: unique('X'), author: 999999 }), ['author']);
      expectInvalid(await admin('POST', `/${k.plural}`, { [k.type]: unique('X'), image: '424242' }), ['image']);
      // An image URL needs the upload capability: contributors get 400 before anything is fetched.
      expectInvalid(await as('contributor')('POST', `/${k.plural}`, { [k.type]: unique('X'), image: 'http://127.0.0.1:9/x.jpg' }), [
        'image',
      ]);
      const own = expectStatus(await admin('POST', `/${k.plural}`, { [k.type]: unique('X'), author: '2' }), 201);
      expect(own.author).toBe('2');
    });

    it('gives each role what the original does', async () => {
      const { as, create } = helpers(api);
      const contributorsOwn = await create(k, {}, 'contributor');
      expect(contributorsOwn.status).toBe('draft'); // scaled back
      expect((await create(k, { status: 'publish' }, 'contributor')).status).toBe('pending');
      expect((await create(k, { status: 'draft' }, 'author')).status).toBe('draft');
      const adminsOwn = await create(k);
      const authorsOwn = await create(k, {}, 'author');
      expect(authorsOwn.status).toBe('publish');

      // Contributors: their own drafts only; authors: their own, published too; editors: any.
      expectStatus(await as('contributor')('POST', `/${k.plural}/${contributorsOwn.id}`, { phone: '1' }), 200);
      expectError(await as('contributor')('POST', `/${k.plural}/${adminsOwn.id}`, { phone: '1' }), 403, 'rest_forbidden');
      expectError(await as('contributor')('DELETE', `/${k.plural}/${authorsOwn.id}`), 403, 'rest_forbidden');
      expectStatus(await as('author')('POST', `/${k.plural}/${authorsOwn.id}`, { phone: '1' }), 200);
      expectError(await as('author')('DELETE', `/${k.plural}/${adminsOwn.id}`), 403, 'rest_forbidden');
      expectStatus(await as('editor')('POST', `/${k.plural}/${adminsOwn.id}`, { phone: '2' }), 200);

      // Drafts: only those who may read them.
      expectError(await as('anonymous')('GET', `/${k.plural}/${contributorsOwn.id}`), 403, `${k.type}-not-accessible`);
      expectError(await as('author')('GET', `/${k.plural}/${contributorsOwn.id}`), 403, `${k.type}-not-accessible`);
      expectStatus(await as('contributor')('GET', `/${k.plural}/${contributorsOwn.id}`), 200);
      expectStatus(await as('editor')('GET', `/${k.plural}/by-slug/${contributorsOwn.slug}`), 200);

      // The Allow header follows the same rules.
      expect((await as('anonymous')('GET', `/${k.plural}/${adminsOwn.id}`)).headers.get('allow')).toBe('GET');
      expect((await as('administrator')('GET', `/${k.plural}/${adminsOwn.id}`)).headers.get('allow')).toBe('GET, DELETE, POST, PUT, PATCH');
      expect((await as('contributor')('GET', `/${k.plural}/${adminsOwn.id}`)).headers.get('allow')).toBe('GET');
      expect((await as('contributor')('GET', `/${k.plural}`)).headers.get('allow')).toBe('GET, POST');

      // Slug routes: the original checks only the general capability there (quirk 10), so a
      // contributor could trash an author's published record; Almanac checks the record (README).
      expectError(await as('contributor')('DELETE', `/${k.plural}/${authorsOwn.id}`), 403, 'rest_forbidden');
      expectError(await as('contributor')('DELETE', `/${k.plural}/by-slug/${authorsOwn.slug}`), 403, 'rest_forbidden');
      expect(expectStatus(await as('author')('DELETE', `/${k.plural}/by-slug/${authorsOwn.slug}`), 200).status).toBe('trash');
      expectStatus(await as('contributor')('DELETE', `/${k.plural}/${contributorsOwn.id}`), 200);
    });

    it('reuses a duplicate on create (same name, and description when given)', async () => {
      const { create, admin } = helpers(api);
      const name = unique(k.Name);
      const first = await create(k, { [k.type]: name, description: 'A description' });
      const again = [
        { [k.type]: name },
        { [k.type]: name.toUpperCase(), description: 'a DESCRIPTION' },
        { [k.type]: name.toLowerCase(), phone: '555-1234', [k.meta[0]]: k.meta[1] },
      ];
      for (const body of again) expect(expectStatus(await admin('POST', `/${k.plural}`, body), 201).id).toBe(first.id);
      // The last one overwrote the meta.
      const reused = expectStatus(await admin('GET', `/${k.plural}/${first.id}`), 200);
      expect([reused.phone, reused[k.meta[0]]]).toEqual(['555-1234', k.meta[1]]);
      // Another description, or a trashed namesake, makes a new record.
      const other = await create(k, { [k.type]: name, description: 'Another' });
      expect(other.id).not.toBe(first.id);
      expectStatus(await admin('DELETE', `/${k.plural}/${first.id}`), 200);
      expectStatus(await admin('DELETE', `/${k.plural}/${other.id}`), 200);
      expect((await create(k, { [k.type]: name })).id).not.toBe(first.id);
    });

    it('lists with filters, paging, rest_url/next/previous, headers and 404 past the end', async () => {
      const { admin, anonymous, create, event, as } = helpers(api);
      const token = 'zq' + Math.random().toString(36).slice(2, 8);
      const records = [];
      for (let i = 0; i < 3; i++) records.push(await create(k, { description: `${token} number ${i}` }));
      const linked = k.type === 'venue' ? { venue: records[0].id } : { organizer: [records[0].id] };
      const eventId = await event(linked);

      const base = `${SITE_URL}/wp-json/tribe/events/v1/${k.plural}/`;
      const page1 = await anonymous('GET', `/${k.plural}?search=${token}&per_page=2`);
      const body1 = expectStatus(page1, 200);
      expect(Object.keys(body1)).toEqual([k.plural, 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expect(body1[k.plural].map((r: any) => r.id)).toEqual([records[2].id, records[1].id]); // newest first
      expect(body1.rest_url).toBe(`${base}?page=1&per_page=2&status=publish`); // search is not carried
      expect(body1.next_rest_url).toBe(`${base}?per_page=2&status=publish&page=2`);
      expect([body1.total, body1.total_pages]).toEqual([3, 2]);
      expect([page1.headers.get('x-tec-total'), page1.headers.get('x-tec-totalpages')]).toEqual(['3', '2']);
      expect(page1.headers.get('link')).toBe(`<${SITE_URL}/wp-json/>; rel="https://api.w.org/"`);
      expect(page1.headers.get('x-wp-total')).toBeNull();

      const body2 = expectStatus(await anonymous('GET', `/${k.plural}?search=${token}&per_page=2&page=2`), 200);
      expect(Object.keys(body2)).toEqual([k.plural, 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
      expect(body2.previous_rest_url).toBe(`${base}?per_page=2&status=publish`);
      expectError(
        await anonymous('GET', `/${k.plural}?search=${token}&per_page=2&page=3`),
        404,
        `${k.type}-archive-page-not-found`,
        `The requested ${k.type} archive page does not exist`,
      );

      // event, has_events (carried in rest_url), status for editors (all but trash by default: "any").
      const byEvent = expectStatus(await admin('GET', `/${k.plural}?event=${eventId}&has_events=1`), 200);
      expect(byEvent[k.plural].map((r: any) => r.id)).toEqual([records[0].id]);
      expect(byEvent.rest_url).toBe(`${base}?page=1&per_page=10&event=${eventId}&has_events=1&status=any`);
      const withoutEvents = expectStatus(await admin('GET', `/${k.plural}?search=${token}&has_events=false`), 200);
      expect(withoutEvents[k.plural].map((r: any) => r.id)).toEqual([records[2].id, records[1].id]);
      const upcoming = expectStatus(await admin('GET', `/${k.plural}?search=${token}&only_with_upcoming=yes`), 200);
      expect(upcoming[k.plural].map((r: any) => r.id)).toEqual([records[0].id]);
      expect(upcoming.rest_url).toBe(`${base}?page=1&per_page=10&status=any`);
      const drafts = expectStatus(await as('editor')('GET', `/${k.plural}?status=draft,pending&per_page=100`), 200);
      expect(drafts.rest_url).toBe(`${base}?page=1&per_page=50&status=draft%2Cpending`); // capped at 50

      // A search that matches nothing: an empty list with the unfiltered totals (quirk 8, faithful).
      const none = expectStatus(await anonymous('GET', `/${k.plural}?search=nothingmatchesthis`), 200);
      const all = expectStatus(await anonymous('GET', `/${k.plural}`), 200);
      expect(none[k.plural]).toEqual([]);
      expect([none.total, none.total_pages]).toEqual([all.total, all.total_pages]);
      // Fragments are runs of letters, digits and "-", "0" dropped (PHP's array_filter); none left: nothing matches.
      for (const search of ['!!!', ' ', '0 0'])
        expect(expectStatus(await anonymous('GET', `/${k.plural}?search=${encodeURIComponent(search)}`), 200)[k.plural], search).toEqual(
          [],
        );
      const withZero = expectStatus(await anonymous('GET', `/${k.plural}?search=${token}+0&per_page=2`), 200);
      expect(withZero[k.plural].map((r: any) => r.id)).toEqual([records[2].id, records[1].id]);
      expectInvalid(await anonymous('GET', `/${k.plural}?search=0`), ['search']); // TEC's is_string: PHP-empty is invalid

      // Invalid filters: 400 with every invalid one named, in declaration order.
      expectInvalid(await anonymous('GET', `/${k.plural}?page=0&per_page=foo&search=&event=${records[1].id}&status=draft`), [
        'page',
        'per_page',
        'search',
        'event',
        'status',
      ]);
      expectInvalid(await anonymous('GET', `/${k.plural}?event=23`), ['event']);
      expectInvalid(await as('editor')('GET', `/${k.plural}?status=foo,publish`), ['status']);
      expectStatus(await anonymous('GET', `/${k.plural}?status=publish`), 200);
    });

    it('masks password-protected records unless the password is given (§3.7)', async () => {
      const { admin, anonymous, create, protect } = helpers(api);
      const token = 'zp' + Math.random().toString(36).slice(2, 8);
      const fields =
        k.type === 'venue'
          ? {
              description: token,
              address: '1 Main St',
              city: 'Springfield',
              country: 'United States',
              state: 'IL',
              zip: '62701',
              phone: '555',
              website: 'https://example.com',
            }
          : { description: token, phone: '555', website: 'https://example.com', email: 'x@example.com' };
      const record = await create(k, fields);
      await protect(k, record.id, 'secret');

      const masked = expectStatus(await anonymous('GET', `/${k.plural}?search=${token}`), 200)[k.plural][0];
      // Protecting it was an update: `modified` may have moved on by a second since the create.
      expect(masked.modified >= record.modified).toBe(true);
      const expected: Record<string, unknown> = {
        ...record,
        modified: masked.modified,
        modified_utc: masked.modified_utc,
        [k.type]: [],
        description: '',
      };
      if (k.type === 'venue')
        Object.assign(expected, {
          address: '',
          city: '',
          country: '',
          zip: '',
          phone: '',
          website: '',
          stateprovince: '',
          show_map: null,
          show_map_link: null,
        });
      else Object.assign(expected, { phone: '', website: '', email: '' });
      expect(masked).toEqual(expected);
      expect(Object.keys(masked)).toEqual(Object.keys(record));

      const single = expectStatus(await anonymous('GET', `/${k.plural}/${record.id}`), 200);
      const { json_ld: _ld, ...rest } = single;
      expect(rest).toEqual(expected);
      // The password, or the edit context of someone who may edit, unlocks; writes are never masked.
      const current = { ...record, modified: masked.modified, modified_utc: masked.modified_utc };
      const { json_ld: _ld2, ...unlocked } = expectStatus(await anonymous('GET', `/${k.plural}/${record.id}?password=secret`), 200);
      expect(unlocked).toEqual(current);
      expect(expectStatus(await anonymous('GET', `/${k.plural}?search=${token}&password=secret`), 200)[k.plural][0]).toEqual(current);
      expect(expectStatus(await admin('GET', `/${k.plural}?search=${token}&context=edit`), 200)[k.plural][0]).toEqual(current);
      expect(expectStatus(await admin('GET', `/${k.plural}?search=${token}`), 200)[k.plural][0]).toEqual(expected);
      expect(expectStatus(await admin('POST', `/${k.plural}/${record.id}`, { phone: '555' }), 200)).toEqual({
        ...record,
        modified: expect.any(String),
        modified_utc: expect.any(String),
      });
    });
  });

  describe('venue specifics', () => {
    const venues = TYPES[0];

    it('derives stateprovince; accepts show_map strings and JSON booleans', async () => {
      const { create, admin } = helpers(api);
      expect((await create(venues, { state: 'DC', country: 'United States' })).stateprovince).toBe('DC');
      expect((await create(venues, { province: 'ON', state: 'XX', country: 'Canada' })).stateprovince).toBe('ON');
      expect((await create(venues, { state: 'TX' })).stateprovince).toBe('TX');
      expect((await create(venues, { state: 'DC', stateprovince: 'Capital' })).stateprovince).toBe('Capital');
      const flags = [
        ['true', 'false', true, false],
        ['1', '0', true, false],
        ['yes', 'no', true, false],
        [true, false, true, false],
      ] as const;
      for (const [showMap, showMapLink, map, link] of flags) {
        const venue = await create(venues, { show_map: showMap, show_map_link: showMapLink });
        expect([venue.show_map, venue.show_map_link]).toEqual([map, link]);
      }
      const omitted = await create(venues);
      expect([omitted.show_map, omitted.show_map_link]).toEqual([true, true]);
      // Almanac: an update that omits them keeps them (decision 1–3).
      const off = await create(venues, { show_map: 'false' });
      expect(expectStatus(await admin('POST', `/venues/${off.id}`, { city: 'X' }), 200).show_map).toBe(false);
      expectInvalid(await admin('POST', '/venues', { venue: 'X', show_map: [1] }), { show_map: 'show_map is not of type string.' });
      const numeric = expectStatus(await admin('POST', '/venues', { venue: 'X', show_map_link: 1 }), 400);
      expect(numeric.data.details.show_map_link).toEqual({
        code: 'rest_invalid_type',
        message: 'show_map_link is not of type string.',
        data: { param: 'show_map_link' },
      });
    });

    it('accepts form bodies with PHP nesting, method override and both namespaces', async () => {
      for (const namespace of NAMESPACES) {
        const rest = client(api, namespace);
        const made = await rest('POST', '/venues', {
          form: `venue=${encodeURIComponent(unique('Form Hall'))}&city=Paris&show_map=0`,
          key: api.keys.administrator,
        });
        const body = expectStatus(made, 201);
        expect([body.city, body.show_map]).toEqual(['Paris', false]);
        const list = expectStatus(await rest('GET', `/venues?per_page=1`), 200);
        expect(list.rest_url.startsWith(`${SITE_URL}/wp-json/${namespace}/venues/?`)).toBe(true);
        const deleted = await rest('POST', `/venues/${body.id}?_method=DELETE`, { key: api.keys.administrator });
        expect(expectStatus(deleted, 200).status).toBe('trash');
      }
    });
  });
});
