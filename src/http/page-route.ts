// Rows in the route-table format (rest/route-table.ts) for what is not a JSON API: the site's pages
// and feeds, the console's and the editor's files. A row is a path, its methods and a handler that
// writes the answer to the Koa context; the tables are compiled and matched as the APIs' are.
import type { Context } from 'koa';
import { compileRoutes, matchRoute, methodsOnPath, READABLE, type CompiledRoute, type Endpoint, type Route } from '../rest/route-table.js';

export interface PageRequest {
  ctx: Context;
  /** The path's named groups, not decoded (a handler decodes what it uses; a bad escape is a 404). */
  params: Record<string, string>;
}

export type PageEndpoint = Endpoint<PageRequest, void>;
export type PageRoute = Route<PageEndpoint>;

/** A row at `path` (a registration regex from the root): GET and HEAD, and POST where a form posts
 *  to it (the password of a protected event). */
export function page(path: string, handler: (page: PageRequest) => Promise<void>, { post = false } = {}): PageRoute {
  return { path, endpoints: [{ methods: post ? ['GET', 'POST'] : READABLE, handler }] };
}

/** A table of whole paths (no namespace), matched with case as written. */
export const compilePages = (table: readonly PageRoute[]) => compileRoutes(table, '', { caseSensitive: true });

/** The request's row; or, when a row has the path but not the method, the Allow of a 405; or
 *  undefined when no row has the path (the next middleware's). */
export function findPage(
  routes: readonly CompiledRoute<PageEndpoint>[],
  ctx: Context,
): { run(): Promise<void> } | { allow: string } | undefined {
  const match = matchRoute(routes, ctx.path, ctx.method);
  if (match) return { run: async () => match.endpoint.handler({ ctx, params: match.params }) };
  const methods = methodsOnPath(routes, ctx.path);
  if (!methods.length) return undefined;
  return { allow: methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])).join(', ') };
}
