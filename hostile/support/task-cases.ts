// Malformed requests to the task API (/api/v1), derived from its route table (src/rest/tasks/routes.ts):
// every route and method with hostile path ids, query and body arguments of the wrong type, huge
// and odd strings, tools and files arrays that break each rule, bad JSON, other content types, oversized
// bodies, and the methods a path does not serve.
import { argsByPlace } from '../../src/rest/tasks/endpoint.js';
import { TASK_ROUTES } from '../../src/rest/tasks/routes.js';
import type { RawRequest } from './http.js';
import { BAD_JSON, CONTENT_TYPES, HOSTILE_VALUES, MEGABYTE, formEncode, jsonEncode, percentEncode } from './hostile-values.js';

/** Each task route's method, path (':name' parameters), and its query and body args (a body only where it has args). */
const ROUTES = TASK_ROUTES.map((route) => {
  const [endpoint] = route.endpoints;
  const { query, body } = argsByPlace(endpoint);
  return {
    method: endpoint.methods[0],
    path: route.docPath!.replace(/\{(\w+)\}/g, ':$1'),
    query,
    body: Object.keys(body).length ? body : undefined,
  };
});

const PREFIX = '/api/v1';

/** Path ids: unknown, malformed, traversing, huge. `known` is a real task id of the caller's. */
function hostileIds(known: string): string[] {
  return [
    known,
    '00000000-0000-0000-0000-000000000000',
    '0',
    '-1',
    '9223372036854775808',
    '..',
    '%2e%2e%2f',
    '%00',
    '%ff',
    '%',
    `${known}%00`,
    'x'.repeat(5000),
    '%F0%9F%98%80',
  ];
}

const TOOL = (name: unknown, extra: Record<string, unknown> = {}) => ({ type: 'function', function: { name, ...extra } });
/** Deeply nested object schemas, `depth` levels. */
const nested = (depth: number): Record<string, unknown> =>
  depth === 0 ? { type: 'string' } : { type: 'object', properties: { x: nested(depth - 1) } };

/** Tools arrays breaking each rule of the create contract. */
export const HOSTILE_TOOLS: unknown[] = [
  'form_input',
  {},
  [null],
  [{}],
  [[]],
  [{ type: 'function' }],
  [{ type: 'tool', function: { name: 'x' } }],
  [TOOL('')],
  [TOOL('has space')],
  [TOOL('x'.repeat(65))],
  [TOOL('__proto__')],
  [TOOL('constructor')],
  [TOOL('navigate')],
  [TOOL('dup'), TOOL('dup')],
  [TOOL(5)],
  [TOOL('t', { description: 5 })],
  [TOOL('t', { parameters: 'x' })],
  [TOOL('t', { parameters: { type: 'string' } })],
  [TOOL('t', { parameters: { type: 'object', properties: 5 } })],
  [TOOL('t', { parameters: nested(50) })],
  [TOOL('t', { parameters: { type: 'object', properties: { a: { type: 'object', $ref: '#' } } } })],
  [TOOL('t', { parameters: { type: 'object', properties: { a: { type: 'string', pattern: '(a+)+$' } } } })],
  [TOOL('t', { parameters: { type: 'object', enum: [] } })],
  Array.from({ length: 33 }, (_, i) => TOOL(`t${i}`)),
  Array.from({ length: 10_000 }, (_, i) => TOOL(`t${i}`)),
  [TOOL('t', { description: 'd'.repeat(MEGABYTE / 2) })],
];

/** `files` arrays breaking each rule of the create contract, and URLs the policy must refuse. */
export const HOSTILE_FILES: unknown[] = [
  'cv.txt',
  [null],
  [{}],
  [{ name: 'a.txt', content: 5 }],
  [{ name: 'a.txt', content: '%%%' }],
  [{ name: 'a.txt', content: 'aGk=', url: 'http://example.com/' }],
  [{ name: '', content: 'aGk=' }],
  [{ name: '../../etc/passwd', content: 'aGk=' }],
  [{ name: '__proto__', content: 'aGk=' }],
  [{ name: 'a\u0000b', content: 'aGk=' }],
  [{ name: 'x'.repeat(300), content: 'aGk=' }],
  [{ name: 'a.txt', content: 'aGk=', mimeType: 'text/html; evil' }],
  [{ name: 'a.txt', url: 'file:///etc/passwd' }],
  [{ name: 'a.txt', url: 'http://169.254.169.254/latest/meta-data/' }],
  [{ name: 'a.txt', url: 'http://127.0.0.1:1/' }],
  [{ name: 'a.txt', url: 'http://[::1]/' }],
  [{ name: 'a.txt', content: 'A'.repeat(MEGABYTE) }],
  Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, content: 'aGk=' })),
  Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, content: 'aGk=' })),
];

