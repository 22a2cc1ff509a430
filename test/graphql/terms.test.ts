// Event categories and tags over GraphQL (HTTP), on SQLite and PostgreSQL: every list filter, every
// mutation's success and failure, role outcomes, validation before permission, term_exists, flat
// tags, delete-then-unknown, slug de-duplication under parallel creates, counts, statement bounds.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/auth/viewer.js';
import { refreshTermCounts, resolveEventTerms } from '../../src/calendar/terms.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';

const CAT = 'tribe_events_cat';
const TAG = 'post_tag';
const SITE = 'http://almanac.test';
const FIELDS = 'id name slug description taxonomy count termGroup termTaxonomyId url';

type Caller = Role | 'anonymous';
const ROLES: Caller[] = ['anonymous', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];

const keyOf = (api: TestServer, who: Caller) => (who === 'anonymous' ? undefined : api.keys[who]);
const codeOf = (result: { errors?: any[] }) => result.errors?.[0]?.extensions?.code;
const paramsOf = (result: { errors?: any[] }) => result.errors?.[0]?.extensions?.params;

let seeded = 0;

/** Events straight into the database (the event mutations belong to another suite); each starts a day later. */
async function seedEvent(prisma: any, title: string, status: string, termIds: number[]): Promise<number> {
  const now = '2026-11-22 10:00:00';
  const day = String(++seeded).padStart(2, '0');
  const { id } = await prisma.post.create({ data: { type: 'event' } });
  await prisma.event.create({
    data: {
      id,
      status,
      title,
      slug: `${title.toLowerCase().replace(/\W+/g, '-')}-${id}`,
      date: now,
      dateUtc: now,
      modified: now,
      modifiedUtc: now,
      startLocal: `2026-12-${day} 10:00:00`,
      endLocal: `2026-12-${day} 12:00:00`,
      startUtc: `2026-12-${day} 10:00:00`,
      endUtc: `2026-12-${day} 12:00:00`,
      terms: { create: termIds.map((termId) => ({ termId })) },
    },
  });
  await refreshTermCounts(prisma, termIds); // what every event write does in the domain
  return id;
}

async function seedTerm(prisma: any, taxonomy: string, name: string, slug: string, extra: object = {}): Promise<number> {
  return (await prisma.term.create({ data: { taxonomy, name, slug, ...extra } })).id;
}

const LIST = `query($filter: EventCategoryFilter, $page: PageInput) {
  eventCategories(filter: $filter, page: $page) { total totalPages page perPage items { id name } }
}`;
const TAG_LIST = `query($filter: TagFilter, $page: PageInput) {
  tags(filter: $filter, page: $page) { total totalPages page perPage items { id name } }
}`;

