// The event part of the GraphQL API, through HTTP as a client sees it, on both databases.
import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';

const RECORD = `id title slug status author url website startDate endDate utcStartDate utcEndDate timezone timezoneAbbr allDay
  cost costDetails { currencySymbol currencyPosition values } showMap showMapLink featured sticky hideFromListings
  descriptionHtml excerptHtml startDateDetails { year month day hour minutes seconds }
  venue { id name } organizers { id name } categories { id name slug } tags { id name }`;

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { ${RECORD} } }`;
const UPDATE = `mutation($id: Int, $slug: String, $input: UpdateEventInput!) { updateEvent(id: $id, slug: $slug, input: $input) { ${RECORD} } }`;
const DELETE = `mutation($id: Int) { deleteEvent(id: $id) { id status } }`;
const ONE = `query($id: Int, $slug: String, $password: String) { event(id: $id, slug: $slug, password: $password) { id title descriptionHtml jsonLd } }`;
const LIST = `query($filter: EventFilter, $page: PageInput, $password: String) {
  events(filter: $filter, page: $page, password: $password) { total totalPages items { id title masked descriptionHtml cost } dates { startDate endDate } statuses } }`;

const future = daysFromNow;

async function create(api: TestServer, input: Record<string, unknown>, key = api.keys.administrator) {
  const result = await api.graphql(CREATE, { input }, key);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data.createEvent;
}

const code = (result: { errors?: any[] }) => result.errors?.[0]?.extensions?.code;

describe.each(DATABASE_KINDS)('GraphQL events on %s', (kind) => {
  const api = useTestServer(kind);

  describe('createEvent', () => {
    it('creates an event with TEC semantics: local and UTC dates, zone abbreviation, cost, permalink website', async () => {
      const event = await create(api, {
        title: 'Jazz Night',
        description: 'Live jazz',
        excerpt: 'Jazz excerpt',
        startDate: '2026-12-05 19:00:00',
        endDate: '2026-12-05 22:00:00',
        timezone: 'America/Chicago',
        cost: ['10'],
      });
      expect(event).toMatchObject({
        title: 'Jazz Night',
        slug: 'jazz-night',
        status: 'PUBLISH',
        author: 1,
        url: 'http://almanac.test/event/jazz-night/',
        website: 'http://almanac.test/event/jazz-night/',
        startDate: '2026-12-05 19:00:00',
        utcStartDate: '2026-12-06 01:00:00',
        utcEndDate: '2026-12-06 04:00:00',
        timezone: 'America/Chicago',
        timezoneAbbr: 'CST',
        allDay: false,
        cost: '$10',
        costDetails: { currencySymbol: '', currencyPosition: '', values: ['10'] },
        showMap: false,
        showMapLink: false,
        featured: false,
        sticky: false,
        descriptionHtml: '<p>Live jazz</p>',
        excerptHtml: '<p>Jazz excerpt</p>',
        startDateDetails: { year: '2026', month: '12', day: '05', hour: '19', minutes: '00', seconds: '00' },
        venue: null,
        organizers: [],
      });
    });

    it('makes all-day events whole days and ends before the start equal to the start', async () => {
      const allDay = await create(api, { title: 'Holiday Market', startDate: '2026-12-20', endDate: '2026-12-21', allDay: true });
      expect([allDay.startDate, allDay.endDate, allDay.timezone]).toEqual(['2026-12-20 00:00:00', '2026-12-21 23:59:59', 'UTC']);
      const backwards = await create(api, { title: 'Backwards', startDate: '2026-12-20 10:00', endDate: '2026-12-19 10:00' });
      expect(backwards.endDate).toBe(backwards.startDate);
    });

    it('creates inline venue and organizers, reuses duplicates, and creates terms by name', async () => {
      const first = await create(api, {
        title: 'Art Fair',
        startDate: '2026-12-10 10:00:00',
        endDate: '2026-12-10 17:00:00',
        venue: { venue: 'City Park', city: 'Springfield', country: 'United States' },
        organizer: [{ organizer: 'Art Council', email: 'art@example.com' }],
        categories: ['Art'],
        tags: ['family', 'outdoor'],
        featured: true,
      });
      expect(first.venue.name).toBe('City Park');
      expect(first.organizers.map((o: any) => o.name)).toEqual(['Art Council']);
      expect(first.categories.map((c: any) => c.name)).toEqual(['Art']);
      expect(first.tags.map((c: any) => c.name)).toEqual(['family', 'outdoor']);
      const second = await create(api, {
        title: 'Art Fair 2',
        startDate: '2026-12-11 10:00:00',
        endDate: '2026-12-11 17:00:00',
        venue: { venue: 'city park' },
        organizer: [first.organizers[0].id, { organizer: 'Second Org' }],
        categories: [String(first.categories[0].id)],
      });
      expect(second.venue.id).toBe(first.venue.id);
      expect(second.organizers.map((o: any) => o.name)).toEqual(['Art Council', 'Second Org']);
      expect(second.categories[0].id).toBe(first.categories[0].id);
    });

    it('reports every invalid field at once, before any permission check', async () => {
      const input = {
        title: '',
        startDate: 'before my birthday',
        endDate: '2026-12-01',
        website: 'foo',
        status: 'foo',
        timezone: 'Mars/Olympus',
        author: 999,
      };
      for (const key of [undefined, api.keys.subscriber, api.keys.administrator]) {
        const result = await api.graphql(CREATE, { input }, key);
        expect(code(result)).toBe('INVALID_INPUT');
        expect(Object.keys(result.errors![0].extensions.params)).toEqual(['title', 'startDate', 'author', 'status', 'timezone', 'website']);
      }
    });

    it('refuses callers who may not create: anonymous is UNAUTHENTICATED, subscriber FORBIDDEN', async () => {
      const input = { title: 'Nope', startDate: '2026-12-01 10:00', endDate: '2026-12-01 11:00' };
      expect(code(await api.graphql(CREATE, { input }))).toBe('UNAUTHENTICATED');
      expect(code(await api.graphql(CREATE, { input }, api.keys.subscriber))).toBe('FORBIDDEN');
    });

    it('scales back statuses for roles that cannot publish', async () => {
      const base = { startDate: '2026-12-01 10:00', endDate: '2026-12-01 11:00' };
      expect((await create(api, { ...base, title: 'C1', status: 'publish' }, api.keys.contributor)).status).toBe('PENDING');
      expect((await create(api, { ...base, title: 'C2' }, api.keys.contributor)).status).toBe('DRAFT');
      expect((await create(api, { ...base, title: 'A1' }, api.keys.author)).status).toBe('PUBLISH');
      expect((await create(api, { ...base, title: 'A2', date: '2030-01-01 10:00:00' }, api.keys.author)).status).toBe('FUTURE');
    });

    it('cannot link a list of several venues or a bare organizer object', async () => {
      const base = { title: 'Bad links', startDate: '2026-12-01 10:00', endDate: '2026-12-01 11:00' };
      expect(code(await api.graphql(CREATE, { input: { ...base, venue: [{ venue: 'A' }, { venue: 'B' }] } }, api.keys.administrator))).toBe(
        'COULD_NOT_CREATE_VENUE',
      );
      expect(code(await api.graphql(CREATE, { input: { ...base, organizer: { organizer: 'Solo' } } }, api.keys.administrator))).toBe(
        'COULD_NOT_CREATE_ORGANIZER',
      );
      expect(code(await api.graphql(CREATE, { input: { ...base, venue: 999999 } }, api.keys.administrator))).toBe('INVALID_INPUT');
      const none = await api.graphql(`{ events(filter: { search: "Bad links" }) { total } }`, {}, api.keys.administrator);
      expect(none.data.events.total).toBe(0); // nothing half-written
    });

    it('keeps slugs unique under parallel creates', async () => {
      const input = { title: 'Same Title', startDate: '2026-12-02 10:00', endDate: '2026-12-02 11:00' };
      const results = await Promise.all(Array.from({ length: 8 }, () => api.graphql(CREATE, { input }, api.keys.administrator)));
      const slugs = results.map((r) => r.data.createEvent.slug).sort();
      expect(new Set(slugs).size).toBe(8);
      expect(slugs).toContain('same-title');
      expect(slugs).toContain('same-title-8');
    });
  });

  describe('updateEvent and deleteEvent', () => {
    it('changes only the fields given; an explicit empty value clears', async () => {
      const event = await create(api, {
        title: 'Keep Me',
        startDate: '2026-12-03 10:00',
        endDate: '2026-12-03 12:00',
        featured: true,
        website: 'https://example.com',
        venue: { venue: 'Keep Hall' },
        organizer: [{ organizer: 'Keep Org' }],
        categories: ['Keepers'],
      });
      const updated = (await api.graphql(UPDATE, { id: event.id, input: { title: 'Kept', cost: ['15'] } }, api.keys.administrator)).data
        .updateEvent;
      expect(updated).toMatchObject({
        title: 'Kept',
        cost: '$15',
        featured: true,
        website: 'https://example.com',
        startDate: '2026-12-03 10:00:00',
      });
      expect(updated.venue.name).toBe('Keep Hall');
      expect(updated.organizers).toHaveLength(1);
      const cleared = (
        await api.graphql(UPDATE, { id: event.id, input: { venue: [], organizer: [], categories: [] } }, api.keys.administrator)
      ).data.updateEvent;
      expect([cleared.venue, cleared.organizers, cleared.categories]).toEqual([null, [], []]);
      const moved = (await api.graphql(UPDATE, { id: event.id, input: { timezone: 'Europe/Paris' } }, api.keys.administrator)).data
        .updateEvent;
      expect([moved.startDate, moved.utcStartDate, moved.timezoneAbbr]).toEqual(['2026-12-03 10:00:00', '2026-12-03 09:00:00', 'CET']);
    });

    it('enforces ownership: contributors edit only their own drafts', async () => {
      const adminEvent = await create(api, { title: 'Admin owned', startDate: '2026-12-04 10:00', endDate: '2026-12-04 11:00' });
      expect(code(await api.graphql(UPDATE, { id: adminEvent.id, input: { title: 'x' } }, api.keys.contributor))).toBe('FORBIDDEN');
      expect(code(await api.graphql(UPDATE, { id: adminEvent.id, input: { title: 'x' } }))).toBe('UNAUTHENTICATED');
      const own = await create(api, { title: 'Mine', startDate: '2026-12-04 10:00', endDate: '2026-12-04 11:00' }, api.keys.contributor);
      expect((await api.graphql(UPDATE, { id: own.id, input: { title: 'Still mine' } }, api.keys.contributor)).data.updateEvent.title).toBe(
        'Still mine',
      );
    });

    it('tells not found from not an event', async () => {
      expect(code(await api.graphql(UPDATE, { id: 999999, input: { title: 'x' } }, api.keys.administrator))).toBe('NOT_FOUND');
      const withVenue = await create(api, {
        title: 'Has venue',
        startDate: '2026-12-04 10:00',
        endDate: '2026-12-04 11:00',
        venue: { venue: 'Lonely Hall' },
      });
      expect(code(await api.graphql(UPDATE, { id: withVenue.venue.id, input: { title: 'x' } }, api.keys.administrator))).toBe('WRONG_TYPE');
      expect(code(await api.graphql(ONE, { id: withVenue.venue.id }))).toBe('WRONG_TYPE');
      expect(code(await api.graphql(ONE, { id: 999999 }))).toBe('NOT_FOUND');
    });

    it('trashes on the first delete; the second is ALREADY_TRASHED; reads say TRASHED', async () => {
      const event = await create(api, { title: 'Doomed', startDate: '2026-12-04 10:00', endDate: '2026-12-04 11:00' });
      expect(code(await api.graphql(DELETE, { id: event.id }))).toBe('UNAUTHENTICATED');
      expect((await api.graphql(DELETE, { id: event.id }, api.keys.administrator)).data.deleteEvent).toEqual({
        id: event.id,
        status: 'TRASH',
      });
      expect(code(await api.graphql(DELETE, { id: event.id }, api.keys.administrator))).toBe('ALREADY_TRASHED');
      expect(code(await api.graphql(ONE, { id: event.id }))).toBe('TRASHED');
    });
  });

  describe('reading', () => {
    it('applies visibility per role and masks password-protected events', async () => {
      const draft = await create(
        api,
        { title: 'Contrib draft', startDate: future(3), endDate: future(3, '11:00:00') },
        api.keys.contributor,
      );
      expect(code(await api.graphql(ONE, { id: draft.id }))).toBe('NOT_ACCESSIBLE');
      expect((await api.graphql(ONE, { id: draft.id }, api.keys.contributor)).data.event.title).toBe('Contrib draft');
      expect((await api.graphql(ONE, { id: draft.id }, api.keys.editor)).data.event.title).toBe('Contrib draft');
      expect(code(await api.graphql(ONE, { slug: draft.slug }))).toBe('INVALID_INPUT');

      const secret = await create(api, {
        title: 'Secret',
        description: 'hidden text',
        cost: ['5'],
        password: 'sesame',
        startDate: future(4),
        endDate: future(4, '11:00:00'),
      });
      expect(code(await api.graphql(ONE, { id: secret.id }))).toBe('PASSWORD_REQUIRED');
      expect((await api.graphql(ONE, { id: secret.id, password: 'sesame' })).data.event.descriptionHtml).toBe('<p>hidden text</p>');
      // Visitors' searches leave password-protected events out (WordPress); logged-in callers' do not.
      expect((await api.graphql(LIST, { filter: { search: 'Secret' } })).data.events.items).toEqual([]);
      const search = { filter: { search: 'Secret' } };
      const listed = (await api.graphql(LIST, search, api.keys.subscriber)).data.events.items[0];
      expect(listed).toMatchObject({ title: 'Secret', masked: true, descriptionHtml: '', cost: '' });
      const unlocked = (await api.graphql(LIST, { ...search, password: 'sesame' }, api.keys.subscriber)).data.events.items[0];
      expect(unlocked).toMatchObject({ masked: false, cost: '$5' });
    });

    it('returns JSON-LD for a single event', async () => {
      const event = await create(api, {
        title: 'LD',
        excerpt: 'Short',
        startDate: '2026-12-05 19:00:00',
        endDate: '2026-12-05 22:00:00',
        timezone: 'America/Chicago',
        cost: ['10'],
      });
      const ld = (await api.graphql(ONE, { id: event.id })).data.event.jsonLd;
      expect(ld).toMatchObject({ '@type': 'Event', name: 'LD', startDate: '2026-12-05T19:00:00-06:00', offers: { price: '10' } });
    });
  });
});

describe.each(DATABASE_KINDS)('GraphQL event list filters on %s', (kind) => {
  const api = useTestServer(kind);
  const titles = async (filter: Record<string, unknown>, key?: string) => {
    const result = await api.graphql(LIST, { filter, page: { perPage: 50 } }, key);
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    return result.data.events.items.map((e: any) => e.title);
  };

  it('filters by dates, search, terms, venue, organizer, featured, status, include, parent; hides hidden events', async () => {
    const one = await create(api, {
      title: 'Alpha concert',
      startDate: '2030-01-01 16:00:00',
      endDate: '2030-01-01 16:30:00',
      categories: ['music'],
      tags: ['loud'],
      venue: { venue: 'V1' },
      organizer: [{ organizer: 'O1' }],
      featured: true,
    });
    await create(api, { title: 'Beta lecture', startDate: '2030-01-01 20:00:00', endDate: '2030-01-01 20:30:00', categories: ['talks'] });
    await create(api, { title: 'Gamma concert', startDate: '2029-12-31 17:00:00', endDate: '2030-01-01 19:00:00', parent: one.id });
    await create(api, { title: 'Delta hidden', startDate: '2030-01-01 12:00:00', endDate: '2030-01-01 13:00:00', hideFromListings: true });
    await create(api, { title: 'Epsilon draft', startDate: '2030-01-01 12:00:00', endDate: '2030-01-01 13:00:00', status: 'draft' });

    const day = { startDate: '2030-01-01 15:00:00', endDate: '2030-01-01 18:00:00' };
    expect(await titles(day)).toEqual(['Alpha concert', 'Beta lecture']);
    expect(await titles({ ...day, strictDates: true })).toEqual(['Alpha concert']);
    expect(await titles({ endsAfter: '2029-12-30', startsBefore: '2030-01-02' })).toEqual([
      'Gamma concert',
      'Alpha concert',
      'Beta lecture',
    ]);
    expect(await titles({ startsBefore: '2030-01-02', search: 'concert' })).toEqual(['Gamma concert', 'Alpha concert']);
    expect(await titles({ startsBefore: '2030-01-02', search: 'concert -gamma' })).toEqual(['Alpha concert']);
    expect(await titles({ startsBefore: '2030-01-02', categories: ['music', 'talks'] })).toEqual(['Alpha concert', 'Beta lecture']);
    expect(await titles({ startsBefore: '2030-01-02', tags: ['loud'] })).toEqual(['Alpha concert']);
    expect(await titles({ startsBefore: '2030-01-02', featured: false })).toEqual(['Gamma concert', 'Beta lecture']);
    expect(await titles({ startsBefore: '2030-01-02', postParent: one.id })).toEqual(['Gamma concert']);
    const alpha = (
      await api.graphql(`{ events(filter: { startsBefore: "2030-01-02", featured: true }) { items { venue { id } organizers { id } } } }`)
    ).data.events.items[0];
    expect(await titles({ startsBefore: '2030-01-02', venue: [alpha.venue.id] })).toEqual(['Alpha concert']);
    expect(await titles({ startsBefore: '2030-01-02', organizer: [alpha.organizers[0].id] })).toEqual(['Alpha concert']);
    expect(await titles({ startsBefore: '2030-01-02', status: ['draft'] }, api.keys.editor)).toEqual(['Epsilon draft']);
    expect(await titles({ startsBefore: '2030-01-02' }, api.keys.editor)).toContain('Epsilon draft');
    expect(await titles({ startsBefore: '2030-01-02' })).not.toContain('Delta hidden');
  });

  it('rejects invalid filters with a reason per filter', async () => {
    const result = await api.graphql(LIST, {
      filter: { startDate: 'foo', categories: ['nope'], venue: [999999], status: ['publish', 'draft'], search: '' },
    });
    expect(code(result)).toBe('INVALID_INPUT');
    expect(Object.keys(result.errors![0].extensions.params)).toEqual(['startDate', 'search', 'categories', 'venue', 'status']);
  });

  it('uses the default window: from yesterday to 24 months ahead', async () => {
    await create(api, { title: 'Long ago', startDate: '2001-01-01 10:00', endDate: '2001-01-01 11:00' });
    await create(api, { title: 'Soon', startDate: future(1), endDate: future(1, '11:00:00') });
    const result = (await api.graphql(LIST, { page: { perPage: 50 } })).data.events;
    const names = result.items.map((e: any) => e.title);
    expect(names).toContain('Soon');
    expect(names).not.toContain('Long ago');
    expect(result.dates.startDate).toMatch(/^\d{4}-\d\d-\d\d 00:00:00$/);
    expect(result.dates.endDate).toMatch(/ 23:59:59$/);
  });

  it('pages with the Relay connection', async () => {
    const first = (
      await api.graphql(
        `{ eventsConnection(first: 2, filter: { startsBefore: "2031-01-01" }) { edges { cursor node { title } } pageInfo { hasNextPage endCursor } } }`,
      )
    ).data.eventsConnection;
    expect(first.edges).toHaveLength(2);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = (
      await api.graphql(
        `query($after: String) { eventsConnection(first: 2, after: $after, filter: { startsBefore: "2031-01-01" }) { edges { node { title } } } }`,
        { after: first.pageInfo.endCursor },
      )
    ).data.eventsConnection;
    expect(next.edges[0].node.title).not.toBe(first.edges[1].node.title);
  });
});

describe.each(DATABASE_KINDS)('GraphQL statement count on %s', (kind) => {
  const api = useTestServer(kind, { POSTS_PER_PAGE: '50' });

  it('a nested page of events costs the same number of statements for 5 rows as for 50', async () => {
    const query = `query($perPage: Int) { events(page: { perPage: $perPage }, filter: { startsBefore: "2040-01-01" }) {
      items { title venue { name events { title } } organizers { name } categories { name parent { name } } tags { name } } } }`;
    for (let i = 0; i < 50; i++) {
      await create(api, {
        title: `Event ${i}`,
        startDate: `2031-01-${String((i % 28) + 1).padStart(2, '0')} 10:00`,
        endDate: `2031-01-${String((i % 28) + 1).padStart(2, '0')} 11:00`,
        venue: { venue: `Venue ${i % 7}` },
        organizer: [{ organizer: `Org ${i % 5}` }, { organizer: `Org ${(i + 1) % 5}` }],
        categories: [`cat${i % 3}`],
        tags: [`tag${i % 4}`],
      });
    }
    const count = async (perPage: number) => {
      // Totals are kept per data version: move it, so that each page counts its total afresh.
      await api.server.db.prisma.dataVersion.update({ where: { scope: 'calendar' }, data: { version: { increment: 1 } } });
      const before = api.server.db.statements.count;
      const result = await api.graphql(query, { perPage });
      expect(result.errors).toBeUndefined();
      expect(result.data.events.items).toHaveLength(perPage);
      return api.server.db.statements.count - before;
    };
    const small = await count(5);
    const large = await count(50);
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(20);
  });
});

describe.each(DATABASE_KINDS)('GraphQL request bounds on %s', (kind) => {
  const api = useTestServer(kind);

  it('bounds nested lists: a venue with many events returns at most `first` (default 50, max 100)', async () => {
    for (let i = 0; i < 55; i++) {
      await create(api, {
        title: `Crowded ${i}`,
        startDate: '2027-01-05 10:00',
        endDate: '2027-01-05 11:00',
        venue: { venue: 'Crowded Hall' },
      });
    }
    const query = `query($first: Int) { venues { items { name events(first: $first) { id } } } }`;
    const venue = async (first?: number) =>
      (await api.graphql(query, { first })).data.venues.items.find((v: any) => v.name === 'Crowded Hall');
    expect((await venue()).events).toHaveLength(50);
    expect((await venue(5)).events).toHaveLength(5);
    expect((await venue(1000)).events).toHaveLength(55);
  });

  it('refuses documents over the alias, token and size limits', async () => {
    const aliases = Array.from({ length: 100 }, (_, i) => `a${i}: events { total }`).join(' ');
    expect((await api.graphql(`{ ${aliases} }`)).errors?.[0].message).toMatch(/alias/i);
    // 10,000 aliases: the parser stops at the token limit.
    const many = Array.from({ length: 10_000 }, (_, i) => `a${i}: __typename`).join(' ');
    expect((await api.graphql(`{ ${many} }`)).errors?.[0].message).toMatch(/token/i);
    // A 1 MB document is refused before it is read (413), and the server goes on answering.
    const huge = await api.request('POST', '/graphql', { body: { query: `{ events { total } } # ${'x'.repeat(1_048_576)}` } });
    expect(huge.status).toBe(413);
    expect(huge.json.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await api.graphql('{ events { total } }')).errors).toBeUndefined();
  });
});

