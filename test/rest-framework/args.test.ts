// Unit tests of the PHP/WordPress/TEC argument semantics the REST framework reproduces.
import { describe, expect, it } from 'vitest';
import {
  cappedInt,
  isNonEmptyString,
  isPositiveInt,
  isStringOrEmpty,
  parseRequestArg,
  restIsBoolean,
  restSanitizeBoolean,
  timeValidator,
  validateValueFromSchema,
} from '../../src/rest/args.js';
import { ArgError } from '../../src/rest/errors.js';
import { encodePhpJson } from '../../src/rest/json.js';
import { buildQuery, effectiveMethod, mediaType, parseBody, phpParseStr, restRoutePath } from '../../src/rest/request.js';
import { templatePath } from '../../src/rest/route-table.js';

const message = (result: unknown) => (result instanceof ArgError ? result.message : result);

describe('WordPress type checks and coercion (rest_parse_request_arg)', () => {
  it('booleans accept true/false/1/0 in any case and coerce them', () => {
    for (const v of [true, false, 'true', 'FALSE', '1', '0', 1, 0]) expect(restIsBoolean(v)).toBe(true);
    for (const v of ['yes', '', 2, null, []]) expect(restIsBoolean(v)).toBe(false);
    expect(['true', 'false', '1', '0', 'False'].map(restSanitizeBoolean)).toEqual([true, false, true, false, false]);
    expect(parseRequestArg('false', { type: 'boolean' }, 'featured')).toBe(false);
    expect(message(parseRequestArg('maybe', { type: 'boolean' }, 'featured'))).toBe('featured is not of type boolean.');
  });

  it('integers: numeric and integral, coerced to numbers', () => {
    expect(parseRequestArg('3', { type: 'integer' }, 'page')).toBe(3);
    expect(parseRequestArg('3.0', { type: 'integer' }, 'page')).toBe(3);
    expect(message(parseRequestArg('3.5', { type: 'integer' }, 'page'))).toBe('page is not of type integer.');
    expect(message(parseRequestArg('foo', { type: 'integer' }, 'page'))).toBe('page is not of type integer.');
    expect(message(parseRequestArg(true, { type: 'integer' }, 'page'))).toBe('page is not of type integer.');
  });

  it('type errors carry rest_invalid_type and the param', () => {
    const error = parseRequestArg(true, { type: 'string' }, 'show_map') as ArgError;
    expect([error.code, error.message, error.data]).toEqual([
      'rest_invalid_type',
      'show_map is not of type string.',
      { param: 'show_map' },
    ]);
  });

  it('arrays: scalars are split like wp_parse_list, items checked and coerced', () => {
    expect(parseRequestArg('1, 2,3', { type: 'array', items: { type: 'integer' } }, 'ids')).toEqual([1, 2, 3]);
    expect(parseRequestArg({ 0: 'a', 1: 'b' }, { type: 'array' }, 'ids')).toEqual(['a', 'b']);
    expect(message(parseRequestArg('1,x', { type: 'array', items: { type: 'integer' } }, 'ids'))).toBe('ids[1] is not of type integer.');
    expect(message(parseRequestArg({ a: 1 }, { type: 'array' }, 'ids'))).toBe('ids is not of type array.');
  });

  it('multiple types, enum, bounds, string length', () => {
    expect(message(validateValueFromSchema([], { type: ['integer', 'boolean'] }, 'x'))).toBe('x is not of type integer,boolean.');
    expect(parseRequestArg('true', { type: ['integer', 'boolean'] }, 'x')).toBe(true);
    expect(message(validateValueFromSchema('c', { type: 'string', enum: ['a', 'b'] }, 'order'))).toBe('order is not one of a and b.');
    expect(message(validateValueFromSchema('d', { type: 'string', enum: ['a', 'b', 'c'] }, 'order'))).toBe(
      'order is not one of a, b, and c.',
    );
    expect(message(validateValueFromSchema('z', { type: 'string', enum: ['a'] }, 'order'))).toBe('order is not a.');
    expect(message(validateValueFromSchema('0', { type: 'integer', minimum: 1 }, 'n'))).toBe('n must be greater than or equal to 1');
    expect(message(validateValueFromSchema('abc', { type: 'string', maxLength: 2 }, 's'))).toBe('s must be at most 2 characters long.');
  });

  it('objects: properties and additionalProperties', () => {
    const schema = { type: 'object' as const, properties: { id: { type: 'integer' as const } }, additionalProperties: false };
    expect(parseRequestArg({ id: '12' }, schema, 'venue')).toEqual({ id: 12 });
    expect(message(validateValueFromSchema({ id: 'x' }, schema, 'venue'))).toBe('venue[id] is not of type integer.');
    expect(message(validateValueFromSchema({ other: 1 }, schema, 'venue'))).toBe('other is not a valid property of Object.');
  });
});

