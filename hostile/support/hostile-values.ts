// Hostile values and how to write them into a query string, a form body or a JSON body.
// A `Literal` is JSON text written verbatim (numbers JSON.stringify cannot make: 1e309, 2^63).

export class Literal {
  constructor(readonly json: string) {}
}

export const MEGABYTE = 1024 * 1024;

/** Ids a client might send: zero, negative, past 32 and 64 bits, overflowing, fractional, padded. */
export const HOSTILE_IDS: unknown[] = [
  0,
  -1,
  2 ** 31,
  '2147483648',
  new Literal('9223372036854775808'),
  '9223372036854775808',
  new Literal('1e309'),
  '1e309',
  new Literal('-0'),
  1.5,
  '0x10',
  '00000000001',
  ' 1 ',
  '１',
];

/** Text a database or a renderer may choke on. */
export const HOSTILE_TEXT: unknown[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '😀'.repeat(64),
  '\u202Egnp.exe',
  'שלום עולם مرحبا',
  '\uD800',
  'é'.normalize('NFD').repeat(100),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%00%ff',
  '../../etc/passwd',
  '${jndi:ldap://x}',
  '\r\n\t',
  'x'.repeat(20_000),
];

/** Values of the wrong type, for any argument. */
export const HOSTILE_SHAPES: unknown[] = [
  null,
  true,
  false,
  'true',
  'NaN',
  'Infinity',
  new Literal('1e-400'),
  [],
  [1, 2, 3],
  ['a', ['b', ['c']]],
  {},
  { a: 1 },
  { a: { b: { c: 1 } } },
  [null],
  [{}],
];

/** Dates no calendar has. */
export const HOSTILE_DATES: unknown[] = [
  '2031-02-30 25:61:61',
  '0000-00-00 00:00:00',
  '9999-12-31 23:59:59',
  '-271821-04-20',
  '+1000000 years',
  'yesterday 23:59',
  '2031-13-01',
  '1e309',
];

export const HOSTILE_VALUES: unknown[] = [...HOSTILE_IDS, ...HOSTILE_TEXT, ...HOSTILE_SHAPES, ...HOSTILE_DATES];

/** The hostile values that fit an argument of this JSON type best, the others after them. */
export function valuesFor(type: string | string[] | undefined, name: string): unknown[] {
  const types = Array.isArray(type) ? type : [type];
  const first = /date/.test(name)
    ? HOSTILE_DATES
    : types.includes('integer') || types.includes('number') || /(^|_)(id|page|parent|author|event|post)$/.test(name)
      ? HOSTILE_IDS
      : types.includes('boolean')
        ? HOSTILE_SHAPES
        : HOSTILE_TEXT;
  return [...first, ...HOSTILE_VALUES.filter((value) => !first.includes(value))];
}

/** JSON text of a value, literals written verbatim. */
export function toJson(value: unknown): string {
  if (value instanceof Literal) return value.json;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** encodeURIComponent, except that a lone surrogate is written as its WTF-8 bytes (invalid UTF-8). */
export function percentEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // a lone surrogate: below
  }
  return text.replace(/[\s\S]/gu, (ch) => {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    }
    return encodeURIComponent(ch);
  });
}

/** `name=value` pairs in PHP's bracket notation: arrays as name[]=…, objects as name[key]=…, null as a bare name. */
export function formPairs(name: string, value: unknown): string[] {
  if (value instanceof Literal) return [`${name}=${percentEncode(value.json)}`];
  if (value === null) return [name];
  if (Array.isArray(value)) return value.length ? value.flatMap((item) => formPairs(`${name}%5B%5D`, item)) : [`${name}%5B%5D`];
  if (typeof value === 'object') {
    const entries = Object.entries(value as object);
    return entries.length ? entries.flatMap(([key, item]) => formPairs(`${name}%5B${percentEncode(key)}%5D`, item)) : [`${name}%5B%5D`];
  }
  const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
  return [`${name}=${percentEncode(text)}`];
}

/** A query string or form body of several arguments. */
export function formEncode(args: Record<string, unknown>): string {
  return Object.entries(args)
    .flatMap(([name, value]) => formPairs(percentEncode(name), value))
    .join('&');
}

/** A JSON object body of several arguments. */
export function jsonEncode(args: Record<string, unknown>): string {
  return toJson(args);
}

/** Bodies that are not JSON, or JSON that is not an object. */
export const BAD_JSON: string[] = [
  '{',
  '{"title":',
  '[1,',
  '{"a":1,}',
  "{'a':1}",
  'null',
  '"text"',
  '[]',
  '1e309',
  '{"a":"\u0001"}',
  '\uFEFF{}',
  '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
];

/** Content types a JSON or form body may come with. */
export const CONTENT_TYPES: string[] = [
  'text/plain',
  'application/xml',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'foo/bar/baz;;;=',
  '',
];
