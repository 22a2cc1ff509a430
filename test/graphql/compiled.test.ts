// Operations over HTTP run interpreted the first time and compiled (graphql-jit) from the second on:
// a repeated operation must answer exactly as its first run did — data, errors, their paths and
// codes — with and without the response cache.
import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';
import { GraphQLScalarType } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { compiledOnRepeat, MAX_COMPILED } from '../../src/graphql/compiled.js';

const future = daysFromNow;

const PAGE = `query Page($perPage: Int) { events(page: { perPage: $perPage }) { total items { id title startDate
  venue { name events(first: 2) { id title } } organizers { name } categories { name } tags { name } } } }`;
const NODE = `query Node($id: ID!) { node(nodeId: $id) { __typename nodeId ... on Event { title } ... on Venue { name } } }`;

/** Each operation twice; both answers (status and body) must be equal. */
async function twice(api: TestServer, query: string, variables: Record<string, unknown> = {}, key?: string, operationName?: string) {
  const run = () => api.request('POST', '/graphql', { body: { query, variables, operationName }, key });
  const first = await run();
  const second = await run();
  expect({ status: second.status, body: second.json }).toEqual({ status: first.status, body: first.json });
  return first;
}

describe.each(DATABASE_KINDS)('repeated (compiled) GraphQL operations on %s', (kind) => {
  for (const responseCache of ['true', 'false']) {
    describe(`RESPONSE_CACHE=${responseCache}`, () => {
      const api = useTestServer(kind, { RESPONSE_CACHE: responseCache });
      let venueNodeId = '';

      it('answers a nested page and a node lookup as the first run did', async () => {
        const venue = await api.graphql(
          `mutation { createVenue(input: { name: "Hall ${responseCache}" }) { id nodeId } }`,
          {},
          api.keys.administrator,
        );
        expect(venue.errors).toBeUndefined();
        venueNodeId = venue.data.createVenue.nodeId;
        for (const day of [3, 4]) {
          const created = await api.graphql(
            `mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`,
            {
              input: {
                title: `Gig ${day}`,
                startDate: future(day),
                endDate: future(day),
                venue: venue.data.createVenue.id,
                categories: ['Rock'],
                tags: ['loud'],
              },
            },
            api.keys.administrator,
          );
          expect(created.errors).toBeUndefined();
        }
        const page = await twice(api, PAGE, { perPage: 5 });
        expect(page.json.data.events.total).toBe(2);
        expect(page.json.data.events.items[0].venue.events).toHaveLength(2);
        expect(page.json.data.events.items[0].venue).toMatchObject({ name: `Hall ${responseCache}` });
        expect(page.json.data.events.items[0].categories).toEqual([{ name: 'Rock' }]);
        const node = await twice(api, NODE, { id: venueNodeId });
        expect(node.json.data.node).toMatchObject({ __typename: 'Venue', name: `Hall ${responseCache}` });
        // One document, two operations: each answers as its own first run, whichever ran before.
        const both = `query Count { events { total } } query Titles { events { items { title } } }`;
        for (const operationName of ['Count', 'Titles', 'Count']) await twice(api, both, {}, undefined, operationName);
        const titles = await twice(api, both, {}, undefined, 'Titles');
        expect(titles.json.data.events.items.map((event: { title: string }) => event.title)).toEqual(['Gig 3', 'Gig 4']);
      });

      it('changes only what an update is given, however often its document runs', async () => {
        const venue = await api.graphql(
          `mutation { createVenue(input: { name: "Kept ${responseCache}" }) { id } }`,
          {},
          api.keys.administrator,
        );
        const ids: number[] = [];
        for (const day of [5, 6, 7]) {
          const input = {
            title: `Keep ${day}`,
            startDate: future(day),
            endDate: future(day),
            venue: venue.data.createVenue.id,
            categories: ['Folk'],
            website: 'https://example.org/',
          };
          const created = await api.graphql(
            `mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`,
            { input },
            api.keys.administrator,
          );
          ids.push(created.data.createEvent.id);
        }
        // Variables inside the input literal, some left out: those fields must stay as they are
        // (graphql-jit would read them as null, which clears a venue, categories and a website).
        const update = `mutation($id: Int!, $title: String, $venue: JSON, $categories: [String!], $website: String) {
          updateEvent(id: $id, input: { title: $title, venue: $venue, categories: $categories, website: $website }) {
            title website venue { name } categories { name } } }`;
        for (const id of [...ids, ids[0]]) {
          const updated = await api.graphql(update, { id, title: `Renamed ${id}` }, api.keys.administrator);
          expect(updated.errors).toBeUndefined();
          expect(updated.data.updateEvent).toEqual({
            title: `Renamed ${id}`,
            website: 'https://example.org/',
            venue: { name: `Kept ${responseCache}` },
            categories: [{ name: 'Folk' }],
          });
        }
      });

      it('answers as before once the process has compiled as many documents as it will', async () => {
        const total = (await api.graphql('{ events { total } }')).data.events.total;
        expect(total).toBeGreaterThan(0);
        for (let n = 0; n <= MAX_COMPILED; n++) {
          const answer = await twice(api, `query Count${n} { events { total } }`);
          expect(answer.json).toEqual({ data: { events: { total } } });
        }
      });

      it('reports the same errors: bad variables, a missing record, a refused write', async () => {
        const badVariable = await twice(api, PAGE, { perPage: 'many' });
        expect(badVariable.json.errors[0].message).toContain('$perPage');
        const missingVariable = await twice(api, NODE, {});
        expect(missingVariable.json.errors[0].message).toContain('$id');
        // Over several lines (\r\n and \n): the error's location is where the first run put it.
        const missing = await twice(api, 'query($id: Int) {\r\n  # the second line\n  two: event(id: $id) { title }\n}', {
          id: 999_999,
        });
        expect(missing.json.errors).toHaveLength(1);
        expect(missing.json.errors[0]).toMatchObject({
          extensions: { code: 'NOT_FOUND' },
          path: ['two'],
          locations: [{ line: 3, column: 3 }],
        });
        const refused = await twice(
          api,
          `mutation($input: CreateVenueInput!) { createVenue(input: $input) { id } }`,
          { input: { name: 'Not yours' } },
          api.keys.subscriber,
        );
        expect(refused.json.errors[0]).toMatchObject({ path: ['createVenue'], extensions: { code: 'FORBIDDEN' } });
        expect(refused.json.data).toBeNull();
      });
    });
  }
});