describe.each(DATABASE_KINDS)('category and tag reads on %s', (kind) => {
  const api = useTestServer(kind);
  const c: Record<string, number> = {};
  const t: Record<string, number> = {};
  const e: Record<string, number> = {};
  let venueId = 0;

  beforeAll(async () => {
    const prisma = api.server.db.prisma as any;
    c.music = await seedTerm(prisma, CAT, 'Music', 'music', { description: 'Live music' });
    c.jazz = await seedTerm(prisma, CAT, 'Jazz', 'jazz', { parentId: c.music });
    c.blues = await seedTerm(prisma, CAT, 'Blues', 'blues', { parentId: c.music });
    c.art = await seedTerm(prisma, CAT, 'Art', 'visual-art');
    c.emptyParent = await seedTerm(prisma, CAT, 'Empty Parent', 'empty-parent');
    c.filledChild = await seedTerm(prisma, CAT, 'Filled Child', 'filled-child', { parentId: c.emptyParent });
    c.lonely = await seedTerm(prisma, CAT, 'Lonely', 'lonely');
    c.zebra = await seedTerm(prisma, CAT, 'zebra', 'zebra');
    c.sale = await seedTerm(prisma, CAT, '50% Off', '50-off');
    t.outdoor = await seedTerm(prisma, TAG, 'outdoor', 'outdoor', { description: 'Outdoor events' });
    t.family = await seedTerm(prisma, TAG, 'family', 'family');
    t.three = await seedTerm(prisma, TAG, '3', '3');
    t.unused = await seedTerm(prisma, TAG, 'unused', 'unused');
    t.aUb = await seedTerm(prisma, TAG, 'a_b', 'a_b');
    t.axb = await seedTerm(prisma, TAG, 'axb', 'axb');
    e.one = await seedEvent(prisma, 'One', 'publish', [c.music, c.jazz, t.outdoor, t.family]);
    e.two = await seedEvent(prisma, 'Two', 'publish', [c.music, c.art, t.outdoor, t.aUb]);
    e.draft = await seedEvent(prisma, 'Draft', 'draft', [c.music, c.blues, t.unused]);
    e.four = await seedEvent(prisma, 'Four', 'publish', [c.filledChild, c.zebra, t.three, t.axb]);
    venueId = (await prisma.post.create({ data: { type: 'venue' } })).id;
  });

  const names = async (filter: object, page?: object, query = LIST) => {
    const result = await api.graphql(query, { filter, page });
    expect(result.errors).toBeUndefined();
    const list = result.data.eventCategories ?? result.data.tags;
    return list.items.map((item: any) => item.name);
  };
  const listError = async (filter: object, page?: object, query = LIST) => {
    const result = await api.graphql(query, { filter, page });
    expect(codeOf(result)).toBe('INVALID_INPUT');
    return paramsOf(result);
  };

  it('renders a category with the fields of both REST term shapes', async () => {
    const result = await api.graphql(
      `query($id: Int) { eventCategory(id: $id) { ${FIELDS} parentId parent { name } children { name } } }`,
      { id: c.jazz },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.eventCategory).toEqual({
      id: c.jazz,
      name: 'Jazz',
      slug: 'jazz',
      description: '',
      taxonomy: CAT,
      count: 1,
      termGroup: 0,
      termTaxonomyId: c.jazz,
      url: `${SITE}/events/category/music/jazz/`,
      parentId: c.music,
      parent: { name: 'Music' },
      children: [],
    });
    const music = await api.graphql(
      `query($slug: String) { eventCategory(slug: $slug) { id parentId count description url children { name count } } }`,
      { slug: 'music' },
    );
    expect(music.data.eventCategory).toEqual({
      id: c.music,
      parentId: 0,
      count: 2, // the draft does not count
      description: 'Live music',
      url: `${SITE}/events/category/music/`,
      children: [
        { name: 'Blues', count: 0 },
        { name: 'Jazz', count: 1 },
      ],
    });
  });

  it('renders a tag', async () => {
    const result = await api.graphql(`query($id: Int) { tag(id: $id) { ${FIELDS} events { id } } }`, { id: t.outdoor });
    expect(result.data.tag).toEqual({
      id: t.outdoor,
      name: 'outdoor',
      slug: 'outdoor',
      description: 'Outdoor events',
      taxonomy: TAG,
      count: 2,
      termGroup: 0,
      termTaxonomyId: t.outdoor,
      url: `${SITE}/tag/outdoor/`,
      events: [{ id: e.one }, { id: e.two }],
    });
    expect((await api.graphql(`{ tag(slug: "family") { id } }`)).data.tag.id).toBe(t.family);
  });

  it('refuses unknown ids and slugs, and terms of the other taxonomy, with INVALID_INPUT', async () => {
    for (const [query, param] of [
      [`{ eventCategory(id: 999999) { id } }`, 'id'],
      [`{ eventCategory(id: ${t.outdoor}) { id } }`, 'id'],
      [`{ tag(id: ${c.music}) { id } }`, 'id'],
      [`{ tag(slug: "nope") { id } }`, 'slug'],
      [`{ eventCategory { id } }`, 'id'],
    ] as const) {
      const result = await api.graphql(query);
      expect(codeOf(result)).toBe('INVALID_INPUT');
      expect(paramsOf(result)).toEqual({ [param]: 'Invalid parameter.' });
    }
  });

  it('lists by name ignoring case; hideEmpty keeps an empty parent of a non-empty child', async () => {
    const result = await api.graphql(LIST, {});
    expect(result.data.eventCategories.items.map((i: any) => i.name)).toEqual([
      'Art',
      'Empty Parent',
      'Filled Child',
      'Jazz',
      'Music',
      'zebra',
    ]);
    // WordPress's total counts non-empty terms only (the kept empty parent is not counted).
    expect(result.data.eventCategories).toMatchObject({ total: 5, totalPages: 1, page: 1, perPage: 10 });
    expect(await names({ hideEmpty: false })).toEqual([
      '50% Off',
      'Art',
      'Blues',
      'Empty Parent',
      'Filled Child',
      'Jazz',
      'Lonely',
      'Music',
      'zebra',
    ]);
    expect(await names({}, undefined, TAG_LIST)).toEqual(['3', 'a_b', 'axb', 'family', 'outdoor']);
    expect(await names({ hideEmpty: false }, undefined, TAG_LIST)).toEqual(['3', 'a_b', 'axb', 'family', 'outdoor', 'unused']);
  });

  it('searches name or slug, case-insensitively, with % and _ taken literally', async () => {
    expect(await names({ search: 'MUS' })).toEqual(['Music']);
    expect(await names({ search: 'visual' })).toEqual(['Art']);
    expect(await names({ search: '50%', hideEmpty: false })).toEqual(['50% Off']);
    expect(await names({ search: 'a_b' }, undefined, TAG_LIST)).toEqual(['a_b']);
    expect(await listError({ search: '' })).toEqual({ search: 'Invalid parameter.' });
  });

  it('includes and excludes by ids or slugs; include wins; unknown items are invalid', async () => {
    expect(await names({ include: [String(c.jazz), 'visual-art'] })).toEqual(['Art', 'Jazz']);
    expect(await names({ include: [c.jazz, c.art], orderby: 'include' })).toEqual(['Jazz', 'Art']);
    expect(await names({ include: [c.jazz, c.art], orderby: 'include', order: 'desc' })).toEqual(['Art', 'Jazz']);
    expect(await names({ include: [`${c.jazz},${c.art}`] })).toEqual(['Art', 'Jazz']);
    expect(await names({ exclude: [c.music, 'jazz', 'Art'] })).toEqual(['Empty Parent', 'Filled Child', 'zebra']);
    expect(await names({ include: [c.jazz], exclude: [c.jazz] })).toEqual(['Jazz']);
    expect(await listError({ exclude: [2389, 1235, 3434] })).toEqual({ exclude: 'Invalid parameter.' });
    expect(await listError({ include: [c.jazz, 'no-such-slug'] })).toEqual({ include: 'Invalid parameter.' });
    expect(await listError({ include: [] })).toEqual({ include: 'Invalid parameter.' });
    expect(await listError({ include: [t.outdoor] })).toEqual({ include: 'Invalid parameter.' });
  });

  it('orders with WordPress rules: asc in any case, anything else descending, unknown keys by name', async () => {
    const all = { hideEmpty: false };
    const byName = ['50% Off', 'Art', 'Blues', 'Empty Parent', 'Filled Child', 'Jazz', 'Lonely', 'Music', 'zebra'];
    expect(await names({ ...all, order: 'DESC' })).toEqual([...byName].reverse());
    expect(await names({ ...all, order: 'AsC' })).toEqual(byName);
    expect(await names({ ...all, order: 'sideways' })).toEqual([...byName].reverse());
    expect(await names({ ...all, orderby: 'bogus' })).toEqual(byName);
    expect(await names({ ...all, orderby: 'include_slugs' })).toEqual(byName);
    const byId = ['Music', 'Jazz', 'Blues', 'Art', 'Empty Parent', 'Filled Child', 'Lonely', 'zebra', '50% Off'];
    expect(await names({ ...all, orderby: 'id' })).toEqual(byId);
    expect(await names({ ...all, orderby: 'term_id', order: 'desc' })).toEqual([...byId].reverse());
    expect(await names({ ...all, orderby: 'none', order: 'desc' })).toEqual(byId);
    expect(await names({ orderby: 'count', order: 'desc' })).toEqual(['Music', 'Jazz', 'Art', 'Filled Child', 'zebra', 'Empty Parent']);
    expect(await names({ orderby: 'slug' })).toEqual(['Empty Parent', 'Filled Child', 'Jazz', 'Music', 'Art', 'zebra']);
    expect((await names({ ...all, orderby: 'description', order: 'desc' }))[0]).toBe('Music');
    expect(await names({ ...all, orderby: 'parent' })).toEqual([
      'Music',
      'Art',
      'Empty Parent',
      'Lonely',
      'zebra',
      '50% Off',
      'Jazz',
      'Blues',
      'Filled Child',
    ]);
    expect(await listError({ order: '', orderby: '' })).toEqual({ order: 'Invalid parameter.', orderby: 'Invalid parameter.' });
  });

  it('filters direct children of a parent given by id or slug', async () => {
    expect(await names({ parent: String(c.music) })).toEqual(['Jazz']);
    expect(await names({ parent: 'music', hideEmpty: false })).toEqual(['Blues', 'Jazz']);
    expect(await names({ parent: c.emptyParent })).toEqual(['Filled Child']);
    expect(await listError({ parent: '2389' })).toEqual({ parent: 'Invalid parameter.' });
    expect(await listError({ parent: '' })).toEqual({ parent: 'Invalid parameter.' });
  });

  it("lists an event's terms (post/event; event wins; hideEmpty ignored)", async () => {
    expect(await names({ post: e.draft })).toEqual(['Blues', 'Music']);
    expect(await names({ event: String(e.one) })).toEqual(['Jazz', 'Music']);
    expect(await names({ post: e.one, event: e.draft })).toEqual(['Blues', 'Music']);
    expect(await names({ event: e.two }, undefined, TAG_LIST)).toEqual(['a_b', 'outdoor']);
    for (const bad of ['', '23', 'foo', String(venueId), '999999']) {
      expect(await listError({ post: bad })).toEqual({ post: 'Invalid parameter.' });
    }
    expect(await listError({ event: 'foo' })).toEqual({ event: 'Invalid parameter.' });
  });

  it('filters by exact (sanitised) slug', async () => {
    expect(await names({ slug: 'jazz' })).toEqual(['Jazz']);
    expect(await names({ slug: 'Jazz' })).toEqual(['Jazz']);
    expect(await names({ slug: 'visual-art' })).toEqual(['Art']);
    expect(await names({ slug: 'nothing' })).toEqual([]);
    expect(await listError({ slug: '' })).toEqual({ slug: 'Invalid parameter.' });
  });

  it('pages: totals, an empty page past the end, positive page and perPage, perPage capped at 50', async () => {
    const page2 = await api.graphql(LIST, { filter: { hideEmpty: false }, page: { page: 2, perPage: 2 } });
    expect(page2.data.eventCategories).toEqual({
      total: 9,
      totalPages: 5,
      page: 2,
      perPage: 2,
      items: [
        { id: c.blues, name: 'Blues' },
        { id: c.emptyParent, name: 'Empty Parent' },
      ],
    });
    const beyond = await api.graphql(LIST, { filter: { hideEmpty: false }, page: { page: 99 } });
    expect(beyond.data.eventCategories).toMatchObject({ total: 9, items: [], page: 99 });
    const capped = await api.graphql(LIST, { page: { perPage: 500 } });
    expect(capped.data.eventCategories.perPage).toBe(50);
    expect(await listError({}, { page: 0 })).toEqual({ page: 'Invalid parameter.' });
    expect(await listError({}, { perPage: 0 })).toEqual({ perPage: 'Invalid parameter.' });
  });

  it('reports every invalid argument at once, in declaration order', async () => {
    const params = await listError({ slug: '', search: '', exclude: [2389], post: 'x', parent: 'nope' }, { page: -1 });
    expect(Object.keys(params)).toEqual(['page', 'search', 'exclude', 'parent', 'post', 'slug']);
  });

  it('counts published events only, with one batched statement for a whole page', async () => {
    const query = `query($page: PageInput) { tags(filter: { hideEmpty: false }, page: $page) { items { name count url } } }`;
    const stats = api.server.db.statements;
    const before = stats.count;
    const small = await api.graphql(query, { page: { perPage: 2 } });
    const smallCost = stats.count - before;
    const start = stats.count;
    const large = await api.graphql(query, { page: { perPage: 6 } });
    expect(stats.count - start).toBe(smallCost);
    expect(small.data.tags.items).toHaveLength(2);
    expect(Object.fromEntries(large.data.tags.items.map((i: any) => [i.name, i.count]))).toEqual({
      '3': 1,
      a_b: 1,
      axb: 1,
      family: 1,
      outdoor: 2,
      unused: 0,
    });
    const categories = `{ eventCategories(filter: { hideEmpty: false }) { items { name count url children { count url } } } }`;
    const first = stats.count;
    const nested = await api.graphql(categories);
    expect(nested.errors).toBeUndefined();
    expect(stats.count - first).toBeLessThanOrEqual(8);
    const child = nested.data.eventCategories.items.find((i: any) => i.name === 'Empty Parent').children[0];
    expect(child).toEqual({ count: 1, url: `${SITE}/events/category/empty-parent/filled-child/` });
  });
});

