// An event's venues, organizers, categories and tags are read with only the columns their selection
// needs (src/graphql/selected-columns.ts). Every field of those types, asked alone (where it gets
// the fewest columns), must answer what it answers beside every other field (where it gets them
// all): a field that reads a column it does not declare fails here.
import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

/** Event fields returning linked records, and the type each returns. */
const LINKS = { venue: 'Venue', venues: 'Venue', organizers: 'Organizer', categories: 'EventCategory', tags: 'Tag' } as const;

interface IntrospectedField {
  name: string;
  args: { type: { kind: string } }[];
  type: { kind: string; name: string | null; ofType: IntrospectedField['type'] | null };
}

const namedType = (type: IntrospectedField['type']): IntrospectedField['type'] => (type.ofType ? namedType(type.ofType) : type);

describe.each(DATABASE_KINDS)('linked records read with the columns their selection needs, on %s', (kind) => {
  // Uncached, so that each operation's second run executes (compiled) rather than being served kept.
  const api = useTestServer(kind, { RESPONSE_CACHE: 'false' });
  const admin = () => api.keys.administrator;

  /**
   * A type's fields a client can select without arguments, as selections: a field returning
   * objects selects their own such fields, one level down (records by id).
   */
  async function selectableFields(typeName: string, depth = 1): Promise<Record<string, string>> {
    const { data } = await api.graphql(
      `query($name: String!) { __type(name: $name) { fields { name args { type { kind } } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }`,
      { name: typeName },
    );
    const fields: Record<string, string> = {};
    for (const field of data.__type.fields as IntrospectedField[]) {
      if (field.args.some((arg) => arg.type.kind === 'NON_NULL')) continue;
      const named = namedType(field.type);
      if (named.kind === 'INTERFACE') fields[field.name] = `${field.name} { __typename }`;
      else if (named.kind !== 'OBJECT') fields[field.name] = field.name;
      else if (depth > 0) {
        const inner = await selectableFields(named.name!, depth - 1);
        fields[field.name] = `${field.name} { ${inner.id ? 'id' : Object.values(inner).join(' ')} }`;
      }
    }
    return fields;
  }

  /**
   * A page's items with this selection, asked twice: a server runs the second run of its first 50
   * distinct operations compiled (graphql-jit, src/graphql/compiled.ts), which must answer the same.
   */
  async function eventsWith(selection: string, key?: string) {
    const query = `{ events(page: { perPage: 10 }) { items { id ${selection} } } }`;
    const result = await api.graphql(query, {}, key);
    expect(result.errors).toBeUndefined();
    expect(await api.graphql(query, {}, key)).toEqual(result);
    return result.data.events.items as Record<string, unknown>[];
  }

  it('seeds events with a rich venue, a protected venue, organizers and nested terms', async () => {
    const venue = await api.graphql(
      `mutation { createVenue(input: { name: "Hall & Co", description: "Big room", excerpt: "Room", address: "1 Main St", city: "Lyon",
        country: "France", province: "Rhône", zip: "69001", phone: "+33 1", website: "https://hall.example", showMap: false, showMapLink: true,
        stateprovince: "ARA" }) { id } }`,
      {},
      admin(),
    );
    expect(venue.errors).toBeUndefined();
    const hidden = await api.graphql(
      `mutation { createVenue(input: { name: "Back room", city: "Nice", password: "open", address: "2 Rue" }) { id } }`,
      {},
      admin(),
    );
    expect(hidden.errors).toBeUndefined();
    const organizer = await api.graphql(
      `mutation { createOrganizer(input: { name: "Jazz Club", email: "jazz@example.com", phone: "555", website: "https://jazz.example", description: "We play" }) { id } }`,
      {},
      admin(),
    );
    expect(organizer.errors).toBeUndefined();
    const parent = await api.graphql(
      `mutation { createEventCategory(input: { name: "Music", description: "All music" }) { id } }`,
      {},
      admin(),
    );
    expect(parent.errors).toBeUndefined();
    const child = await api.graphql(
      `mutation($parent: ID!) { createEventCategory(input: { name: "Jazz", parent: $parent }) { id } }`,
      { parent: String(parent.data.createEventCategory.id) },
      admin(),
    );
    expect(child.errors).toBeUndefined();
    const events: [number, number, Record<string, unknown>][] = [
      [
        3,
        venue.data.createVenue.id,
        { cost: ['10', '25'], website: 'https://night.example', description: 'Loud "night"', excerpt: 'Loud' },
      ],
      [4, hidden.data.createVenue.id, { featured: true, sticky: true, allDay: true, showMap: false }],
      [5, venue.data.createVenue.id, { password: 'secret', cost: ['Free'], timezone: 'Europe/Paris', description: 'Hidden' }],
    ];
    for (const [day, venueId, more] of events) {
      const created = await api.graphql(
        `mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`,
        {
          input: {
            ...more,
            title: `Night ${day}`,
            startDate: daysFromNow(day),
            endDate: daysFromNow(day),
            venue: venueId,
            organizer: [organizer.data.createOrganizer.id],
            categories: ['Jazz', 'Music'],
            tags: ['late', 'loud'],
          },
        },
        admin(),
      );
      expect(created.errors).toBeUndefined();
    }
  });

  for (const [link, typeName] of Object.entries(LINKS)) {
    it(`answers each ${typeName} field of Event.${link} alone as it does beside all the others`, async () => {
      const fields = await selectableFields(typeName);
      expect(Object.keys(fields).length).toBeGreaterThan(8);
      for (const key of [undefined, admin()]) {
        const full = await eventsWith(`${link} { ${Object.values(fields).join(' ')} }`, key);
        expect(full).toHaveLength(3);
        for (const [name, selection] of Object.entries(fields)) {
          const alone = await eventsWith(`${link} { ${selection} }`, key);
          const pick = (value: unknown): unknown =>
            Array.isArray(value)
              ? value.map(pick)
              : value && typeof value === 'object'
                ? { [name]: (value as Record<string, unknown>)[name] }
                : value;
          expect(alone, `${typeName}.${name}`).toEqual(full.map((event) => ({ id: event.id, [link]: pick(event[link]) })));
        }
      }
    });
  }

  it('answers each Event field of a page alone as it does beside all the others', async () => {
    const fields = await selectableFields('Event');
    expect(Object.keys(fields).length).toBeGreaterThan(40);
    for (const key of [undefined, admin()]) {
      const full = await eventsWith(Object.values(fields).join(' '), key);
      expect(full).toHaveLength(3);
      for (const [name, selection] of Object.entries(fields)) {
        const alone = await eventsWith(selection, key);
        expect(alone, `Event.${name}`).toEqual(full.map((event) => ({ id: event.id, [name]: event[name] })));
      }
    }
  });

  it('reads what fragments and merged fields select', async () => {
    const full = await eventsWith('venue { name city address zip url }');
    expect(full[0].venue).toMatchObject({ name: 'Hall & Co', city: 'Lyon', address: '1 Main St', zip: '69001' });
    const result = await api.graphql(
      `query { events(page: { perPage: 10 }) { items { id venue { name ... on Venue { city } ...Place } venue { url } } } }
       fragment Place on Venue { address zip }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.events.items).toEqual(full);
  });

  /** The SQL statements the server runs while `run` runs. */
  async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
    const statements: string[] = [];
    const stop = api.server.db.observe(({ query }) => statements.push(query));
    try {
      await run();
    } finally {
      stop();
    }
    return statements;
  }

  it('reads the page and its venues once, with the columns the selection needs', async () => {
    const statements = await statementsOf(() => eventsWith('venue { name city } organizers { name } tags { name }'));
    const pageReads = statements.filter((query) => /FROM "Event" WHERE .* LIMIT/.test(query));
    // One per run: eventsWith asks twice.
    expect(pageReads).toHaveLength(2);
    for (const read of pageReads) expect(read).not.toMatch(/"content"|"excerpt"|"cost"/);
    const venueReads = statements.filter((query) => /JOIN "Venue"/.test(query));
    expect(venueReads).toHaveLength(2);
    for (const read of venueReads) expect(read).not.toMatch(/"content"|"address"/);
    for (const read of venueReads) expect(read).toMatch(/v\."title".*v\."city"/);
  });

  it("reads the categories' parents and children once each, with the columns their selection needs", async () => {
    let items: Record<string, any>[] = [];
    const statements = await statementsOf(async () => {
      items = await eventsWith('categories { name parent { id name slug } children { slug } }');
    });
    // One of each per run (eventsWith asks twice), none through Prisma's client.
    expect(statements.filter((query) => /"Term"/.test(query))).toHaveLength(6);
    const parentReads = statements.filter((query) => /FROM "Term" t WHERE t\."id"/.test(query));
    const childReads = statements.filter((query) => /FROM "Term" t WHERE t\."parentId"/.test(query));
    expect(parentReads).toHaveLength(2);
    expect(childReads).toHaveLength(2);
    for (const read of [...parentReads, ...childReads]) expect(read).not.toMatch(/"description"|"count"|"termGroup"/);
    expect(items[0].categories).toEqual([
      { name: 'Jazz', parent: { id: expect.any(Number), name: 'Music', slug: 'music' }, children: [] },
      { name: 'Music', parent: null, children: [{ slug: 'jazz' }] },
    ]);
  });

  it('reads the terms once when categories and tags select different fields, with what each asked', async () => {
    let items: Record<string, any>[] = [];
    const statements = await statementsOf(async () => {
      items = await eventsWith('categories { name } tags { slug description } venue { name } venues { city }', admin());
    });
    const termReads = statements.filter((query) => /JOIN "Term"/.test(query));
    expect(termReads).toHaveLength(2);
    for (const read of termReads) expect(read).toMatch(/t\."slug".*t\."description"/);
    expect(statements.filter((query) => /JOIN "Venue"/.test(query))).toHaveLength(2);
    expect(items[0].categories).toEqual([{ name: 'Jazz' }, { name: 'Music' }]);
    expect(items[0].tags).toEqual([
      { slug: 'late', description: '' },
      { slug: 'loud', description: '' },
    ]);
    expect(items[0].venue).toEqual({ name: 'Hall & Co' });
    expect(items[0].venues).toEqual([{ city: 'Lyon' }]);
  });
});
