// The calendar REST API's OpenAPI 3.1 document (GET /openapi/calendar.json): valid for
// swagger-parser, one operation per endpoint of the route table (creates included), and true to
// the server: every answer of a scripted session validates against the schema documented for it,
// and a client generated from it with openapi-typescript compiles and round-trips.
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { calendarTable } from '../../src/rest/calendar/index.js';
import { templatePath } from '../../src/rest/route-table.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { generatedClient, schemaProblems } from '../support/openapi-client.js';
import { useTestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';

describe.each(DATABASE_KINDS)('calendar OpenAPI 3.1 document on %s', (kind) => {
  const api = useTestServer(kind);
  const document = async () => {
    const response = await api.request('GET', '/openapi/calendar.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    return response.json;
  };

  it('is valid OpenAPI 3.1 with an operation for every endpoint of the route table', async () => {
    const doc = await document();
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe(`http://almanac.test${NS}`);
    for (const route of calendarTable) {
      const path = templatePath('/' + route.path.replace(/^\/+/, ''));
      for (const endpoint of route.endpoints) {
        for (const method of endpoint.methods) {
          expect(doc.paths[path]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined();
        }
      }
    }
    const create = doc.paths['/events'].post;
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Event' });
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['title', 'start_date', 'end_date']);
    expect(create.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    expect(create.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const list = doc.paths['/events'].get;
    expect(list.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/EventList' });
    expect(Object.keys(list.responses['200'].headers)).toEqual(['X-TEC-Total', 'X-TEC-TotalPages']);
    expect(list.parameters.find((p: any) => p.name === 'per_page')).toMatchObject({ in: 'query', schema: { type: 'integer' } });
    expect(doc.paths['/events/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
  });

  it('documents what the server answers: each answer of a session validates against its documented schema', async () => {
    const doc = await document();
    const checked: string[] = [];
    const check = async (method: string, path: string, template: string, body?: unknown) => {
      const response = await api.request(method, NS + path, { body, key: api.keys.administrator });
      expect(schemaProblems(doc, template, method, response.status, response.json), `${method} ${path}`).toEqual([]);
      const documented = doc.paths[template][method.toLowerCase()].responses[String(response.status)];
      for (const header of Object.keys(documented.headers ?? {})) expect(response.headers.get(header), header).toMatch(/^\d+$/);
      checked.push(`${method} ${template} ${response.status}`);
      return response.json;
    };
    const venue = await check('POST', '/venues', '/venues', { venue: 'Main Hall', city: 'Springfield', show_map: true });
    const organizer = await check('POST', '/organizers', '/organizers', { organizer: 'Acme', email: 'acme@example.com' });
    const category = await check('POST', '/categories', '/categories', { name: 'Music' });
    const child = await check('POST', '/categories', '/categories', { name: 'Jazz', parent: category.id });
    const tag = await check('POST', '/tags', '/tags', { name: 'outdoor' });
    const event = await check('POST', '/events', '/events', {
      title: 'Jazz Night',
      start_date: '2030-12-05 19:00:00',
      end_date: '2030-12-05 22:00:00',
      cost: '10',
      venue: venue.id,
      organizer: [organizer.id],
      categories: [child.id],
      tags: [tag.id],
    });
    const bare = await check('POST', '/events', '/events', { title: 'Bare', start_date: '2030-12-06 10:00', end_date: '2030-12-06 11:00' });
    await check('GET', '/events', '/events');
    const single = await check('GET', `/events/${event.id}`, '/events/{id}');
    await check('GET', `/events/by-slug/${bare.slug}`, '/events/by-slug/{slug}');
    await check('POST', `/events/${event.id}`, '/events/{id}', { title: 'Jazz Night II' });
    await check('GET', '/venues', '/venues');
    const singleVenue = await check('GET', `/venues/${venue.id}`, '/venues/{id}');
    await check('GET', '/organizers', '/organizers');
    const singleOrganizer = await check('GET', `/organizers/${organizer.id}`, '/organizers/{id}');
    await check('GET', '/categories', '/categories');
    await check('GET', `/categories/${child.id}`, '/categories/{id}');
    await check('GET', '/tags', '/tags');
    await check('GET', `/tags/${tag.id}`, '/tags/{id}');
    await check('DELETE', `/events/${bare.id}`, '/events/{id}');
    // Errors have the documented error body.
    await check('GET', '/events/999999', '/events/{id}');
    await check('GET', '/events?per_page=banana', '/events');
    await check('POST', '/events', '/events', { start_date: '2030-12-06 10:00' });
    expect(checked).toContain('GET /events/{id} 404');
    // The record schemas list exactly the keys records carry, in their order (venues and
    // organizers leave out empty values); a full event record carries every one.
    const keysOf = (schema: string, record: Record<string, unknown>) => {
      const { properties, required } = doc.components.schemas[schema];
      const keys = Object.keys(record);
      expect(
        Object.keys(properties).filter((key) => keys.includes(key)),
        schema,
      ).toEqual(keys);
      expect(
        required.filter((key: string) => !keys.includes(key)),
        schema,
      ).toEqual([]);
      return keys;
    };
    expect(keysOf('Event', single)).toEqual(Object.keys(doc.components.schemas.Event.properties));
    keysOf('Event', event);
    keysOf('Venue', singleVenue);
    keysOf('Venue', single.venue);
    keysOf('Organizer', singleOrganizer);
    keysOf('Organizer', single.organizer[0]);
    keysOf('EmbeddedTerm', single.categories[0]);
    keysOf('EmbeddedTerm', single.tags[0]);
    expect(checked).toContain('POST /events 400');
  });

  it('generates a typed client (openapi-typescript + openapi-fetch) that compiles and round-trips', async () => {
    const doc = await document();
    const client = await generatedClient(
      doc,
      `import createClient from 'openapi-fetch';
import type { paths } from './paths.js';

export async function roundTrip(baseUrl: string, key: string): Promise<{ title: string; start: string; total: number; missing: string }> {
  const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': key } });
  const created = await client.POST('/events', {
    body: { title: 'Typed Night', start_date: '2031-01-10 20:00:00', end_date: '2031-01-10 23:00:00' },
  });
  if (!created.data) throw new Error('create failed');
  const id: number = created.data.id;
  const read = await client.GET('/events/{id}', { params: { path: { id } } });
  if (!read.data) throw new Error('read failed');
  const list = await client.GET('/events', { params: { query: { per_page: 5, start_date: '2031-01-01', end_date: '2031-12-31' } } });
  if (!list.data) throw new Error('list failed');
  const total: number = list.data.total;
  const first: string = list.data.events[0].start_date;
  const missing = await client.GET('/events/{id}', { params: { path: { id: 987654 } } });
  const code: string = missing.error?.code ?? '';
  return { title: String(read.data.title), start: first, total, missing: code };
}
`,
    );
    expect(client.diagnostics).toEqual([]);
    const { roundTrip } = client.module;
    const result = await roundTrip(api.url + NS, api.keys.administrator);
    expect(result).toEqual({ title: 'Typed Night', start: '2031-01-10 20:00:00', total: 1, missing: 'rest-event-not-found' });
  });
});
