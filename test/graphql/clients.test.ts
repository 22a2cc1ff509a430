// Mainstream GraphQL clients against the server as their users set them up: urql (with automatic
// persisted queries by GET, its standard exchange) and graphql-sse (subscriptions over server-sent
// events, each operation on its own connection as yoga serves them). Apollo Client and graphql-ws have
// their own files (persisted-queries, batching, websocket).
import { persistedExchange } from '@urql/exchange-persisted';
import { Client as UrqlClient, fetchExchange, gql } from '@urql/core';
import { createClient as createSseClient } from 'graphql-sse';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

describe.each(DATABASE_KINDS)('urql and graphql-sse clients on %s', (kind) => {
  const api = useTestServer(kind, { TASK_WORKERS: '0' });

  it('urql: queries by GET with automatic persisted queries, variables, and error codes it can read', async () => {
    const sent: Array<{ method: string; url: string }> = [];
    const recordingFetch: typeof fetch = (input, init) => {
      sent.push({ method: init?.method ?? 'GET', url: String(input) });
      return fetch(input, init);
    };
    const client = new UrqlClient({
      url: `${api.url}/graphql`,
      fetch: recordingFetch,
      preferGetMethod: 'force',
      requestPolicy: 'network-only',
      fetchOptions: () => ({ headers: { 'x-api-key': api.keys.administrator } }),
      exchanges: [persistedExchange({ preferGetForPersistedQueries: 'force' }), fetchExchange],
    });
    const created = await api.request('POST', '/wp-json/calendar/events/v1/events', {
      key: api.keys.administrator,
      body: { title: 'Urql Evening', start_date: '2031-03-01 19:00', end_date: '2031-03-01 21:00' },
    });
    expect(created.status, created.text).toBe(201);
    const EventTitle = gql`
      query EventTitle($id: Int!) {
        event(id: $id) {
          title
          startDate
        }
      }
    `;
    const first = await client.query(EventTitle, { id: created.json.id }).toPromise();
    expect(first.error).toBeUndefined();
    expect(first.data.event).toEqual({ title: 'Urql Evening', startDate: '2031-03-01 19:00:00' });
    // The first GET carried only the hash: the server answered PersistedQueryNotFound and urql sent the document.
    expect(sent[0].method).toBe('GET');
    expect(decodeURIComponent(sent[0].url)).toContain('"persistedQuery"');
    expect(decodeURIComponent(sent[0].url)).not.toContain('query=');
    expect(sent.length).toBe(2);
    // Known now: the hash alone is enough.
    const again = await client.query(EventTitle, { id: created.json.id }).toPromise();
    expect(again.data.event.title).toBe('Urql Evening');
    expect(sent.length).toBe(3);
    expect(decodeURIComponent(sent[2].url)).not.toContain('query=');
    // Errors come back with stable codes urql exposes on its CombinedError.
    const missing = await client.query(gql('query Missing { event(id: 987654) { id } }'), {}).toPromise();
    expect(missing.error?.graphQLErrors[0].extensions).toEqual({ code: 'NOT_FOUND' });
    const bad = await client.query(gql('query Bad { events(filter: { startDate: "banana" }) { total } }'), {}).toPromise();
    expect(bad.error?.graphQLErrors[0].extensions).toMatchObject({ code: 'INVALID_INPUT', params: { startDate: 'Invalid parameter.' } });
  });

  it('graphql-sse: a subscription streams over server-sent events with the key in the headers', async () => {
    const client = createSseClient({
      url: `${api.url}/graphql`,
      headers: { 'x-api-key': api.keys.administrator },
      retryAttempts: 0,
    });
    try {
      const updates = client.iterate<{ tasks: Array<{ task: string; status: string }> }>({
        query: 'subscription { tasks(limit: 5) { task status } }',
      });
      expect((await updates.next()).value.data!.tasks).toEqual([]);
      const created = await api.request('POST', '/api/v1/task/create', {
        key: api.keys.administrator,
        body: { task: 'Check the ferry timetable' },
      });
      expect(created.status, created.text).toBe(200);
      const next = await updates.next();
      expect(next.value.data!.tasks).toEqual([{ task: 'Check the ferry timetable', status: 'active' }]);
      await updates.return?.(undefined);
      // Without a key, the same subscription is refused with its code.
      const anonymous = createSseClient({ url: `${api.url}/graphql`, retryAttempts: 0 });
      const refused = await anonymous.iterate({ query: 'subscription { tasks { task } }' }).next();
      expect(refused.value.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      anonymous.dispose();
    } finally {
      client.dispose();
    }
  });
});