const CREATE_CATEGORY = `mutation($input: CreateEventCategoryInput!) { createEventCategory(input: $input) { ${FIELDS} parentId } }`;
const CREATE_TAG = `mutation($input: CreateTagInput!) { createTag(input: $input) { ${FIELDS} } }`;
const UPDATE_CATEGORY = `mutation($id: Int!, $input: UpdateEventCategoryInput!) { updateEventCategory(id: $id, input: $input) { ${FIELDS} parentId } }`;
const UPDATE_TAG = `mutation($id: Int!, $input: UpdateTagInput!) { updateTag(id: $id, input: $input) { ${FIELDS} } }`;
const DELETE_CATEGORY = `mutation($id: Int!) { deleteEventCategory(id: $id) { ${FIELDS} parentId } }`;
const DELETE_TAG = `mutation($id: Int!) { deleteTag(id: $id) { ${FIELDS} } }`;

describe.each(DATABASE_KINDS)('category and tag writes on %s', (kind) => {
  const api = useTestServer(kind);
  const admin = () => api.keys.administrator;

  async function createCategory(input: object, key = admin()) {
    const result = await api.graphql(CREATE_CATEGORY, { input }, key);
    expect(result.errors).toBeUndefined();
    return result.data.createEventCategory;
  }
  async function createTag(input: object, key = admin()) {
    const result = await api.graphql(CREATE_TAG, { input }, key);
    expect(result.errors).toBeUndefined();
    return result.data.createTag;
  }

  it('keeps counts exact when events of one category are created at once, then changed', async () => {
    const category = await createCategory({ name: 'Crowded' });
    const tag = await createTag({ name: 'crowded-tag' });
    const create = (i: number, status: string) =>
      api.graphql(
        `mutation($input: CreateEventInput!) { createEvent(input: $input) { id status } }`,
        {
          input: {
            title: `Crowd ${i}`,
            status,
            startDate: `2027-03-${String(i + 1).padStart(2, '0')} 10:00`,
            endDate: `2027-03-${String(i + 1).padStart(2, '0')} 11:00`,
            categories: [String(category.id)],
            tags: [String(tag.id)],
          },
        },
        admin(),
      );
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => create(i, i < 9 ? 'publish' : 'draft')));
    for (const result of created) expect(result.errors).toBeUndefined();
    const counts = async () => {
      const result = await api.graphql(`query($c: Int, $t: Int) { eventCategory(id: $c) { count } tag(id: $t) { count } }`, {
        c: category.id,
        t: tag.id,
      });
      return [result.data.eventCategory.count, result.data.tag.count];
    };
    expect(await counts()).toEqual([9, 9]);
    // A draft published, a published event trashed: recounted by the update paths.
    const [first, , , , , , , , , draft] = created.map((result) => result.data.createEvent.id);
    const update = `mutation($id: Int, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { status } }`;
    expect((await api.graphql(update, { id: draft, input: { status: 'publish' } }, admin())).errors).toBeUndefined();
    expect((await api.graphql(`mutation($id: Int) { deleteEvent(id: $id) { status } }`, { id: first }, admin())).errors).toBeUndefined();
    expect(await counts()).toEqual([9, 9]);
    const prisma = api.server.db.prisma as any;
    const stored = await prisma.term.findUnique({ where: { id: category.id }, select: { count: true } });
    await refreshTermCounts(prisma, [category.id]);
    expect((await prisma.term.findUnique({ where: { id: category.id }, select: { count: true } })).count).toBe(stored.count);
  });

  it('creates a category and a tag (samples 06 and 07)', async () => {
    expect(await createCategory({ name: 'Music', description: 'Music events', slug: 'music' })).toMatchObject({
      name: 'Music',
      slug: 'music',
      description: 'Music events',
      taxonomy: CAT,
      count: 0,
      termGroup: 0,
      parentId: 0,
      url: `${SITE}/events/category/music/`,
    });
    const tag = await createTag({ name: 'outdoor', description: 'Outdoor events' });
    expect(tag).toMatchObject({ name: 'outdoor', slug: 'outdoor', taxonomy: TAG, count: 0, url: `${SITE}/tag/outdoor/` });
    expect(tag.termTaxonomyId).toBe(tag.id);
  });

  it('stores names as plain text and derives slugs from them', async () => {
    const tag = await createTag({ name: '  Rock & Roll <b>live</b> ' });
    expect(tag).toMatchObject({ name: 'Rock &amp; Roll live', slug: 'rock-roll-live' });
    const numeric = await createTag({ name: '!!!' });
    expect(numeric.slug).toBe(String(numeric.id));
  });

  it('validates every field before anything else, with a reason per field', async () => {
    const cases: Array<[object, string[]]> = [
      [{ name: '' }, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: '<i></i>' }, ['name']],
      [{ name: 'Ok', description: '', slug: '' }, ['description', 'slug']],
      [{ name: 'Ok', parent: '' }, ['parent']],
      [{ name: 'Ok', parent: '2389' }, ['parent']],
      [{ name: 'Ok', parent: 'foo' }, ['parent']],
      [{ name: '', slug: '', parent: 'foo' }, ['name', 'slug', 'parent']],
    ];
    for (const [input, params] of cases) {
      for (const who of ['anonymous', 'subscriber', 'administrator'] as Caller[]) {
        const result = await api.graphql(CREATE_CATEGORY, { input }, keyOf(api, who));
        expect(codeOf(result)).toBe('INVALID_INPUT');
        expect(Object.keys(paramsOf(result))).toEqual(params);
      }
    }
    // Unknown ids on update/delete are validation errors too, whoever asks.
    for (const who of ['anonymous', 'subscriber', 'contributor'] as Caller[]) {
      expect(codeOf(await api.graphql(DELETE_CATEGORY, { id: 999999 }, keyOf(api, who)))).toBe('INVALID_INPUT');
      const update = await api.graphql(UPDATE_TAG, { id: 999999, input: { name: 'x' } }, keyOf(api, who));
      expect(paramsOf(update)).toEqual({ id: 'Invalid parameter.' });
    }
  });

  it('lets author and up manage categories, editor and up manage tags', async () => {
    const expected = (taxonomy: string, who: Caller) => {
      if (who === 'anonymous') return 'UNAUTHENTICATED';
      const allowed = taxonomy === CAT ? ['author', 'editor', 'administrator'] : ['editor', 'administrator'];
      return allowed.includes(who) ? undefined : 'FORBIDDEN';
    };
    for (const who of ROLES) {
      const key = keyOf(api, who);
      for (const [taxonomy, create, update, del, field] of [
        [CAT, CREATE_CATEGORY, UPDATE_CATEGORY, DELETE_CATEGORY, 'EventCategory'],
        [TAG, CREATE_TAG, UPDATE_TAG, DELETE_TAG, 'Tag'],
      ] as const) {
        const want = expected(taxonomy, who);
        const created = await api.graphql(create, { input: { name: `Role ${who} ${field}` } }, key);
        expect(codeOf(created), `create ${field} as ${who}`).toBe(want);
        const target = taxonomy === CAT ? await createCategory({ name: `Target ${who}` }) : await createTag({ name: `Target ${who}` });
        const updated = await api.graphql(update, { id: target.id, input: { description: 'changed' } }, key);
        expect(codeOf(updated), `update ${field} as ${who}`).toBe(want);
        const deleted = await api.graphql(del, { id: target.id }, key);
        expect(codeOf(deleted), `delete ${field} as ${who}`).toBe(want);
        if (want) expect(deleted.errors![0].message).toBe('Sorry, you are not allowed to do that.');
      }
    }
  });

  it('refuses a duplicate name at the same level with TERM_EXISTS and the existing id', async () => {
    const rock = await createCategory({ name: 'Rock' });
    for (const input of [{ name: 'Rock' }, { name: 'ROCK' }, { name: 'rock', slug: 'rock' }]) {
      const result = await api.graphql(CREATE_CATEGORY, { input }, admin());
      expect(codeOf(result)).toBe('TERM_EXISTS');
      expect(result.errors![0].extensions.termId).toBe(rock.id);
      expect(result.errors![0].message).toBe('A term with the name provided already exists with this parent.');
    }
    // A new, free slug makes the same name acceptable; so does another level.
    expect((await createCategory({ name: 'Rock', slug: 'rock-live' })).slug).toBe('rock-live');
    const child = await createCategory({ name: 'Rock', parent: String(rock.id) });
    expect(child).toMatchObject({ parentId: rock.id, slug: 'rock-rock' });
    const tag = await createTag({ name: 'Sunny' });
    const dup = await api.graphql(CREATE_TAG, { input: { name: 'sunny' } }, admin());
    expect(codeOf(dup)).toBe('TERM_EXISTS');
    expect(dup.errors![0].extensions.termId).toBe(tag.id);
    expect(dup.errors![0].message).toBe('A term with the name provided already exists in this taxonomy.');
  });

  it('makes a supplied slug unique when another term has it (parent slugs first for categories)', async () => {
    await createCategory({ name: 'Pop', slug: 'pop' });
    expect((await createCategory({ name: 'Popular', slug: 'pop' })).slug).toBe('pop-2');
    expect((await createCategory({ name: 'Pop Art', slug: 'POP' })).slug).toBe('pop-3');
    const parent = await createCategory({ name: 'Genres', slug: 'genres' });
    expect((await createCategory({ name: 'Pop Genre', slug: 'pop', parent: 'genres' })).slug).toBe('pop-genres');
    expect((await createCategory({ name: 'Pop Genre 2', slug: 'pop', parent: String(parent.id) })).slug).toBe('pop-genres-2');
    await createTag({ name: 'Kids', slug: 'kids' });
    expect((await createTag({ name: 'Children', slug: 'kids' })).slug).toBe('kids-2');
  });

  it('refuses a parent for tags with NOT_HIERARCHICAL, after the permission check', async () => {
    const tag = await createTag({ name: 'Flat' });
    expect(codeOf(await api.graphql(CREATE_TAG, { input: { name: 'Leaf', parent: String(tag.id) } }, admin()))).toBe('NOT_HIERARCHICAL');
    expect(codeOf(await api.graphql(CREATE_TAG, { input: { name: 'Leaf', parent: '' } }, api.keys.editor))).toBe('NOT_HIERARCHICAL');
    expect(codeOf(await api.graphql(CREATE_TAG, { input: { name: 'Leaf', parent: '1' } }))).toBe('UNAUTHENTICATED');
    expect(codeOf(await api.graphql(CREATE_TAG, { input: { name: 'Leaf', parent: '1' } }, api.keys.author))).toBe('FORBIDDEN');
    const update = await api.graphql(UPDATE_TAG, { id: tag.id, input: { parent: '1' } }, admin());
    expect(codeOf(update)).toBe('NOT_HIERARCHICAL');
    expect(update.errors![0].message).toBe('Cannot set parent term, taxonomy is not hierarchical.');
  });

  it('updates only the fields given', async () => {
    const term = await createCategory({ name: 'Theatre', description: 'Plays', slug: 'theatre' });
    const described = await api.graphql(UPDATE_CATEGORY, { id: term.id, input: { description: 'Stage plays' } }, admin());
    expect(described.data.updateEventCategory).toMatchObject({ name: 'Theatre', slug: 'theatre', description: 'Stage plays', parentId: 0 });
    const renamed = await api.graphql(UPDATE_CATEGORY, { id: term.id, input: { name: 'Theater & Opera' } }, admin());
    expect(renamed.data.updateEventCategory).toMatchObject({ name: 'Theater &amp; Opera', slug: 'theatre', description: 'Stage plays' });
    const reslugged = await api.graphql(UPDATE_CATEGORY, { id: term.id, input: { slug: 'Stage' } }, admin());
    expect(reslugged.data.updateEventCategory).toMatchObject({ slug: 'stage', url: `${SITE}/events/category/stage/` });
    const parent = await createCategory({ name: 'Culture' });
    const moved = await api.graphql(UPDATE_CATEGORY, { id: term.id, input: { parent: 'culture' } }, admin());
    expect(moved.data.updateEventCategory).toMatchObject({ parentId: parent.id, url: `${SITE}/events/category/culture/stage/` });
    const nothing = await api.graphql(UPDATE_CATEGORY, { id: term.id, input: {} }, admin());
    expect(nothing.data.updateEventCategory).toMatchObject({ name: 'Theater &amp; Opera', slug: 'stage', parentId: parent.id });
  });

  it('refuses a slug taken by another term on update, and breaks parent loops', async () => {
    const a = await createCategory({ name: 'Alpha' });
    const b = await createCategory({ name: 'Beta', parent: String(a.id) });
    const taken = await api.graphql(UPDATE_CATEGORY, { id: b.id, input: { slug: 'alpha' } }, admin());
    expect(codeOf(taken)).toBe('CONFLICT');
    expect(taken.errors![0].extensions.termId).toBe(a.id);
    // A slug that sanitises to nothing falls back to the name.
    const emptied = await api.graphql(UPDATE_CATEGORY, { id: b.id, input: { slug: '!!!' } }, admin());
    expect(emptied.data.updateEventCategory.slug).toBe('beta');
    const loop = await api.graphql(UPDATE_CATEGORY, { id: a.id, input: { parent: String(b.id) } }, admin());
    expect(loop.data.updateEventCategory.parentId).toBe(0);
    const self = await api.graphql(UPDATE_CATEGORY, { id: b.id, input: { parent: String(b.id) } }, admin());
    expect(self.data.updateEventCategory.parentId).toBe(0);
  });

  it('validates updates: unknown ids, ids of the other taxonomy, empty values', async () => {
    const tag = await createTag({ name: 'Mismatch' });
    const wrong = await api.graphql(UPDATE_CATEGORY, { id: tag.id, input: { name: 'x' } }, admin());
    expect(paramsOf(wrong)).toEqual({ id: 'Invalid parameter.' });
    const empty = await api.graphql(UPDATE_TAG, { id: tag.id, input: { name: '', description: '', slug: '' } }, admin());
    expect(Object.keys(paramsOf(empty))).toEqual(['name', 'description', 'slug']);
    const both = await api.graphql(UPDATE_CATEGORY, { id: 999999, input: { parent: 'nope' } });
    expect(Object.keys(paramsOf(both))).toEqual(['id', 'parent']);
  });

  it('deletes for good, returns the record as it was, then treats the id as unknown', async () => {
    const prisma = api.server.db.prisma as any;
    const parent = await createCategory({ name: 'Festivals' });
    const doomed = await createCategory({ name: 'Summer', parent: String(parent.id) });
    const child = await createCategory({ name: 'July', parent: String(doomed.id) });
    const eventId = await seedEvent(prisma, 'Fest', 'publish', [doomed.id]);
    const deleted = await api.graphql(DELETE_CATEGORY, { id: doomed.id }, admin());
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteEventCategory).toEqual({ ...doomed, count: 1 });
    const again = await api.graphql(DELETE_CATEGORY, { id: doomed.id }, admin());
    expect(codeOf(again)).toBe('INVALID_INPUT');
    expect(paramsOf(again)).toEqual({ id: 'Invalid parameter.' });
    expect(codeOf(await api.graphql(`{ eventCategory(id: ${doomed.id}) { id } }`))).toBe('INVALID_INPUT');
    const moved = await api.graphql(`{ eventCategory(id: ${child.id}) { parentId url } }`);
    expect(moved.data.eventCategory).toEqual({ parentId: parent.id, url: `${SITE}/events/category/festivals/july/` });
    expect(await prisma.eventTerm.count({ where: { eventId } })).toBe(0);
    const tag = await createTag({ name: 'Gone' });
    expect((await api.graphql(DELETE_TAG, { id: tag.id }, api.keys.editor)).data.deleteTag).toEqual(tag);
    expect(codeOf(await api.graphql(DELETE_TAG, { id: tag.id }, api.keys.editor))).toBe('INVALID_INPUT');
  });

  it('gives parallel creates distinct slugs, one winner for the same name, one term for the same new event tag', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => api.graphql(CREATE_TAG, { input: { name: `Parallel ${n}`, slug: 'parallel' } }, admin())),
    );
    expect(results.map((r) => r.errors)).toEqual(results.map(() => undefined));
    expect(results.map((r) => r.data.createTag.slug).sort()).toEqual([
      'parallel',
      'parallel-2',
      'parallel-3',
      'parallel-4',
      'parallel-5',
      'parallel-6',
    ]);
    for (const round of [1, 2, 3]) {
      const same = await Promise.all(
        Array.from({ length: 8 }, () => api.graphql(CREATE_CATEGORY, { input: { name: `Race ${round}` } }, admin())),
      );
      const winners = same.filter((r) => !r.errors);
      expect(winners).toHaveLength(1);
      for (const loser of same.filter((r) => r.errors)) {
        expect(codeOf(loser)).toBe('TERM_EXISTS');
        expect(loser.errors![0].extensions.termId).toBe(winners[0].data.createEventCategory.id);
      }
    }
    // Event writes that name the same new tag at once end up sharing one term.
    const prisma = api.server.db.prisma as any;
    const resolved = await Promise.all(
      Array.from({ length: 8 }, () => prisma.$transaction((tx: any) => resolveEventTerms(tx, TAG, ['Fresh Tag'])) as Promise<number[]>),
    );
    expect(new Set(resolved.map((ids) => ids[0])).size).toBe(1);
    expect(await prisma.term.count({ where: { name: 'Fresh Tag' } })).toBe(1);
  });

  it('resolveEventTerms: ids, slugs or names; creates unknown names; skips unknown ids; collapses duplicates', async () => {
    const prisma = api.server.db.prisma as any;
    const resolve = (taxonomy: typeof CAT | typeof TAG, items: unknown) =>
      prisma.$transaction((tx: any) => resolveEventTerms(tx, taxonomy, items)) as Promise<number[]>;
    const beach = await createTag({ name: 'Beach Life', slug: 'beach' });
    const byName = await resolve(TAG, ['beach life', 'BEACH', beach.id, '  ', 999999]);
    expect(byName).toEqual([beach.id]);
    const created = await resolve(TAG, 'Brand New, beach,Brand New,, 888888');
    expect(created).toHaveLength(2);
    expect(created[1]).toBe(beach.id);
    const fresh = await prisma.term.findUnique({ where: { id: created[0] } });
    expect(fresh).toMatchObject({ name: 'Brand New', slug: 'brand-new', taxonomy: TAG });
    // Digits: a slug or name first, else an id of the taxonomy; never created.
    expect(await resolve(TAG, [String(beach.id)])).toEqual([beach.id]);
    const category = await createCategory({ name: 'Numbers' });
    expect(await resolve(TAG, [String(category.id), category.id])).toEqual([]);
    expect(await resolve(CAT, ['numbers', String(category.id)])).toEqual([category.id]);
    expect(await resolve(CAT, '')).toEqual([]);
    expect(await resolve(CAT, [])).toEqual([]);
    expect(await prisma.term.count({ where: { name: '888888' } })).toBe(0);
  });
});

