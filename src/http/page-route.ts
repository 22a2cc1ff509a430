// Tables of whole paths, for what is not a JSON API: GraphQL and health, the site's pages and feeds,
// the console's and the editor's files. A row is a path, its methods and a handler that writes the
// answer to the Koa context. The tables share the path space: a path no row of one table has is
// left to the next; a row that has the path but not the method answers 405 with Allow.
import type { Context } from 'koa';
import type { ErrorEnvelope } from '../rest/error-answer.js';
import { RestError } from '../rest/errors.js';
import { compileRoutes, READABLE, type Endpoint, type HttpMethod, type Route } from '../rest/route-table.js';
import { etagOf, sendConditionally } from './response-cache.js';
import { allowedOn, writeAnswer, type Answer, type Table } from './router.js';

export interface PageRequest {
  ctx: Context;
  /** The path's named groups, not decoded (a handler decodes what it uses; a bad escape is a 404). */
  params: Record<string, string>;
}

export type PageEndpoint = Endpoint<PageRequest, void>;
export type PageRoute = Route<PageEndpoint>;

/** A row at `path` (a registration regex from the root): GET and HEAD unless other methods are
 *  given (the password form of a protected event also takes POST). */
export function page(
  path: string,
  handler: (page: PageRequest) => Promise<void> | void,
  methods: readonly HttpMethod[] = READABLE,
): PageRoute {
  return { path, endpoints: [{ methods, handler }] };
}

/** How a table of pages answers an error. */
export interface PageErrors {
  envelope: ErrorEnvelope;
  mapError?(error: unknown): RestError | undefined;
  send(answer: Answer): void;
}

const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** An error in plain text: the status and a line (the console's, the editor's and the app's files). */
export const plainErrors = (ctx: Context): PageErrors => ({
  envelope: { render: (error) => error.message, internal: () => new RestError('internal_error', 'Internal server error', 500) },
  send: (answer) => writeAnswer(ctx, answer, PLAIN_TEXT),
});

/** A 405's error, with its Allow. */
export const methodNotAllowed = (allow: string, message = 'Method not allowed') =>
  new RestError('method_not_allowed', message, 405, {}, {}, { Allow: allow });

export interface PageTableChoices {
  /** The error of a row that has the path but not the method (default: plain text). */
  refuseMethod?: (allow: string) => RestError;
  /** A read's 200 carries an ETag of its body, and a client that has that body gets a 304 (for
   *  the requests it is true of, when a function). */
  conditional?: boolean | ((ctx: Context) => boolean);
}

/** A table of whole paths (matched with case as written); `errors` chooses how it answers an error. */
export function pageTable(
  name: string,
  rows: readonly PageRoute[],
  errors: (ctx: Context) => PageErrors,
  { refuseMethod = methodNotAllowed, conditional = false }: PageTableChoices = {},
): Table<PageEndpoint> {
  const routes = compileRoutes(rows, '', { caseSensitive: true });
  return {
    name,
    claim(ctx) {
      // How the request answers an error is chosen only when one happens (rows write their answers).
      let chosen: PageErrors | undefined;
      const errorsOf = () => (chosen ??= errors(ctx));
      return {
        path: ctx.path,
        method: ctx.method,
        routes,
        get envelope() {
          return errorsOf().envelope;
        },
        mapError: (error) => errorsOf().mapError?.(error),
        send: (answer) => errorsOf().send(answer),
        unmatched() {
          const allow = allowedOn(routes, ctx.path, { head: true });
          return allow === undefined ? undefined : refuseMethod(allow);
        },
        async run({ endpoint, params }) {
          await endpoint.handler({ ctx, params });
          if (conditional === true || (conditional && conditional(ctx))) answerConditionally(ctx);
        },
      };
    },
  };
}

/** A read's 200 with a body of bytes or text: its ETag, or a 304 when the client has it. */
function answerConditionally(ctx: Context): void {
  if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200 || ctx.response.get('ETag')) return;
  const body = typeof ctx.body === 'string' ? Buffer.from(ctx.body) : ctx.body;
  if (!Buffer.isBuffer(body)) return;
  const type = ctx.response.get('Content-Type');
  sendConditionally(ctx, body, etagOf(body));
  ctx.type = type; // Koa would take a Buffer body for application/octet-stream
}
