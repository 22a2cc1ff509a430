// Batched operations: Apollo Client's BatchHttpLink sends the operations of one tick as a JSON array
// in one POST and gets an array of results back. Each operation is bounded on its own, runs with its
// own unlocks (a password given to one operation unlocks nothing in another), and a batch over the
// limit is refused with a 4xx, never a 5xx.
import { ApolloClient, InMemoryCache, gql } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

describe.each(DATABASE_KINDS)('batched GraphQL operations on %s', (kind) => {
  const api = useTestServer(kind, { GRAPHQL_MAX_BATCH: '3' });

  async function createEvent(title: string, password = '') {
    const created = await api.request('POST', '/graphql', {
      key: api.keys.administrator,
      body: {
        query: 'mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }',
        variables: {
          input: { title, startDate: '2031-05-01 10:00:00', endDate: '2031-05-01 12:00:00', description: `About ${title}`, password },
        },
      },
    });
    return created.json.data.createEvent.id as number;
  }

  it("runs Apollo's BatchHttpLink operations in one request", async () => {
    const ids = [await createEvent('Batch one'), await createEvent('Batch two')];
    const posts: unknown[] = [];
    const link = new BatchHttpLink({
      uri: `${api.url}/graphql`,
      batchMax: 3,
      batchInterval: 20,
      fetch: async (input, init) => {
        posts.push(JSON.parse(String(init?.body)));
        return fetch(input, init);
      },
    });
    const apollo = new ApolloClient({ link, cache: new InMemoryCache() });
    const one = gql`query One($id: Int!) { event(id: $id) { id title } }`;
    const results = await Promise.all(ids.map((id) => apollo.query({ query: one, variables: { id }, fetchPolicy: 'network-only' })));
    expect(results.map((r) => r.data)).toEqual([
      { event: { __typename: 'Event', id: ids[0], title: 'Batch one' } },
      { event: { __typename: 'Event', id: ids[1], title: 'Batch two' } },
    ]);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toHaveLength(2);
  });

  it('unlocks a protected event only in the operation that gave its password', async () => {
    const id = await createEvent('Locked', 'sesame');
    const query = 'query($id: Int!, $password: String) { event(id: $id, password: $password) { description } }';
    const response = await api.request('POST', '/graphql', {
      body: [
        { query, variables: { id, password: 'sesame' } },
        { query, variables: { id } },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.json.map((r: any) => r.data?.event?.description ?? r.errors?.[0]?.extensions?.code)).toEqual([
      'About Locked',
      'PASSWORD_REQUIRED',
    ]);
  });

  it('bounds each operation and the batch size, with 4xx answers', async () => {
    const deep = `{ events { items { venue { events { venue { events { venue { events { venue { events { venue { events { id } } } } } } } } } } } } }`;
    const mixed = await api.request('POST', '/graphql', { body: [{ query: '{ __typename }' }, { query: deep }] });
    expect(mixed.status).toBeLessThan(500);
    const answers = Array.isArray(mixed.json) ? mixed.json : [mixed.json];
    expect(JSON.stringify(answers)).toMatch(/depth/i);
    const tooMany = await api.request('POST', '/graphql', { body: Array.from({ length: 4 }, () => ({ query: '{ __typename }' })) });
    expect(tooMany.status).toBeGreaterThanOrEqual(400);
    expect(tooMany.status).toBeLessThan(500);
    expect(JSON.stringify(tooMany.json)).toMatch(/batch/i);
    const empty = await api.request('POST', '/graphql', { body: [] });
    expect(empty.status).toBeLessThan(500);
    expect(empty.json).toEqual(empty.status === 200 ? [] : expect.objectContaining({ errors: expect.any(Array) }));
  });
});
