// No relation field costs per item: every field of a listed record that returns records (a venue,
// a category's parent, a series, linked events…) is asked on a page of 5 and on a page of 50, alone;
// the number of SQL statements must be the same. A relation resolved record by record (one read per
// item, or per item through Prisma's own batching) shows as more statements on the larger page. The
// fields are found by introspection, so a relation added later is measured without a change here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCalendar } from '../../bench/seed.js';
import type { RunningServer } from '../../src/server.js';
import { DATABASE_KINDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startQuietServer } from '../support/seeded-server.js';

const ADMIN_KEY = 'relation-costs-admin-key-0123456789';
/** The list queries, each answering `items` of one record type. */
const LISTS = { events: 'Event', venues: 'Venue', organizers: 'Organizer', eventCategories: 'EventCategory', tags: 'Tag' } as const;

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface Field {
  name: string;
  args: { type: TypeRef }[];
  type: TypeRef;
}
const named = (type: TypeRef): TypeRef => (type.ofType ? named(type.ofType) : type);

describe.each(DATABASE_KINDS)('relation fields cost the same on a page of 5 as on a page of 50, on %s', (kind) => {
  let database: TestDatabase;
  let server: RunningServer;
  const fieldsOf = new Map<string, Field[]>();

  const graphql = async (query: string) => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as { data?: Record<string, { items: unknown[] }>; errors?: { message: string }[] };
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // More of every record than the larger page, recurring series and child categories included.
    await seedCalendar(database.url, { events: 400, venues: 80, organizers: 80, categories: 60, tags: 80 });
    ({ server } = await startQuietServer(database.url, ADMIN_KEY));
    const introspection = await graphql(
      `{ __schema { types { name kind fields { name args { type { kind name ofType { kind name ofType { kind name } } } }
         type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`,
    );
    const types = (introspection.data as unknown as { __schema: { types: { name: string; fields: Field[] | null }[] } }).__schema.types;
    for (const type of types) if (type.fields) fieldsOf.set(type.name, type.fields);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  /** What a returned record is asked: its id (when it has one) and, for a page, its items' ids. */
  function inner(typeName: string): string {
    const fields = fieldsOf.get(typeName) ?? [];
    const has = (name: string) => fields.some((field) => field.name === name && !field.args.some((arg) => arg.type.kind === 'NON_NULL'));
    const parts = ['__typename'];
    if (has('id')) parts.push('id');
    const items = fields.find((field) => field.name === 'items');
    if (items && has('items')) parts.push(`items { ${inner(named(items.type).name!)} }`);
    return parts.join(' ');
  }

  /** The fields of a type that return records and need no argument. */
  const relations = (typeName: string) =>
    (fieldsOf.get(typeName) ?? []).filter(
      (field) => named(field.type).kind === 'OBJECT' && !field.args.some((arg) => arg.type.kind === 'NON_NULL'),
    );

  /** A request's statements: the fewest of three runs, as the server's background rounds count too. */
  async function statementsFor(list: string, perPage: number, selection: string): Promise<number> {
    const query = `{ ${list}(page: { perPage: ${perPage} }) { items { id ${selection} } } }`;
    await graphql(query); // the first run compiles the operation; its statements are the same
    let fewest = Infinity;
    for (let run = 0; run < 3; run++) {
      const before = server.db.statements.count;
      const result = await graphql(query);
      fewest = Math.min(fewest, server.db.statements.count - before);
      expect(result.errors, `${list}: ${selection}`).toBeUndefined();
      expect(result.data![list].items, list).toHaveLength(perPage);
    }
    return fewest;
  }

  it.each(Object.entries(LISTS))('%s: each relation of a %s alone, and all of them together', async (list, typeName) => {
    const fields = relations(typeName);
    expect(fields.length, `${typeName} has relation fields`).toBeGreaterThan(0);
    const costs: Record<string, [number, number]> = {};
    for (const field of fields) {
      const selection = `${field.name} { ${inner(named(field.type).name!)} }`;
      costs[field.name] = [await statementsFor(list, 5, selection), await statementsFor(list, 50, selection)];
    }
    const all = fields.map((field) => `${field.name} { ${inner(named(field.type).name!)} }`).join(' ');
    costs['(all)'] = [await statementsFor(list, 5, all), await statementsFor(list, 50, all)];
    const perItem = Object.entries(costs).filter(([, [small, large]]) => large !== small);
    expect(perItem, JSON.stringify(costs)).toEqual([]);
    // And a bounded number in all: a few statements per relation, whatever the page.
    expect(costs['(all)'][1]).toBeLessThanOrEqual(4 * fields.length + 4);
  });
});
