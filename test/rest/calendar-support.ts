// Helpers of the venue/organizer/term REST tests: requests under a namespace, the original's
// recorded responses (shared/spec/samples), and the normalisation that makes bodies comparable
// (ids, timestamps of "now", JSON-LD's randomly entity-encoded e-mails), keeping key order.
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { SAMPLES_DIR as SAMPLES, haveSamples } from '../support/shared.js';
import type { TestResponse, TestServer } from '../support/server.js';

export const SITE_URL = 'http://127.0.0.1:8080';
export const NAMESPACES = ['tribe/events/v1', 'calendar/events/v1'] as const;

export { haveSamples };

export interface Recorded {
  status: number;
  headers: Map<string, string>;
  body: any;
  /** The body as sent (PHP's JSON encoding). */
  text: string;
  request?: any;
}

/** One recorded exchange of the original, e.g. `sample('04-venue-create')`. */
export function sample(name: string): Recorded {
  const raw = readFileSync(`${SAMPLES}${name}.http`, 'utf8');
  const split = raw.search(/\r?\n\r?\n/);
  const lines = raw.slice(0, split).split(/\r?\n/);
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) headers.set(line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim());
  const requestFile = `${SAMPLES}${name}.request.json`;
  return {
    status: Number(lines[0].split(' ')[1]),
    headers,
    body: JSON.parse(raw.slice(split).trim()),
    text: raw.slice(split).trim(),
    request: existsSync(requestFile) ? JSON.parse(readFileSync(requestFile, 'utf8')) : undefined,
  };
}

export interface Client {
  (
    method: string,
    path: string,
    options?: { body?: unknown; form?: string; key?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
}

/** Requests under a namespace of the calendar API: `rest('GET', '/venues')`. */
export function client(api: TestServer, namespace: string = NAMESPACES[0]): Client {
  return (method, path, options = {}) => api.request(method, `/wp-json/${namespace}${path}`, options);
}

const DATE_KEYS = new Set(['date', 'date_utc', 'modified', 'modified_utc']);
const WALL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Ids and publication/modification times replaced by placeholders; e-mail entities decoded. */
export function normalise(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalise(item, key === 'additional_data' ? 'id' : ''));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k)]));
  if (typeof value === 'number' && (key === 'id' || key === 'term_id' || key === 'parent')) return value === 0 ? 0 : '<id>';
  if (typeof value !== 'string') return value;
  if (DATE_KEYS.has(key) && WALL.test(value)) return '<date>';
  if (key === 'email') value = value.replace(/&#(\d+);/g, (_m, code) => String.fromCharCode(Number(code)));
  return (value as string)
    .replace(/\?id=\d+/g, '?id=<id>')
    .replace(/\/(events|venues|organizers|categories|tags|tribe_events_cat)\/\d+/g, '/$1/<id>')
    .replace(/([?&](?:tribe_events_cat|tags)=)\d+/g, '$1<id>');
}

/** Objects as [key, value] pairs, so that comparisons see key order too. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (isObject(value)) return Object.entries(value).map(([k, v]) => [k, ordered(v)]);
  return value;
}

/** The same JSON, key order included, once ids and timestamps are normalised. */
export function expectSameBody(actual: unknown, expected: unknown): void {
  expect(ordered(normalise(actual))).toEqual(ordered(normalise(expected)));
}

/** The body of a response, checked to have `status`. */
export function expectStatus(response: TestResponse, status: number): any {
  expect(response.status, response.text).toBe(status);
  return response.json;
}

/** A rest_invalid_param answer naming exactly `params` (all "Invalid parameter." unless given). */
export function expectInvalid(response: TestResponse, params: string[] | Record<string, string>): void {
  const expected = Array.isArray(params) ? Object.fromEntries(params.map((p) => [p, 'Invalid parameter.'])) : params;
  const body = expectStatus(response, 400);
  expect(body.code).toBe('rest_invalid_param');
  expect(body.message).toBe(`Invalid parameter(s): ${Object.keys(expected).join(', ')}`);
  expect(body.data.params).toEqual(expected);
  expect(Object.keys(body.data.params)).toEqual(Object.keys(expected));
}

export function expectError(response: TestResponse, status: number, code: string, message?: string): void {
  const body = expectStatus(response, status);
  expect(body.code).toBe(code);
  if (message !== undefined) expect(body.message).toBe(message);
  expect(body.data.status).toBe(status);
}

export const FORBIDDEN = 'Sorry, you are not allowed to do that.';
