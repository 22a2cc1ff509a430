// The Koa middleware serving /api/v1 from its route table (rest/route-table.ts, the calendar API's
// too): match, authenticate, rate-limit, check arguments, run the endpoint's handler (GraphQL
// in-process), answer in the spec's envelope. An error a client caused is never a 500.
import type { ExecutionResult } from 'graphql';
import type { Middleware } from 'koa';
import { hashApiKey, credentialsFromHeaders, type ApiKeyResolver } from '../../auth/api-keys.js';
import type { Viewer } from '../../auth/viewer.js';
import type { Config } from '../../config.js';
import { databaseFault } from '../../db/faults.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { errorCode } from '../../graphql/errors.js';
import { createOperationRunner, type GraphQLData } from '../../graphql/execute.js';
import { schema } from '../../graphql/schema.js';
import type { Logger } from '../../http/logger.js';
import { noteFault, retryAfter } from '../../http/unavailable.js';
import { SharedRateLimit } from '../../tasks/rate-limit.js';
import { compileRoutes, type HttpMethod, type RestResult } from '../route-table.js';
import { assertCheckable, checkBody, checkQuery, HttpError, readJsonBody } from './http.js';
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

/** The data of a GraphQL result, or the HttpError its first error stands for. */
function unwrap(result: ExecutionResult, logger: Logger): GraphQLData {
  const error = result.errors?.[0];
  if (!error) return result.data;
  const code = errorCode(error);
  if (code && STATUS_OF_CODE[code]) throw new HttpError(STATUS_OF_CODE[code], error.message);
  if (code === 'SERVICE_UNAVAILABLE') throw error; // a database fault: 503 below
  // No `data` at all (not even null): the variables did not fit the operation (a client's value).
  if (result.data === undefined) throw new HttpError(400, error.message.replace(/^Variable "\$\w+" got invalid value /, 'invalid value '));
  logger.error({ err: error.originalError ?? error }, 'task API operation failed');
  throw error;
}

/** `context` builds the GraphQL context for a caller: the REST layer never touches the database itself. */
export function createTaskApi({
  config,
  context: contextFor,
  keys,
  logger,
}: {
  config: Config;
  context: (viewer: Viewer | null) => GraphQLContext;
  keys: ApiKeyResolver;
  logger: Logger;
}): Middleware {
  const run = createOperationRunner(schema);
  for (const { path, endpoints } of TASK_ROUTES) for (const endpoint of endpoints) assertCheckable(path, endpoint.args ?? {});
  const routes = compileRoutes(TASK_ROUTES, API_PREFIX.slice(1), { caseSensitive: true });
  let limiter: SharedRateLimit | undefined;

  return async (ctx, next) => {
    if (ctx.path !== API_PREFIX && !ctx.path.startsWith(`${API_PREFIX}/`)) return next();
    try {
      const onPath = routes.filter((r) => r.pattern.test(ctx.path));
      if (!onPath.length) throw new HttpError(404, `No route ${ctx.method} ${ctx.path}.`);
      const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
      let match: { compiled: (typeof routes)[number]; endpoint: TaskEndpoint } | undefined;
      for (const compiled of onPath) {
        const found = compiled.endpoints.find(({ endpoint }) => endpoint.methods.includes(method as HttpMethod));
        if (found) {
          match = { compiled, endpoint: found.endpoint };
          break;
        }
      }
      if (!match) {
        const allowed = onPath.flatMap((r) => r.endpoints.flatMap(({ endpoint }) => endpoint.methods)).join(', ');
        throw new HttpError(405, `${ctx.method} is not allowed on ${ctx.path}; use ${allowed}.`, { Allow: allowed });
      }
      const { endpoint } = match;
      const groups = match.compiled.pattern.exec(ctx.path)!.groups ?? {};
      const params = Object.fromEntries(Object.entries(groups).map(([name, value]) => [name, decodeSegment(value)]));

      let viewer: Viewer | null = null;
      if (endpoint.auth !== 'none') {
        const credentials = credentialsFromHeaders(ctx.req.headers);
        if (!credentials && endpoint.auth === 'key') throw new HttpError(401, 'Missing API key: send it in the x-api-key header.');
        const resolved = await keys.resolve(credentials);
        if (resolved === 'invalid') throw new HttpError(401, 'Invalid API key.');
        viewer = resolved;
        if (credentials) {
          const { prisma, dbKind } = contextFor(null);
          limiter ??= new SharedRateLimit(prisma, dbKind, config.tasks.apiRateLimit);
          const { allowed, retryAfter } = await limiter.count(hashApiKey(credentials.key));
          const limit = config.tasks.apiRateLimit;
          if (!allowed)
            throw new HttpError(429, `Rate limit of ${limit} requests per minute reached; retry in ${retryAfter} s.`, {
              'Retry-After': String(retryAfter),
            });
        }
      }

      const places = argsByPlace(endpoint);
      const req: TaskRequest = {
        params,
        query: checkQuery(ctx.query, places.query),
        body: Object.keys(places.body).length ? checkBody(await readJsonBody(ctx.req), places.body) : {},
        hasKey: viewer !== null,
        graphql: async (source, variables) => unwrap(await run(source, variables, contextFor(viewer)), logger),
      };
      send(ctx, await endpoint.handler(req));
    } catch (error) {
      if (error instanceof HttpError) {
        ctx.status = error.status;
        for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
        ctx.body = { success: false, error: error.message };
        return;
      }
      const fault = databaseFault(error);
      if (fault) {
        noteFault(ctx.state, fault);
        ctx.status = 503;
        ctx.set(retryAfter(fault));
        ctx.body = { success: false, error: fault.message };
        return;
      }
      logger.error({ requestId: ctx.state.requestId, err: error }, 'task API failed');
      ctx.status = 500;
      ctx.body = { success: false, error: 'Internal server error.' };
    }
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `Malformed path segment "${segment}".`);
  }
}

function send(ctx: Parameters<Middleware>[0], result: RestResult): void {
  ctx.status = result.status;
  // Headers first: a Buffer body then keeps its Content-Type.
  for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
  ctx.body = result.body;
}
