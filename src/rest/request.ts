// Request parsing as WordPress does it (spec 0.1, 0.2): the route path under the REST root, method
// override, JSON / form / multipart bodies with PHP bracket nesting, and the parameter sources
// merged by precedence JSON → form body → query → path → defaults.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import qs from 'qs';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { OperationOptions } from '../graphql/context.js';
import { isPlainObject } from '../values.js';
import { phpStrval } from '../php/casts.js';
import { phpUrldecode, phpUrlencode } from '../php/url-encoding.js';
import { invalidJson, payloadTooLarge, type RestError } from './errors.js';
import type { Args, Endpoint, ParamSources, RestRequest, Route } from './route-table.js';

type PlainObject = Record<string, unknown>;

// PHP's parse_str limits, roughly: max_input_vars 1000, deep nesting allowed; qs caps array
// indices at 100 (larger ones become object keys) so `a[999999999]=x` cannot allocate.
const QS_OPTIONS: qs.IParseOptions = { depth: 20, arrayLimit: 100, parameterLimit: 1000, duplicates: 'last' };

/** PHP parse_str: bracket nesting, last duplicate wins, ' ' and '.' in top-level names become '_'. */
export function phpParseStr(text: string): PlainObject {
  if (!text) return {};
  const parsed = qs.parse(text, QS_OPTIONS) as PlainObject;
  if (!Object.keys(parsed).some((k) => /[ .]/.test(k))) return parsed;
  const out: PlainObject = {};
  for (const [key, value] of Object.entries(parsed)) out[key.replace(/[ .]/g, '_')] = value;
  return out;
}

/** The route of a request path under the REST root ('/ns/events/12'), or null if not the API's.
 *  Decoded like WP's rest_route query var; trailing slashes trimmed (untrailingslashit). */
export function restRoutePath(rawPath: string, restRoot: string): string | null {
  if (rawPath !== restRoot && !rawPath.startsWith(restRoot + '/')) return null;
  const route = phpUrldecode(rawPath.slice(restRoot.length)).replace(/[/\\]+$/, '');
  return route === '' ? '/' : route;
}

/** `_method` in the query wins over X-HTTP-Method-Override (WP serve_request). */
export function effectiveMethod(httpMethod: string, query: PlainObject, headers: IncomingHttpHeaders): string {
  const fromQuery = query._method;
  const fromHeader = headers['x-http-method-override'];
  if (typeof fromQuery === 'string') return fromQuery.toUpperCase();
  if (typeof fromHeader === 'string') return fromHeader.toUpperCase();
  return httpMethod.toUpperCase();
}

/** The media type of a Content-Type header, lower-cased; '' when absent or without a '/' (WP). */
export function mediaType(header: string | undefined): string {
  const value = (header ?? '').split(';')[0].trim().toLowerCase();
  return value.includes('/') ? value : '';
}

// wp_is_json_media_type, verbatim (including its odd `&-\^` range).
const JSON_MEDIA = /(^|\s|,)application\/([\w!#$&-^.+]+\+)?json(\+oembed)?($|\s|;|,)/i;
const FORM = 'application/x-www-form-urlencoded';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const EMPTY = Buffer.alloc(0);

/** Reads the raw body, failing with `tooLarge()` (by default WP's 413) past `limit` bytes (the rest
 *  is drained, not kept). */
export function readBody(req: IncomingMessage, limit: number, tooLarge: () => Error = () => payloadTooLarge(limit)): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(tooLarge());
  if (req.readableEnded || (!(declared > 0) && !req.headers['transfer-encoding'])) return Promise.resolve(EMPTY);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      chunks.length = 0;
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) fail(tooLarge());
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', fail);
    req.on('close', () => fail(new Error('request body aborted')));
  });
}

/** json_decode as PHP reports it: json_last_error() codes and messages. */
function parseJson(raw: Buffer): { json: PlainObject; error?: RestError } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    return { json: {}, error: invalidJson(5, 'Malformed UTF-8 characters, possibly incorrectly encoded') };
  }
  if (text === '' || text === '0') return { json: {} }; // PHP empty($body)
  try {
    const value: unknown = JSON.parse(text);
    return { json: isPlainObject(value) ? value : {} };
  } catch (error) {
    if (/control character/i.test((error as Error).message)) {
      return { json: {}, error: invalidJson(3, 'Control character error, possibly incorrectly encoded') };
    }
    return { json: {}, error: invalidJson(4, 'Syntax error') };
  }
}

async function parseMultipart(raw: Buffer, contentType: string): Promise<PlainObject> {
  try {
    const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
    const fields = new URLSearchParams();
    form.forEach((value, key) => {
      if (typeof value === 'string') fields.append(key, value); // files are not parameters (WP's FILES)
    });
    return phpParseStr(fields.toString());
  } catch {
    return {};
  }
}

export interface ParsedBody {
  json: PlainObject;
  body: PlainObject;
  jsonError?: RestError;
}

