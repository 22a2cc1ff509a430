// The namespace index and /doc, derived from a table. A fixture declares the original's two tag
// routes the way TEC does (same arg key order), and the generated documents must equal, byte for
// byte, the corresponding parts of the original's responses (samples 01-index and 02-doc).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePhpJson } from '../../src/rest/json.js';
import { EDITABLE, READABLE, CREATABLE, DELETABLE, ok, type Args, type RouteTable } from '../../src/rest/index.js';
import { samples, startApp, type TestApp } from './helpers.js';

const docPaths = samples.doc.paths;
const noop = () => ok(null);

// TEC's READ args of /tags: keys in the order the original declares them.
const TAG_ARCHIVE: Args = {
  page: { default: 1, description: 'The archive page to return', type: 'integer' },
  per_page: {
    default: (req: { config: { postsPerPage: number } }) => String(req.config.postsPerPage),
    description: 'The number of event tags to return on each page',
    type: 'integer',
  },
  search: { description: 'Limit results to those matching a string', type: 'string' },
  exclude: { description: 'Ensure result set exclude specific IDs', items: { type: 'integer' }, swaggerType: 'array' },
  include: { description: 'Limit result set to specific IDs', items: { type: 'integer' }, swaggerType: 'array' },
  order: { description: 'Order sort attribute ascending or descending', type: 'string' },
  orderby: { description: 'Sort collection by term attribute', type: 'string' },
  hide_empty: { description: 'Whether to hide terms not assigned to any posts', type: 'boolean', default: '1' },
  post: { description: 'Limit result set to terms assigned to a specific post', type: 'integer' },
  event: { description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)', type: 'integer' },
  slug: { description: 'Limit result set to terms with a specific slug', type: 'string' },
};
const TAG_CREATE: Args = {
  name: { type: 'string', description: 'The event tag name', required: true },
  description: { type: 'string', description: 'The event tag description' },
  slug: { type: 'string', description: 'The event tag slug' },
};
const unrequired = (args: Args): Args => Object.fromEntries(Object.entries(args).map(([k, v]) => [k, { ...v, required: false }]));
const TAG_ID: Args = { id: { type: 'integer', description: 'the event tag term ID', required: true, in: 'path' } };

const table: RouteTable = [
  {
    path: '/tags',
    endpoints: [
      { methods: READABLE, args: TAG_ARCHIVE, handler: noop, doc: { responses: docPaths['/tags'].get.responses } },
      { methods: CREATABLE, args: TAG_CREATE, handler: noop }, // documented under /tags/{id}, as in TEC
    ],
  },
  {
    path: '/tags/(?P<id>\\d+)',
    args: TAG_ID,
    endpoints: [
      { methods: READABLE, handler: noop, doc: { responses: docPaths['/tags/{id}'].get.responses } },
      {
        methods: EDITABLE,
        args: unrequired(TAG_CREATE),
        handler: noop,
        doc: { parameters: ['id'], requestBody: { args: TAG_CREATE }, responses: docPaths['/tags/{id}'].post.responses },
      },
      { methods: DELETABLE, handler: noop, doc: { responses: docPaths['/tags/{id}'].delete.responses } },
    ],
  },
];

let app: TestApp;
beforeAll(async () => {
  app = await startApp({
    table,
    docInfo: {
      info: samples.doc.info,
      schemas: samples.doc.components.schemas,
      docOperation: { responses: docPaths['/doc'].get.responses },
    },
  });
});
afterAll(() => app.close());

