// Event categories and tags over the REST API (spec §2.7, §3.4.2), on both databases: the
// original's recorded exchanges replayed exactly, then every filter, create/update/delete,
// term_exists, the flat taxonomy's refusal of `parent`, and role outcomes. Behaviour both
// taxonomies share runs once per taxonomy.
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/auth/viewer.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';
import {
  FORBIDDEN,
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
  plural: 'categories' | 'tags';
  taxonomy: string;
  what: string;
  /** Who may write: categories from author up, tags from editor up. */
  writer: Role;
  nonWriter: Role;
  exists: string;
}
const TAXONOMIES: Kind[] = [
  {
    plural: 'categories',
    taxonomy: 'tribe_events_cat',
    what: 'event category',
    writer: 'author',
    nonWriter: 'contributor',
    exists: 'A term with the name provided already exists with this parent.',
  },
  {
    plural: 'tags',
    taxonomy: 'post_tag',
    what: 'event tag',
    writer: 'editor',
    nonWriter: 'author',
    exists: 'A term with the name provided already exists in this taxonomy.',
  },
];

const unique = (stem: string) => `${stem} ${Math.random().toString(36).slice(2, 9)}`;

function helpers(api: TestServer) {
  const rest = client(api);
  const as = (caller: Caller) => (method: string, path: string, body?: unknown) =>
    rest(method, path, { body, key: caller === 'anonymous' ? undefined : api.keys[caller] });
  return {
    as,
    admin: as('administrator'),
    anonymous: as('anonymous'),
    async create(k: Kind, fields: Record<string, unknown> = {}, caller: Caller = 'administrator') {
      return expectStatus(await as(caller)('POST', `/${k.plural}`, { name: unique('Term'), ...fields }), 201);
    },
    /** A published event carrying the terms (names or slugs), created through GraphQL. */
    async event(terms: { categories?: string[]; tags?: string[] }, status = 'publish') {
      const input = { title: unique('Event'), startDate: 'tomorrow 10am', endDate: 'tomorrow 11am', status, ...terms };
      const result = await api.graphql(
        'mutation($input: CreateEventInput!) { e: createEvent(input: $input) { id } }',
        { input },
        api.keys.administrator,
      );
      expect(result.errors).toBeUndefined();
      return result.data.e.id as number;
    },
  };
}