describe.each(DATABASE_KINDS)('term counts follow event writes on %s', (kind) => {
  const api = useTestServer(kind);
  /** Each term's `count`, as a client reads it; `ids` are category ids, then `tags` tag ids. */
  const counts = async (ids: number[], tags: number[] = []) => {
    const read = (field: string, id: number) => `${field}(id: ${id}) { count }`;
    const fields = [...ids.map((id, i) => `c${i}: ${read('eventCategory', id)}`), ...tags.map((id, i) => `t${i}: ${read('tag', id)}`)];
    const result = await api.graphql(`{ ${fields.join(' ')} }`, {}, api.keys.administrator);
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    return Object.values(result.data as Record<string, { count: number }>).map((term) => term.count);
  };
  const write = async (query: string, variables: Record<string, unknown>) => {
    const result = await api.graphql(query, variables, api.keys.administrator);
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    return Object.values(result.data as object)[0] as { id: number; categories: { id: number }[]; tags: { id: number }[] };
  };
  const CREATE = 'mutation($i: CreateEventInput!) { createEvent(input: $i) { id categories { id } tags { id } } }';
  const UPDATE = 'mutation($id: Int, $i: UpdateEventInput!) { updateEvent(id: $id, input: $i) { id categories { id } tags { id } } }';
  const DELETE = 'mutation($id: Int) { deleteEvent(id: $id) { id categories { id } tags { id } } }';

  it('counts published events only, through create, status changes, term changes and the trash', async () => {
    const base = { startDate: '2030-01-10 10:00:00', endDate: '2030-01-10 12:00:00' };
    const first = await write(CREATE, { i: { ...base, title: 'Counted', categories: ['Counted music'], tags: ['counted-tag'] } });
    const [music, tag] = [first.categories[0].id, first.tags[0].id];
    expect(await counts([music], [tag])).toEqual([1, 1]);
    const draft = await write(CREATE, { i: { ...base, title: 'Draft', status: 'draft', categories: [String(music)] } });
    expect(await counts([music])).toEqual([1]);
    await write(UPDATE, { id: draft.id, i: { status: 'publish' } });
    expect(await counts([music])).toEqual([2]);
    await write(UPDATE, { id: first.id, i: { status: 'draft' } });
    expect(await counts([music], [tag])).toEqual([1, 0]);
    const other = (await write(UPDATE, { id: draft.id, i: { categories: ['Counted theatre'] } })).categories[0].id;
    expect(await counts([music, other])).toEqual([0, 1]);
    await write(UPDATE, { id: first.id, i: { status: 'publish', tags: [] } });
    expect(await counts([music], [tag])).toEqual([1, 0]);
    await write(DELETE, { id: first.id });
    await write(DELETE, { id: draft.id });
    expect(await counts([music, other], [tag])).toEqual([0, 0, 0]);
  });
});