describe('namespace index', () => {
  it('equals the original’s for the same routes, byte for byte', async () => {
    for (const path of ['/wp-json/tribe/events/v1', '/wp-json/tribe/events/v1/']) {
      const r = await app.request('GET', path);
      expect(r.status).toBe(200);
      expect(r.text).toBe(encodePhpJson(samples.index));
    }
  });

  it('uses the namespace it was asked under', async () => {
    const r = await app.request('GET', '/wp-json/calendar/events/v1');
    expect(Object.keys(r.json.routes)).toEqual([
      '/calendar/events/v1',
      '/calendar/events/v1/doc',
      '/calendar/events/v1/tags',
      '/calendar/events/v1/tags/(?P<id>\\d+)',
    ]);
    expect(r.json.namespace).toBe('calendar/events/v1');
    expect(r.json.routes['/calendar/events/v1'].endpoints[0].args.namespace.default).toBe('calendar/events/v1');
    expect(r.json.routes['/calendar/events/v1/tags']._links.self[0].href).toBe('http://127.0.0.1:8080/wp-json/calendar/events/v1/tags');
    expect(r.json._links.up[0].href).toBe('http://127.0.0.1:8080/wp-json/');
  });
});

describe('/doc', () => {
  it('equals the original’s for the same routes, byte for byte', async () => {
    const r = await app.request('GET', '/wp-json/tribe/events/v1/doc');
    expect(r.status).toBe(200);
    expect(r.text).toBe(encodePhpJson(samples.doc));
  });

  it('serves the request’s namespace and scheme, with the site host (port dropped)', async () => {
    const r = await app.request('GET', '/wp-json/calendar/events/v1/doc', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(r.json.servers).toEqual([{ url: 'https://127.0.0.1/wp-json/calendar/events/v1/' }]);
    expect(Object.keys(r.json)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
  });
});

describe('derived OpenAPI details', () => {
  it('CSV lists get style form; untyped args default to string; post args default their description', async () => {
    const local = await startApp({
      docInfo: { info: { version: '1', title: 't' }, keepPort: true },
      table: [
        {
          path: '/things/by-slug/(?P<slug>[^/]+)',
          endpoints: [
            {
              methods: EDITABLE,
              args: {
                slug: { type: 'string', required: true, in: 'path' },
                tags: { items: { type: 'integer' }, swaggerType: 'array', collectionFormat: 'csv' },
                cost: {},
              },
              handler: noop,
              doc: { in: 'formData', requestBody: { args: ['cost'] }, responses: { '200': { description: 'ok' } } },
            },
          ],
        },
      ],
    });
    try {
      const r = await local.request('GET', '/wp-json/calendar/events/v1/doc');
      expect(r.json.servers[0].url).toBe('http://127.0.0.1:8080/wp-json/calendar/events/v1/');
      expect(r.json.paths['/things/by-slug/{slug}'].post).toEqual({
        parameters: [
          { in: 'path', schema: { type: 'string' }, description: 'No description provided', required: true, name: 'slug' },
          {
            in: 'formData',
            schema: { type: 'array', items: { type: 'integer' } },
            description: 'No description provided',
            required: false,
            name: 'tags',
            style: 'form',
          },
          { in: 'formData', schema: { type: 'string' }, description: 'No description provided', required: false, name: 'cost' },
        ],
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', properties: { cost: { description: 'No description provided', type: 'string' } } },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      });
      // The /doc route without docInfo.docOperation still documents itself.
      expect(Object.keys(r.json.paths)).toEqual(['/doc', '/things/by-slug/{slug}']);
    } finally {
      await local.close();
    }
  });

  it('rejects a doc naming an arg the endpoint does not have, at start-up', async () => {
    await expect(
      startApp({
        table: [{ path: '/x', endpoints: [{ methods: READABLE, handler: noop, doc: { parameters: ['nope'], responses: {} } }] }],
      }),
    ).rejects.toThrow(/unknown args nope/);
  });

  it('without docInfo there is no /doc route', async () => {
    const local = await startApp({ table });
    try {
      expect((await local.request('GET', '/wp-json/calendar/events/v1/doc')).status).toBe(404);
      const index = await local.request('GET', '/wp-json/calendar/events/v1');
      expect(Object.keys(index.json.routes)).not.toContain('/calendar/events/v1/doc');
    } finally {
      await local.close();
    }
  });
});
