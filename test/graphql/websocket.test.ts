// GraphQL over WebSocket with the graphql-ws client, as Apollo's GraphQLWsLink and urql use it: the
// API key in the connection payload, a live subscription that sees a task created over REST, queries
// through the same socket with the server's limits, a wrong key refused, and the calendar's changes.
import { createClient, type Client } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestServer } from '../support/server.js';

describe('GraphQL over WebSocket (graphql-ws)', () => {
  const api = useTestServer('sqlite', { TASK_WORKERS: '0' });
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });
  const connect = (connectionParams: Record<string, string>) => {
    const client = createClient({
      url: api.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    return client;
  };

  it('streams a subscription and answers queries on one socket, with the key from the connection payload', async () => {
    const client = connect({ 'x-api-key': api.keys.administrator });
    const updates = client.iterate<{ tasks: { id: string; task: string }[] }>({ query: 'subscription { tasks(limit: 5) { id task } }' });
    const first = await updates.next();
    expect(first.value.data!.tasks).toEqual([]);
    const created = await api.request('POST', '/api/v1/task/create', {
      key: api.keys.administrator,
      body: { task: 'Find the opening hours of the library' },
    });
    expect(created.status, created.text).toBe(200);
    const second = await updates.next();
    expect(second.value.data!.tasks.map((t: { task: string }) => t.task)).toEqual(['Find the opening hours of the library']);
    await updates.return?.(undefined);

    const query = await client.iterate({ query: '{ events { total } }' }).next();
    expect(query.value).toEqual({ data: { events: { total: 0 } } });
    // The server's bounds apply: a refused document is an `error` message (the iterator throws), the socket stays.
    const tooDeep = client.iterate({ query: `{ events { items { ${'venue { events { '.repeat(10)}id${' } }'.repeat(10)} } } }` }).next();
    await expect(tooDeep).rejects.toEqual([expect.objectContaining({ message: expect.stringMatching(/depth|cost/i) })]);
    expect((await client.iterate({ query: '{ events { total } }' }).next()).value).toEqual({ data: { events: { total: 0 } } });
  });

  it('refuses a wrong key, and subscribes anonymously only to what anonymous callers may see', async () => {
    const wrong = connect({ 'x-api-key': 'not-a-key' });
    await expect(wrong.iterate({ query: '{ events { total } }' }).next()).rejects.toMatchObject({ code: 4403 });
    const anonymous = connect({});
    const result = await anonymous.iterate({ query: 'subscription { tasks { id } }' }).next();
    expect(result.value.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it("streams the calendar's changes to an anonymous subscriber", async () => {
    const anonymous = connect({});
    const changes = anonymous.iterate<{ calendarChanged: { changes: { kind: string; record: { title: string } | null }[] } }>({
      query: 'subscription { calendarChanged { changes { kind record { ... on Event { title } } } } }',
    });
    const next = changes.next();
    // The subscription starts at the log's end when it is set up; write after that.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const created = await api.graphql(
      'mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }',
      { input: { title: 'Socket Social', startDate: '2031-04-01 18:00:00', endDate: '2031-04-01 19:00:00' } },
      api.keys.administrator,
    );
    expect(created.errors).toBeUndefined();
    expect((await next).value.data!.calendarChanged.changes).toEqual([{ kind: 'CREATED', record: { title: 'Socket Social' } }]);
    await changes.return?.(undefined);
  });
});
