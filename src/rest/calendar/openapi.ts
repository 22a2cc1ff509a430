// The calendar REST API as a complete OpenAPI 3.1 document for client generators (GET
// /openapi/calendar.json). /doc stays the original's document, whose schemas describe records the
// original does not send (dates as arrays, `author` an integer, no list envelope, no creates); this
// one types what the API really answers, with the original's descriptions where it has them. Paths,
// parameters and bodies come from the route table (openApi31Document); the answers from the path.
import type { Config } from '../../config.js';
import { openApi31Document, type Answer } from '../openapi.js';
import { compileRoutes, type Endpoint, type Route } from '../route-table.js';
import { docInfo } from './doc.js';
import { answerSchema, arrayOf, integer, ref, string, type Schema } from './item-schema.js';
import { CATEGORY_TERMS, EVENT, ORGANIZER, VENUE } from './records.js';
import { calendarTable } from './index.js';

const originalSchemas = docInfo.schemas as Record<string, { properties: Record<string, { description?: string }> }>;

/** An object schema whose properties carry the original's /doc description when it has one. */
function record(original: string | undefined, properties: Record<string, Schema>, required: string[] = []): Schema {
  const described = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const description = original ? originalSchemas[original]?.properties[name]?.description : undefined;
      return [name, description && !schema.$ref ? { description, ...schema } : schema];
    }),
  );
  return { type: 'object', properties: described, ...(required.length ? { required } : {}) };
}

const schemas: Record<string, Schema> = {
  DateDetails: record(
    'DateDetails',
    Object.fromEntries(['year', 'month', 'day', 'hour', 'minutes', 'seconds'].map((key) => [key, string])),
    ['year', 'month', 'day', 'hour', 'minutes', 'seconds'],
  ),
  CostDetails: record('CostDetails', {
    currency_symbol: string,
    currency_code: string,
    currency_position: string,
    values: arrayOf(string),
  }),
  ImageSize: { ...record('ImageSize', { width: integer, height: integer, 'mime-type': string, url: string }), additionalProperties: true },
  Image: {
    ...record('Image', {
      url: string,
      id: integer,
      extension: string,
      width: integer,
      height: integer,
      sizes: { type: 'object', additionalProperties: ref('ImageSize') },
    }),
    additionalProperties: true,
  },
  JsonLd: { type: 'object', description: 'The record as schema.org JSON-LD (single-record reads only).', additionalProperties: true },
  EmbeddedTerm: answerSchema(CATEGORY_TERMS.embedded),
  Term: answerSchema(CATEGORY_TERMS.record),
  Venue: answerSchema(VENUE),
  Organizer: answerSchema(ORGANIZER),
  Event: answerSchema(EVENT),
  Error: {
    type: 'object',
    description: 'A WordPress REST error.',
    properties: {
      code: { type: 'string', description: 'A stable machine-readable code, e.g. rest_invalid_param' },
      message: string,
      data: {
        type: ['object', 'null'],
        properties: {
          status: integer,
          params: {
            type: ['object', 'array'],
            description: 'Each invalid argument and why (an object), or the names of the missing ones (an array)',
          },
          details: { type: ['object', 'array'], description: 'More about the failure (an empty array when there is nothing)' },
        },
        additionalProperties: true,
      },
      additional_data: arrayOf({}),
    },
    required: ['code', 'message'],
  },
};

/** Record schema and list key of each collection (the path's first segment). */
const COLLECTIONS: Record<string, { schema: string; list: string; what: string }> = {
  events: { schema: 'Event', list: 'EventList', what: 'event' },
  venues: { schema: 'Venue', list: 'VenueList', what: 'venue' },
  organizers: { schema: 'Organizer', list: 'OrganizerList', what: 'organizer' },
  categories: { schema: 'Term', list: 'CategoryList', what: 'event category' },
  tags: { schema: 'Term', list: 'TagList', what: 'tag' },
};
for (const [key, { schema, list, what }] of Object.entries(COLLECTIONS)) {
  schemas[list] = {
    type: 'object',
    description: `A page of ${what} records.`,
    properties: {
      [key]: arrayOf(ref(schema)),
      total: integer,
      total_pages: integer,
      rest_url: string,
      next_rest_url: string,
      previous_rest_url: string,
    },
    required: [key, 'total', 'total_pages', 'rest_url'],
  };
}

const TOTAL_HEADERS = {
  'X-TEC-Total': { description: 'How many records match', schema: integer },
  'X-TEC-TotalPages': { description: 'How many pages there are', schema: integer },
};

function answerOf(route: Route, endpoint: Endpoint): Answer | undefined {
  const [collection, ...rest] = route.path.replace(/^\/+/, '').split('/');
  const found = COLLECTIONS[collection];
  if (!found) return undefined;
  const method = endpoint.methods[0];
  const one = ref(found.schema);
  if (rest.length === 0 && method === 'GET') {
    return { status: 200, description: `A page of ${found.what} records`, schema: ref(found.list), headers: TOTAL_HEADERS };
  }
  if (rest.length === 0) return { status: 201, description: `The created ${found.what}`, schema: one };
  const verb = method === 'GET' ? 'The' : method === 'DELETE' ? 'The trashed (or deleted)' : 'The updated';
  return { status: 200, description: `${verb} ${found.what}`, schema: one };
}

function errorsOf(_route: Route, endpoint: Endpoint): Record<number, string> {
  const errors: Record<number, string> = {
    400: 'An argument is missing or invalid (`rest_invalid_param`, `rest_missing_callback_param`, …)',
    401: 'The request needs an API key, or the key given is unknown',
    403: 'The key’s user may not do this, or may not see this record',
    404: 'No such record',
  };
  if (endpoint.methods[0] === 'DELETE') errors[410] = 'The record was already trashed';
  if (endpoint.methods[0] !== 'GET') errors[413] = 'The body is too large';
  return errors;
}

export function calendarOpenApi(config: Config): Record<string, unknown> {
  const namespace = config.restNamespaces[0];
  const site = config.siteUrl.replace(/\/+$/, '');
  return openApi31Document(compileRoutes(calendarTable, namespace), {
    info: {
      title: 'Almanac calendar REST API',
      version: '1.0.0',
      description:
        'The Events Calendar REST API v1, as Almanac serves it: events, venues, organizers, categories and tags. ' +
        'Reads are public (drafts and private records need a key); writes need an API key of a user with the right role.',
      license: { name: 'GPL-2.0-or-later', identifier: 'GPL-2.0-or-later' },
    },
    serverUrl: `${site}${config.restRoot}/${namespace}`,
    security: [{ ApiKey: [] }, { Bearer: [] }, { ApplicationPassword: [] }, {}],
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        Bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token' },
        ApplicationPassword: { type: 'http', scheme: 'basic', description: 'login:key, like a WordPress application password' },
      },
      schemas,
    },
    answerOf,
    errorsOf,
    errorSchema: ref('Error'),
  });
}
