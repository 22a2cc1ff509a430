// GraphQL over WebSocket (the graphql-transport-ws protocol of `graphql-ws`), beside server-sent
// events, on the same path (/graphql): the clients that subscribe this way (Apollo's GraphQLWsLink,
// urql, graphql-ws itself) need nothing else. The API key comes in the connection's payload
// (`{"x-api-key": "…"}` or `authorization`) or the upgrade request's headers; a wrong key closes
// the connection (4403). Operations run through a yoga envelope of their own: the same schema,
// limits and context, without the response cache (which works on HTTP requests only).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { useServer } from 'graphql-ws/use/ws';
import type { ExecutionArgs } from 'graphql';
import { WebSocketServer } from 'ws';
import { credentialsFromHeaders, type ApiKeyResolver } from '../auth/api-keys.js';
import type { Viewer } from '../auth/viewer.js';
import type { Database } from '../db/client.js';
import type { Config } from '../config.js';
import { createContext } from './context.js';
import { createGraphQLServer } from './yoga.js';

interface Envelope {
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
}

export function serveGraphQLOverWebSocket(deps: { keys: ApiKeyResolver; db: Database; config: Config }) {
  const { keys, db, config } = deps;
  const yoga = createGraphQLServer({ ...config, responseCache: false });
  // The server routes upgrades by path (src/server.ts): /graphql comes here.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: config.graphql.maxBytes });
  const viewers = new WeakMap<object, Viewer | null>();
  const disposable = useServer(
    {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- envelop's execute result, which graphql-ws types as its own ExecutionResult
      execute: (args) => (args.rootValue as Envelope).execute(args) as any,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above, for subscriptions
      subscribe: (args) => (args.rootValue as Envelope).subscribe(args) as any,
      onConnect: async (ctx) => {
        const params = (ctx.connectionParams ?? {}) as Record<string, unknown>;
        const fromParams = Object.fromEntries(
          Object.entries(params).map(([k, v]) => [k.toLowerCase(), typeof v === 'string' ? v : undefined]),
        );
        const credentials = credentialsFromHeaders(fromParams) ?? credentialsFromHeaders(ctx.extra.request.headers);
        const viewer = await keys.resolve(credentials);
        if (viewer === 'invalid') return false; // closes with 4403 Forbidden
        viewers.set(ctx, viewer);
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const graphqlContext = createContext(db, config, viewers.get(ctx) ?? null);
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          graphqlContext,
          params: payload,
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- yoga's server context for getEnveloped, typed for its HTTP requests
        } as any);
        // The limits refuse a document by throwing from parse or validate: an error result, not a dropped socket.
        let document;
        try {
          document = parse(payload.query);
          const errors = validate(schema, document);
          if (errors.length) return errors;
        } catch (error) {
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a limit's error, thrown as a GraphQLError, which graphql-ws sends as such
          return [error as any];
        }
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
      },
    },
    sockets,
  );
  return {
    path: yoga.graphqlEndpoint,
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req));
    },
    async close() {
      for (const client of sockets.clients) client.terminate();
      await disposable.dispose();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}
