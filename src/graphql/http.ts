// GraphQL over HTTP as a table of the app's one router: /graphql (yoga, mounted as a request
// handler) and GraphiQL's asset files. What the table chooses: its caller (a bad key is a 401
// before anything runs), a body limit checked before anything is read, kept answers of reads, and
// errors in GraphQL's shape ({errors: [{message, extensions: {code}}]}).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { DatabaseUnavailable } from '../db/faults.js';
import { throttledMessage, type Authenticate, type CallerRefusal } from '../http/caller.js';
import { page, pageTable, type PageErrors } from '../http/page-route.js';
import { writeAnswer, type Table } from '../http/router.js';
import { sendFile } from '../http/static-files.js';
import { noteFault, type FaultNote } from '../http/unavailable.js';
import { RestError } from '../rest/errors.js';
import { escapeRegex } from '../rest/route-table.js';
import { createContext } from './context.js';
import { GRAPHIQL_ASSET_PATH, graphiqlAsset } from './graphiql.js';
import type { KeptAnswers } from './kept-answers.js';
import type { createGraphQLServer } from './yoga.js';

export interface GraphQLTableOptions {
  config: Config;
  db: Database;
  yoga: ReturnType<typeof createGraphQLServer>;
  authenticate: Authenticate;
  /** Kept answers of reads, while the calendar's data version stays the same (RESPONSE_CACHE). */
  keptAnswers?: KeptAnswers;
}

const graphqlError = (code: string, message: string, status: number, headers: Record<string, string> = {}) =>
  new RestError(code, message, status, {}, {}, headers);
const refuseCaller = (reason: CallerRefusal, retryAfter = 0) =>
  reason === 'throttled'
    ? graphqlError('RATE_LIMITED', throttledMessage(retryAfter), 429, { 'Retry-After': String(retryAfter) })
    : graphqlError('UNAUTHENTICATED', 'Invalid API key.', 401);

/** An error before GraphQL runs, as GraphQL would answer it (a database fault says when to retry). */
const graphqlErrors = (ctx: Context): PageErrors => ({
  envelope: {
    render(error) {
      const unavailable = error.status === 503;
      const code = unavailable ? 'SERVICE_UNAVAILABLE' : error.code;
      const extensions = unavailable ? { code, retryAfter: Number(error.headers['Retry-After']) } : { code };
      return { errors: [{ message: error.message, extensions }] };
    },
    internal: () => graphqlError('INTERNAL_SERVER_ERROR', 'Unexpected error.', 500),
  },
  send: (answer) => writeAnswer(ctx, answer),
});

export function graphqlTable({ config, db, yoga, authenticate, keptAnswers }: GraphQLTableOptions): Table {
  // GraphiQL's asset files: named by their content, so cached for good; compressed when the browser accepts it.
  const graphiqlAssets = page(`${escapeRegex(GRAPHIQL_ASSET_PATH)}(?P<file>[^/]+)`, async ({ ctx, params }) => {
    let asset = graphiqlAsset(params.file);
    if (!asset) {
      // Not rendered by this process yet (a page from before a restart): render it, then look again.
      await yoga.fetch('http://localhost/graphql', { headers: { accept: 'text/html' } });
      asset = graphiqlAsset(params.file);
    }
    sendFile(ctx, asset ?? undefined, { immutable: true });
  });

  // GraphQL over HTTP takes GET and POST (yoga answers a HEAD); a trailing slash is the same endpoint.
  const endpoint = page(
    '/graphql/?',
    async ({ ctx }) => {
      // A body over the limit is refused before anything reads or parses it.
      if (Number(ctx.get('content-length') || 0) > config.graphql.maxBytes) {
        throw graphqlError(
          'PAYLOAD_TOO_LARGE',
          `The request body is larger than ${config.graphql.maxBytes} bytes (GRAPHQL_MAX_BYTES).`,
          413,
        );
      }
      const viewer = await authenticate(ctx, { refuse: refuseCaller });
      const kept = await keptAnswers?.lookup(ctx, viewer?.userId ?? null);
      if (kept && keptAnswers!.serve(ctx, kept)) return;
      const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, {
        graphqlContext: { ...createContext(db, config, viewer), readVersion: kept?.version },
        onDatabaseFault: (fault: DatabaseUnavailable) => noteFault(ctx.state as FaultNote, fault),
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
    },
    ['GET', 'POST'],
  );

  return pageTable('GraphQL', [endpoint, graphiqlAssets], graphqlErrors, {
    refuseMethod: (allow) => graphqlError('METHOD_NOT_ALLOWED', `Use ${allow}.`, 405, { Allow: allow }),
  });
}