// Cases the calendar's schema does not show, on a schema of their own: graphql-jit's own errors are
// masked as graphql-js's are, and a variable left out inside an input object is left out there.
describe('repeated operations on a schema of their own', () => {
  const yoga = createYoga({
    schema: createSchema({
      typeDefs:
        'scalar Odd\ninput I { a: String b: String = "b" }\ntype Query { hello: String! must: String! odd: Odd! given(i: I, a: String): String! }',
      resolvers: {
        Odd: new GraphQLScalarType({
          name: 'Odd',
          serialize: () => {
            throw new Error('cannot write this');
          },
        }),
        Query: { hello: () => 'hi', must: () => null, odd: () => 1, given: (_: unknown, args: object) => JSON.stringify(args) },
      },
    }),
    plugins: [compiledOnRepeat()],
    logging: false,
  });
  const run = async (query: string) => {
    const response = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return { status: response.status, body: await response.json() };
  };

  // A variable left out: graphql-js leaves the field out of the input object (keeping its default).
  for (const query of ['query($x: String) { given(i: { a: $x }) }', 'query($x: String) { given(a: $x, i: { b: "c" }) }']) {
    it(`answers ${JSON.stringify(query)} without $x the second time as the first`, async () => {
      const first = await run(query);
      expect(first.body.data.given).not.toContain('null');
      expect(await run(query)).toEqual(first);
    });
  }

  for (const query of ['{ hello must }', '{ hello\n  odd }']) {
    it(`answers ${JSON.stringify(query)} the second time as the first`, async () => {
      const first = await run(query);
      expect(first.body.errors[0]).toMatchObject({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      expect(await run(query)).toEqual(first);
    });
  }
});
