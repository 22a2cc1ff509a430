// GET {root}/{namespace}/doc (spec 2.9): an OpenAPI 3.0 document assembled from the table, the
// way TEC's Swagger_Documentation does it: per-route path items, parameters and request bodies
// derived from the args (swaggerize_args / swaggerize_post_args), the rest supplied as data.
import type { ArgSpec, Args, CompiledRoute, Endpoint, HttpMethod, OpenApiMethod, OperationDoc, RestRequest, Route } from './route-table.js';
import { templatePath } from './route-table.js';

export interface DocInfo {
  /** Default '3.0.0'. */
  openapi?: string;
  info: { version: string; title: string; description?: string } & Record<string, unknown>;
  /** components.schemas, in the order given. */
  schemas?: Record<string, unknown>;
  /** The /doc route's own operation (TEC: a single 200 response). */
  docOperation?: OperationDoc;
  /** The original drops the site URL's port from servers[0].url; true keeps it. */
  keepPort?: boolean;
}

const OPERATION_ORDER: OpenApiMethod[] = ['get', 'post', 'put', 'patch', 'delete'];
const NO_DESCRIPTION = 'No description provided';
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

function convertType(type: unknown): unknown {
  const single = Array.isArray(type) ? type[0] : type;
  return single === 'int' ? 'integer' : single === 'bool' ? 'boolean' : single;
}

function pick(list: readonly string[] | Args, args: Args): Args {
  if (!Array.isArray(list)) return list as Args;
  return Object.fromEntries((list as readonly string[]).map((name) => [name, args[name]]));
}

/** TEC swaggerize_args: keys in, schema, description, required, name[, style] (its `explode: false`
 *  is dropped by array_filter, so CSV lists only carry `style: "form"`). */
export function swaggerizeArgs(args: Args, defaultIn: string): Array<Record<string, unknown>> {
  return Object.entries(args).map(([name, arg]) => {
    const schema: Record<string, unknown> = { type: convertType(arg.swaggerType ?? arg.type) ?? 'string' };
    if (arg.items) schema.items = arg.items;
    const param: Record<string, unknown> = {
      in: arg.in || defaultIn,
      schema,
      description: arg.description || NO_DESCRIPTION,
      required: Boolean(arg.required),
      name,
    };
    if (arg.collectionFormat === 'csv') param.style = 'form';
    return param;
  });
}

/** TEC swaggerize_post_args: each property {description, type[, items]}. */
export function swaggerizePostArgs(contentType: string, args: Args): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, arg] of Object.entries(args)) {
    const property: Record<string, unknown> = {
      description: arg.description ?? NO_DESCRIPTION,
      type: convertType(arg.swaggerType ?? arg.type ?? 'string'),
    };
    if (arg.items) property.items = arg.items;
    properties[name] = property;
  }
  const schema = { type: 'object', properties: Object.keys(properties).length ? properties : [] };
  return { content: { [contentType]: { schema } } };
}

function operation(doc: OperationDoc, args: Args): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['summary', 'description', 'operationId', 'tags'] as const) {
    if (doc[key] !== undefined) out[key] = doc[key];
  }
  const params = doc.parameters === undefined ? args : pick(doc.parameters, args);
  if (doc.parameters !== undefined || Object.keys(params).length) out.parameters = swaggerizeArgs(params, doc.in ?? 'query');
  if (doc.requestBody) {
    out.requestBody = swaggerizePostArgs(doc.requestBody.contentType ?? FORM, pick(doc.requestBody.args, args));
  }
  out.responses = doc.responses;
  return out;
}

/** servers[0].url: request scheme, site host (port dropped like the original) and path, namespace root. */
function serverUrl(docInfo: DocInfo, req: RestRequest): string {
  const site = new URL(req.config.siteUrl);
  const host = docInfo.keepPort ? site.host : site.hostname;
  const base = site.pathname.replace(/\/+$/, '');
  return `${req.protocol}://${host}${base}${req.config.restRoot}/${req.namespace}/`;
}

export function openApiDocument(routes: readonly CompiledRoute[], docInfo: DocInfo, req: RestRequest): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const { route, endpoints } of routes) {
    const operations = new Map<OpenApiMethod, Record<string, unknown>>();
    for (const { endpoint, args } of endpoints) {
      if (!endpoint.doc) continue;
      const key = endpoint.doc.operation ?? (endpoint.methods[0].toLowerCase() as OpenApiMethod);
      operations.set(key, operation(endpoint.doc, args));
    }
    if (!operations.size) continue;
    const item: Record<string, unknown> = {};
    for (const key of OPERATION_ORDER) if (operations.has(key)) item[key] = operations.get(key);
    paths[route.docPath ?? templatePath('/' + route.path.replace(/^\/+/, ''))] = item;
  }
  return {
    openapi: docInfo.openapi ?? '3.0.0',
    info: docInfo.info,
    components: { schemas: docInfo.schemas ?? {} },
    servers: [{ url: serverUrl(docInfo, req) }],
    paths,
  };
}

// ------------------------------------------------------------------------------------------------
// A complete OpenAPI 3.1 document for clients (where /doc stays the original's): every endpoint of
// the table, creates included, its path, query and body arguments as JSON Schema, what it answers
// and its error body. The API supplies what the table does not say: the schema of each answer.

