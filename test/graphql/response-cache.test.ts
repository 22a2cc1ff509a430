// Query results are kept (src/graphql/yoga.ts) and must never be stale: the same query by another
// caller, after a write straight into the database, or after the clock moved on answers afresh;
// task data, which the calendar's version does not follow, is never kept.
import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';
import { createTask } from '../support/tasks.js';

describe.each(DATABASE_KINDS)('kept GraphQL results on %s', (kind) => {
  const api = useTestServer(kind, { TASK_WORKERS: '0' });
  const titles = async (key?: string) => {
    const result = await api.graphql('{ events { items { title } } }', {}, key);
    expect(result.errors).toBeUndefined();
    return (result.data.events.items as { title: string }[]).map((e) => e.title);
  };

  it('answers each caller for itself and follows writes made anywhere', async () => {
    const created = await api.graphql(
      'mutation($i: CreateEventInput!) { createEvent(input: $i) { id } }',
      { i: { title: 'Public', startDate: daysFromNow(2), endDate: daysFromNow(2, '12:00:00') } },
      api.keys.administrator,
    );
    expect(created.errors).toBeUndefined();
    await api.graphql(
      'mutation($i: CreateEventInput!) { createEvent(input: $i) { id } }',
      { i: { title: 'Draft', status: 'draft', startDate: daysFromNow(2), endDate: daysFromNow(2) } },
      api.keys.administrator,
    );
    expect(await titles()).toEqual(['Public']);
    expect(await titles(api.keys.administrator)).toEqual(['Public', 'Draft']);
    expect(await titles()).toEqual(['Public']);
    await api.server.db.prisma.event.update({ where: { id: created.data.createEvent.id }, data: { title: 'Public (renamed)' } });
    expect(await titles()).toEqual(['Public (renamed)']);
  });

  it('reads nothing from the database for a document the limits refuse, and serves kept results', async () => {
    // The key of a kept result holds the calendar's version (one statement); it was read before the
    // document was parsed and validated (found by the hostile suite, hostile/fuzz.test.ts).
    const statements = api.server.db.statements;
    let deep = 'id';
    for (let level = 0; level < 48; level++) deep = `${level % 2 ? 'venue' : 'events'} { ${deep} }`;
    const refused = [
      `{ events { items { ${deep} } } }`,
      `{ ${Array.from({ length: 10_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
      'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }',
    ];
    for (const query of refused) {
      const before = statements.count;
      const result = await api.graphql(query);
      expect(result.errors?.length).toBeGreaterThan(0);
      expect(result.data).toBeUndefined();
      expect(statements.count - before, query.slice(0, 40)).toBe(0);
    }
    // A kept result costs the version read alone (retried when the second turned between the two).
    for (let attempt = 0; ; attempt++) {
      const second = Math.floor(Date.now() / 1000);
      await titles();
      const before = statements.count;
      await titles();
      if (Math.floor(Date.now() / 1000) !== second && attempt < 3) continue;
      expect(statements.count - before).toBe(1);
      break;
    }
  });

  it.each(['GET', 'POST'] as const)(
    'keeps %s answers as they were sent: a hit reads the version alone, a write or another caller answers afresh, If-None-Match gets a 304 by GET',
    async (method) => {
      const statements = api.server.db.statements;
      const query = '{ events { items { title } } }';
      const path = `/graphql?query=${encodeURIComponent(query)}`;
      const get = (headers: Record<string, string> = {}, key?: string) =>
        method === 'GET'
          ? api.request('GET', path, { headers: { accept: 'application/json', ...headers }, key })
          : api.request('POST', '/graphql', { headers: { accept: 'application/json', ...headers }, key, body: { query } });
      // The first answer shows the request keepable; the next ones are kept per second (retried when the second turned).
      await get();
      for (let attempt = 0; ; attempt++) {
        const second = Math.floor(Date.now() / 1000);
        const first = await get();
        const before = statements.count;
        const again = await get();
        if (Math.floor(Date.now() / 1000) !== second && attempt < 3) continue;
        expect(statements.count - before).toBe(1);
        expect(again.text).toBe(first.text);
        expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
        const conditional = await get({ 'if-none-match': first.headers.get('etag')! });
        expect(conditional.status).toBe(method === 'GET' ? 304 : 200);
        if (method === 'POST') expect(conditional.text).toBe(first.text);
        break;
      }
      const [event] = await api.server.db.prisma.event.findMany({ take: 1, orderBy: { id: 'asc' } });
      await api.server.db.prisma.event.update({ where: { id: event.id }, data: { title: 'Renamed over GET' } });
      expect((await get()).json.data.events.items.map((e: { title: string }) => e.title)).toContain('Renamed over GET');
      const admin = await get({}, api.keys.administrator);
      expect(admin.json.data.events.items.length).toBeGreaterThan((await get()).json.data.events.items.length);
      // A document the limits refuse reads nothing, also when kept answers are looked up.
      let deep = 'id';
      for (let level = 0; level < 48; level++) deep = `${level % 2 ? 'venue' : 'events'} { ${deep} }`;
      const refusedPath = `/graphql?query=${encodeURIComponent(`{ events { items { ${deep} } } }`)}`;
      for (let i = 0; i < 3; i++) {
        const before = statements.count;
        const refused =
          method === 'GET'
            ? await api.request('GET', refusedPath, { headers: { accept: 'application/json' } })
            : await api.request('POST', '/graphql', { body: { query: `{ events { items { ${deep} } } }` } });
        expect(refused.json.errors.length).toBeGreaterThan(0);
        expect(statements.count - before).toBe(0);
      }
    },
  );

  it('reads the data version once for a kept GET answer that is missing, as a POST does', async () => {
    const statements = api.server.db.statements;
    const query = '{ events { total items { title venue { name } } } }';
    const path = `/graphql?query=${encodeURIComponent(query)}`;
    await api.request('GET', path, { headers: { accept: 'application/json' } }); // now known keepable
    const [event] = await api.server.db.prisma.event.findMany({ take: 1, orderBy: { id: 'asc' } });
    const rename = (title: string) => api.server.db.prisma.event.update({ where: { id: event.id }, data: { title } });
    await rename('Read once by GET');
    let before = statements.count;
    const byGet = await api.request('GET', path, { headers: { accept: 'application/json' } });
    const getStatements = statements.count - before;
    await rename('Read once by POST');
    before = statements.count;
    const byPost = await api.request('POST', '/graphql', { body: { query } });
    const postStatements = statements.count - before;
    expect(byGet.json.data.events.items.map((e: { title: string }) => e.title)).toContain('Read once by GET');
    expect(byPost.json.data.events.items.map((e: { title: string }) => e.title)).toContain('Read once by POST');
    expect(getStatements).toBe(postStatements);
  });

  it('never keeps task data', async () => {
    const taskId = await createTask(api, { task: 'Look something up' });
    const status = async () =>
      (await api.graphql('query($id: ID!) { task(id: $id) { status } }', { id: taskId }, api.keys.administrator)).data.task.status;
    expect(await status()).toBe('active');
    const stopped = await api.request('PUT', `/api/v1/task/${taskId}/stop`, { key: api.keys.administrator });
    expect(stopped.status, stopped.text).toBe(200);
    expect(await status()).toBe('inactive');
    const byGet = async () =>
      (
        await api.request('GET', `/graphql?query=${encodeURIComponent(`{ task(id: "${taskId}") { status } }`)}`, {
          key: api.keys.administrator,
          headers: { accept: 'application/json' },
        })
      ).json.data.task.status;
    expect([await byGet(), await byGet()]).toEqual(['inactive', 'inactive']);
    const restarted = await api.request('PUT', `/api/v1/task/${taskId}/stop`, { key: api.keys.administrator });
    expect(restarted.status).toBeLessThan(500);
    const statements = api.server.db.statements;
    const before = statements.count;
    await byGet();
    expect(statements.count - before).toBeGreaterThan(1);
  });
});
