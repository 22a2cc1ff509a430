// The Koa app: request id + access log, an error boundary, health, and the mounted services.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Koa from 'koa';
import Router from '@koa/router';
import { ApiKeyResolver, credentialsFromHeaders } from './auth/api-keys.js';
import type { Viewer } from './auth/viewer.js';
import type { Config } from './config.js';
import { calendarVersion } from './calendar/list-totals.js';
import { consoleRoute, staticPageRoutes } from './console/serve.js';
import { manageRoute } from './manage/serve.js';
import type { Database } from './db/client.js';
import { databaseFault, type DatabaseUnavailable } from './db/faults.js';
import { createContext } from './graphql/context.js';
import { createOperationRunner } from './graphql/execute.js';
import { schema } from './graphql/schema.js';
import { GRAPHIQL_ASSET_PATH, graphiqlAsset } from './graphql/graphiql.js';
import { keptGraphQLAnswers, type KeptRequest } from './graphql/kept-answers.js';
import { createGraphQLServer } from './graphql/yoga.js';
import { corsPolicy } from './http/cors.js';
import { sendFile } from './http/static-files.js';
import type { Logger } from './http/logger.js';
import { faultFields, noteFault, retryAfter, type FaultNote } from './http/unavailable.js';
import { calendarOperationOptions, calendarTable, docInfo } from './rest/calendar/index.js';
import { databaseUnavailable } from './rest/errors.js';
import { calendarOpenApi } from './rest/calendar/openapi.js';
import { restRouter } from './rest/router.js';
import { createTaskApi } from './rest/tasks/router.js';
import { siteRoutes } from './site/routes.js';
import { apiKeyRateLimit } from './tasks/rate-limit.js';

export interface AppState extends FaultNote {
  requestId: string;
  /** Set once the request's credentials were looked at: a viewer, anonymous (null) or a bad key. */
  viewer?: Viewer | null | 'invalid';
}

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

