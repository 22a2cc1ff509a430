// The namespace index (GET {root}/{namespace}, spec 2.8) and OPTIONS route data, generated from
// the table exactly as WP_REST_Server::get_data_for_route does.
import type { Config } from '../config.js';
import type { Args, CompiledRoute, RestRequest } from './route-table.js';
import { templatePath } from './route-table.js';

// rest_get_allowed_schema_keywords(): the only arg keys the index shows (then `required`).
const SCHEMA_KEYWORDS = new Set([
  'title',
  'description',
  'default',
  'type',
  'format',
  'enum',
  'items',
  'properties',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
]);

/** '{siteUrl}{restRoot}/' — WP's rest_url('/'). */
export function restRootUrl(config: Pick<Config, 'siteUrl' | 'restRoot'>): string {
  return `${config.siteUrl}${config.restRoot}/`;
}

/** WordPress's discovery header (rest_output_link_header): names the API root for clients such as wpapi. */
export function apiRootLink(config: Pick<Config, 'siteUrl' | 'restRoot'>): string {
  return `<${restRootUrl(config)}>; rel="https://api.w.org/"`;
}

/** Each arg's schema keywords in declaration order, defaults evaluated, then `required`.
 *  No args is PHP's empty array: `[]`. */
export function indexArgs(args: Args, req: RestRequest): Record<string, unknown> | [] {
  const names = Object.keys(args);
  if (!names.length) return [];
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const spec = args[name];
    const entry: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(spec)) {
      if (!SCHEMA_KEYWORDS.has(key)) continue;
      const shown = key === 'default' && typeof value === 'function' ? value(req) : value;
      if (shown !== undefined) entry[key] = shown;
    }
    entry.required = Boolean(spec.required);
    out[name] = entry;
  }
  return out;
}

export function routeData(compiled: CompiledRoute, req: RestRequest): Record<string, unknown> {
  const methods: string[] = [];
  const endpoints: unknown[] = [];
  for (const { endpoint, args } of compiled.endpoints) {
    methods.push(...endpoint.methods);
    endpoints.push({ methods: [...endpoint.methods], args: indexArgs(args, req) });
  }
  const data: Record<string, unknown> = { namespace: req.namespace, methods, endpoints };
  const path = templatePath(compiled.key);
  // Only routes without path parameters link to themselves.
  if (!path.includes('{')) data._links = { self: [{ href: restRootUrl(req.config) + path.slice(1) }] };
  return data;
}

export function namespaceIndex(routes: readonly CompiledRoute[], req: RestRequest): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const compiled of routes) data[compiled.key] = routeData(compiled, req);
  return {
    namespace: req.namespace,
    routes: data,
    _links: { up: [{ href: restRootUrl(req.config) }] },
  };
}
