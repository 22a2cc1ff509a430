// The Koa app: request id + access log, an error boundary, CORS, and the one router serving every table.
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { ApiKeyResolver, credentialsFromHeaders } from './auth/api-keys.js';
import { FailedSignIns } from './auth/failed-sign-ins.js';
import type { Viewer } from './auth/viewer.js';
import type { Config } from './config.js';
import { calendarVersion } from './calendar/list-totals.js';
import { consoleRoute } from './console/serve.js';
import { manageRoute } from './manage/serve.js';
import type { Database } from './db/client.js';
import { databaseFault } from './db/faults.js';
import { createContext } from './graphql/context.js';
import { createOperationRunner } from './graphql/execute.js';
import { mcpHttp } from './mcp/http.js';
import { graphqlTable } from './graphql/http.js';
import { keptGraphQLAnswers } from './graphql/kept-answers.js';
import { schema } from './graphql/schema.js';
import { createGraphQLServer } from './graphql/yoga.js';
import { authenticator } from './http/caller.js';
import { corsPolicy } from './http/cors.js';
import type { Logger } from './http/logger.js';
import { page, pageTable, plainErrors } from './http/page-route.js';
import { serveTables, type Table } from './http/router.js';
import { faultFields, noteFault, retryAfter, type FaultNote } from './http/unavailable.js';
import { calendarOperationOptions, calendarTable, docInfo } from './rest/calendar/index.js';
import { databaseUnavailable } from './rest/errors.js';
import { calendarOpenApi } from './rest/calendar/openapi.js';
import { restTable } from './rest/router.js';
import { taskApiTable } from './rest/tasks/router.js';
import { siteTable } from './site/routes.js';
import { apiKeyRateLimit } from './tasks/rate-limit.js';

export interface AppState extends FaultNote {
  requestId: string;
}

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

export async function createApp({ config, db, logger }: AppDeps) {
  const app = new Koa<AppState>();
  app.proxy = true;
  const keys = new ApiKeyResolver(db.prisma);

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

  // Every route is a row of a table, and one router serves them all (src/http/router.ts): each
  // table chooses its caller rule, arguments, error envelope and encoding.
  const failedSignIns = new FailedSignIns(db.prisma, db.kind, config.authFailuresPerMinute);
  const authenticate = authenticator(
    (ctx) => keys.resolve(credentialsFromHeaders(ctx.req.headers)),
    (address) => failedSignIns.failed(address),
  );
  const runner = createOperationRunner(schema);
  const calendarContext = (viewer: Viewer | null) => createContext(db, config, viewer);
  const perMinute = config.tasks.apiRateLimit;
  // MCP (src/mcp): the same runner, contexts and caller resolution as the other tables.
  const mcp = mcpHttp({
    runner,
    context: calendarContext,
    logger,
    siteTimezone: config.siteTimezone,
    siteUrl: config.siteUrl,
    corsOrigins: config.corsOrigins,
    authenticate,
  });
  // ActivityPub (src/federation), when on: its paths, and event pages asked for activity+json.
  // Fedify and its vocabulary are ~60 MB of a process's resident memory: a calendar that does not
  // federate never loads them (the build splits dynamic imports into chunks of their own).
  const federationHttp = config.federation.enabled ? await import('./federation/http.js') : undefined;
  const federation = federationHttp && (await import('./federation/federation.js')).buildFederation({ prisma: db.prisma, config, logger });
  app.use(
    serveTables(
      [
        // The Events Calendar REST API v1, under every configured namespace, translated onto GraphQL.
        restTable({
          table: calendarTable,
          docInfo,
          config,
          authenticate,
          runner,
          context: calendarContext,
          operationOptions: calendarOperationOptions,
          cacheVersion: config.responseCache ? () => calendarVersion(db.prisma) : undefined,
        }),
        // GraphQL (yoga) and GraphiQL's assets.
        graphqlTable({
          config,
          db,
          yoga: createGraphQLServer(config),
          authenticate,
          keptAnswers: config.responseCache ? keptGraphQLAnswers(() => calendarVersion(db.prisma)) : undefined,
        }),
        appTable({ config, db }),
        // The MCP server's Streamable HTTP transport at /mcp.
        mcp.table,
        // The task API: the same runner and caller, its own auth rule, limits and envelope.
        taskApiTable({
          runner,
          context: calendarContext,
          authenticate,
          rateLimit: apiKeyRateLimit(db, perMinute),
          perMinute,
          maxUploadBytes: config.tasks.maxUploadBytes,
          logger,
        }),
        ...(federationHttp && federation
          ? [
              federationHttp.federationTable({
                prisma: db.prisma,
                kind: db.kind,
                perMinute: config.federation.requestsPerMinute,
                calendar: federation,
                logger,
              }),
            ]
          : []),
        // The public site: event pages, lists and archives, and their iCalendar feeds.
        siteTable({ config, runner, authenticate, context: calendarContext, dataVersion: () => calendarVersion(db.prisma) }),
        // The task console (/console) and the calendar editor (/manage, src/manage): static pages
        // that talk to /graphql.
        pageTable('static pages', [consoleRoute(), manageRoute()], plainErrors),
      ],
      logger,
    ),
  );
  return { app, keys, mcp, federation };
}

/** Health and the calendar API's OpenAPI document. */
function appTable({ config, db }: Pick<AppDeps, 'config' | 'db'>): Table {
  // The calendar REST API for client generators (OpenAPI 3.1); /doc stays the original's document.
  let calendarApiDoc: string | undefined;
  return pageTable(
    'app',
    [
      page('/healthz/?', async ({ ctx }) => {
        try {
          await db.prisma.$queryRawUnsafe('SELECT 1');
          ctx.body = { status: 'ok', database: db.kind };
        } catch (error) {
          const fault = databaseFault(error);
          ctx.status = 503;
          if (fault) ctx.set(retryAfter(fault));
          ctx.body = { status: 'unavailable', database: db.kind };
        }
      }),
      page(String.raw`/openapi/calendar\.json/?`, ({ ctx }) => {
        ctx.type = 'application/json';
        ctx.body = calendarApiDoc ??= JSON.stringify(calendarOpenApi(config));
      }),
    ],
    plainErrors,
  );
}
