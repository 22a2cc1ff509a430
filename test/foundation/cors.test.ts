// One cross-origin policy on every surface, as a browser page on another origin meets it.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ADMIN_KEY, useTestServer, type TestServer } from '../support/server.js';

const GRAPHQL_BODY = JSON.stringify({ query: '{ events { total } }' });

/** A request as a browser sends it from a page on `origin`. */
function fromPage(api: TestServer, origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return fetch(api.url + path, { method, headers: { Origin: origin, ...headers }, body });
}

const preflight = (api: TestServer, origin: string, path: string, method = 'POST') =>
  fromPage(api, origin, 'OPTIONS', path, {
    'Access-Control-Request-Method': method,
    'Access-Control-Request-Headers': 'x-api-key, content-type',
  });

const SURFACES: Array<[string, string, string, string?]> = [
  ['REST', 'GET', '/wp-json/calendar/events/v1/events'],
  ['REST (tribe namespace)', 'GET', '/wp-json/tribe/events/v1/venues'],
  ['GraphQL', 'POST', '/graphql', GRAPHQL_BODY],
  ['the task API', 'GET', '/api/v1/tasks'],
  ['an iCalendar feed', 'GET', '/events/?ical=1'],
];

describe('cross-origin requests, any origin allowed (the default)', () => {
  const api = useTestServer('sqlite');

  it.each(SURFACES)('%s: answers any origin without credentials and exposes the paging headers', async (_name, method, path, body) => {
    const response = await fromPage(
      api,
      'https://someone.example',
      method,
      path,
      { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const exposed = response.headers.get('access-control-expose-headers')!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['X-TEC-Total', 'X-TEC-TotalPages', 'X-WP-Total', 'Link', 'ETag']));
  });

  it.each(SURFACES)('%s: a preflight allows the API key header and every method', async (_name, method, path) => {
    const response = await preflight(api, 'https://someone.example', path, method);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['x-api-key', 'authorization', 'content-type']),
    );
    expect(response.headers.get('access-control-allow-methods')).toContain(method);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('an OPTIONS request that is not a preflight still gets the REST route description', async () => {
    const response = await fromPage(api, 'https://someone.example', 'OPTIONS', '/wp-json/calendar/events/v1/events');
    expect(response.status).toBe(200);
    expect((await response.json()).namespace).toBe('calendar/events/v1');
  });
});

describe('cross-origin requests, only listed origins allowed (CORS_ORIGINS)', () => {
  const api = useTestServer('sqlite', { CORS_ORIGINS: 'https://app.example, http://localhost:5173' });

  it.each(SURFACES)('%s: names an allowed origin, and gives another none of the headers', async (_name, method, path, body) => {
    const headers = { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' };
    const allowed = await fromPage(api, 'http://localhost:5173', method, path, headers, body);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(allowed.headers.get('vary')).toContain('Origin');
    const other = await fromPage(api, 'https://evil.example', method, path, headers, body);
    expect(other.status).toBe(200); // not a browser's business here: the browser withholds the answer
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-allow-credentials')).toBeNull();
    expect(other.headers.get('vary')).toContain('Origin');
  });

  it('answers the preflight of an allowed origin only', async () => {
    const allowed = await preflight(api, 'https://app.example', '/graphql');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await preflight(api, 'https://evil.example', '/graphql');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS_ORIGINS', () => {
  it('accepts *, none and origins, and refuses anything else with a clear message', () => {
    const base = { DATABASE_URL: 'file:./x.db' };
    expect(loadConfig({ ...base }).corsOrigins).toBe('*');
    expect(loadConfig({ ...base, CORS_ORIGINS: 'none' }).corsOrigins).toEqual([]);
    expect(loadConfig({ ...base, CORS_ORIGINS: 'https://a.example/, http://b.example:8080' }).corsOrigins).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
    expect(() => loadConfig({ ...base, CORS_ORIGINS: 'https://a.example/app' })).toThrow(/CORS_ORIGINS must be/);
    expect(() => loadConfig({ ...base, CORS_ORIGINS: 'a.example' })).toThrow(/CORS_ORIGINS must be/);
  });
});
