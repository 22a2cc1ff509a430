// graphql-yoga serves /graphql (GraphiQL on GET from a browser, assets inline: no CDN).
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError, getNamedType, getOperationAST } from 'graphql';
import { createHash } from 'node:crypto';
import { createInMemoryCache, useResponseCache } from '@graphql-yoga/plugin-response-cache';
import { createGraphQLError, createYoga, isAsyncIterable, maskError, type Plugin } from 'graphql-yoga';
import { calendarVersion } from '../calendar/list-totals.js';
import type { Config } from '../config.js';
import { databaseFault, type DatabaseUnavailable } from '../db/faults.js';
import { compiledOnRepeat } from './compiled.js';
import type { GraphQLContext } from './context.js';
import { AppError, asApiError } from './errors.js';
import { externalizeGraphiQL } from './graphiql.js';
import { usePersistedQueries } from './persisted-queries.js';
import { schema } from './schema.js';

export interface YogaServerContext {
  /** Built by the Koa layer (viewer resolved from the API key). */
  graphqlContext: GraphQLContext;
  /** Told of the database fault an operation met, if any (the app logs it with the request). */
  onDatabaseFault?: (fault: DatabaseUnavailable) => void;
}

/** Types whose data the calendar's version does not follow: results holding them are never kept. */
const UNVERSIONED_TYPES = [
  'Task',
  'TaskPage',
  'TaskRun',
  'TaskRunPage',
  'TaskRunMedia',
  'TaskRecording',
  'TaskStep',
  'ToolCall',
  'TaskSchedule',
  'TaskScheduleOccurrence',
  'ApiKey',
  'NewApiKey',
  'SavedTool',
  'ImportJob',
  'CalendarSource',
  'CalendarSourceRun',
  // The federation's followers and deliveries change without a calendar write (src/federation).
  'Federation',
  'FederationFollowers',
  'FederationFollower',
  'FederationDelivery',
];

/**
 * The root fields that answer unversioned types, never kept: the plugin skips a result by the types
 * of the objects it holds, and an empty list holds none (a source list read just before a source was
 * created was answered empty again within the same second).
 */
function unversionedRootFields(): Record<string, number> {
  const never: Record<string, number> = {};
  for (const root of [schema.getQueryType(), schema.getSubscriptionType()]) {
    for (const [name, field] of Object.entries(root?.getFields() ?? {})) {
      if (UNVERSIONED_TYPES.includes(getNamedType(field.type).name)) never[`${root!.name}.${name}`] = 0;
    }
  }
  return never;
}

const graphiqlPages = new Map<string, string>();

export function createGraphQLServer(config: Config) {
  return createYoga<YogaServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    cors: false, // the app's one cross-origin policy applies (src/http/cors.ts)
    logging: false,
    // Domain errors and database faults are reported with their codes (a fault's AppError keeps the
    // fault as its original error, for the log, which yoga's masking would take for a bug); any
    // other error is masked.
    maskedErrors: {
      maskError: (error, message, isDev) => {
        const reported = asApiError(error);
        return reported instanceof AppError ? reported : maskError(reported, message, isDev);
      },
    },
    // GraphiQL's page (~30 MB of strings once loaded) is loaded on its first visit, not at start,
    // and served as a small page with cacheable asset files (src/graphql/graphiql.ts).
    renderGraphiQL: async (options) => {
      const key = JSON.stringify(options ?? {});
      let page = graphiqlPages.get(key);
      if (!page)
        graphiqlPages.set(key, (page = externalizeGraphiQL((await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options))));
      return page;
    },
    graphiql: {
      title: 'Almanac GraphQL',
      defaultQuery: 'query {\n  events {\n    total\n    items { id title startDate venue { name } }\n  }\n}\n',
    },
    // A JSON array of operations runs each one (Apollo's BatchHttpLink), at most GRAPHQL_MAX_BATCH;
    // the bounds below apply to each operation, and GRAPHQL_MAX_BYTES to the whole body.
    batching: { limit: config.graphql.maxBatch },
    // Each operation of a batch gets its own loaders and unlocks (the viewer is the request's).
    context: ({ graphqlContext }) => ({ ...graphqlContext, cache: new Map(), unlocks: new Map() }),
    plugins: [
      usePersistedQueries(),
      // Bounds on any one request so no single query can take the server down.
      EnvelopArmorPlugin({
        maxDepth: { n: config.graphql.maxDepth, ignoreIntrospection: true, ...coded('depth') },
        costLimit: { maxCost: config.graphql.maxCost, ignoreIntrospection: true, ...coded('cost') },
        maxAliases: { n: config.graphql.maxAliases, ...coded('aliases') },
        maxTokens: { n: config.graphql.maxTokens, ...coded('tokens') },
        maxDirectives: { n: 50, ...coded('directives') },
        blockFieldSuggestion: { enabled: false },
      }),
      unreadableRequestsAre400,
      databaseFaultsAre503,
      compiledOnRepeat(),
      ...(config.responseCache ? [serializeOnce, responseCache()] : []),
    ],
  });
}

/**
 * graphql-armor refuses a request over a bound with an error that has no code: like every other
 * error it gets one, QUERY_TOO_COMPLEX, and `extensions.limit` says which bound (depth, cost…).
 */