/**
 * The JSON and form sources of a body, as WP_REST_Request sees them: JSON whenever the content
 * type is JSON (any method); form fields only for POST/PUT/PATCH/DELETE — PHP's $_POST on a real
 * POST (urlencoded or multipart), parse_body_params otherwise (urlencoded or no content type).
 */
export async function parseBody(raw: Buffer, contentType: string | undefined, httpMethod: string, method: string): Promise<ParsedBody> {
  const media = mediaType(contentType);
  const out: ParsedBody = { json: {}, body: {} };
  if (!raw.length) return out;
  if (JSON_MEDIA.test(media)) {
    const { json, error } = parseJson(raw);
    out.json = json;
    out.jsonError = error;
  }
  if (!BODY_METHODS.has(method)) return out;
  if (httpMethod === 'POST' && media === FORM) out.body = phpParseStr(raw.toString('utf8'));
  else if (httpMethod === 'POST' && media === 'multipart/form-data') out.body = await parseMultipart(raw, contentType!);
  else if (method !== 'POST' && (media === '' || media === FORM)) out.body = phpParseStr(raw.toString('utf8'));
  return out;
}

/** WP's parameter order: the first source holding a name wins. */
export const SOURCE_ORDER = ['json', 'body', 'query', 'url', 'defaults'] as const;

/** WP get_param for every name: the first source holding a non-null value wins. */
export function mergeSources(sources: ParamSources): PlainObject {
  const out: PlainObject = {};
  for (const key of SOURCE_ORDER) {
    for (const [name, value] of Object.entries(sources[key])) {
      if (value === null || value === undefined || name === '__proto__' || Object.hasOwn(out, name)) continue;
      out[name] = value;
    }
  }
  return out;
}

/** http_build_query-like: PHP urlencode, true/false as 1/0, arrays as CSV, null/undefined skipped. */
export function buildQuery(query: PlainObject | Array<[string, unknown]>): string {
  const entries = Array.isArray(query) ? query : Object.entries(query);
  const parts: string[] = [];
  for (const [key, value] of entries) {
    if (value === null || value === undefined) continue;
    const text =
      typeof value === 'boolean' ? (value ? '1' : '0') : Array.isArray(value) ? value.map(phpStrval).join(',') : phpStrval(value);
    parts.push(`${phpUrlencode(key)}=${phpUrlencode(text)}`);
  }
  return parts.join('&');
}

/** What the router knows of a request before its parameters are merged: RestRequest's own, and
 *  the endpoint's declared args. */
export type RequestInit = Pick<
  RestRequest,
  | 'method'
  | 'path'
  | 'route'
  | 'endpoint'
  | 'sources'
  | 'viewer'
  | 'namespace'
  | 'namespaceUrl'
  | 'headers'
  | 'queryString'
  | 'protocol'
  | 'config'
  | 'graphql'
  | 'operationOptions'
> & { args: Args };

export class RestRequestImpl implements RestRequest {
  readonly method: string;
  readonly path: string;
  readonly route: Route;
  readonly endpoint: Endpoint;
  /** The endpoint's declared args (route args merged in). */
  readonly args: Args;
  readonly sources: ParamSources;
  readonly viewer: Viewer | null;
  readonly namespace: string;
  readonly namespaceUrl: string;
  readonly headers: IncomingHttpHeaders;
  readonly queryString: string;
  readonly protocol: string;
  readonly config: Config;
  readonly graphql: RestRequest['graphql'];
  readonly operationOptions: OperationOptions;
  readonly memo = new Map<string, unknown>();
  /** Permission results already computed (reused for the Allow header). */
  readonly permissions = new Map<Endpoint, unknown>();
  raw: PlainObject;
  params: PlainObject;

  constructor(init: RequestInit) {
    this.method = init.method;
    this.path = init.path;
    this.route = init.route;
    this.endpoint = init.endpoint;
    this.args = init.args;
    this.sources = init.sources;
    this.viewer = init.viewer;
    this.namespace = init.namespace;
    this.namespaceUrl = init.namespaceUrl;
    this.headers = init.headers;
    this.queryString = init.queryString;
    this.protocol = init.protocol;
    this.config = init.config;
    this.graphql = init.graphql;
    this.operationOptions = init.operationOptions;
    this.raw = mergeSources(this.sources);
    this.params = this.raw;
  }

  /** Injects declared defaults (functions evaluated now); null/undefined ones are not injected. */
  applyDefaults(): void {
    for (const [name, spec] of Object.entries(this.args)) {
      const value = typeof spec.default === 'function' ? (spec.default as (req: RestRequest) => unknown)(this) : spec.default;
      if (value !== undefined && value !== null) this.sources.defaults[name] = value;
    }
    this.raw = mergeSources(this.sources);
    this.params = this.raw;
  }

  has(name: string): boolean {
    const { json, body, query, url } = this.sources;
    return [json, body, query, url].some((source) => Object.hasOwn(source, name));
  }

  url(path: string, query?: PlainObject | Array<[string, unknown]>): string {
    const base = this.namespaceUrl + path;
    const search = query ? buildQuery(query) : '';
    return search ? `${base}${base.includes('?') ? '&' : '?'}${search}` : base;
  }
}
