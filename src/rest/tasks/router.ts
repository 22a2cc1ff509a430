// The Koa middleware serving /api/v1 from the route table: match, authenticate, rate-limit, check
// arguments, run the route's GraphQL operation in-process, answer in the spec's envelope.
// Operations are validated at start-up; an error a client caused is never a 500.
import { parse, validate, type ExecutionResult } from 'graphql';
import type { Middleware } from 'koa';
import { hashApiKey, credentialsFromHeaders, type ApiKeyResolver } from '../../auth/api-keys.js';
import type { Viewer } from '../../auth/viewer.js';
import type { Config } from '../../config.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { errorCode } from '../../graphql/errors.js';
import { createOperationRunner } from '../../graphql/execute.js';
import { schema } from '../../graphql/schema.js';
import type { Logger } from '../../http/logger.js';
import { SharedRateLimit } from '../../tasks/rate-limit.js';
import { checkBody, checkQuery, HttpError, readJsonBody } from './http.js';
import { TASK_ROUTES, type Reply, type TaskRoute } from './routes.js';

export const API_PREFIX = '/api/v1';

const STATUS_OF_CODE: Record<string, number> = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 404,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
};

interface CompiledRoute {
  route: TaskRoute;
  pattern: RegExp;
  names: string[];
}

function compile(route: TaskRoute): CompiledRoute {
  const names: string[] = [];
  const source = (API_PREFIX + route.path)
    .split(/(:[A-Za-z]+)/)
    .map((part) => (part.startsWith(':') ? (names.push(part.slice(1)), '([^/]+?)') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { route, pattern: new RegExp(`^${source}$`), names };
}

/** The data of a GraphQL result, or the HttpError its first error stands for. */
function unwrap(result: ExecutionResult, logger: Logger): any {
  const error = result.errors?.[0];
  if (!error) return result.data;
  const code = errorCode(error);
  if (code && STATUS_OF_CODE[code]) throw new HttpError(STATUS_OF_CODE[code], error.message);
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
  for (const { operation } of TASK_ROUTES) {
    if (!operation) continue;
    const errors = validate(schema, parse(operation));
    if (errors.length) throw new Error(`task API: invalid operation: ${errors.map((e) => e.message).join('; ')}\n${operation}`);
  }
  const routes = TASK_ROUTES.map(compile);
  let limiter: SharedRateLimit | undefined;

  return async (ctx, next) => {
    if (ctx.path !== API_PREFIX && !ctx.path.startsWith(`${API_PREFIX}/`)) return next();
    try {
      const onPath = routes.filter((r) => r.pattern.test(ctx.path));
      if (!onPath.length) throw new HttpError(404, `No route ${ctx.method} ${ctx.path}.`);
      const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
      const match = onPath.find((r) => r.route.method === method);
      if (!match) {
        const allowed = onPath.map((r) => r.route.method).join(', ');
        throw new HttpError(405, `${ctx.method} is not allowed on ${ctx.path}; use ${allowed}.`, { Allow: allowed });
      }
      const { route } = match;
      const groups = match.pattern.exec(ctx.path)!.slice(1);
      const params = Object.fromEntries(match.names.map((name, i) => [name, decodeSegment(groups[i])]));

      let viewer: Viewer | null = null;
      if (route.auth !== 'none') {
        const credentials = credentialsFromHeaders(ctx.req.headers);
        if (!credentials && route.auth === 'key') throw new HttpError(401, 'Missing API key: send it in the x-api-key header.');
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

      const args = {
        params,
        query: checkQuery(ctx.query, route.query ?? {}),
        body: route.body ? checkBody(await readJsonBody(ctx.req), route.body) : {},
      };
      const context = () => contextFor(viewer);
      let reply: Reply;
      if (route.operation) {
        reply = route.reply!(unwrap(await run(route.operation, route.variables!(args), context()), logger), args);
      } else {
        const services = {
          hasKey: viewer !== null,
          query: async (source: string, variables: Record<string, unknown>) => unwrap(await run(source, variables, context()), logger),
        };
        reply = await route.handle!(args, services);
      }
      send(ctx, reply);
    } catch (error) {
      if (error instanceof HttpError) {
        ctx.status = error.status;
        for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
        ctx.body = { success: false, error: error.message };
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

function send(ctx: Parameters<Middleware>[0], reply: Reply): void {
  ctx.status = 200;
  if ('bytes' in reply) {
    ctx.type = reply.contentType;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = reply.bytes;
  } else if ('body' in reply) {
    ctx.body = reply.body;
  } else {
    ctx.body = { success: true, data: reply.data, ...reply.extra };
  }
}
