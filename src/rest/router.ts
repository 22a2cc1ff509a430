// A REST API's table under `${restRoot}/${namespace}` for every configured namespace, served by the
// app's one router (src/http/router.ts) the way WP_REST_Server::serve_request does: credentials
// before routing, the root index and OPTIONS, route match (404 rest_no_route), body parsing, the
// processing pipeline (pipeline.ts), then WP's response headers, PHP's JSON and kept answers.
import type Koa from 'koa';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { GraphQLContext, OperationOptions } from '../graphql/context.js';
import type { OperationRunner } from '../graphql/execute.js';
import { encodePhpJsonBytes } from './json.js';
import { throttledMessage, type Authenticate, type CallerRefusal } from '../http/caller.js';
import type { Answer, Table, TableCall } from '../http/router.js';
import { WP_ERROR_ENVELOPE } from './error-answer.js';
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
  ok,
  type Args,
  type CompiledRoute,
  type Endpoint,
  type ParamSources,
  type RestRequest,
  type Route,
  type RouteMatch,
  type RouteTable,
} from './route-table.js';

export interface RestTableOptions {
  table: RouteTable;
  /** Enables GET {ns}/doc; without it there is no /doc route. */
  docInfo?: DocInfo;
  config: Config;
  /** The request's caller, as every table asks for it (src/http/caller.ts); a bad credential → 401. */
  authenticate: Authenticate;
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

/** A REST API's table (WP_REST_Server::serve_request), served by the app's one router. */
export function restTable(options: RestTableOptions): Table<Endpoint> {
  const { config } = options;
  const bodyLimit = options.bodyLimit ?? 2 * 1024 * 1024;
  const compiled = new Map<string, CompiledRoute[]>();
  const routesOf = (ns: string) => compiled.get(ns)!;
  const routes = [...builtinRoutes(options.docInfo, routesOf), ...options.table];
  for (const ns of config.restNamespaces) compiled.set(ns, compileRoutes(routes, ns));
  // Longest first, so a namespace that prefixes another does not shadow it.
  const namespaces = [...config.restNamespaces].sort((a, b) => b.length - a.length);
  const shared: Shared = {
    options,
    bodyLimit,
    routesOf,
    linkRoot: restRootUrl(config),
    link: apiRootLink(config),
    cache: options.cacheVersion ? new ResponseCache() : undefined,
  };
  const namespaceOf = (path: string) => {
    const lower = path.toLowerCase();
    return namespaces.find((ns) => {
      const prefix = '/' + ns.toLowerCase();
      return lower === prefix || lower.startsWith(prefix + '/');
    });
  };
  return {
    name: 'REST',
    claim(ctx) {
      const routePath = restRoutePath(ctx.path, config.restRoot);
      return routePath === null ? undefined : new RestCall(ctx, routePath, namespaceOf(routePath), shared);
    },
  };
}

/** What every request of a REST table shares: its options, compiled rows, links and kept answers. */
interface Shared {
  options: RestTableOptions;
  bodyLimit: number;
  routesOf(ns: string): CompiledRoute[];
  linkRoot: string;
  link: string;
  cache: ResponseCache | undefined;
}

// Only a bad credential is refused: the API is public otherwise.
const refuseCaller = (reason: CallerRefusal, retryAfter = 0) =>
  reason === 'throttled'
    ? new RestError('rest_too_many_failed_sign_ins', throttledMessage(retryAfter), 429, {}, {}, { 'Retry-After': String(retryAfter) })
    : invalidCredentials();

/** One request to the REST API, step by step. */
class RestCall implements TableCall<Endpoint> {
  readonly envelope = WP_ERROR_ENVELOPE;
  readonly routes: readonly CompiledRoute[];
  method: string;
  private viewer: Viewer | null = null;
  private req: RestRequestImpl | undefined;
  private matched: CompiledRoute | undefined;
  private query: Record<string, unknown> = {};
  private cacheKey: string | undefined;
  private readVersion: number | undefined;
  private graphqlContext: GraphQLContext | undefined;
  private operationOptions: OperationOptions = {};

  constructor(
    private readonly ctx: Koa.Context,
    readonly path: string,
    private readonly ns: string | undefined,
    private readonly shared: Shared,
  ) {
    this.routes = ns ? shared.routesOf(ns) : [];
    this.method = ctx.method;
  }