describe.each(DATABASE_KINDS)('categories and tags over REST (%s)', (dbKind) => {
  const api = useTestServer(dbKind, { SITE_URL });

  describe('the original’s recorded exchanges', () => {
    // A fresh database: these run first, so the lists hold exactly the recorded terms.
    it.skipIf(!haveSamples)('replays the category samples (06, 22, 23)', async () => {
      const { admin, anonymous, event } = helpers(api);
      const created = await admin('POST', '/categories', sample('06-category-create').request);
      expectSameBody(expectStatus(created, 201), sample('06-category-create').body);
      expect(created.headers.get('allow')).toBe('GET, POST');
      expect(created.headers.get('location')).toBe(`${SITE_URL}/wp-json/wp/v2/tribe_events_cat/${created.json.id}`);
      expectStatus(await admin('POST', '/categories', { name: 'Art' }), 201);
      await event({ categories: ['music', 'Art'] });

      const list = await anonymous('GET', '/categories');
      expectSameBody(expectStatus(list, 200), sample('22-categories-list').body);
      expect([list.headers.get('x-tec-total'), list.headers.get('x-tec-totalpages'), list.headers.get('allow')]).toEqual(['2', '1', 'GET']);
      const single = await anonymous('GET', `/categories/${created.json.id}`);
      expectSameBody(expectStatus(single, 200), sample('23-category-get').body);
      expect(single.headers.get('x-tec-total')).toBeNull();
    });

    it.skipIf(!haveSamples)('replays the tag samples (07, 24, 25)', async () => {
      const { admin, anonymous, event } = helpers(api);
      const created = await admin('POST', '/tags', sample('07-tag-create').request);
      expectSameBody(expectStatus(created, 201), sample('07-tag-create').body);
      expect(created.headers.get('location')).toBe(`${SITE_URL}/wp-json/wp/v2/tags/${created.json.id}`);
      expectStatus(await admin('POST', '/tags', { name: '3' }), 201);
      await event({ tags: ['outdoor'] });
      await event({ tags: ['family', '3'] }); // slugs, or names of new tags
      expectSameBody(expectStatus(await anonymous('GET', '/tags'), 200), sample('24-tags-list').body);
      expectSameBody(expectStatus(await anonymous('GET', `/tags/${created.json.id}`), 200), sample('25-tag-get').body);
    });
  });

  describe.each(TAXONOMIES)('$plural', (k) => {
    const base = `${SITE_URL}/wp-json/tribe/events/v1/${k.plural}`;

    it('creates (201), reads (200), updates (200) and deletes for good (200 with the record as it was)', async () => {
      const { admin, anonymous, event } = helpers(api);
      const name = unique('Term');
      const made = expectStatus(
        await admin('POST', `/${k.plural}`, { name, description: 'About', slug: name.replace(' ', '-').toUpperCase() }),
        201,
      );
      expect(made).toMatchObject({
        count: 0,
        description: 'About',
        name,
        slug: name.replace(' ', '-').toLowerCase(),
        taxonomy: k.taxonomy,
        meta: [],
      });
      expect(Object.keys(made)).toEqual([
        'id',
        'count',
        'description',
        'name',
        'slug',
        'taxonomy',
        ...(k.plural === 'categories' ? ['parent'] : []),
        'meta',
        'url',
        'urls',
        '_links',
      ]);
      expect(made.urls).toEqual({ self: `${base}/${made.id}`, collection: base });
      expect(made._links.self[0].targetHints.allow).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

      const read = expectStatus(await anonymous('GET', `/${k.plural}/${made.id}`), 200);
      expect(read._links.self[0].targetHints.allow).toEqual(['GET']);
      expect({ ...read, _links: undefined }).toEqual({ ...made, _links: undefined });

      for (const method of ['POST', 'PUT', 'PATCH']) {
        const updated = expectStatus(await admin(method, `/${k.plural}/${made.id}`, { description: method }), 200);
        expect([updated.description, updated.name, updated.slug]).toEqual([method, made.name, made.slug]);
        expect(updated._links).toBeDefined();
      }
      await event({ [k.plural]: [made.slug] });
      const deleted = expectStatus(await admin('DELETE', `/${k.plural}/${made.id}`), 200);
      expect(deleted).toEqual({ ...made, count: 1, description: 'PATCH', _links: undefined });
      expect(Object.keys(deleted)).not.toContain('_links');
      // Gone for good: every later request names an unknown id.
      for (const method of ['GET', 'DELETE', 'POST']) expectInvalid(await admin(method, `/${k.plural}/${made.id}`), ['id']);
    });

    it('refuses duplicates (term_exists), makes given slugs unique, and validates before permissions', async () => {
      const { admin, anonymous, as, create } = helpers(api);
      const first = await create(k, { name: unique('Dup') });
      const again = expectStatus(await admin('POST', `/${k.plural}`, { name: first.name.toUpperCase() }), 400);
      expect(again).toEqual({
        code: 'term_exists',
        message: k.exists,
        data: { status: 400, term_id: first.id },
        additional_data: [first.id, first.id],
      });
      // A new slug makes a same-named term possible; a taken slug is made unique.
      const slugged = await create(k, { name: first.name, slug: 'other-' + first.slug });
      expect(slugged.name).toBe(first.name);
      expect((await create(k, { slug: first.slug })).slug).toBe(`${first.slug}-2`);

      expect(expectStatus(await anonymous('POST', `/${k.plural}`, {}), 400)).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): name',
        data: { status: 400, params: ['name'] },
      });
      expectInvalid(await anonymous('POST', `/${k.plural}`, { name: '', description: '', slug: '' }), ['name', 'description', 'slug']);
      expectInvalid(await as('subscriber')('DELETE', `/${k.plural}/23`), ['id']); // §0.3: 400, not 403
      expectInvalid(await anonymous('PATCH', `/${k.plural}/23`, { name: 'x' }), ['id']);
      expectInvalid(await anonymous('POST', `/${k.plural}/${first.id}`, { slug: '' }), ['slug']);
      expectError(await anonymous('GET', `/${k.plural}/foo`), 404, 'rest_no_route');
      expectError(await as('subscriber')('DELETE', `/${k.plural}/${first.id}`), 403, 'rest_forbidden', FORBIDDEN);
    });

    it('lets only the roles the original allows write', async () => {
      const { as } = helpers(api);
      expectError(await as('anonymous')('POST', `/${k.plural}`, { name: unique('R') }), 401, 'rest_forbidden', FORBIDDEN);
      for (const role of ['subscriber', k.nonWriter] as Role[])
        expectError(await as(role)('POST', `/${k.plural}`, { name: unique('R') }), 403, 'rest_forbidden');
      const made = expectStatus(await as(k.writer)('POST', `/${k.plural}`, { name: unique('R') }), 201);
      expectError(await as(k.nonWriter)('POST', `/${k.plural}/${made.id}`, { description: 'x' }), 403, 'rest_forbidden');
      expectError(await as(k.nonWriter)('DELETE', `/${k.plural}/${made.id}`), 403, 'rest_forbidden');
      expect((await as(k.nonWriter)('GET', `/${k.plural}/${made.id}`)).headers.get('allow')).toBe('GET');
      expect((await as(k.writer)('GET', `/${k.plural}/${made.id}`)).headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
      expectStatus(await as(k.writer)('PUT', `/${k.plural}/${made.id}`, { description: 'x' }), 200);
      expectStatus(await as(k.writer)('DELETE', `/${k.plural}/${made.id}`), 200);
    });

    it('lists with every filter, by name by default, paging with bare URLs and no 404', async () => {
      const { admin, anonymous, create, event } = helpers(api);
      const token = 'zt' + Math.random().toString(36).slice(2, 7);
      const [b, a, c] = [
        await create(k, { name: `${token} B`, description: 'x' }),
        await create(k, { name: `${token} a` }),
        await create(k, { name: `${token} C` }),
      ];
      const eventId = await event({ [k.plural]: [a.slug, c.slug] });
      await event({ [k.plural]: [c.slug] });
      const ids = (body: any) => body[k.plural].map((t: any) => t.id);

      // hide_empty defaults to true: only a and c have published events.
      const list = await anonymous('GET', `/${k.plural}?search=${token}`);
      const body = expectStatus(list, 200);
      expect(Object.keys(body)).toEqual(['rest_url', 'total', 'total_pages', k.plural]);
      expect(ids(body)).toEqual([a.id, c.id]);
      expect(body.rest_url).toBe(`${base}/`);
      expect(body[k.plural][1].count).toBe(2);
      expect(body[k.plural][0]._links).toBeUndefined();

      const all = `/${k.plural}?search=${token}&hide_empty=0`;
      expect(ids(expectStatus(await anonymous('GET', all), 200))).toEqual([a.id, b.id, c.id]);
      expect(ids(expectStatus(await anonymous('GET', `${all}&order=DESC`), 200))).toEqual([c.id, b.id, a.id]);
      expect(ids(expectStatus(await anonymous('GET', `${all}&orderby=id&order=asc`), 200))).toEqual([b.id, a.id, c.id]);
      expect(ids(expectStatus(await anonymous('GET', `${all}&orderby=count&order=desc`), 200))).toEqual([c.id, a.id, b.id]);
      expect(ids(expectStatus(await anonymous('GET', `${all}&orderby=whatever`), 200))).toEqual([a.id, b.id, c.id]);
      expect(ids(expectStatus(await anonymous('GET', `${all}&include=${c.id},${a.slug}`), 200))).toEqual([a.id, c.id]);
      expect(ids(expectStatus(await anonymous('GET', `${all}&exclude[]=${b.id}`), 200))).toEqual([a.id, c.id]);
      expect(ids(expectStatus(await anonymous('GET', `${all}&slug=${b.slug}`), 200))).toEqual([b.id]);
      expect(ids(expectStatus(await anonymous('GET', `/${k.plural}?post=${eventId}`), 200))).toEqual([a.id, c.id]);
      expect(ids(expectStatus(await anonymous('GET', `/${k.plural}?post=${eventId}&event=${eventId + 1}`), 200))).toEqual([c.id]); // event wins

      // Paging: next/previous carry only the page; a page past the end is an empty 200.
      const page2 = await anonymous('GET', `${all}&per_page=1&page=2`);
      const body2 = expectStatus(page2, 200);
      expect(Object.keys(body2)).toEqual(['rest_url', 'total', 'total_pages', k.plural, 'next_rest_url', 'previous_rest_url']);
      expect([body2.next_rest_url, body2.previous_rest_url]).toEqual([`${base}/?page=3`, `${base}/`]);
      expect([page2.headers.get('x-tec-total'), page2.headers.get('x-tec-totalpages')]).toEqual(['3', '3']);
      expect(expectStatus(await anonymous('GET', `${all}&per_page=1&page=3`), 200).previous_rest_url).toBe(`${base}/?page=2`);
      const past = expectStatus(await anonymous('GET', `${all}&page=9`), 200);
      expect([past[k.plural], past.total, past.previous_rest_url]).toEqual([[], 3, `${base}/?page=8`]);

      // Every invalid filter named, in declaration order.
      expectInvalid(
        await anonymous(
          'GET',
          `/${k.plural}?page=0&per_page=-1&search=&exclude=2389,1235&include=&order=&orderby=&post=${a.id}&event=foo&slug=`,
        ),
        ['page', 'per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'post', 'event', 'slug'],
      );
      expectInvalid(await anonymous('GET', `/${k.plural}?hide_empty=maybe`), { hide_empty: 'hide_empty is not of type boolean.' });
      expect(expectStatus(await admin('GET', `/${k.plural}?per_page=500`), 200).total_pages).toBeGreaterThan(0);
    });
  });

  describe('hierarchy', () => {
    it('nests categories (parent by id or slug, urls.up, archive URL) and refuses parent on tags', async () => {
      const { admin, anonymous, as, create } = helpers(api);
      const parent = await create(TAXONOMIES[0], { name: unique('Parent') });
      const child = await create(TAXONOMIES[0], { name: unique('Child'), parent: parent.id });
      expect(child.parent).toBe(parent.id);
      expect(child.urls.up).toBe(`${SITE_URL}/wp-json/tribe/events/v1/categories/${parent.id}`);
      expect(child.url).toBe(`${SITE_URL}/events/category/${parent.slug}/${child.slug}/`);
      expect(child._links.up).toEqual([{ href: `${SITE_URL}/wp-json/wp/v2/tribe_events_cat/${parent.id}`, embeddable: true }]);
      // The same name under another parent is fine; under the same parent it exists.
      expectStatus(await admin('POST', '/categories', { name: child.name }), 201);
      expect(expectStatus(await admin('POST', '/categories', { name: child.name, parent: parent.id }), 400).code).toBe('term_exists');

      const kids = expectStatus(await anonymous('GET', `/categories?parent=${parent.id}&hide_empty=0`), 200);
      expect(kids.categories.map((t: any) => t.id)).toEqual([child.id]);
      expectInvalid(await anonymous('GET', '/categories?parent=2389'), ['parent']);
      // A parent named by slug passes TEC's check but not WordPress's integer type check.
      expectInvalid(await anonymous('GET', `/categories?parent=${parent.slug}`), { parent: 'parent is not of type integer.' });
      expectInvalid(await admin('POST', '/categories', { name: 'x', parent: 2389 }), ['parent']);
      expectInvalid(await admin('POST', '/categories', { name: 'x', parent: '' }), ['parent']);
      // A parent named by slug passes the check but is not an integer (WordPress's type check).
      expectInvalid(await admin('POST', '/categories', { name: 'x', parent: parent.slug }), { parent: 'parent is not of type integer.' });
      // 0 is no category (TEC's list_to_array drops empty values), so a category cannot be moved to the top.
      expectInvalid(await admin('POST', `/categories/${child.id}`, { parent: 0 }), ['parent']);
      const other = await create(TAXONOMIES[0]);
      expect(expectStatus(await admin('POST', `/categories/${child.id}`, { parent: other.id }), 200).parent).toBe(other.id);

      // Tags are flat: `parent` is not an argument there, so only the handler refuses it.
      expectError(
        await admin('POST', '/tags', { name: unique('T'), parent: 1 }),
        400,
        'rest_taxonomy_not_hierarchical',
        'Cannot set parent term, taxonomy is not hierarchical.',
      );
      expectError(await as('anonymous')('POST', '/tags', { name: unique('T'), parent: 1 }), 401, 'rest_forbidden');
      const tag = await create(TAXONOMIES[1]);
      expectError(await admin('PATCH', `/tags/${tag.id}`, { parent: '' }), 400, 'rest_taxonomy_not_hierarchical');
      expect(
        expectStatus(await anonymous('GET', `/tags?parent=${tag.id}&hide_empty=0&slug=${tag.slug}`), 200).tags.map((t: any) => t.id),
      ).toEqual([tag.id]);
    });

    it('starts a tag page at `offset` (WP_REST_Terms_Controller, tags only), keeping the total; categories ignore it', async () => {
      const { anonymous, create } = helpers(api);
      const prefix = unique('offs').toLowerCase();
      for (const k of TAXONOMIES) for (const n of [1, 2, 3]) await create(k, { name: `${prefix} ${n}` });
      const names = async (plural: string, query: string) => {
        const body = expectStatus(await anonymous('GET', `/${plural}?search=${prefix}&hide_empty=0&${query}`), 200);
        return [body[plural].map((t: any) => t.name), body.total];
      };
      const all = [`${prefix} 1`, `${prefix} 2`, `${prefix} 3`];
      expect(await names('tags', 'offset=1')).toEqual([all.slice(1), 3]);
      expect(await names('tags', 'offset=1&per_page=1&page=3')).toEqual([[all[1]], 3]);
      expect(await names('tags', 'offset=-2')).toEqual([all.slice(2), 3]); // absint
      expect(await names('tags', 'offset=0')).toEqual([all, 3]);
      expect(await names('tags', 'offset=abc')).toEqual([all, 3]);
      expect(await names('tags', 'offset=9')).toEqual([[], 3]);
      expect(await names('categories', 'offset=1')).toEqual([all, 3]);
      const gql = await api.graphql(`{ tags(filter: { search: "${prefix}", hideEmpty: false, offset: 2 }) { total items { name } } }`);
      expect(gql.data).toEqual({ tags: { total: 3, items: [{ name: all[2] }] } });
      expect((await api.graphql(`{ tags(filter: { offset: -1 }) { total } }`)).errors?.[0].extensions?.code).toBe('INVALID_INPUT');
    });

    it('answers a slug taken by another term on update with 400 duplicate_term_slug (the original: 500), changing nothing', async () => {
      const { admin, create } = helpers(api);
      for (const k of TAXONOMIES) {
        const [one, two] = [await create(k), await create(k)];
        for (const method of ['POST', 'PATCH']) {
          const response = await admin(method, `/${k.plural}/${two.id}`, { slug: one.slug });
          expect(response.status).toBe(400);
          expect(response.json).toEqual({
            code: 'duplicate_term_slug',
            message: `The slug &#8220;${one.slug}&#8221; is already in use by another term.`,
            data: { status: 400 },
          });
        }
        expect(expectStatus(await admin('GET', `/${k.plural}/${two.id}`), 200).slug).toBe(two.slug);
      }
    });

    it('refuses a name over 200 characters (400 rest_invalid_param) on create and update', async () => {
      const { admin, create } = helpers(api);
      for (const k of TAXONOMIES) {
        expectInvalid(await admin('POST', `/${k.plural}`, { name: 'n'.repeat(201) }), ['name']);
        expectInvalid(await admin('POST', `/${k.plural}`, { name: 'x'.repeat(70_000) }), ['name']);
        const term = await create(k);
        expectInvalid(await admin('PATCH', `/${k.plural}/${term.id}`, { name: 'n'.repeat(201) }), ['name']);
        expect(expectStatus(await admin('POST', `/${k.plural}`, { name: 'n'.repeat(200) }), 201).name).toBe('n'.repeat(200));
      }
    });
  });
});
