// The task API (/api/v1) as a table of the app's one router (src/http/router.ts): what this table
// chooses is its auth (the x-api-key per endpoint), its rate limit per key, its JSON-only body, the
// wording of its refused arguments and its error envelope. An error a client caused is never a 500.
import type { ExecutionResult } from 'graphql';
import type { Context } from 'koa';
import { hashApiKey, credentialsFromHeaders } from '../../auth/api-keys.js';
import type { Viewer } from '../../auth/viewer.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { errorCode } from '../../graphql/errors.js';
import type { OperationRunner } from '../../graphql/execute.js';
import type { Logger } from '../../http/logger.js';
import type { RateDecision } from '../../tasks/rate-limit.js';
import { throttledMessage, type Authenticate, type CallerRefusal } from '../../http/caller.js';
import { allowedOn, decodeParams, writeAnswer, type Table } from '../../http/router.js';
import { compileRoutes, type CompiledRoute } from '../route-table.js';
import { assertCheckable, checkArgs } from '../arg-check.js';
import { MAX_BODY_BYTES, readJsonBody, taskError, TASK_ARG_RULES, TASK_ERROR_ENVELOPE } from './http.js';
import { argsByPlace, type TaskEndpoint, type TaskRequest } from './endpoint.js';
import { TASK_ROUTES } from './routes.js';

export const API_PREFIX = '/api/v1';

const STATUS_OF_CODE: Record<string, number> = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 404,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
};

/** The data of a GraphQL result, or the task error its first error stands for. */
function unwrap<Data>(result: ExecutionResult<Data>, logger: Logger): Data {
  const error = result.errors?.[0];
  // No error: the data of the whole document (graphql-js types it as possibly absent).
  if (!error) return result.data as Data;
  const code = errorCode(error);
  if (code && STATUS_OF_CODE[code]) throw taskError(STATUS_OF_CODE[code], error.message);
  if (code === 'SERVICE_UNAVAILABLE') throw error; // a database fault: the error path answers 503
  // No `data` at all (not even null): the variables did not fit the operation (a client's value).
  if (result.data === undefined) throw taskError(400, error.message.replace(/^Variable "\$\w+" got invalid value /, 'invalid value '));
  logger.error({ err: error.originalError ?? error }, 'task API operation failed');
  throw error;
}

export interface TaskApiOptions {
  /** The app's in-process GraphQL (the calendar API's too) and the context of a caller. */
  runner: OperationRunner;
  context: (viewer: Viewer | null) => GraphQLContext;
  /** The request's caller, as every table asks for it (src/http/caller.ts). */
  authenticate: Authenticate;
  /** Counts a request of the key (its hash) against the per-minute limit (src/tasks/rate-limit.ts). */
  rateLimit: (keyHash: string) => Promise<RateDecision>;
  perMinute: number;
  /** What `files` may add to a body (TASK_MAX_UPLOAD_BYTES, before base64). */
  maxUploadBytes: number;
  logger: Logger;
}

const refuseCaller = (reason: CallerRefusal, retryAfter = 0) =>
  reason === 'throttled'
    ? taskError(429, throttledMessage(retryAfter), { 'Retry-After': String(retryAfter) })
    : taskError(401, reason === 'missing' ? 'Missing API key: send it in the x-api-key header.' : 'Invalid API key.');

/** The task API's table: its rows under /api/v1, served by the app's one router (src/http/router.ts). */
export function taskApiTable({
  runner,
  context,
  authenticate,
  rateLimit,
  perMinute,
  maxUploadBytes,
  logger,
}: TaskApiOptions): Table<TaskEndpoint> {
  const filesBodyLimit = MAX_BODY_BYTES + Math.ceil(maxUploadBytes / 3) * 4;
  for (const { path, endpoints } of TASK_ROUTES) for (const endpoint of endpoints) assertCheckable(path, endpoint.args ?? {});
  const routes = compileRoutes(TASK_ROUTES, API_PREFIX.slice(1), { caseSensitive: true });

  /** The caller as the endpoint's `auth` asks; a key's request counts against its limit. */
  async function caller(ctx: Context, endpoint: TaskEndpoint): Promise<Viewer | null> {
    if (endpoint.auth === 'none') return null;
    const viewer = await authenticate(ctx, { required: endpoint.auth === 'key', refuse: refuseCaller });
    const credentials = credentialsFromHeaders(ctx.req.headers);
    if (credentials) {
      const { allowed, retryAfter } = await rateLimit(hashApiKey(credentials.key));
      if (!allowed)
        throw taskError(429, `Rate limit of ${perMinute} requests per minute reached; retry in ${retryAfter} s.`, {
          'Retry-After': String(retryAfter),
        });
    }
    return viewer;
  }

  return {
    name: 'task API',
    claim(ctx) {
      if (ctx.path !== API_PREFIX && !ctx.path.startsWith(`${API_PREFIX}/`)) return undefined;
      return {
        path: ctx.path,
        method: ctx.method,
        routes,
        envelope: TASK_ERROR_ENVELOPE,
        unmatched: () => unmatched(routes, ctx.method, ctx.path),
        async run({ endpoint, params }) {
          const decoded = decodeParams(params, (segment) => taskError(400, `Malformed path segment "${segment}".`));
          const viewer = await caller(ctx, endpoint);
          const places = argsByPlace(endpoint);
          const req: TaskRequest = {
            params: decoded,
            query: checkArgs(ctx.query, places.query, 'query', TASK_ARG_RULES),
            body: Object.keys(places.body).length
              ? checkArgs(
                  await readJsonBody(ctx.req, endpoint.takesFiles ? filesBodyLimit : MAX_BODY_BYTES),
                  places.body,
                  'body',
                  TASK_ARG_RULES,
                )
              : {},
            hasKey: viewer !== null,
            graphql: async (operation, variables) => unwrap(await runner(operation, variables, context(viewer)), logger),
          };
          return endpoint.handler(req);
        },
        send: (answer) => writeAnswer(ctx, answer),
      };
    },
  };
}

/** 405 (with Allow) when a route has the path but not the method, else 404. */
function unmatched(routes: readonly CompiledRoute<TaskEndpoint>[], method: string, path: string) {
  const allowed = allowedOn(routes, path);
  if (!allowed) return taskError(404, `No route ${method} ${path}.`);
  return taskError(405, `${method} is not allowed on ${path}; use ${allowed}.`, { Allow: allowed });
}
