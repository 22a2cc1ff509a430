// The site's rows in the route-table format (rest/route-table.ts): a path, the methods, and a
// handler that writes the page (or feed) to the Koa context. The site's router (routes.ts) matches
// them with the same compiler and matcher as the APIs.
import type { Context } from 'koa';
import { READABLE, type Endpoint, type Route } from '../rest/route-table.js';

export interface SitePage {
  ctx: Context;
  /** The path's named groups, not decoded (a handler decodes what it uses; a bad escape is a 404). */
  params: Record<string, string>;
}

export type SiteEndpoint = Endpoint<SitePage, void>;
export type SiteRoute = Route<SiteEndpoint>;

/** A page at `path` (a registration regex from the root): GET and HEAD, and POST where a form
 *  posts to it (the password of a protected event). */
export function page(path: string, handler: (page: SitePage) => Promise<void>, { post = false } = {}): SiteRoute {
  return { path, endpoints: [{ methods: post ? ['GET', 'POST'] : READABLE, handler }] };
}