const coded = (limit: string) => ({
  onReject: [(_context: unknown, error: GraphQLError) => void Object.assign(error.extensions, { code: 'QUERY_TOO_COMPLEX', limit })],
});

/**
 * Yoga's request parsers throw plain errors on some malformed requests (JSON that does not parse in
 * a GET's or a form's `variables` or `extensions`, a multipart `map` of the wrong shape), which it
 * answers 500. Reading a request fails only on what the client sent: 400 BAD_REQUEST.
 */
const unreadableRequestsAre400: Plugin = {
  onRequestParse({ requestParser, setRequestParser }) {
    if (!requestParser) return;
    setRequestParser((request) =>
      Promise.resolve()
        .then(() => requestParser(request))
        .catch((error: unknown) => {
          if (error instanceof GraphQLError) throw error;
          throw createGraphQLError(`The request could not be read: ${(error as Error)?.message ?? error}`, {
            extensions: { http: { status: 400 }, code: 'BAD_REQUEST' },
          });
        }),
    );
  },
};

/**
 * An operation that met a database fault (SERVICE_UNAVAILABLE, src/graphql/errors.ts) tells the
 * server context, and answers 503 when it produced no data at all; its errors bring Retry-After.
 * One that produced some data answers 200 as any partial result, its failed fields
 * SERVICE_UNAVAILABLE. A batch answers 200: its operations fared each their own way.
 */
const databaseFaultsAre503: Plugin<Record<string, unknown>, YogaServerContext> = {
  onResultProcess({ result, serverContext }) {
    if (isAsyncIterable(result)) return;
    for (const one of Array.isArray(result) ? result : [result]) {
      const fault = one.errors?.map(databaseFault).find((found) => found !== undefined);
      if (!fault) continue;
      serverContext.onDatabaseFault?.(fault);
      if (!Array.isArray(result) && (one.data == null || Object.values(one.data).every((value) => value === null)))
        one.extensions = { ...one.extensions, http: { ...one.extensions?.http, status: 503 } };
    }
  },
};

/**
 * A kept result is served many times: its JSON is written once. Yoga serializes a result with the
 * result's own `stringify` when it has one (a kept result is served as a copy of the kept object,
 * which carries the function and so the text). ~12% of a kept answer's CPU was this serialization.
 */
const serializeOnce: Plugin = {
  onExecute: () => ({
    onExecuteDone: ({ result }) => {
      if (isAsyncIterable(result) || result.errors?.length) return;
      let json: string | undefined;
      (result as { stringify?: (value: unknown) => string }).stringify = (value) => (json ??= JSON.stringify(value));
    },
  }),
};

/**
 * Query results kept like REST answers (src/rest/response-cache.ts): the key holds the calendar's
 * data version (read before executing), the second, the caller and the request, so a kept result
 * is never stale.
 */
function responseCache() {
  return afterValidation(
    useResponseCache<YogaServerContext>({
      session: (_request, context) => (context.graphqlContext.viewer ? String(context.graphqlContext.viewer.userId) : null),
      cache: createInMemoryCache({ max: 200 }),
      ttl: 2_000, // keys move on every second anyway: let old entries go
      ignoredTypes: UNVERSIONED_TYPES,
      ttlPerSchemaCoordinate: unversionedRootFields(),
      // Left on: besides dropping entries a mutation touched, it is what keeps mutations out of the cache.
      invalidateViaMutation: true,
      buildResponseCacheKey: async ({ documentString, variableValues, operationName, sessionId, context }) => {
        // The server context (built by the Koa layer) is there before the execution context is.
        const { readVersion, prisma } = context as unknown as GraphQLContext;
        const version = readVersion ?? (await calendarVersion(prisma));
        const second = Math.floor(Date.now() / 1000);
        // node:crypto rather than the plugin's hashSHA256 (WebCrypto, asynchronous): ~5% of a kept answer's CPU.
        return createHash('sha256')
          .update(
            [version, second, sessionId ?? '', operationName ?? '', documentString, JSON.stringify(variableValues ?? {})].join('\u0000'),
          )
          .digest('hex');
      },
    }),
  );
}

/**
 * Yoga's response cache computes its key (which reads the calendar's version: a SQL statement) as
 * soon as the request's parameters are known, before the document is parsed and validated. Deferred
 * here to the start of execution: a document the limits refuse (depth, cost, aliases, tokens) or that
 * does not validate never reaches the database. Both hooks see the same context object, which is how
 * the plugin itself carries its key from one to the other; a kept result is then served by its
 * execution hook, which runs after this one.
 */
function afterValidation(plugin: Plugin): Plugin {
  const computeKey = plugin.onParams!;
  const pending = new WeakMap<object, Parameters<typeof computeKey>[0]>();
  return {
    ...plugin,
    onParams: (payload) => void pending.set(payload.context, payload),
    onExecute: async ({ args }) => {
      const payload = pending.get(args.contextValue as object);
      if (!payload) return;
      // A query writes nothing, so the version its key holds also serves its lists and totals (one
      // statement, not two); a mutation's lists read the version after its writes.
      const context = args.contextValue as unknown as GraphQLContext;
      if (getOperationAST(args.document, args.operationName)?.operation === 'query')
        context.readVersion ??= await calendarVersion(context.prisma);
      await computeKey(payload);
    },
  };
}
