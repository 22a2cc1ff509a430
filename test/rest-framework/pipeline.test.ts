// The REST framework over real HTTP with an example table ("widgets"): every branch of WP's
// processing order, request parsing, both namespaces, headers, and the original's error bodies.
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GraphQLContext } from '../../src/graphql/context.js';
import { createOperationRunner } from '../../src/graphql/execute.js';
import { cappedInt, isNonEmptyString, isPositiveInt } from '../../src/rest/args.js';
import { listToArray, tribeIsTruthy } from '../../src/php/tribe.js';
import {
  ArgError,
  CREATABLE,
  DELETABLE,
  EDITABLE,
  READABLE,
  RestError,
  created,
  ok,
  type RestRequest,
  type RouteTable,
} from '../../src/rest/index.js';
import { samples, startApp, type TestApp } from './helpers.js';

const NS = '/wp-json/calendar/events/v1';
const canWrite = (req: RestRequest) => req.viewer !== null && req.viewer.role !== 'subscriber';

class TeapotError extends Error {}

const echo = (req: RestRequest) => ({
  method: req.method,
  path: req.path,
  namespace: req.namespace,
  namespaceUrl: req.namespaceUrl,
  params: req.params,
  raw: req.raw,
  has: Object.fromEntries(['page', 'featured', 'all_day', 'id', 'name'].map((n) => [n, req.has(n)])),
  next: req.url('/widgets/', { page: 2, start_date: '2025-01-01 00:00:00' }),
});

const table: RouteTable = [
  {
    path: '/widgets',
    endpoints: [
      {
        methods: READABLE,
        args: {
          page: { default: 1, description: 'The archive page to return', type: 'integer', validate: isPositiveInt },
          per_page: {
            default: (req: RestRequest) => String(req.config.postsPerPage),
            description: 'The number of widgets to return on each page',
            type: 'integer',
            validate: isPositiveInt,
            sanitize: cappedInt(50),
          },
          search: { description: 'Search string', type: 'string', validate: isNonEmptyString },
          featured: { type: 'boolean', description: 'Featured only' },
          tags: {
            description: 'Tag ids or slugs',
            items: { type: 'integer' },
            swaggerType: 'array',
            collectionFormat: 'csv',
            sanitize: (v) => listToArray(v),
          },
          ids: { description: 'Widget ids', type: 'array', items: { type: 'integer' } },
          ticketed: {
            type: 'boolean',
            description: 'Ticketed only',
            validate: (v) =>
              !tribeIsTruthy(v) || new ArgError('event-tickets-not-active', 'Event Tickets plugin is not activated.', { status: 400 }),
          },
          website: { default: null, description: 'Listed, never injected' },
        },
        handler: (req) => ok(echo(req), { 'X-TEC-Total': '0', 'X-TEC-TotalPages': '0' }),
      },
      {
        methods: CREATABLE,
        args: {
          title: { type: 'string', description: 'The widget title', required: true, validate: isNonEmptyString },
          start_date: { type: 'string', required: true },
          end_date: { type: 'string', required: true },
          all_day: { default: false, type: 'boolean' },
          venue: { description: 'A venue id or data' },
        },
        permission: canWrite,
        handler: (req) => created(echo(req)),
      },
    ],
  },
  {
    path: '/widgets/(?P<id>\\d+)',
    args: { id: { type: 'integer', description: 'the widget ID', required: true, in: 'path' } },
    endpoints: [
      {
        methods: READABLE,
        handler: (req) => {
          if (req.params.id === 404) throw new RestError('rest-widget-not-found', `Widget with ID ${req.params.id} does not exist.`, 404);
          if (req.params.id === 500) throw new Error('secret: the database password is hunter2');
          if (req.params.id === 418) throw new TeapotError();
          return ok({ id: req.params.id, url: req.url(`/widgets/${req.params.id}`), name: 'Café' });
        },
      },
      { methods: DELETABLE, permission: (req) => req.viewer?.role === 'administrator', handler: (req) => ok(echo(req)) },
      {
        methods: EDITABLE,
        args: { name: { type: 'string', validate: isNonEmptyString }, featured: { type: 'boolean' }, venue: {}, organizer: {} },
        permission: (req) => req.viewer !== null,
        handler: (req) => ok(echo(req)),
      },
    ],
  },
  {
    path: '/widgets/by-slug/(?P<slug>[^/]+)',
    endpoints: [
      {
        methods: READABLE,
        args: { slug: { type: 'string', required: true, validate: (v) => v === 'known' || v === 'a b' } },
        handler: (req) => ok(echo(req)),
      },
    ],
  },
  {
    path: '/strict',
    endpoints: [
      { methods: READABLE, args: { mode: { default: 'broken', validate: (v) => v !== 'broken' } }, handler: (req) => ok(echo(req)) },
    ],
  },
  {
    // The original's venue create args (string-typed show_map), for sample 04a.
    path: '/venues',
    endpoints: [
      {
        methods: CREATABLE,
        args: {
          venue: { type: 'string', description: 'The venue name', required: true },
          show_map: { type: 'string', default: null },
          show_map_link: { type: 'string', default: null },
          city: { type: 'string', default: null },
        },
        permission: canWrite,
        handler: (req) => created(echo(req)),
      },
    ],
  },
  {
    path: '/whoami',
    endpoints: [
      {
        methods: READABLE,
        handler: async (req) => {
          const first = await req.graphql<{ whoami: string }>('{ whoami }');
          const second = await req.graphql<{ whoami: string }>('{ whoami }');
          return ok({ first: first.data?.whoami, second: second.data?.whoami });
        },
      },
    ],
  },
];

