// The task API's OpenAPI 3.1 document, derived from its route table: every route with its path,
// query and body arguments, who may call it (the x-api-key scheme), the envelope it answers with,
// and the error body of every failure. Served at GET /api/v1/openapi.json.
import { GraphQLEnumType } from 'graphql';
import { schema } from '../../graphql/schema.js';
import { operationId } from '../openapi.js';
import type { ArgSpec } from './http.js';
import type { TaskRoute } from './routes.js';

/** The values of a GraphQL enum (task and run statuses): the REST API answers the same values. */
export function enumValues(name: string): string[] {
  const type = schema.getType(name);
  if (!(type instanceof GraphQLEnumType)) throw new Error(`no GraphQL enum ${name}`);
  return type.getValues().map((value) => String(value.value));
}

/** A success's body: the envelope with the route's `data` (and paging keys), or a body of its own. */
function successSchema(route: TaskRoute): Record<string, unknown> {
  if (!route.answer) return { type: 'object', description: 'The body as is.' };
  const properties = { success: { const: true }, data: route.answer.data, ...route.answer.extra };
  return { type: 'object', required: Object.keys(properties), properties };
}

const ERROR_STATUSES: Record<string, string> = {
  400: 'Bad input (an argument, the JSON body).',
  401: 'No API key, or an unknown one.',
  404: 'No such task, run or route.',
  409: 'The task or run is not in a state for this (nothing waiting for input, already stopped).',
  413: 'The body is larger than 1 MB.',
  415: 'The body is not JSON.',
  429: 'Too many requests for this key (TASK_API_RATE_LIMIT per minute), or too many runs (TASK_MAX_ACTIVE_RUNS, TASK_MAX_RUNS_PER_DAY).',
};

function schemaOf(spec: ArgSpec): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: spec.type, description: spec.description };
  if (spec.type === 'array') schema.items = {};
  if (spec.enum) schema.enum = [...spec.enum];
  if (spec.min !== undefined) schema.minimum = spec.min;
  if (spec.max !== undefined) schema.maximum = spec.max;
  if (spec.default !== undefined) schema.default = spec.default;
  return schema;
}

const binaryType = (path: string) => (path.endsWith('.gif') ? 'image/gif' : path.endsWith('.png') ? 'image/png' : null);

function operation(route: TaskRoute): Record<string, unknown> {
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const parameters = [
    ...pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...Object.entries(route.query ?? {}).map(([name, spec]) => ({
      name,
      in: 'query',
      required: spec.required === true,
      description: spec.description,
      schema: schemaOf(spec),
    })),
  ];
  const binary = binaryType(route.path);
  const op: Record<string, unknown> = {
    operationId: operationId(route.method, route.path.replace(/:(\w+)/g, '{$1}')),
    summary: route.description,
    security: route.auth === 'none' ? [] : route.auth === 'token' ? [{ ApiKey: [] }, {}] : [{ ApiKey: [] }],
    parameters,
    responses: {
      200: binary
        ? { description: 'The image.', content: { [binary]: { schema: { type: 'string', contentMediaType: binary } } } }
        : {
            description: route.answer ? 'Success: `data` holds the answer.' : 'Success.',
            content: { 'application/json': { schema: successSchema(route) } },
          },
      ...Object.fromEntries(
        Object.entries(ERROR_STATUSES)
          .filter(([status]) => (status === '413' || status === '415' ? Boolean(route.body) : status !== '401' || route.auth !== 'none'))
          .map(([status, description]) => [
            status,
            { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } } },
          ]),
      ),
    },
  };
  if (route.body) {
    const required = Object.entries(route.body)
      .filter(([, spec]) => spec.required)
      .map(([name]) => name);
    op.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: Object.fromEntries(Object.entries(route.body).map(([name, spec]) => [name, schemaOf(spec)])),
            ...(required.length ? { required } : {}),
          },
        },
      },
    };
  }
  return op;
}

export function taskOpenApi(routes: TaskRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Almanac browser tasks',
      version: '1.0.0',
      description: 'Natural-language browser tasks run by an agent in Chromium; caller tools pause a run until a person answers.',
      license: { name: 'GPL-2.0-or-later', identifier: 'GPL-2.0-or-later' },
    },
    servers: [{ url: '/api/v1' }],
    paths,
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      schemas: {
        Failure: { type: 'object', required: ['success', 'error'], properties: { success: { const: false }, error: { type: 'string' } } },
      },
    },
  };
}
