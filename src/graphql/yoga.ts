// graphql-yoga serves /graphql (GraphiQL on GET from a browser, assets inline: no CDN).
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga } from 'graphql-yoga';
import type { Config } from '../config.js';
import type { GraphQLContext } from './context.js';
import { schema } from './schema.js';

export interface YogaServerContext {
  /** Built by the Koa layer (viewer resolved from the API key). */
  graphqlContext: GraphQLContext;
}

export function createGraphQLServer(config: Config) {
  return createYoga<YogaServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    maskedErrors: true,
    renderGraphiQL,
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
    ],
  });
}