// A one-field schema: who the in-process GraphQL context says the viewer is, and how many contexts.
let contexts = 0;
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      whoami: {
        type: GraphQLString,
        resolve: (_s, _a, ctx: GraphQLContext) => `${ctx.viewer?.login ?? 'anonymous'}#${(ctx.cache.get('n') as number) ?? 0}`,
      },
    },
  }),
});

let app: TestApp;
const logger = { error: vi.fn() };

beforeAll(async () => {
  app = await startApp({
    table,
    logger,
    bodyLimit: 4096,
    runner: createOperationRunner(schema),
    context: (viewer) => ({ viewer, cache: new Map([['n', ++contexts]]) }) as unknown as GraphQLContext,
    mapError: (error) => (error instanceof TeapotError ? new RestError('teapot', "I'm a teapot", 418) : undefined),
  });
});
afterAll(() => app.close());

describe('route matching', () => {
  it('unknown paths, methods, non-numeric ids and empty slugs are rest_no_route', async () => {
    const body = '{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}}';
    for (const [method, path] of [
      ['GET', `${NS}/nope`],
      ['PUT', `${NS}/widgets`],
      ['GET', `${NS}/widgets/foo`],
      ['GET', `${NS}/widgets/by-slug/`],
      ['GET', '/wp-json/wp/v2/posts'],
      ['POST', '/wp-json'], // the root index answers GET only
    ]) {
      const r = await app.request(method, path);
      expect([r.status, r.text], `${method} ${path}`).toEqual([404, body]);
    }
  });

  it('leaves paths outside the REST root to the next middleware', async () => {
    const r = await app.request('GET', '/elsewhere');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).not.toContain('json');
  });

  it('tolerates a trailing slash and matches case-insensitively', async () => {
    const slash = await app.request('GET', `${NS}/widgets/`);
    expect(slash.status).toBe(200);
    const upper = await app.request('GET', '/wp-json/Calendar/Events/V1/WIDGETS/7');
    expect([upper.status, upper.json.id]).toEqual([200, 7]);
  });

  it('decodes the path before matching slugs', async () => {
    const r = await app.request('GET', `${NS}/widgets/by-slug/a%20b`);
    expect([r.status, r.json.params.slug]).toEqual([200, 'a b']);
  });

  it('serves every route under both namespaces, building URLs from the one used', async () => {
    for (const ns of ['calendar/events/v1', 'tribe/events/v1']) {
      const r = await app.request('GET', `/wp-json/${ns}/widgets`);
      expect(r.json.namespace).toBe(ns);
      expect(r.json.namespaceUrl).toBe(`http://127.0.0.1:8080/wp-json/${ns}`);
      expect(r.json.next).toBe(`http://127.0.0.1:8080/wp-json/${ns}/widgets/?page=2&start_date=2025-01-01+00%3A00%3A00`);
      expect(r.json.path).toBe('/widgets');
    }
  });

  it('serves HEAD with the GET endpoint and no body', async () => {
    const r = await app.request('HEAD', `${NS}/widgets`);
    expect([r.status, r.text, r.headers.get('x-tec-total')]).toEqual([200, '', '0']);
  });

  it('honours _method and X-HTTP-Method-Override', async () => {
    const viaQuery = await app.request('POST', `${NS}/widgets/7?_method=delete`, { key: 'admin' });
    expect([viaQuery.status, viaQuery.json.method]).toEqual([200, 'DELETE']);
    const viaHeader = await app.request('POST', `${NS}/widgets/7`, {
      key: 'admin',
      headers: { 'X-HTTP-Method-Override': 'PUT' },
      form: 'name=x',
    });
    expect([viaHeader.status, viaHeader.json.method, viaHeader.json.params.name]).toEqual([200, 'PUT', 'x']);
    const getAsPatch = await app.request('GET', `${NS}/widgets/7?_method=PATCH&name=q`, { key: 'admin' });
    expect([getAsPatch.json.method, getAsPatch.json.params.name]).toEqual(['PATCH', 'q']);
  });
});

