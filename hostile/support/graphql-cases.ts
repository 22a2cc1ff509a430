// Malformed GraphQL requests: documents past every bound (depth, aliases, tokens, directives,
// size), fragment cycles, syntax errors, variables of the wrong type, batches, bodies that are not
// JSON or not a request, other content types, multipart uploads, and GET with bad parameters.
import type { RawRequest } from './http.js';
import { BAD_JSON, HOSTILE_VALUES, MEGABYTE, percentEncode, toJson } from './hostile-values.js';

/** `events { items { venue { events { venue { … id } } } } }`: a valid selection `depth` levels deep. */
export function deepQuery(depth: number): string {
  let selection = 'id';
  const levels = ['events', 'venue'];
  for (let level = depth - 2; level > 0; level--) selection = `${levels[level % 2]} { ${selection} }`;
  return `{ events { items { ${selection} } } }`;
}

/** `depth` levels of `venue { events … }` reached through inline fragments instead of fields. */
function deepFragments(depth: number): string {
  let selection = '__typename';
  for (let level = 0; level < depth; level++) selection = `... on Query { ${selection} }`;
  return `{ ${selection} }`;
}

export const aliasQuery = (count: number, field = '__typename') =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

/** The three documents whose refusal is timed: each must be turned away before it runs. */
export const REFUSED = {
  'depth 50': deepQuery(50),
  '10,000 aliases': aliasQuery(10_000),
  'fragment cycle': 'query Cycle { ...A } fragment A on Query { events { total } ...B } fragment B on Query { ...A }',
};

const DOCUMENTS: Record<string, string[]> = {
  depth: [deepQuery(13), deepQuery(50), deepQuery(200), deepQuery(1000), deepFragments(60), deepFragments(2000)],
  aliases: [
    aliasQuery(61),
    aliasQuery(200, 'events { total }'),
    aliasQuery(1000),
    aliasQuery(10_000),
    aliasQuery(10_000, 'events { total }'),
  ],
  'fragment cycle': [
    REFUSED['fragment cycle'],
    'query { ...A } fragment A on Query { ...A }',
    'query { events { items { ...E } } } fragment E on Event { venue { events { ...E } } }',
    `query { ...F0 } ${Array.from({ length: 50 }, (_, i) => `fragment F${i} on Query { ...F${(i + 1) % 50} }`).join(' ')}`,
    'fragment A on Query { ...B } fragment B on Query { ...A } query { __typename }',
    'query { ...A ...A ...A } fragment A on Query { events { total } }',
    'query { ...Missing }',
  ],
  syntax: [
    '',
    '{',
    '}',
    'query',
    '{ events(',
    '{ event(id: "unterminated) { id } }',
    '{ event(slug: """never ends',
    '{ event(slug: "\\u{ZZZZ}") { id } }',
    '{ event(slug: "nul\u0000byte") { id } }',
    '{ event(id: 1e309) { id } }',
    '{ event(id: 99999999999999999999) { id } }',
    '{ event(id: -2147483649) { id } }',
    '{ events(page: { perPage: -1, page: 0 }) { total } }',
    '{ events(page: { perPage: 1000000 }) { total } }',
    `{ __typename ${'@skip(if: false) '.repeat(100)}}`,
    '{ __typename @nonexistent }',
    '{ nonexistentField }',
    'mutation { deleteEvent(id: 1) { id } }',
    'subscription { __typename }',
    '{ __schema { types { fields { type { fields { type { fields { type { name } } } } } } } } }',
    `{ ${'#'.repeat(1000)}\n__typename }`,
    '\uFEFF{ __typename }',
    '{ __typename } { __typename }',
    'query A { __typename } query A { __typename }',
    `{ event(slug: "${'x'.repeat(200_000)}") { id } }`,
    `${' '.repeat(250_000)}{ __typename }`,
    '😀😀😀',
  ],
};

const VARIABLE_DOC =
  'query($id: Int, $page: PageInput, $filter: EventFilter) { event(id: $id) { id } events(page: $page, filter: $filter) { total } }';
const MUTATION_DOC = 'mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }';

/** Request bodies that are not a GraphQL request (or many). */
const BODIES: string[] = [
  ...BAD_JSON,
  '{"query": 5}',
  '{"query": null}',
  '{"query": ["{ __typename }"]}',
  '{"query": {}}',
  '{"query": "{ __typename }", "operationName": 5}',
  '{"query": "{ __typename }", "operationName": "Nope"}',
  '{"query": "{ __typename }", "variables": "{bad"}',
  '{"query": "{ __typename }", "variables": [1, 2]}',
  '{"query": "{ __typename }", "extensions": "x"}',
  '{"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "abc"}}}',
  '[]',
  JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
  JSON.stringify(Array.from({ length: 1000 }, () => ({ query: '{ events { total } }' }))),
  JSON.stringify({ query: '{ __typename }', variables: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`v${i}`, i])) }),
];