describe('The Events Calendar validators', () => {
  it('is_positive_int, is_string, is_string_or_empty, is_time, capped ints', () => {
    expect(['1', 2, '3.0', ' 4'].map(isPositiveInt)).toEqual([true, true, true, true]);
    expect(['foo', '-1', '0', 'foo bar', '1.5', 0, true].map(isPositiveInt)).toEqual(Array(7).fill(false));
    expect(['a', '', '0', 5].map(isNonEmptyString)).toEqual([true, false, false, false]);
    expect(['a', '', null, 5].map(isStringOrEmpty)).toEqual([true, true, true, false]);
    const isTime = timeValidator((text) => (text === 'tomorrow' ? 86400 : false));
    expect(['tomorrow', '1700000000', 1700000000, '', 'before my birthday'].map(isTime)).toEqual([true, true, true, false, false]);
    expect(['80', '7', 'x'].map(cappedInt(50))).toEqual([50, 7, 0]);
  });
});

describe('request parsing', () => {
  it('route paths under the REST root, decoded, trailing slash trimmed', () => {
    expect(restRoutePath('/wp-json/calendar/events/v1/events/', '/wp-json')).toBe('/calendar/events/v1/events');
    expect(restRoutePath('/wp-json', '/wp-json')).toBe('/');
    expect(restRoutePath('/wp-json/tags/foo%20bar', '/wp-json')).toBe('/tags/foo bar');
    expect(restRoutePath('/wp-jsonx/a', '/wp-json')).toBeNull();
    expect(restRoutePath('/graphql', '/wp-json')).toBeNull();
  });

  it('PHP parse_str: brackets, last duplicate wins, top-level dots/spaces become _', () => {
    expect(phpParseStr('venue[venue]=X&venue[city]=Y&organizer[0][id]=12&organizer[1][organizer]=A&a=1&a=2&b.c=3')).toEqual({
      venue: { venue: 'X', city: 'Y' },
      organizer: [{ id: '12' }, { organizer: 'A' }],
      a: '2',
      b_c: '3',
    });
  });

  it('method override and media types', () => {
    expect(effectiveMethod('POST', { _method: 'put' }, { 'x-http-method-override': 'DELETE' })).toBe('PUT');
    expect(effectiveMethod('POST', {}, { 'x-http-method-override': 'delete' })).toBe('DELETE');
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaType('garbage')).toBe('');
  });

  it('bodies: JSON for any method, form only for body methods, PHP json error codes', async () => {
    const json = Buffer.from('{"a":1}');
    expect((await parseBody(json, 'application/json', 'GET', 'GET')).json).toEqual({ a: 1 });
    expect((await parseBody(Buffer.from('a=1'), 'application/x-www-form-urlencoded', 'GET', 'GET')).body).toEqual({});
    expect((await parseBody(Buffer.from('a=1'), undefined, 'PUT', 'PUT')).body).toEqual({ a: '1' });
    expect((await parseBody(Buffer.from('a=1'), undefined, 'POST', 'POST')).body).toEqual({});
    const bad = await parseBody(Buffer.from('{"a":'), 'application/json', 'POST', 'POST');
    expect(bad.jsonError?.toBody()).toEqual({
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
    });
    const utf8 = await parseBody(Buffer.from([0x7b, 0xff, 0x7d]), 'application/json', 'POST', 'POST');
    expect(utf8.jsonError?.data).toEqual({
      json_error_code: 5,
      json_error_message: 'Malformed UTF-8 characters, possibly incorrectly encoded',
    });
  });

  it('multipart bodies become form parameters (files ignored)', async () => {
    const form = new FormData();
    form.append('venue[venue]', 'Hall');
    form.append('file', new Blob(['x']), 'x.txt');
    const response = new Response(form);
    const raw = Buffer.from(await response.arrayBuffer());
    const parsed = await parseBody(raw, response.headers.get('content-type')!, 'POST', 'POST');
    expect(parsed.body).toEqual({ venue: { venue: 'Hall' } });
  });

  it('query building and path templates', () => {
    expect(buildQuery({ page: 2, start_date: '2025-01-01 00:00:00', featured: true, venue: [3, 4], skip: undefined })).toBe(
      'page=2&start_date=2025-01-01+00%3A00%3A00&featured=1&venue=3%2C4',
    );
    expect(templatePath('/events/by-slug/(?P<slug>[^/]+)')).toBe('/events/by-slug/{slug}');
  });
});

