// Malformed REST requests derived from the calendar's route table (src/rest/calendar): every route,
// every method its endpoints declare (and some they do not), every declared argument given hostile
// values in the query, a form body and a JSON body, hostile path ids and slugs, bad JSON, wrong
// content types, 1 MB and oversized bodies, duplicated and nested query keys. Deterministic: the
// same table gives the same requests.
import { calendarTable } from '../../src/rest/calendar/index.js';
import { daysFromNow } from '../../test/support/clock.js';
import { endpointArgs, type Args, type Route } from '../../src/rest/route-table.js';
import type { RawRequest } from './http.js';
import { BAD_JSON, CONTENT_TYPES, HOSTILE_IDS, Literal, MEGABYTE, formEncode, formPairs, jsonEncode, valuesFor } from './hostile-values.js';

export const REST_NAMESPACES = ['calendar/events/v1', 'tribe/events/v1'];
const REST_ROOT = '/wp-json';

/** Records the fuzz aims at besides unknown ones: an id per collection, a slug per post type. */
export interface Fixtures {
  ids: Record<string, number>;
  slugs: Record<string, string>;
}

export interface Caller {
  name: string;
  headers: Record<string, string>;
}

/** Slugs a path may carry, percent-encoded as a client would send them (or not). */
export const HOSTILE_SLUGS: string[] = [
  '..',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '%2e%2e',
  '..%5c..%5cwindows',
  '%00',
  'a%00b',
  '%ff%fe%fd',
  '%E0%A4%A',
  '%',
  '%F0%9F%98%80',
  '%E2%80%AEtxt',
  'x'.repeat(2000),
  '%20',
  ';drop',
  '%252e%252e%252f',
];

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A value of the right shape for a required argument, so that a request gets past "missing" checks. */
function plausible(name: string, type: unknown, n: number): unknown {
  if (/date/.test(name)) return daysFromNow(30);
  if (type === 'integer') return 1;
  if (type === 'boolean') return true;
  return `Fuzz ${name} ${n}`;
}

/** The router's own routes (namespace index, /doc) ahead of the table's, as it serves them. */
const BUILTIN: Route[] = [
  { path: '', endpoints: [{ methods: ['GET'], handler: () => ({ status: 200, body: null }) }] },
  { path: '/doc', endpoints: [{ methods: ['GET'], handler: () => ({ status: 200, body: null }) }] },
];

type Transport = 'query' | 'json' | 'form';

interface Pair {
  route: Route;
  method: string;
  args: Args;
  /** The first path segment: events, venues, organizers, categories, tags ('' for the root). */
  collection: string;
  param?: 'id' | 'slug';
}

function pairsOf(table: readonly Route[]): Pair[] {
  const pairs: Pair[] = [];
  for (const route of table) {
    const collection = route.path.split('/')[1] ?? '';
    const param = /\(\?P<id>/.test(route.path) ? 'id' : /\(\?P<slug>/.test(route.path) ? 'slug' : undefined;
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) pairs.push({ route, method, args: endpointArgs(route, endpoint), collection, param });
    }
  }
  return pairs;
}

/**
 * Every hostile request for one caller. `seed` shifts which hostile values each argument gets, so
 * that callers (and engines) see different ones.
 */