  async begin(): Promise<Answer | 'answered' | undefined> {
    const { ctx, shared } = this;
    const { options } = shared;
    this.query = phpParseStr(ctx.querystring);
    // WP checks credentials before routing: a bad key is a 401 on any path.
    this.viewer = await options.authenticate(ctx, { refuse: refuseCaller });
    this.method = effectiveMethod(ctx.method, this.query, ctx.headers);
    if (shared.cache && (this.method === 'GET' || this.method === 'HEAD')) {
      // The version is read before anything is computed: an answer is kept under the version it
      // may already be newer than, never under a newer one than its data.
      this.readVersion = await options.cacheVersion!();
      this.cacheKey = ResponseCache.key({ version: this.readVersion, viewer: this.viewer?.userId ?? null, url: ctx.url });
      const kept = shared.cache.get(this.cacheKey);
      if (kept) {
        render(ctx, kept, { authenticated: this.viewer !== null, link: shared.link });
        return 'answered';
      }
    }
    this.operationOptions = options.operationOptions?.() ?? {};
    const { config } = options;
    if (this.path === '/' && (this.method === 'GET' || this.method === 'HEAD')) {
      // The API root: every namespace's index, merged (what discovery clients read first).
      const indexes = config.restNamespaces.map((namespace) => {
        const [indexRoute] = shared.routesOf(namespace);
        const first = indexRoute.endpoints[0];
        const indexReq = this.request(indexRoute, first.endpoint, first.args, NO_SOURCES, namespace);
        return namespaceIndex(shared.routesOf(namespace), indexReq) as { routes: Record<string, unknown> };
      });
      return ok(rootIndex(config, indexes));
    }
    if (this.method === 'OPTIONS') {
      // WP rest_handle_options_request: the matched route's index data, or [] (always 200).
      this.matched = this.routes.find((r) => r.pattern.test(this.path));
      if (!this.matched) return ok([]);
      const first = this.matched.endpoints[0];
      this.req = this.request(this.matched, first.endpoint, first.args, { ...NO_SOURCES, query: this.query });
      return ok(routeData(this.matched, this.req));
    }
    return undefined;
  }

  unmatched() {
    return noRoute();
  }

  async run(match: RouteMatch<Endpoint>): Promise<Answer> {
    const { ctx } = this;
    this.matched = match.compiled;
    // A body that a body parser mounted before the router already read (kept as rawBody) is reused.
    const preRead = (ctx.request as { rawBody?: string }).rawBody;
    const raw = preRead !== undefined ? Buffer.from(preRead) : await readBody(ctx.req, this.shared.bodyLimit);
    const parsed = await parseBody(raw, ctx.get('content-type') || undefined, ctx.method, this.method);
    const sources = { json: parsed.json, body: parsed.body, query: this.query, url: match.params, defaults: {} };
    this.req = this.request(match.compiled, match.endpoint, match.args, sources);
    this.req.applyDefaults();
    return runPipeline(this.req, parsed.jsonError);
  }

  mapError(error: unknown) {
    return this.shared.options.mapError?.(error, this.req);
  }

  /** WP's answer: the Allow header, `_fields` and `_envelope`, PHP's JSON, kept and conditional reads. */
  async send(answer: Answer): Promise<void> {
    const { ctx, req, matched, query, shared } = this;
    let result = answer;
    let allow: string | undefined;
    if (req && matched && shared.options.allowHeader !== false) {
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
    const encoded: CachedAnswer = { status: result.status, headers: result.headers ?? {}, allow, body, etag: etagOf(body) };
    if (this.cacheKey && result.status === 200) shared.cache!.set(this.cacheKey, encoded);
    render(ctx, encoded, { authenticated: this.viewer !== null, link: shared.link });
  }

  private request(found: CompiledRoute, endpoint: Endpoint, args: Args, sources: ParamSources, namespace = this.ns!) {
    const { ctx, shared } = this;
    const { options } = shared;
    return new RestRequestImpl({
      method: this.method,
      path: this.path.slice(namespace.length + 1),
      route: found.route,
      endpoint,
      args,
      sources,
      viewer: this.viewer,
      namespace,
      namespaceUrl: `${shared.linkRoot}${namespace}`,
      headers: ctx.headers,
      queryString: ctx.querystring,
      protocol: ctx.protocol,
      config: options.config,
      operationOptions: this.operationOptions,
      graphql: (source, variables = {}) => {
        if (!options.runner || !options.context) return Promise.reject(new Error('restTable: no GraphQL runner'));
        this.graphqlContext ??= { ...options.context(this.viewer), readVersion: this.readVersion, operationOptions: this.operationOptions };
        return options.runner(source, variables, this.graphqlContext);
      },
    });
  }
}

const NO_SOURCES: ParamSources = { json: {}, body: {}, query: {}, url: {}, defaults: {} };

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
