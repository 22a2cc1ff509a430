// Koa middleware serving a route table under `${restRoot}/${namespace}` for every configured
// namespace, the way WP_REST_Server::serve_request does: authentication, route match (404
// rest_no_route), body parsing, the processing pipeline, then WP's response headers.
import type Koa from 'koa';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { GraphQLContext, OperationOptions } from '../graphql/context.js';
import type { OperationRunner } from '../graphql/execute.js';
import { encodePhpJsonBytes } from './json.js';
import type { FaultNote } from '../http/unavailable.js';
import { errorAnswer, WP_ERROR_ENVELOPE } from './error-answer.js';
import { RestError, invalidCredentials, noRoute } from './errors.js';
import { apiRootLink, namespaceIndex, restRootUrl, routeData } from './namespace-index.js';
import { envelope, filterFields, rootIndex } from './wp-conventions.js';
import { openApiDocument, type DocInfo } from './openapi.js';
import { allowHeader, runPipeline } from './pipeline.js';
import { RestRequestImpl, effectiveMethod, parseBody, phpParseStr, readBody, restRoutePath } from './request.js';
import { ResponseCache, etagOf, sendConditionally, type CachedAnswer } from '../http/response-cache.js';
import {
  READABLE,
  compileRoutes,
  matchRoute,
  ok,
  type Args,
  type CompiledRoute,
  type Endpoint,
  type ParamSources,
  type RestRequest,
  type RestResult,
  type Route,
  type RouteTable,
} from './route-table.js';

export interface RestRouterOptions {
  table: RouteTable;
  /** Enables GET {ns}/doc; without it there is no /doc route. */
  docInfo?: DocInfo;
  config: Config;
  /** The caller: a viewer, null (anonymous) or 'invalid' (credentials that match nothing → 401). */
  resolveViewer: (ctx: Koa.Context) => Viewer | null | 'invalid' | Promise<Viewer | null | 'invalid'>;
  /** In-process GraphQL for `req.graphql`; `context` builds the per-request GraphQL context. */
  runner?: OperationRunner;
  context?: (viewer: Viewer | null) => GraphQLContext;
  /** The private options of this table's operations, made once per HTTP request (req.operationOptions). */
  operationOptions?: () => OperationOptions;
  /** Largest accepted body in bytes (413 beyond); default 2 MiB. */
  bodyLimit?: number;
  /** Send WP's `Allow` header (calls every endpoint's permission of the matched route); default true. */
  allowHeader?: boolean;
  /** Turns an unexpected exception (e.g. a GraphQL error) into a RestError; else it is a 500. */
  mapError?: (error: unknown, req: RestRequest | undefined) => RestError | undefined;
  /**
   * Keeps the answers of GET routes while this version (of the data they read) stays the same;
   * without it nothing is kept. Read routes must be pure functions of version, caller, URL and time.
   */
  cacheVersion?: () => Promise<number>;
  /** Where unexpected exceptions are reported (pino-compatible); default console.error. */
  logger?: { error(details: object, message?: string): void };
}

/** The namespace root and /doc, which WP/TEC register ahead of the table's routes. */
function builtinRoutes(docInfo: DocInfo | undefined, routesOf: (ns: string) => CompiledRoute[]): Route[] {
  const index: Route = {
    path: '',
    endpoints: [
      {
        methods: READABLE,
        args: { namespace: { default: (req: RestRequest) => req.namespace }, context: { default: 'view' } },
        handler: (req) => ok(namespaceIndex(routesOf(req.namespace), req)),
      },
    ],
  };
  if (!docInfo) return [index];
  const doc: Route = {
    path: '/doc',
    endpoints: [
      {
        methods: READABLE,
        handler: (req) => ok(openApiDocument(routesOf(req.namespace), docInfo, req)),
        doc: docInfo.docOperation ?? { responses: { '200': { description: 'Returns the OpenAPI documentation of this API.' } } },
      },
    ],
  };
  return [index, doc];
}