export function restCases(fixtures: Fixtures, caller: Caller, seed: number): RawRequest[] {
  const table = [...BUILTIN, ...calendarTable];
  const out: RawRequest[] = [];
  let n = seed;
  const ns = () => REST_NAMESPACES[n % REST_NAMESPACES.length];
  const pathOf = (pair: Pair, value?: string) => {
    const valid = pair.param === 'id' ? String(fixtures.ids[pair.collection]) : (fixtures.slugs[pair.collection] ?? 'none');
    const filled = pair.route.path.replace(/\(\?P<\w+>[^)]*\)/, value ?? valid);
    return `${REST_ROOT}/${ns()}${filled}`;
  };
  /** Every other item: each caller gets one half of a list, the next caller the other. */
  const half = <T>(items: readonly T[]) => items.filter((_, i) => (i + seed) % 2 === 0);
  const push = (family: string, request: Omit<RawRequest, 'family'>) => {
    n++;
    out.push({ ...request, family, headers: { ...caller.headers, ...request.headers } });
  };
  const send = (pair: Pair, family: string, args: Record<string, unknown>, transport: Transport, extra: Partial<RawRequest> = {}) => {
    const path = pathOf(pair);
    if (transport === 'query') push(family, { method: pair.method, path: `${path}?${formEncode(args)}`, ...extra });
    else if (transport === 'json')
      push(family, { method: pair.method, path, headers: { 'content-type': 'application/json' }, body: jsonEncode(args), ...extra });
    else
      push(family, {
        method: pair.method,
        path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: formEncode(args),
        ...extra,
      });
  };

  for (const pair of pairsOf(table)) {
    const names = Object.keys(pair.args).filter((name) => name !== pair.param);
    const required = Object.fromEntries(
      names.filter((name) => pair.args[name].required).map((name) => [name, plausible(name, pair.args[name].type, n)]),
    );
    const transports: Transport[] = BODY_METHODS.has(pair.method) ? ['json', 'form', 'query'] : ['query'];
    const transport = () => transports[n % transports.length];

    // Each declared argument, a hostile value (another for each caller), alone or beside plausible required ones.
    for (const name of names) {
      const values = valuesFor(pair.args[name].type, name);
      const value = values[(n * 7) % values.length];
      send(pair, 'argument', n % 2 ? { [name]: value } : { ...required, [name]: value }, transport());
    }

    // Hostile ids and slugs in the path.
    if (pair.param === 'id') {
      for (const id of half(HOSTILE_IDS))
        push('path', { method: pair.method, path: pathOf(pair, encodeURIComponent(id instanceof Literal ? id.json : String(id))) });
    } else if (pair.param === 'slug') {
      for (const slug of half(HOSTILE_SLUGS)) push('path', { method: pair.method, path: pathOf(pair, slug) });
    }

    // Query shapes: duplicated keys, nested brackets, too many parameters, WordPress's globals.
    const first = names[0] ?? 'page';
    for (const query of [
      `${first}=1&${first}=-1&${first}=x&${first}%5B%5D=2`,
      `${first}%5Bb%5D%5Bc%5D=1`,
      `${first}${'%5Ba%5D'.repeat(40)}=1`,
      `${first}%5B999999999%5D=1&${first}%5B-1%5D=2`,
      Array.from({ length: 1500 }, (_, i) => `p${i}=${i}`).join('&'),
      `_fields=${encodeURIComponent('id,,..,__proto__.x,' + 'a.'.repeat(200))}&_envelope&_pretty`,
      '_method=DELETE',
      '_method=%00bogus',
      `context=edit&password%5B%5D=x&_embed=1&${formPairs(first, { toString: 'x' }).join('&')}`,
      `${encodeURIComponent(first)}=${'%ZZ'.repeat(10)}&%=&&=&a==b`,
    ]) {
      push('query', { method: pair.method, path: `${pathOf(pair)}?${query}` });
    }
    push('query', { method: pair.method, path: pathOf(pair), headers: { 'x-http-method-override': 'DELETE' } });

    // Bodies: malformed JSON, JSON under other content types, 1 MB values, past the 2 MiB limit.
    if (BODY_METHODS.has(pair.method) || pair.method === 'DELETE') {
      for (const body of half(BAD_JSON))
        push('body', { method: pair.method, path: pathOf(pair), headers: { 'content-type': 'application/json' }, body });
      for (const type of half(CONTENT_TYPES)) {
        push('content-type', {
          method: pair.method,
          path: pathOf(pair),
          headers: type ? { 'content-type': type } : {},
          body: jsonEncode({ ...required, [first]: 'x' }),
        });
      }
      const text = names.find((name) => pair.args[name].type === 'string') ?? first;
      const big = 'x'.repeat(MEGABYTE);
      const bigPlus = 'y'.repeat(MEGABYTE / 2) + '\u0000😀\u202E' + 'z'.repeat(MEGABYTE / 2);
      // The large bodies go once per route and method, from one caller in turn, to keep the suite quick.
      if ((seed + pair.route.path.length + pair.method.length) % 3 === 0) {
        send(pair, 'megabyte', { ...required, [text]: big }, 'json');
        send(pair, 'megabyte', { ...required, [text]: bigPlus }, 'form');
        send(pair, 'megabyte', { ...required, [text]: bigPlus }, 'json', { chunked: true });
        send(pair, 'megabyte', { ...required, [text]: 'w'.repeat(3 * MEGABYTE) }, 'json');
      }
    }
  }

  // Methods no endpoint of a route declares, and the ones the server answers generically.
  for (const route of table) {
    const pair = pairsOf([route])[0];
    const declared = new Set(route.endpoints.flatMap((e) => e.methods));
    for (const method of [...ALL_METHODS.filter((m) => !declared.has(m as never)), 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND']) {
      push('method', { method, path: pathOf(pair) });
    }
  }
  return out;
}

/** Malformed credentials on a few routes (they answer 401 before anything else). */
export function credentialCases(): RawRequest[] {
  const headers: Array<Record<string, string>> = [
    { authorization: 'Basic !!!' },
    { authorization: `Basic ${Buffer.from('admin:').toString('base64')}` },
    { authorization: `Basic ${Buffer.from(':::').toString('base64')}` },
    { authorization: 'Bearer' },
    { authorization: 'Bearer ' + 'k'.repeat(4000) },
    { authorization: 'Digest username="admin"' },
    { 'x-api-key': 'x'.repeat(8000) },
    { 'x-api-key': ' ' },
    { 'x-api-key': 'alm_' + 'A'.repeat(32) },
    { 'x-api-key': 'k'.repeat(40_000) },
  ];
  const paths = ['', '/events', '/events/1', '/venues', '/categories'].map((path) => `${REST_ROOT}/${REST_NAMESPACES[0]}${path}`);
  return headers.flatMap((h) =>
    paths.flatMap((path) => ['GET', 'POST'].map((method) => ({ method, path, headers: h, family: 'credentials' }))),
  );
}