const CONTENT_TYPES = [
  'application/graphql',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data',
  '',
];

function multipart(parts: Array<[string, string, string?]>): string {
  return `${parts.map(([name, value, file]) => `--x\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n\r\n${value}\r\n`).join('')}--x--\r\n`;
}

const MULTIPART: string[] = [
  multipart([['operations', '{bad']]),
  multipart([
    ['operations', '{"query":"{ __typename }"}'],
    ['map', '{bad'],
  ]),
  multipart([
    ['operations', '{"query":"{ __typename }"}'],
    ['map', '{"0":5}'],
    ['0', 'x', 'a.txt'],
  ]),
  multipart([
    ['operations', '{"query":"{ __typename }","variables":{}}'],
    ['map', '{"0":["variables.__proto__.polluted"]}'],
    ['0', 'x', 'a.txt'],
  ]),
  multipart([
    ['operations', '{"query":"{ __typename }","variables":{}}'],
    ['map', '{"0":["constructor.prototype.polluted"]}'],
    ['0', 'x', 'a.txt'],
  ]),
  multipart([['map', '{}']]),
];

const GET_QUERIES: string[] = [
  '',
  'query=',
  'query=%7B',
  `query=${percentEncode('mutation { deleteEvent(id: 1) { id } }')}`,
  `query=${percentEncode('{ __typename }')}&variables=%7Bbad`,
  `query=${percentEncode('{ __typename }')}&variables=%5B%5D`,
  `query=${percentEncode('{ __typename }')}&operationName%5B%5D=x`,
  `query=${percentEncode('{ __typename }')}&query=${percentEncode('{ events { total } }')}`,
  `query=${percentEncode('{ __typename }')}&extensions=%7B%22persistedQuery%22%3A1%7D`,
  `query=${percentEncode(deepQuery(50))}`,
  `query=${percentEncode(aliasQuery(200))}`,
  `query=${'%7B'.repeat(3000)}`,
  `query=%ff%fe%00`,
  `query[a][b]=1`,
];

/**
 * Every hostile GraphQL request for one caller (`headers` carries the key), each document in a
 * POST JSON body, most also as a GET, plus variables, bodies, content types and multipart forms.
 */
export function graphqlCases(headers: Record<string, string>): RawRequest[] {
  const out: RawRequest[] = [];
  const post = (family: string, body: string, contentType = 'application/json', extra: Partial<RawRequest> = {}) =>
    out.push({
      method: 'POST',
      path: '/graphql',
      headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
      body,
      family,
      ...extra,
    });
  const get = (family: string, query: string) =>
    out.push({ method: 'GET', path: `/graphql${query ? `?${query}` : ''}`, headers: { ...headers, accept: 'application/json' }, family });

  for (const [family, documents] of Object.entries(DOCUMENTS)) {
    for (const document of documents) {
      post(family, JSON.stringify({ query: document }));
      if (document.length < 4000) get(family, `query=${percentEncode(document)}`);
    }
  }
  // Variables of every hostile shape, for each variable of the document, and for a mutation's input.
  for (const value of HOSTILE_VALUES) {
    for (const name of ['id', 'page', 'filter'])
      post('variables', `{"query":${JSON.stringify(VARIABLE_DOC)},"variables":{"${name}":${toJson(value)}}}`);
    post('variables', `{"query":${JSON.stringify(MUTATION_DOC)},"variables":{"input":${toJson(value)}}}`);
    post(
      'variables',
      `{"query":${JSON.stringify(MUTATION_DOC)},"variables":{"input":{"title":${toJson(value)},"startDate":${toJson(value)},"endDate":"2031-01-01"}}}`,
    );
  }
  for (const body of BODIES) post('body', body);
  for (const type of CONTENT_TYPES) post('content-type', JSON.stringify({ query: '{ events { total } }' }), type);
  post('content-type', '{ __typename }', 'application/graphql');
  for (const body of MULTIPART) post('multipart', body, 'multipart/form-data; boundary=x');
  for (const query of GET_QUERIES) {
    get('get', query);
    post('form', query, 'application/x-www-form-urlencoded');
  }
  // A megabyte document: refused by its Content-Length (413), and sent chunked, without one.
  const megabyte = JSON.stringify({ query: `{ __typename ${'a: __typename '.repeat(MEGABYTE / 14)}}` });
  post('megabyte', megabyte);
  post('megabyte', megabyte, 'application/json', { chunked: true });
  post('megabyte', JSON.stringify({ query: `{ event(slug: "${'x'.repeat(MEGABYTE)}") { id } }` }), 'application/json', { chunked: true });
  // Other methods on the endpoint.
  for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'])
    out.push({ method, path: '/graphql', headers, body: method === 'HEAD' ? undefined : '{}', family: 'method' });
  return out;
}