describe('parameters', () => {
  it('injects, validates and coerces defaults (function defaults per request; null never injected)', async () => {
    const r = await app.request('GET', `${NS}/widgets`);
    expect(r.json.params).toEqual({ page: 1, per_page: 10 });
    expect(r.json.has).toMatchObject({ page: false, featured: false });
    const strict = await app.request('GET', `${NS}/strict`);
    expect(strict.json).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): mode',
      data: { status: 400, params: { mode: 'Invalid parameter.' }, details: [] },
    });
  });

  it('coerces integers and booleans ("true"/"false"/"1"/"0") and arrays', async () => {
    const cases: Array<[string, unknown]> = [
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
      ['TRUE', true],
    ];
    for (const [text, value] of cases) {
      const r = await app.request('GET', `${NS}/widgets?featured=${text}&page=3`);
      expect([r.json.params.featured, r.json.params.page, r.json.raw.page], text).toEqual([value, 3, '3']);
      expect(r.json.has.page).toBe(true);
    }
    const arrays = await app.request('GET', `${NS}/widgets?ids=1,2&tags[0]=3&tags[1]=music&per_page=80`);
    expect(arrays.json.params).toMatchObject({ ids: [1, 2], tags: [3, 'music'], per_page: 50 });
    const brackets = await app.request('GET', `${NS}/widgets?ids[]=4&ids[]=5&tags=7,%20art`);
    expect(brackets.json.params).toMatchObject({ ids: [4, 5], tags: [7, 'art'] });
  });

  it('reports WP type errors with details (rest_invalid_type)', async () => {
    const r = await app.request('GET', `${NS}/widgets?featured=maybe&ids=1,x`);
    expect(r.text).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): featured, ids","data":{"status":400,"params":{"featured":"featured is not of type boolean.","ids":"ids[1] is not of type integer."},' +
        '"details":{"featured":{"code":"rest_invalid_type","message":"featured is not of type boolean.","data":{"param":"featured"}},"ids":{"code":"rest_invalid_type","message":"ids[1] is not of type integer.","data":{"param":"ids[1]"}}}}}',
    );
  });

  it('lists failed validators in declaration order; error objects fill details', async () => {
    const r = await app.request('GET', `${NS}/widgets?ticketed=1&per_page=foo&page=0`);
    expect(r.json).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): page, per_page, ticketed',
      data: {
        status: 400,
        params: { page: 'Invalid parameter.', per_page: 'Invalid parameter.', ticketed: 'Event Tickets plugin is not activated.' },
        details: {
          ticketed: { code: 'event-tickets-not-active', message: 'Event Tickets plugin is not activated.', data: { status: 400 } },
        },
      },
    });
    const falsy = await app.request('GET', `${NS}/widgets?ticketed=false`);
    expect([falsy.status, falsy.json.params.ticketed]).toEqual([200, false]);
  });

  it('matches the original byte for byte: bad per_page (sample 35)', async () => {
    const r = await app.request('GET', `${NS}/widgets?per_page=0`);
    expect([r.status, r.text]).toEqual([400, samples.errors['35-events-bad-per-page']]);
  });

  it('takes JSON over form over query over path over defaults', async () => {
    const json = await app.request('PUT', `${NS}/widgets/7?name=query&featured=1`, { key: 'admin', json: { name: 'json', id: '8' } });
    expect(json.json.params).toMatchObject({ name: 'json', id: 8, featured: true });
    const form = await app.request('PUT', `${NS}/widgets/7?name=query`, { key: 'admin', form: 'name=form' });
    expect(form.json.params).toMatchObject({ name: 'form', id: 7 });
    const query = await app.request('PUT', `${NS}/widgets/7?name=query`, { key: 'admin' });
    expect(query.json.params).toMatchObject({ name: 'query', id: 7 });
  });

  it('type-checks shadowed values too, like WP sanitize_params', async () => {
    const r = await app.request('PUT', `${NS}/widgets/7?featured=maybe`, { key: 'admin', json: { featured: true } });
    expect([r.status, r.json.data?.params]).toEqual([400, { featured: 'featured is not of type boolean.' }]);
  });

  it('parses PHP bracket forms (also for PUT/PATCH/DELETE)', async () => {
    const form = 'venue[venue]=X&venue[city]=Y&organizer[0][id]=12&organizer[1][organizer]=A';
    for (const method of ['POST', 'PATCH']) {
      const r = await app.request(method, `${NS}/widgets/7`, { key: 'admin', form });
      expect(r.json.params, method).toMatchObject({ venue: { venue: 'X', city: 'Y' }, organizer: [{ id: '12' }, { organizer: 'A' }] });
    }
    // No Content-Type at all counts as a form (a Uint8Array body makes fetch send none).
    const noType = await app.request('PATCH', `${NS}/widgets/7`, { key: 'admin', body: new TextEncoder().encode('name=plain') });
    expect(noType.json.params.name).toBe('plain');
    const textPlain = await app.request('PATCH', `${NS}/widgets/7`, { key: 'admin', body: 'name=plain' });
    expect(textPlain.json.params.name).toBeUndefined();
  });

  it('accepts multipart forms on POST', async () => {
    const form = new FormData();
    form.append('title', 'Multi');
    form.append('start_date', 'tomorrow');
    form.append('end_date', 'tomorrow');
    form.append('venue[city]', 'Paris');
    const response = new Response(form);
    const r = await app.request('POST', `${NS}/widgets`, {
      key: 'admin',
      body: new Uint8Array(await response.arrayBuffer()),
      headers: { 'content-type': response.headers.get('content-type')! },
    });
    expect([r.status, r.json.params.venue, r.json.params.all_day]).toEqual([201, { city: 'Paris' }, false]);
  });
});

