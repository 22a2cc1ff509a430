// GET {root}/{namespace}/doc (spec 2.9): an OpenAPI 3.0 document assembled from the table, the
// way TEC's Swagger_Documentation does it: per-route path items, parameters and request bodies
// derived from the args (swaggerize_args / swaggerize_post_args), the rest supplied as data.
import type { Args, CompiledRoute, OpenApiMethod, OperationDoc, RestRequest } from './route-table.js';
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
