// The task API's OpenAPI 3.1 document, derived from its route table: every route with its path,
// query and body arguments, who may call it (the x-api-key scheme), the envelope it answers with,
// and the error body of every failure. Served at GET /api/v1/openapi.json.
import { openApi31Document, type Answer } from '../openapi.js';
import { compileRoutes } from '../route-table.js';
import { argsByPlace, type TaskEndpoint, type TaskRoute } from './endpoint.js';

/** A success's body: the envelope with the endpoint's `data` (and paging keys), or a body of its own. */
function successSchema(endpoint: TaskEndpoint): Record<string, unknown> {
  if (!endpoint.answer) return { type: 'object', description: 'The body as is.' };
  const properties = { success: { const: true }, data: endpoint.answer.data, ...endpoint.answer.extra };
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

const binaryType = (path: string) => (path.endsWith('.gif') ? 'image/gif' : path.endsWith('.png') ? 'image/png' : undefined);

function answerOf(route: TaskRoute, endpoint: TaskEndpoint): Answer {
  const binary = binaryType(route.docPath ?? '');
  if (binary) return { status: 200, description: 'The image.', contentType: binary, schema: { type: 'string', contentMediaType: binary } };
  return { status: 200, description: endpoint.answer ? 'Success: `data` holds the answer.' : 'Success.', schema: successSchema(endpoint) };
}

function errorsOf(_route: TaskRoute, endpoint: TaskEndpoint): Record<number, string> {
  const hasBody = Object.keys(argsByPlace(endpoint).body).length > 0;
  return Object.fromEntries(
    Object.entries(ERROR_STATUSES).filter(([status]) =>
      status === '413' || status === '415' ? hasBody : status !== '401' || endpoint.auth !== 'none',
    ),
  );
}

/** Who may call: no one needs a key, a key, or a key or the share token in the query (anonymous to the scheme). */
const SECURITY: Record<TaskEndpoint['auth'], Array<Record<string, string[]>>> = {
  none: [],
  key: [{ ApiKey: [] }],
  token: [{ ApiKey: [] }, {}],
};

const SIGNED =
  'Signed: X-Almanac-Signature is sha256=<hex HMAC-SHA256 of "<X-Almanac-Timestamp>.<body>">; refuse timestamps more than 5 minutes off. Retried with backoff until the receiver answers 2xx (at least once).';
const headers = (event: string) => ({
  'x-almanac-event': { schema: { const: event } },
  'x-almanac-delivery': { schema: { type: 'string' }, description: 'The delivery id (the same on every retry).' },
  'x-almanac-timestamp': { schema: { type: 'string' }, description: 'Unix seconds.' },
  'x-almanac-signature': { schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } },
});

/** OpenAPI 3.1 `webhooks`: what Almanac POSTs to receivers, the tasks' and the calendar's, side by side. */
const WEBHOOKS = {
  taskEvent: {
    post: {
      summary: "A task run's event: it waits for a caller tool's input (tool_call), completed, or ended in error.",
      description: `To the task's webhookUrl (or its key's default), keyed with the key's webhook secret (GET /webhook/secret). ${SIGNED}`,
      parameters: Object.entries(headers('tool_call | completed | error')).map(([name, spec]) => ({ name, in: 'header', ...spec })),
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['event', 'taskId', 'runId', 'status', 'at'],
              properties: {
                event: { enum: ['tool_call', 'completed', 'error'] },
                taskId: { type: 'string' },
                runId: { type: 'string' },
                status: { type: 'string' },
                detailedStatus: { type: 'string' },
                error: { type: ['string', 'null'] },
                output: {},
                toolCall: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, arguments: {} } },
                at: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
      responses: { '2XX': { description: 'Received: not sent again.' } },
    },
  },
  calendarChanges: {
    post: {
      summary: "The calendar's changes after the endpoint's cursor, in order, one delivery at a time.",
      description: `To each calendar webhook an administrator registered (GraphQL createCalendarWebhook), keyed with the secret its creation answered; X-Almanac-Event is calendar.changes. A delivery that fails after every retry pauses the endpoint. ${SIGNED}`,
      parameters: Object.entries(headers('calendar.changes')).map(([name, spec]) => ({ name, in: 'header', ...spec })),
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['webhookId', 'deliveryId', 'cursor', 'changes'],
              properties: {
                webhookId: { type: 'string' },
                deliveryId: { type: 'string' },
                cursor: { type: 'string', description: "The last change's cursor: replayCalendarWebhook(after:) sends again from here." },
                changes: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['cursor', 'type', 'id', 'kind', 'removed', 'fields', 'atUtc'],
                    properties: {
                      cursor: { type: 'string' },
                      type: { enum: ['event', 'venue', 'organizer', 'category', 'tag'] },
                      id: { type: 'integer' },
                      kind: { enum: ['CREATED', 'UPDATED', 'TRASHED', 'RESTORED', 'DELETED', 'ADDED', 'REMOVED'] },
                      removed: { type: 'boolean', description: 'Drop your copy: the record is gone or out of view.' },
                      fields: { type: 'array', items: { type: 'string' } },
                      atUtc: { type: 'string' },
                    },
                  },
                },
              },
            },
          },
        },
      },
      responses: { '2XX': { description: 'Received: the next delivery follows.' } },
    },
  },
};

export function taskOpenApi(routes: TaskRoute[]): Record<string, unknown> {
  const document = openApi31Document(compileRoutes(routes, 'api/v1', { caseSensitive: true }), {
    info: {
      title: 'Almanac browser tasks',
      version: '1.0.0',
      description: 'Natural-language browser tasks run by an agent in Chromium; caller tools pause a run until a person answers.',
      license: { name: 'GPL-2.0-or-later', identifier: 'GPL-2.0-or-later' },
    },
    serverUrl: '/api/v1',
    security: (endpoint) => SECURITY[endpoint.auth],
    answerOf,
    errorsOf,
    errorSchema: { $ref: '#/components/schemas/Failure' },
    bodyTypes: ['application/json'],
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      schemas: {
        Failure: { type: 'object', required: ['success', 'error'], properties: { success: { const: false }, error: { type: 'string' } } },
      },
    },
  });
  return { ...document, webhooks: WEBHOOKS };
}