describe('PHP-style JSON', () => {
  it('escapes slashes and non-ASCII like json_encode', () => {
    expect(encodePhpJson({ url: 'http://a/b', name: 'Café 😀', ctl: '\u0001' })).toBe(
      '{"url":"http:\\/\\/a\\/b","name":"Caf\\u00e9 \\ud83d\\ude00","ctl":"\\u0001"}',
    );
    expect(encodePhpJson({ a: [] }, true)).toBe('{\n    "a": []\n}');
    expect(encodePhpJson(undefined)).toBe('null');
  });

  it('escapes every slash and non-ASCII unit of a large body dense in both', () => {
    const slashes = '/'.repeat(5000);
    const mixed = Array.from({ length: 2000 }, (_, i) => `a/é${String.fromCharCode(0x100 + i)}☃`).join('');
    const expected = (s: string) =>
      JSON.stringify(s)
        .replace(/\//g, '\\/')
        .replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
    expect(encodePhpJson(slashes)).toBe(expected(slashes));
    expect(encodePhpJson({ mixed })).toBe(`{"mixed":${expected(mixed)}}`);
    expect(encodePhpJson('\uffff\u0080\u007f')).toBe('"\\uffff\\u0080\u007f"');
  });

  it('writes what JSON.stringify writes, whatever the values at the levels written member by member', () => {
    const php = (s: string) =>
      s.replace(/\//g, '\\/').replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
    const bare = Object.assign(Object.create(null), { 'k/é': 1 });
    const withToJson = { toJSON: () => ({ replaced: true }), hidden: 1 };
    const values: unknown[] = [
      { skipped: undefined, fn: () => 1, kept: 0, 'a/b': 'é', nested: { deep: [undefined, () => 1, 'x/y'] } },
      [undefined, () => 1, null, new Date(0), withToJson, [1, [2, [3]]], , 'end'], // eslint-disable-line no-sparse-arrays
      { only: undefined },
      { events: [{ id: 1, when: new Date(86_400_000) }, bare, withToJson, new String('boxed'), new Number(2)] },
      withToJson,
      bare,
      [],
      {},
      'plain/string',
      42,
      null,
      Object.assign([1, 2], { toJSON: () => 'array/toJSON' }),
      { arr: Object.assign([1], { toJSON: () => 'x' }), keyed: { toJSON: (key: string) => `key:${key}` } },
      [{ toJSON: (key: string) => `index:${key}` }, { toJSON: () => undefined }],
      { gone: { toJSON: () => undefined }, kept: 1 },
      { toJSON: (key: string) => ({ top: key }) },
    ];
    for (const value of values) expect(encodePhpJson(value)).toBe(php(JSON.stringify(value)));
  });
});