const NOCACHE = { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private' };

export function restRouter(options: RestRouterOptions): Koa.Middleware {
  const { config } = options;
  const bodyLimit = options.bodyLimit ?? 2 * 1024 * 1024;
  const logger = options.logger ?? { error: (details: object, message?: string) => console.error(message, details) };
  const compiled = new Map<string, CompiledRoute[]>();
  const routesOf = (ns: string) => compiled.get(ns)!;
  const routes = [...builtinRoutes(options.docInfo, routesOf), ...options.table];
  for (const ns of config.restNamespaces) compiled.set(ns, compileRoutes(routes, ns));
  // Longest first, so a namespace that prefixes another does not shadow it.
  const namespaces = [...config.restNamespaces].sort((a, b) => b.length - a.length);
  const linkRoot = restRootUrl(config);
  const link = apiRootLink(config);
  const cache = options.cacheVersion ? new ResponseCache() : undefined;

  const namespaceOf = (path: string) => {
    const lower = path.toLowerCase();
    return namespaces.find((ns) => {
      const prefix = '/' + ns.toLowerCase();
      return lower === prefix || lower.startsWith(prefix + '/');
    });
  };

  return async (ctx, next) => {
    const routePath = restRoutePath(ctx.path, config.restRoot);
    if (routePath === null) return next();

    let viewer: Viewer | null = null;
    let req: RestRequestImpl | undefined;
    let matched: CompiledRoute | undefined;
    let query: Record<string, unknown> = {};
    let result: RestResult;
    let cacheKey: string | undefined;
    let readVersion: number | undefined;
    try {
      query = phpParseStr(ctx.querystring);
      const resolved = await options.resolveViewer(ctx);
      if (resolved === 'invalid') throw invalidCredentials(); // WP checks credentials before routing
      viewer = resolved;
      const method = effectiveMethod(ctx.method, query, ctx.headers);
      if (cache && (method === 'GET' || method === 'HEAD')) {
        // The version is read before anything is computed: an answer is kept under the version it
        // may already be newer than, never under a newer one than its data.
        readVersion = await options.cacheVersion!();
        cacheKey = ResponseCache.key({ version: readVersion, viewer: viewer?.userId ?? null, url: ctx.url });
        const kept = cache.get(cacheKey);
        if (kept) return render(ctx, kept, { authenticated: viewer !== null, link });
      }
      const ns = namespaceOf(routePath);
      const nsRoutes = ns ? routesOf(ns) : [];
      let graphqlContext: GraphQLContext | undefined;
      const operationOptions = options.operationOptions?.() ?? {};
      const makeRequest = (found: CompiledRoute, endpoint: Endpoint, args: Args, sources: ParamSources, namespace = ns!) =>
        new RestRequestImpl({
          method,
          path: routePath.slice(namespace.length + 1),
          route: found.route,
          endpoint,
          args,
          sources,
          viewer,
          namespace,
          namespaceUrl: `${linkRoot}${namespace}`,
          headers: ctx.headers,
          queryString: ctx.querystring,
          protocol: ctx.protocol,
          config,
          operationOptions,
          graphql: (source, variables = {}) => {
            if (!options.runner || !options.context) return Promise.reject(new Error('restRouter: no GraphQL runner'));
            graphqlContext ??= { ...options.context(viewer), readVersion, operationOptions };
            return options.runner(source, variables, graphqlContext);
          },
        });

      if (routePath === '/' && (method === 'GET' || method === 'HEAD')) {
        // The API root: every namespace's index, merged (what discovery clients read first).
        const indexes = config.restNamespaces.map((namespace) => {
          const [indexRoute] = routesOf(namespace);
          const first = indexRoute.endpoints[0];
          const indexReq = makeRequest(
            indexRoute,
            first.endpoint,
            first.args,
            { json: {}, body: {}, query: {}, url: {}, defaults: {} },
            namespace,
          );
          return namespaceIndex(routesOf(namespace), indexReq) as { routes: Record<string, unknown> };
        });
        result = ok(rootIndex(config, indexes));
      } else if (method === 'OPTIONS') {
        // WP rest_handle_options_request: the matched route's index data, or [] (always 200).
        matched = nsRoutes.find((r) => r.pattern.test(routePath));
        if (matched) {
          const first = matched.endpoints[0];
          req = makeRequest(matched, first.endpoint, first.args, { json: {}, body: {}, query, url: {}, defaults: {} });
        }
        result = ok(matched && req ? routeData(matched, req) : []);
      } else {
        const match = matchRoute(nsRoutes, routePath, method);
        if (!match) throw noRoute();
        matched = match.compiled;
        // A body that a body parser mounted before this router already read (kept as rawBody) is reused.
        const preRead = (ctx.request as { rawBody?: string }).rawBody;
        const raw = preRead !== undefined ? Buffer.from(preRead) : await readBody(ctx.req, bodyLimit);
        const parsed = await parseBody(raw, ctx.get('content-type') || undefined, ctx.method, method);
        const sources = { json: parsed.json, body: parsed.body, query, url: match.params, defaults: {} };
        req = makeRequest(match.compiled, match.endpoint, match.args, sources);
        req.applyDefaults();
        result = await runPipeline(req, parsed.jsonError);
      }
    } catch (error) {
      result = errorAnswer(error, {
        envelope: WP_ERROR_ENVELOPE,
        state: ctx.state as FaultNote,
        mapError: options.mapError && ((e) => options.mapError!(e, req)),
        logger,
        logFields: { requestId: (ctx.state as { requestId?: string }).requestId, path: req?.path },
      });
    }

    let allow: string | undefined;
    if (req && matched && options.allowHeader !== false) {
      allow = await allowHeader(
        req,
        matched.endpoints.map((e) => e.endpoint),
      ).catch(() => undefined);
    }
    if (query._fields !== undefined && result.status < 400) result = { ...result, body: filterFields(result.body, query._fields) };
    if (query._envelope !== undefined) {
      const headers = { ...result.headers, ...(allow ? { Allow: allow } : {}) };
      result = { status: 200, headers: {}, body: envelope(result.status, headers, result.body) };
      allow = undefined;
    }
    const body = encodePhpJsonBytes(result.body, Object.hasOwn(query, '_pretty'));
    const answer: CachedAnswer = { status: result.status, headers: result.headers ?? {}, allow, body, etag: etagOf(body) };
    if (cacheKey && result.status === 200) cache!.set(cacheKey, answer);
    render(ctx, answer, { authenticated: viewer !== null, link });
  };
}

function render(ctx: Koa.Context, result: CachedAnswer, opts: { authenticated: boolean; link: string }): void {
  ctx.status = result.status;
  ctx.set('Content-Type', 'application/json; charset=UTF-8');
  ctx.set('X-Robots-Tag', 'noindex');
  ctx.set('Link', opts.link);
  ctx.set('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(result.headers)) ctx.set(name, value);
  if (result.allow) ctx.set('Allow', result.allow);
  if (opts.authenticated) ctx.set(NOCACHE); // WP's nocache headers for logged-in users
  // Cross-origin headers are the app's one policy (src/http/cors.ts), not WordPress's
  // rest_send_cors_headers, which reflects any origin with credentials allowed.
  if (ctx.method === 'GET' && !opts.authenticated) ctx.vary('Origin');
  if (result.status !== 200 || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
    ctx.body = result.body;
    return;
  }
  // Conditional reads: the same body is the same ETag, so a client that has it gets a 304.
  sendConditionally(ctx, result.body, result.etag);
}