export interface Answer {
  status: number;
  description: string;
  schema: Record<string, unknown>;
  /** Default application/json. */
  contentType?: string;
  /** Response headers, e.g. X-TEC-Total on lists. */
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

export interface OpenApi31Options<E extends Endpoint<never> = Endpoint> {
  info: Record<string, unknown>;
  serverUrl: string;
  /** components: schemas, securitySchemes, … */
  components: Record<string, unknown>;
  /** Security requirements of an operation (an empty object in the list: anonymous is allowed). */
  security: Array<Record<string, string[]>> | ((endpoint: E) => Array<Record<string, string[]>>);
  /** The answer of an endpoint, or undefined to leave the endpoint out. */
  answerOf(route: Route<E>, endpoint: E): Answer | undefined;
  /** The error statuses an endpoint can answer, with what each means. */
  errorsOf(route: Route<E>, endpoint: E): Record<number, string>;
  errorSchema: Record<string, unknown>;
  /** The media types a request body may come in; default JSON and a form. */
  bodyTypes?: readonly string[];
}

const JSON_SCHEMA_KEYS = ['description', 'format', 'enum', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern'] as const;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** An arg as JSON Schema 2020-12: its own keywords, the /doc type when it declares only that, and a
 *  literal default (a per-request default depends on the site). */
export function argJsonSchema(arg: ArgSpec): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  const type = arg.type ?? convertType(arg.swaggerType);
  if (type) schema.type = type;
  for (const key of JSON_SCHEMA_KEYS) if (arg[key] !== undefined) schema[key] = arg[key];
  if (arg.exclusiveMinimum && arg.minimum !== undefined) {
    schema.exclusiveMinimum = arg.minimum;
    delete schema.minimum;
  }
  if (arg.exclusiveMaximum && arg.maximum !== undefined) {
    schema.exclusiveMaximum = arg.maximum;
    delete schema.maximum;
  }
  if (arg.items) schema.items = argJsonSchema(arg.items);
  if (arg.properties) {
    schema.properties = Object.fromEntries(Object.entries(arg.properties).map(([name, spec]) => [name, argJsonSchema(spec)]));
    const required = Object.entries(arg.properties)
      .filter(([, spec]) => spec.required)
      .map(([name]) => name);
    if (required.length) schema.required = required;
  }
  if (arg.default !== undefined && arg.default !== null && typeof arg.default !== 'function') schema.default = arg.default;
  return schema;
}

/** A unique camel-case id from an operation's method and templated path: GET /events/{id} → getEventsById. */
export function operationId(method: string, path: string): string {
  const words = path
    .replace(/\{(\w+)\}/g, 'by $1')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
}

function operation31<E extends Endpoint<never>>(
  path: string,
  method: HttpMethod,
  route: Route<E>,
  endpoint: E,
  args: Args,
  options: OpenApi31Options<E>,
) {
  const answer = options.answerOf(route, endpoint)!;
  const pathNames = new Set([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const parameters: Array<Record<string, unknown>> = [...pathNames].map((name) => ({
    name,
    in: 'path',
    required: true,
    ...(args[name]?.description ? { description: args[name].description } : {}),
    schema: args[name] ? argJsonSchema({ ...args[name], default: undefined }) : { type: 'string' },
  }));
  const rest = Object.entries(args).filter(([name]) => !pathNames.has(name));
  const inBody = WRITE_METHODS.has(method);
  for (const [name, arg] of rest) {
    if (inBody && arg.in !== 'query') continue;
    parameters.push({ name, in: 'query', required: Boolean(arg.required), description: arg.description, schema: argJsonSchema(arg) });
  }
  const op: Record<string, unknown> = {
    operationId: operationId(method, path),
    ...(endpoint.doc?.summary ? { summary: endpoint.doc.summary } : {}),
    security: typeof options.security === 'function' ? options.security(endpoint) : options.security,
    parameters,
    responses: {
      [answer.status]: {
        description: answer.description,
        ...(answer.headers ? { headers: answer.headers } : {}),
        content: { [answer.contentType ?? JSON_TYPE]: { schema: answer.schema } },
      },
      ...Object.fromEntries(
        Object.entries(options.errorsOf(route, endpoint)).map(([status, description]) => [
          status,
          { description, content: { 'application/json': { schema: options.errorSchema } } },
        ]),
      ),
    },
  };
  const bodyArgs = rest.filter(([, arg]) => arg.in !== 'query');
  if (inBody && bodyArgs.length) {
    const required = bodyArgs.filter(([, arg]) => arg.required).map(([name]) => name);
    const schema = {
      type: 'object',
      properties: Object.fromEntries(bodyArgs.map(([name, arg]) => [name, argJsonSchema(arg)])),
      ...(required.length ? { required } : {}),
    };
    const types = options.bodyTypes ?? [JSON_TYPE, FORM];
    op.requestBody = { required: required.length > 0, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
  }
  return op;
}

export function openApi31Document<E extends Endpoint<never>>(
  routes: ReadonlyArray<CompiledRoute<E>>,
  options: OpenApi31Options<E>,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { route, endpoints } of routes) {
    const path = route.docPath ?? templatePath('/' + route.path.replace(/^\/+/, ''));
    for (const { endpoint, args } of endpoints) {
      if (!options.answerOf(route, endpoint)) continue;
      for (const method of endpoint.methods) {
        (paths[path] ??= {})[method.toLowerCase()] = operation31(path, method, route, endpoint, args, options);
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: options.info,
    servers: [{ url: options.serverUrl }],
    paths,
    components: options.components,
  };
}