/** Arrays of hostile entries for the args that have their own. */
const HOSTILE_ARRAYS: Record<string, unknown[]> = { tools: HOSTILE_TOOLS, files: HOSTILE_FILES };

/** Every hostile task API request for one caller. `taskId` is a task the administrator created. */
export function taskCases(headers: Record<string, string>, taskId: string, seed: number): RawRequest[] {
  const out: RawRequest[] = [];
  const push = (family: string, request: Omit<RawRequest, 'family'>) =>
    out.push({ ...request, family, headers: { ...headers, ...request.headers } });
  const json = { 'content-type': 'application/json' };
  let n = seed;
  for (const route of ROUTES) {
    const names = route.path.match(/:[A-Za-z]+/g) ?? [];
    const pathWith = (value?: string) => PREFIX + route.path.replace(/:[A-Za-z]+/g, (name) => value ?? (name === ':taskId' ? taskId : '1'));
    // Hostile path ids.
    for (const name of names) {
      for (const id of hostileIds(taskId))
        push('path', {
          method: route.method,
          path: PREFIX + route.path.replace(name, id).replace(/:[A-Za-z]+/g, taskId === id ? '1' : taskId),
        });
    }
    // Each query argument, hostile values, alone and duplicated.
    for (const name of Object.keys(route.query ?? {})) {
      for (let k = 0; k < 6; k++)
        push('query', {
          method: route.method,
          path: `${pathWith()}?${formEncode({ [name]: HOSTILE_VALUES[(n++ * 5) % HOSTILE_VALUES.length] })}`,
        });
      push('query', { method: route.method, path: `${pathWith()}?${name}=1&${name}=-1&${name}%5B%5D=x&${name}%5Ba%5D%5Bb%5D=1` });
    }
    if (route.body) {
      const names = Object.keys(route.body);
      const required = Object.fromEntries(
        names.filter((name) => route.body![name].required).map((name) => [name, `Hostile ${name} (#${n})`]),
      );
      // Each body argument, hostile values, beside a plausible required one or alone.
      for (const name of names) {
        const own = HOSTILE_ARRAYS[name];
        const values = own ? [...own, ...HOSTILE_VALUES.slice(0, 8)] : HOSTILE_VALUES;
        const count = own ? values.length : 10;
        for (let k = 0; k < count; k++) {
          const value = values[own ? k : (n++ * 3) % values.length];
          push('body', {
            method: route.method,
            path: pathWith(),
            headers: json,
            body: jsonEncode(k % 2 ? { [name]: value } : { ...required, [name]: value }),
          });
        }
      }
      push('body', { method: route.method, path: pathWith(), headers: json, body: jsonEncode({ ...required, task: 'x'.repeat(10_001) }) });
      push('body', {
        method: route.method,
        path: pathWith(),
        headers: json,
        body: jsonEncode({ ...required, extra: { nested: [1, { deeper: true }] } }),
      });
      for (const body of BAD_JSON) push('json', { method: route.method, path: pathWith(), headers: json, body });
      for (const type of CONTENT_TYPES)
        push('content-type', {
          method: route.method,
          path: pathWith(),
          headers: type ? { 'content-type': type } : {},
          body: formEncode(required),
        });
      push('size', {
        method: route.method,
        path: pathWith(),
        headers: json,
        body: jsonEncode({ ...required, input: 'i'.repeat(MEGABYTE - 100) }),
      });
      push('size', {
        method: route.method,
        path: pathWith(),
        headers: json,
        body: jsonEncode({ ...required, task: 't'.repeat(2 * MEGABYTE) }),
      });
      push('size', {
        method: route.method,
        path: pathWith(),
        headers: json,
        body: jsonEncode({ ...required, task: 't'.repeat(2 * MEGABYTE) }),
        chunked: true,
      });
    }
    // The methods this path does not serve.
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].filter((m) => m !== route.method)) {
      push('method', { method, path: pathWith(), ...(method === 'GET' ? {} : { headers: json, body: '{}' }) });
    }
  }
  // Paths no route has.
  for (const path of [
    '',
    '/',
    '/task',
    '/task/',
    '/tasks/x',
    `/task/${taskId}`,
    `/task/${taskId}/run`,
    '/..%2f..%2fetc%2fpasswd',
    `/${percentEncode('😀')}`,
  ]) {
    push('path', { method: 'GET', path: PREFIX + path });
  }
  return out;
}
