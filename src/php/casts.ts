// PHP 8's type juggling as WordPress and The Events Calendar rely on it: is_numeric, empty() and
// the (int), (float), (bool) and (string) casts. JSON objects count as PHP arrays, as WordPress
// decodes request bodies into associative arrays.
import { isPlainObject } from '../values.js';

const WHITESPACE = '[ \\t\\n\\r\\v\\f]*';
const NUMBER = '[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?';

/** A PHP 8 numeric string: optional leading and trailing whitespace, sign, digits/decimal, exponent. */
export const PHP_NUMERIC = new RegExp(`^${WHITESPACE}${NUMBER}${WHITESPACE}$`);
/** The leading-numeric prefix the casts read ("12abc" → 12). */
const LEADING_NUMERIC = new RegExp(`^${WHITESPACE}${NUMBER}`);

/** PHP is_numeric: any int or float, or a numeric string. */
export function phpIsNumeric(value: unknown): boolean {
  return typeof value === 'number' || (typeof value === 'string' && PHP_NUMERIC.test(value));
}

/** PHP empty(): null, false, 0, 0.0, '', '0', and empty arrays. */
export function phpEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '' || value === '0') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return false;
}

/** PHP (float) / floatval: a string's leading number, else 0; arrays are 1 unless empty. */
export function phpFloatval(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const m = LEADING_NUMERIC.exec(value);
    return m ? Number(m[0].trim()) : 0;
  }
  if (Array.isArray(value)) return value.length ? 1 : 0;
  if (isPlainObject(value)) return Object.keys(value).length ? 1 : 0;
  return 0;
}

/** PHP (int) / intval (base 10), truncating toward zero; NaN and infinities are 0. Beyond 2^53 a
 *  JS number is not exact (PHP's ints go to 2^63): callers cap ids and pages long before that. */
export function phpIntval(value: unknown): number {
  const n = Math.trunc(phpFloatval(value));
  return Number.isFinite(n) ? n : 0;
}

/** PHP (bool) / boolval: everything but what empty() calls empty. */
export function phpBool(value: unknown): boolean {
  return !phpEmpty(value);
}

/** PHP (string) of a scalar: "1" for true, "" for false and null; an array is "Array". */
export function phpStrval(value: unknown): string {
  if (value === true) return '1';
  if (value === false || value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return 'Array';
}