export function createApp({ config, db, logger }: AppDeps) {
  const app = new Koa<AppState>();
  app.proxy = true;
  const keys = new ApiKeyResolver(db.prisma);
  const yoga = createGraphQLServer(config);

  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    ctx.state.requestId = ctx.get('x-request-id') || randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      await next();
    } catch (error) {
      const fault = databaseFault(error);
      if (fault) {
        // The database's fault, met outside the APIs' own error handling: 503 all the same.
        noteFault(ctx.state, fault);
        ctx.status = 503;
        ctx.set(retryAfter(fault));
        ctx.body = databaseUnavailable(fault.message).toBody();
      } else {
        // Anything unexpected is a 500 with no internals; the log has the details.
        logger.error({ requestId: ctx.state.requestId, err: error }, 'unhandled error');
        ctx.status = 500;
        ctx.body = { code: 'internal_error', message: 'Internal server error.', data: { status: 500 } };
      }
    } finally {
      // A database fault is one line of its own, whichever API answered it (src/http/unavailable.ts).
      const fault = ctx.state.databaseFault;
      if (fault) logger.error({ requestId: ctx.state.requestId, ...faultFields(fault) }, 'database unavailable');
      logger.info({
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      });
    }
  });

  // Errors Koa reports after an answer started, such as a client leaving a subscription's event
  // stream: to the log (not stderr), and only at debug level when the client simply went away.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (['EPIPE', 'ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE'].includes(err?.code ?? '')) logger.debug({ err }, 'client went away');
    else logger.error({ err }, 'response failed');
  });

  app.use(corsPolicy(config.corsOrigins));

  const router = new Router();
  router.get('/healthz', async (ctx) => {
    try {
      await db.prisma.$queryRawUnsafe('SELECT 1');
      ctx.body = { status: 'ok', database: db.kind };
    } catch (error) {
      const fault = databaseFault(error);
      ctx.status = 503;
      if (fault) ctx.set(retryAfter(fault));
      ctx.body = { status: 'unavailable', database: db.kind };
    }
  });

  // The calendar REST API for client generators (OpenAPI 3.1); /doc stays the original's document.
  let calendarApiDoc: string | undefined;
  router.get('/openapi/calendar.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = calendarApiDoc ??= JSON.stringify(calendarOpenApi(config));
  });

  // GraphiQL's asset files: named by their content, so cached for good; compressed when the browser accepts it.
  router.get(`${GRAPHIQL_ASSET_PATH}:file`, async (ctx) => {
    let asset = graphiqlAsset(ctx.params.file);
    if (!asset) {
      // Not rendered by this process yet (a page from before a restart): render it, then look again.
      await yoga.fetch('http://localhost/graphql', { headers: { accept: 'text/html' } });
      asset = graphiqlAsset(ctx.params.file);
    }
    sendFile(ctx, asset ?? undefined, { immutable: true });
  });

  const keptAnswers = config.responseCache ? keptGraphQLAnswers(() => calendarVersion(db.prisma)) : undefined;
  router.all('/graphql', async (ctx) => {
    // A body over the limit is refused before anything reads or parses it.
    if (Number(ctx.get('content-length') || 0) > config.graphql.maxBytes) {
      ctx.status = 413;
      ctx.body = {
        errors: [
          {
            message: `The request body is larger than ${config.graphql.maxBytes} bytes (GRAPHQL_MAX_BYTES).`,
            extensions: { code: 'PAYLOAD_TOO_LARGE' },
          },
        ],
      };
      return;
    }
    let viewer: Viewer | null | 'invalid';
    let kept: KeptRequest | undefined;
    try {
      viewer = await keys.resolve(credentialsFromHeaders(ctx.req.headers));
      if (viewer !== 'invalid') kept = await keptAnswers?.lookup(ctx, viewer?.userId ?? null);
    } catch (error) {
      // The database, read before GraphQL runs (the key, the data version): answered as GraphQL would.
      const fault = databaseFault(error);
      if (!fault) throw error;
      noteFault(ctx.state, fault);
      ctx.status = 503;
      ctx.set(retryAfter(fault));
      ctx.body = { errors: [{ message: fault.message, extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: fault.retryAfterSeconds } }] };
      return;
    }
    if (viewer === 'invalid') {
      ctx.status = 401;
      ctx.body = { errors: [{ message: 'Invalid API key.', extensions: { code: 'UNAUTHENTICATED' } }] };
      return;
    }
    if (kept && keptAnswers!.serve(ctx, kept)) return;
    const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, {
      graphqlContext: { ...createContext(db, config, viewer), readVersion: kept?.version },
      onDatabaseFault: (fault: DatabaseUnavailable) => noteFault(ctx.state, fault),
    });
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.append(key, value));
    // Subscriptions answer with server-sent events: streamed as they come; a client that leaves
    // ends the stream, and with it the subscription (not an error worth logging).
    if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
      ctx.respond = false;
      ctx.res.writeHead(response.status);
      pipeline(Readable.from(response.body as unknown as AsyncIterable<Uint8Array>), ctx.res).catch(() => undefined);
      return;
    }
    if (response.status === 204 || !response.body) {
      // An empty body keeps yoga's status (a null body would make Koa answer 204 instead of, say, 406).
      ctx.body = response.status === 204 ? null : '';
      return;
    }
    const body = Buffer.from(await response.arrayBuffer());
    if (keptAnswers) keptAnswers.send(ctx, kept, response, body);
    else ctx.body = body;
  });

  app.use(router.routes());
  // 405/501 for this router's own paths only (/healthz, /graphql). On any other path the service
  // that owns it answers, whatever the method: a REST 404 rest_no_route must not become a 501.
  const allowedMethods = router.allowedMethods() as unknown as Koa.Middleware<AppState>;
  app.use((ctx, next) => ((ctx as { matched?: unknown[] }).matched?.length ? allowedMethods(ctx, next) : next()));
  // The Events Calendar REST API v1, under every configured namespace, translated onto GraphQL.
  const runner = createOperationRunner(schema);
  const resolveViewer = (ctx: Koa.Context) => keys.resolve(credentialsFromHeaders(ctx.req.headers));
  const calendarContext = (viewer: Viewer | null) => createContext(db, config, viewer);
  app.use(
    restRouter({
      table: calendarTable,
      docInfo,
      config,
      resolveViewer,
      runner,
      context: calendarContext,
      operationOptions: calendarOperationOptions,
      cacheVersion: config.responseCache ? () => calendarVersion(db.prisma) : undefined,
      logger,
    }),
  );
  // The public site: event pages, lists and archives, and their iCalendar feeds.
  app.use(siteRoutes({ config, runner, resolveViewer, context: calendarContext }));
  // The task API: the same runner and caller resolution, its own table's auth, limits and envelope.
  const perMinute = config.tasks.apiRateLimit;
  const rateLimit = apiKeyRateLimit(db, perMinute);
  const maxUploadBytes = config.tasks.maxUploadBytes;
  app.use(createTaskApi({ runner, context: calendarContext, resolveViewer, rateLimit, perMinute, maxUploadBytes, logger }));
  // The task console (/console) and the calendar editor (/manage, src/manage): static pages that
  // talk to /graphql.
  app.use(staticPageRoutes([consoleRoute(), manageRoute()]));
  return { app, keys };
}