describe('processing order and errors', () => {
  const body = { title: 'T', start_date: '2026-12-05 19:00:00', end_date: '2026-12-05 20:00:00' };

  it('missing required params (samples 29, 30), before validation', async () => {
    const dates = await app.request('POST', `${NS}/widgets`, { key: 'admin', json: samples.requests['29-event-create-missing-dates'] });
    expect([dates.status, dates.text]).toEqual([400, samples.errors['29-event-create-missing-dates']]);
    const title = await app.request('POST', `${NS}/widgets`, { key: 'admin', json: samples.requests['30-event-create-missing-title'] });
    expect([title.status, title.text]).toEqual([400, samples.errors['30-event-create-missing-title']]);
    const both = await app.request('POST', `${NS}/widgets`, { key: 'admin', json: { title: '' } });
    expect(both.json.code).toBe('rest_missing_callback_param');
    const nullIsMissing = await app.request('POST', `${NS}/widgets`, { key: 'admin', json: { ...body, title: null } });
    expect(nullIsMissing.json.data.params).toEqual(['title']);
  });

  it('validation wins over permission; then 401 anonymous (sample 28), 403 authenticated', async () => {
    const invalid = await app.request('POST', `${NS}/widgets`, { json: { ...body, title: '' } });
    expect([invalid.status, invalid.json.code]).toEqual([400, 'rest_invalid_param']);
    const anonymous = await app.request('POST', `${NS}/widgets`, { json: body });
    expect([anonymous.status, anonymous.text]).toEqual([401, samples.errors['28-event-create-noauth']]);
    const subscriber = await app.request('POST', `${NS}/widgets`, { key: 'subscriber', json: body });
    expect([subscriber.status, subscriber.json]).toEqual([
      403,
      { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } },
    ]);
    const contributor = await app.request('POST', `${NS}/widgets`, { key: 'contributor', json: body });
    expect([contributor.status, contributor.json.params.all_day, contributor.json.has.all_day]).toEqual([201, false, false]);
  });

  it('string-typed args reject JSON booleans like the original (sample 04a)', async () => {
    const r = await app.request('POST', `${NS}/venues`, { key: 'admin', json: samples.requests['04a-venue-create-json-bool-showmap-400'] });
    expect([r.status, r.text]).toEqual([400, samples.errors['04a-venue-create-json-bool-showmap-400']]);
  });

  it('invalid JSON: after route match, before required args', async () => {
    const r = await app.request('POST', `${NS}/widgets`, {
      key: 'admin',
      body: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
    expect([r.status, r.text]).toEqual([
      400,
      '{"code":"rest_invalid_json","message":"Invalid JSON body passed.","data":{"status":400,"json_error_code":4,"json_error_message":"Syntax error"}}',
    ]);
    const unrouted = await app.request('POST', `${NS}/nope`, { body: '{', headers: { 'content-type': 'application/json' } });
    expect(unrouted.json.code).toBe('rest_no_route');
  });

  it('renders handler RestErrors; hides unexpected exceptions; mapError can translate', async () => {
    const notFound = await app.request('GET', `${NS}/widgets/404`);
    expect([notFound.status, notFound.text]).toEqual([
      404,
      '{"code":"rest-widget-not-found","message":"Widget with ID 404 does not exist.","data":{"status":404}}',
    ]);
    const crash = await app.request('GET', `${NS}/widgets/500`);
    expect([crash.status, crash.json]).toEqual([
      500,
      { code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 500 } },
    ]);
    expect(crash.text).not.toContain('hunter2');
    expect(logger.error).toHaveBeenCalled();
    const teapot = await app.request('GET', `${NS}/widgets/418`);
    expect([teapot.status, teapot.json.code]).toEqual([418, 'teapot']);
  });

  it('rejects credentials that match no key, before routing', async () => {
    const r = await app.request('GET', `${NS}/nope`, { key: 'forged' });
    expect([r.status, r.json]).toEqual([
      401,
      { code: 'incorrect_password', message: 'The provided password is an invalid application password.', data: { status: 401 } },
    ]);
  });

  it('answers 413 past the body limit', async () => {
    const r = await app.request('POST', `${NS}/widgets`, { key: 'admin', json: { title: 'x'.repeat(5000) } });
    expect([r.status, r.json.code]).toEqual([413, 'rest_payload_too_large']);
    const after = await app.request('GET', `${NS}/widgets`); // the server is still fine
    expect(after.status).toBe(200);
  });
});