describe.each(DATABASE_KINDS)('GraphQL odd input on %s', (kind) => {
  const api = useTestServer(kind);

  it('never answers 500 to NUL characters or ids beyond 32 bits', async () => {
    const created = await api.graphql(
      CREATE,
      { input: { title: 'Nul\u0000title', startDate: '2026-12-01 10:00', endDate: '2026-12-01 11:00', venue: { id: 99999999999 } } },
      api.keys.administrator,
    );
    expect(code(created)).toBe('INVALID_INPUT');
    const nul = await api.graphql(
      CREATE,
      { input: { title: 'Nul\u0000title', description: 'a\u0000b', startDate: '2026-12-01 10:00', endDate: '2026-12-01 11:00' } },
      api.keys.administrator,
    );
    expect(nul.errors).toBeUndefined();
    expect(nul.data.createEvent.title).toBe('Nultitle');
    for (const input of [{ author: 2 ** 31 }, { image: String(2 ** 40) }, { organizer: [2 ** 35] }, { categories: [String(2 ** 40)] }]) {
      const result = await api.graphql(UPDATE, { id: nul.data.createEvent.id, input }, api.keys.administrator);
      expect(result.status).toBeLessThan(500);
      expect(result.errors?.[0]?.message ?? '').not.toMatch(/unexpected error/i);
    }
    const list = await api.graphql(LIST, { filter: { include: [2147483647], search: 'x\u0000' } });
    expect(list.errors).toBeUndefined();
  });

  it('answers 400, not 500, to requests it cannot read (found by the hostile suite, hostile/fuzz.test.ts)', async () => {
    const query = encodeURIComponent('{ __typename }');
    const part = (name: string, value: string, file = '') =>
      `--x\r\nContent-Disposition: form-data; name="${name}"${file && `; filename="${file}"`}\r\n\r\n${value}\r\n`;
    // A multipart upload whose map names a number instead of a list of paths.
    const multipart = part('operations', '{"query":"{ __typename }"}') + part('map', '{"0":5}') + part('0', 'x', 'a.txt') + '--x--\r\n';
    const unreadable = [
      await api.request('GET', `/graphql?query=${query}&variables=%7Bbad`),
      await api.request('GET', `/graphql?query=${query}&extensions=%7Bbad`),
      await api.request('POST', '/graphql', { form: `query=${query}&variables=%7Bbad` }),
      await api.request('POST', '/graphql', { body: multipart, headers: { 'content-type': 'multipart/form-data; boundary=x' } }),
    ];
    for (const answer of unreadable) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.json.errors[0].extensions.code).toBe('BAD_REQUEST');
    }
    expect((await api.request('GET', `/graphql?query=${query}&variables=%7B%7D`)).json.data).toEqual({ __typename: 'Query' });
  });
});
