// One router serves every table (src/http/router.ts): a path no table has, a row's path with a
// method it lacks and a bad API key are answered the same way on every surface, each in its own
// table's shape.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

describe.each(DATABASE_KINDS)('the one router on %s', (kind) => {
  const api = useTestServer(kind);

  it('leaves a path no table has to a plain 404, and takes a trailing slash where the app did', async () => {
    for (const path of ['/nowhere', '/graphql/extra', '/healthz/x', '/api', '/consoles']) {
      expect((await api.request('GET', path)).status, path).toBe(404);
    }
    expect((await api.request('GET', '/healthz/')).json).toEqual({ status: 'ok', database: kind });
    expect((await api.request('GET', '/openapi/calendar.json/')).json).toMatchObject({ openapi: expect.any(String) });
    expect((await api.request('POST', '/graphql/', { body: { query: '{ __typename }' } })).json).toEqual({ data: { __typename: 'Query' } });
  });

  it('answers a row whose path has not the method with 405 and Allow, in the table’s shape', async () => {
    const health = await api.request('POST', '/healthz');
    expect(health.status).toBe(405);
    expect(health.headers.get('allow')).toBe('GET, HEAD');
    expect(health.text).toBe('Method not allowed');

    const consolePage = await api.request('DELETE', '/console/app.js');
    expect(consolePage.status).toBe(405);
    expect(consolePage.headers.get('allow')).toBe('GET, HEAD');

    const sitePage = await api.request('PUT', '/events/');
    expect(sitePage.status).toBe(405);
    expect(sitePage.headers.get('allow')).toBe('GET, HEAD');
    expect(sitePage.headers.get('content-type')).toContain('text/html');
    expect(sitePage.text).toContain('This page only answers GET.');

    const feed = await api.request('POST', '/events.ics');
    expect(feed.status).toBe(405);
    expect(feed.headers.get('content-type')).toContain('text/plain');

    const task = await api.request('PATCH', '/api/v1/tasks', { key: api.keys.administrator });
    expect(task.status).toBe(405);
    expect(task.json).toEqual({ success: false, error: expect.stringContaining('PATCH is not allowed') });
    expect(task.headers.get('allow')).toBeTruthy();

    // WordPress goes on looking, then answers rest_no_route, whatever the method.
    const rest = await api.request('DELETE', '/wp-json/tribe/events/v1/events');
    expect(rest.status).toBe(404);
    expect(rest.json).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });

    const graphql = await api.request('PUT', '/graphql', { body: { query: '{ __typename }' } });
    expect(graphql.status).toBe(405);
    expect(graphql.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(graphql.json).toEqual({ errors: [{ message: 'Use GET, HEAD, POST.', extensions: { code: 'METHOD_NOT_ALLOWED' } }] });
  });

  it('refuses a bad API key with 401 on every surface that reads one, in its own shape', async () => {
    const key = 'almanac_not-a-key';
    const graphql = await api.request('POST', '/graphql', { key, body: { query: '{ __typename }' } });
    expect(graphql.status).toBe(401);
    expect(graphql.json).toEqual({ errors: [{ message: 'Invalid API key.', extensions: { code: 'UNAUTHENTICATED' } }] });

    // WordPress checks credentials before routing: even a path with no route.
    for (const path of ['/wp-json/tribe/events/v1/events', '/wp-json/tribe/events/v1/nowhere']) {
      const rest = await api.request('GET', path, { key });
      expect(rest.status, path).toBe(401);
      expect(rest.json, path).toMatchObject({ data: { status: 401 } });
    }

    const task = await api.request('GET', '/api/v1/tasks', { key });
    expect(task.status).toBe(401);
    expect(task.json).toEqual({ success: false, error: 'Invalid API key.' });

    const page = await api.request('GET', '/events/', { key });
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toContain('text/html');

    // Public files and health do not read keys.
    expect((await api.request('GET', '/healthz', { key })).status).toBe(200);
    expect((await api.request('GET', '/console', { key })).status).toBe(200);
  });

  it('answers an unchanged page or file with 304 where its table chose ETags', async () => {
    for (const path of ['/events/', '/events/list/', '/console']) {
      const first = await api.request('GET', path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^"[\w-]+"$/);
      const again = await api.request('GET', path, { headers: { 'if-none-match': etag! } });
      expect(again.status, path).toBe(304);
      expect(again.text, path).toBe('');
      const other = await api.request('GET', path, { headers: { 'if-none-match': '"something-else"' } });
      expect(other.status, path).toBe(200);
      expect(other.headers.get('content-type'), path).toBe(first.headers.get('content-type'));
    }
  });
});