describe('responses', () => {
  it('writes JSON like PHP (escaped slashes, \\u escapes) with WP headers', async () => {
    const r = await app.request('GET', `${NS}/widgets/7`);
    expect(r.text).toBe('{"id":7,"url":"http:\\/\\/127.0.0.1:8080\\/wp-json\\/calendar\\/events\\/v1\\/widgets\\/7","name":"Caf\\u00e9"}');
    expect(r.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(r.headers.get('link')).toBe('<http://127.0.0.1:8080/wp-json/>; rel="https://api.w.org/"');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('vary')).toBe('Origin');
    expect(r.headers.get('cache-control')).toBeNull();
    const pretty = await app.request('GET', `${NS}/widgets/7?_pretty`);
    expect(pretty.text).toContain('{\n    "id": 7,');
  });

  it('sends handler headers and nocache headers when authenticated; cross-origin headers are left to the app', async () => {
    const r = await app.request('GET', `${NS}/widgets`, { key: 'admin', headers: { Origin: 'https://client.example' } });
    expect(r.headers.get('x-tec-totalpages')).toBe('0');
    expect(r.headers.get('expires')).toBe('Wed, 11 Jan 1984 05:00:00 GMT');
    expect(r.headers.get('cache-control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
    // Not WordPress's reflection with credentials: the app's one policy (test/foundation/cors.test.ts).
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('computes Allow from the route’s permissions, like WP', async () => {
    const allow = async (path: string, key?: string, method = 'GET') => (await app.request(method, path, { key })).headers.get('allow');
    expect(await allow(`${NS}/widgets`)).toBe('GET');
    expect(await allow(`${NS}/widgets`, 'admin')).toBe('GET, POST');
    expect(await allow(`${NS}/widgets/7`)).toBe('GET');
    expect(await allow(`${NS}/widgets/7`, 'subscriber')).toBe('GET, POST, PUT, PATCH');
    expect(await allow(`${NS}/widgets/7`, 'admin')).toBe('GET, DELETE, POST, PUT, PATCH');
    expect(await allow(`${NS}/widgets?per_page=0`)).toBe('GET'); // errors after a match too
    expect(await allow(`${NS}/nope`)).toBeNull();
  });

  it('answers OPTIONS with the route’s index data, or []', async () => {
    const r = await app.request('OPTIONS', `${NS}/widgets/7`, { key: 'admin' });
    expect(r.status).toBe(200);
    expect(r.json.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
    expect(r.json.endpoints[0].args).toEqual({ id: { type: 'integer', description: 'the widget ID', required: true } });
    expect(r.headers.get('allow')).toBe('GET, DELETE, POST, PUT, PATCH');
    const none = await app.request('OPTIONS', `${NS}/nope`);
    expect([none.status, none.text]).toEqual([200, '[]']);
  });

  it('runs GraphQL in-process as the viewer, one context per request', async () => {
    const anonymous = await app.request('GET', `${NS}/whoami`);
    expect(anonymous.json.first).toMatch(/^anonymous#\d+$/);
    expect(anonymous.json.second).toBe(anonymous.json.first);
    const admin = await app.request('GET', `${NS}/whoami`, { key: 'admin' });
    expect(admin.json.first).toMatch(/^admin#\d+$/);
    expect(admin.json.first).not.toBe(anonymous.json.first.replace('anonymous', 'admin'));
  });
});
