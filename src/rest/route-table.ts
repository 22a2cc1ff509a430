// The one declarative description of a REST API, in the shape of WordPress's register_rest_route:
// each route is a path regex with endpoints (methods, args, permission, handler, OpenAPI bits).
// The router, validation/coercion, the namespace index and /doc are all derived from it.
import type { IncomingHttpHeaders } from 'node:http';
import type { ExecutionResult } from 'graphql';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { OperationOptions } from '../graphql/context.js';
import type { ArgErrorShape } from './errors.js';
import type { GraphQLData } from '../graphql/execute.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// WP_REST_Server's method groups.
export const READABLE: readonly HttpMethod[] = ['GET'];
export const CREATABLE: readonly HttpMethod[] = ['POST'];
export const EDITABLE: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH'];
export const DELETABLE: readonly HttpMethod[] = ['DELETE'];

export type JsonType = 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'null';

/** JSON-schema keywords WordPress understands; those present are copied into the namespace index. */
export interface ArgSchema {
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  format?: string;
  enum?: readonly unknown[];
  items?: ArgSchema;
  properties?: Record<string, ArgSchema & { required?: boolean }>;
  additionalProperties?: boolean | ArgSchema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

/** true/undefined pass; false → "Invalid parameter."; an error object → its message + details. */
export type ValidateResult = boolean | void | ArgErrorShape;

/**
 * One argument. Key ORDER matters: the index lists the schema keywords in declaration order, then
 * `required` (TEC writes e.g. `{default, description, type}` for `page`, `{type, description}` elsewhere).
 */
export interface ArgSpec extends ArgSchema {
  /** Injected when absent (and then validated and sanitized like a sent value). A function is
   *  evaluated per request (e.g. `(req) => String(req.config.postsPerPage)`). `null` is listed in
   *  the index but never injected, as in WP. */
  default?: unknown;
  required?: boolean;
  /** WP validate_callback: runs on the raw value of every declared arg that is not null. */
  validate?: (value: unknown, req: RestRequest, name: string) => ValidateResult | Promise<ValidateResult>;
  /** WP sanitize_callback. A function replaces the JSON-schema type check and coercion (spec 0.3
   *  step 4); `false` disables both. Return (or throw) an ArgError to reject the value. */
  sanitize?: false | ((value: unknown, req: RestRequest, name: string) => unknown);
  // Documentation-only keys (TEC's swagger keys); never shown in the index.
  in?: string;
  swaggerType?: string;
  collectionFormat?: 'csv';
}

export type Args = Record<string, ArgSpec>;

export type OpenApiMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** How an endpoint appears in /doc. Arg lists name args of the endpoint, or give specs directly
 *  (e.g. the same CREATE_ARGS object the endpoint's args are built from). */
export interface OperationDoc {
  /** OpenAPI operation key; default: the endpoint's first method in lower case. */
  operation?: OpenApiMethod;
  summary?: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  /** `parameters` (TEC swaggerize_args); default: all the endpoint's args. */
  parameters?: readonly string[] | Args;
  /** `in` for parameters whose arg declares none; default 'query'. */
  in?: string;
  /** `requestBody` (TEC swaggerize_post_args). */
  requestBody?: { contentType?: string; args: readonly string[] | Args };
  responses: Record<string, unknown>;
}

export type PermissionResult = boolean | null | undefined | Error;

/** An endpoint. `Req` is what its callbacks are given: WordPress's request for the calendar API
 *  (the default), the task API's own for its envelope API (rest/tasks), the site's Koa context for
 *  its pages (site/routes.ts, which answer by writing to it: `Res` void). */
export interface Endpoint<Req = RestRequest, Res = RestResult> {
  methods: readonly HttpMethod[];
  args?: Args;
  /** false/null → rest_forbidden (401 anonymous, 403 authenticated); a thrown or returned RestError
   *  is the response. Absent = public. Also consulted for the `Allow` header. */
  permission?: (req: Req) => PermissionResult | Promise<PermissionResult>;
  handler: (req: Req) => Res | Promise<Res>;
  /** The permission callback answers from what the handler did (WP asks the callbacks again for the
   *  Allow header after dispatch): its answer before the handler is not reused for that header. */
  permissionAfterHandler?: boolean;
  /** Absent: the endpoint is not in /doc. */
  doc?: OperationDoc;
}

/** Any table's endpoint, whatever its request and answer. */
export type AnyEndpoint = Endpoint<never, unknown>;

export interface Route<E extends AnyEndpoint = Endpoint> {
  /** WP registration regex relative to the namespace, e.g. '/events/(?P<id>\\d+)'. */
  path: string;
  /** Args common to every endpoint, merged before each endpoint's own (register_rest_route 'args'). */
  args?: Args;
  endpoints: E[];
  /** OpenAPI path; default derived from `path` ('(?P<id>\\d+)' → '{id}'). */
  docPath?: string;
}

export type RouteTable = readonly Route[];

export interface RestResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Where each parameter came from, after coercion (WP's JSON, POST, GET, URL, defaults). */
export interface ParamSources {
  json: Record<string, unknown>;
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  url: Record<string, unknown>;
  defaults: Record<string, unknown>;
}

export interface RestRequest {
  /** Effective method (after `_method` / X-HTTP-Method-Override); 'HEAD' is served by GET endpoints. */
  readonly method: string;
  /** Path inside the namespace, decoded, without trailing slash: '/events/12' ('' for the root). */
  readonly path: string;
  readonly route: Route;
  readonly endpoint: Endpoint;
  /** Merged by precedence JSON → form body → query → path → defaults, skipping nulls; coerced once
   *  step 4 ran (validators see raw values here). */
  params: Record<string, unknown>;
  /** Same merge before coercion. */
  readonly raw: Record<string, unknown>;
  readonly sources: ParamSources;
  /** The request carried this parameter (in any source but the defaults), even as null. */
  has(name: string): boolean;
  readonly viewer: Viewer | null;
  /** The namespace the request came in on, e.g. 'tribe/events/v1'. */
  readonly namespace: string;
  /** '{siteUrl}{restRoot}/{namespace}', no trailing slash: build every URL of a response from it. */
  readonly namespaceUrl: string;
  readonly headers: IncomingHttpHeaders;
  readonly queryString: string;
  readonly protocol: string;
  readonly config: Config;
  /** namespaceUrl + path + PHP-encoded query (null/undefined values skipped). */
  url(path: string, query?: Record<string, unknown> | Array<[string, unknown]>): string;
  /** Runs a GraphQL operation in-process as this request's viewer (one context per request). */
  graphql<T = GraphQLData>(source: string, variables?: Record<string, unknown>): Promise<ExecutionResult<T>>;
  /** The private options of this request's operations (shared by them, filled in by resolvers). */
  readonly operationOptions: OperationOptions;
  /** Per-request memo shared by validators, permission and handler (e.g. a record loaded once). */
  readonly memo: Map<string, unknown>;
}

export function ok(body: unknown, headers?: Record<string, string>): RestResult {
  return { status: 200, body, headers };
}

export function created(body: unknown, headers?: Record<string, string>): RestResult {
  return { status: 201, body, headers };
}

/** An endpoint's args: the route's common args, then its own (WP's array_merge order). */
export function endpointArgs(route: Route<AnyEndpoint>, endpoint: AnyEndpoint): Args {
  return route.args ? { ...route.args, ...endpoint.args } : (endpoint.args ?? {});
}

/** '/events/(?P<id>\\d+)' → '/events/{id}' (WP get_data_for_route's rewrite). */
export function templatePath(path: string): string {
  return path.replace(/\(\?P<(\w+?)>.*?\)/g, '{$1}');
}

/** A route bound to one namespace: its index key and its anchored matcher. */
export interface CompiledRoute<E extends AnyEndpoint = Endpoint> {
  route: Route<E>;
  /** '/{namespace}' + the registration regex, e.g. '/tribe/events/v1/events/(?P<id>\\d+)'. */
  key: string;
  pattern: RegExp;
  endpoints: Array<{ endpoint: E; args: Args }>;
}

const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Binds a table to a namespace, checking the declarations once at start-up (fail loudly). Paths
 * match without regard to case, as WordPress's '@^route$@i' does, unless `caseSensitive`.
 */
export function compileRoutes<E extends AnyEndpoint>(
  routes: ReadonlyArray<Route<E>>,
  namespace: string,
  { caseSensitive = false } = {},
): CompiledRoute<E>[] {
  return routes.map((route) => {
    const trimmed = route.path.replace(/^\/+|\/+$/g, '');
    const prefix = namespace ? '/' + namespace : ''; // '' for a table of whole paths (the site)
    const key = prefix + (trimmed ? '/' + trimmed : '');
    // PCRE named groups (?P<name>…) are JS (?<name>…).
    const source = escapeRegex(prefix) + (trimmed ? '/' + trimmed.replace(/\(\?P</g, '(?<') : '');
    let pattern: RegExp;
    try {
      pattern = new RegExp(`^${source}$`, caseSensitive ? '' : 'i');
    } catch (error) {
      throw new Error(`route ${route.path}: invalid path regex (${(error as Error).message})`, { cause: error });
    }
    if (!route.endpoints.length) throw new Error(`route ${route.path}: no endpoints`);
    const endpoints = route.endpoints.map((endpoint) => {
      if (!endpoint.methods.length || endpoint.methods.some((m) => !METHODS.has(m))) {
        throw new Error(`route ${route.path}: endpoint methods must be among ${[...METHODS].join(', ')}`);
      }
      const args = endpointArgs(route, endpoint);
      for (const list of [endpoint.doc?.parameters, endpoint.doc?.requestBody?.args]) {
        if (!Array.isArray(list)) continue;
        const unknown = list.filter((name) => !Object.hasOwn(args, name));
        if (unknown.length) throw new Error(`route ${route.path}: doc names unknown args ${unknown.join(', ')}`);
      }
      return { endpoint, args };
    });
    return { route, key, pattern, endpoints };
  });
}

/** A route and endpoint that answer a path and method, with the path's named groups (undecoded). */
export interface RouteMatch<E extends AnyEndpoint = Endpoint> {
  compiled: CompiledRoute<E>;
  endpoint: E;
  args: Args;
  params: Record<string, string>;
}

/** The first route whose pattern matches and that has an endpoint for the method; HEAD is served
 *  by GET endpoints. A route without the method does not stop the search (WP goes on, then 404s). */
export function matchRoute<E extends AnyEndpoint>(
  routes: readonly CompiledRoute<E>[],
  path: string,
  method: string,
): RouteMatch<E> | undefined {
  const checked = (method === 'HEAD' ? 'GET' : method) as HttpMethod;
  for (const compiled of routes) {
    const m = compiled.pattern.exec(path);
    if (!m) continue;
    const hit = compiled.endpoints.find(({ endpoint }) => endpoint.methods.includes(checked));
    if (!hit) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(m.groups ?? {})) if (value !== undefined) params[name] = value;
    return { compiled, endpoint: hit.endpoint, args: hit.args, params };
  }
  return undefined;
}

/** The methods of the routes whose pattern matches the path (for a 405's Allow); [] when none does. */
export function methodsOnPath(routes: readonly CompiledRoute<AnyEndpoint>[], path: string): HttpMethod[] {
  const methods = routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.endpoints.flatMap(({ endpoint }) => endpoint.methods));
  return [...new Set(methods)];
}
