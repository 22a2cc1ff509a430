// WordPress REST conventions every route shares: the API root index (GET {root}/, what discovery
// clients such as wpapi read), `_fields` (rest_filter_response_fields) and `_envelope`
// (WP_REST_Server::envelope_response).
import type { Config } from '../config.js';
import { toZone } from '../calendar/dates/zones.js';
import { restRootUrl } from './namespace-index.js';

type Json = unknown;

/** WP_REST_Server::get_index(), given each namespace's index (their `routes` are merged). */
export function rootIndex(config: Config, namespaceIndexes: Array<{ routes: Record<string, unknown> }>): Record<string, unknown> {
  const root = restRootUrl(config);
  const named = !/^UTC[+-]/i.test(config.siteTimezone);
  const offsetHours = toZone(config.siteTimezone, 'UTC').offset(Date.now()) / 60;
  const routes: Record<string, unknown> = {
    '/': {
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
      _links: { self: [{ href: root }] },
    },
  };
  for (const index of namespaceIndexes) Object.assign(routes, index.routes);
  return {
    name: config.siteName,
    description: '',
    url: config.siteUrl,
    home: config.siteUrl,
    // A named zone gives WordPress a computed (numeric) offset; a manual UTC±N offset is the stored string.
    gmt_offset: named ? offsetHours : String(offsetHours),
    timezone_string: named ? config.siteTimezone : '',
    page_for_posts: 0,
    page_on_front: 0,
    show_on_front: 'posts',
    namespaces: config.restNamespaces,
    authentication: [],
    routes,
    site_logo: 0,
    site_icon: 0,
    site_icon_url: '',
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}

type Mask = { [key: string]: true | Mask };

/**
 * wp_parse_list() then the nested mask rest_filter_response_fields() builds from dotted names. The
 * mask's objects have no prototype: a field named `__proto__` or `constructor` is a key like any
 * other (with `{}`, `_fields=__proto__.x` would write `x` into Object.prototype).
 */
function fieldMask(raw: unknown): Mask | null {
  const list = (Array.isArray(raw) ? raw.map(String).join(',') : String(raw ?? '')).split(/[\s,]+/).filter(Boolean);
  if (!list.length) return null;
  const mask: Mask = Object.create(null);
  next: for (const field of list) {
    const parts = field.split('.');
    let ref = mask;
    while (parts.length > 1) {
      const part = parts.shift()!;
      // A parent already asked for whole makes its sub-fields moot.
      if (ref[part] === true) continue next;
      ref = (ref[part] ??= Object.create(null)) as Mask;
    }
    ref[parts[0]] = true;
  }
  return mask;
}

const isRecord = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** _rest_array_intersect_key_recursive(): PHP arrays are both lists and maps, so a list keeps the indexes the mask names. */
function intersect(value: Json, mask: Mask): Json {
  const entries: Array<[string, Json]> = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value as Record<string, Json>);
  const kept = entries
    .filter(([key]) => Object.hasOwn(mask, key))
    .map(([key, item]): [string, Json] => [
      key,
      mask[key] !== true && (isRecord(item) || Array.isArray(item)) ? intersect(item, mask[key] as Mask) : item,
    ]);
  // PHP writes an array whose keys are 0…n-1 as a JSON list (an empty one as []), any other as an object.
  return kept.every(([key], i) => key === String(i)) ? kept.map(([, item]) => item) : Object.fromEntries(kept);
}

/** The body with only the fields `_fields` names (dotted paths reach nested fields); lists filter each item. */
export function filterFields(body: Json, fields: unknown): Json {
  const mask = fieldMask(fields);
  if (!mask || (!isRecord(body) && !Array.isArray(body))) return body;
  return Array.isArray(body)
    ? body.map((item) => (isRecord(item) || Array.isArray(item) ? intersect(item, mask) : item))
    : intersect(body, mask);
}

/** `_envelope`: status and headers move into the body, and the answer itself is a 200. */
export function envelope(status: number, headers: Record<string, string>, body: Json) {
  return { body, status, headers };
}
