// graphql-yoga serves /graphql (GraphiQL on GET from a browser, assets inline: no CDN).
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { createInMemoryCache, hashSHA256, useResponseCache } from '@graphql-yoga/plugin-response-cache';
import { createYoga } from 'graphql-yoga';
import { calendarVersion } from '../calendar/list-totals.js';
import type { Config } from '../config.js';
import type { GraphQLContext } from './context.js';
import { schema } from './schema.js';

export interface YogaServerContext {
  /** Built by the Koa layer (viewer resolved from the API key). */
  graphqlContext: GraphQLContext;
}

/** Types whose data the calendar's version does not follow: results holding them are never kept. */
const UNVERSIONED_TYPES = ['Task', 'TaskPage', 'TaskRun', 'TaskRunPage', 'TaskRunMedia', 'TaskRecording', 'TaskStep', 'ToolCall', 'ApiKey', 'NewApiKey'];

export function createGraphQLServer(config: Config) {
  return createYoga<YogaServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    cors: false, // the app's one cross-origin policy applies (src/http/cors.ts)
    logging: false,
    maskedErrors: true,
    // GraphiQL's page (~30 MB of strings once loaded) is loaded on its first visit, not at start.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    graphiql: { title: 'Almanac GraphQL', defaultQuery: 'query {\n  events {\n    total\n    items { id title startDate venue { name } }\n  }\n}\n' },
    context: ({ graphqlContext }) => graphqlContext,
    plugins: [
      // Bounds on any one request so no single query can take the server down.
      EnvelopArmorPlugin({
        maxDepth: { n: config.graphql.maxDepth, ignoreIntrospection: true },
        costLimit: { maxCost: config.graphql.maxCost, ignoreIntrospection: true },
        maxAliases: { n: config.graphql.maxAliases },
        maxTokens: { n: config.graphql.maxTokens },
        maxDirectives: { n: 50 },
        blockFieldSuggestion: { enabled: false },
      }),
      ...(config.responseCache ? [responseCache()] : []),
    ],
  });
}

/**
 * Query results kept like REST answers (src/rest/response-cache.ts): the key holds the calendar's
 * data version (read before executing), the second, the caller and the request, so a kept result
 * is never stale.
 */
function responseCache() {
  return useResponseCache<YogaServerContext>({
    session: (_request, context) => (context.graphqlContext.viewer ? String(context.graphqlContext.viewer.userId) : null),
    cache: createInMemoryCache({ max: 200 }),
    ttl: 2_000, // keys move on every second anyway: let old entries go
    ignoredTypes: UNVERSIONED_TYPES,
    // Left on: besides dropping entries a mutation touched, it is what keeps mutations out of the cache.
    invalidateViaMutation: true,
    buildResponseCacheKey: async ({ documentString, variableValues, operationName, sessionId, context }) => {
      // The server context (built by the Koa layer) is there before the execution context is.
      const version = await calendarVersion((context as unknown as YogaServerContext).graphqlContext.prisma);
      const second = Math.floor(Date.now() / 1000);
      return hashSHA256([version, second, sessionId ?? '', operationName ?? '', documentString, JSON.stringify(variableValues ?? {})].join('\u0000'));
    },
  });
}
