// Helpers of The Events Calendar's tribe-common that its REST validators and queries use:
// Tribe__Utils__Array::list_to_array and tribe_is_truthy.
import { isPlainObject } from '../values.js';
import { phpBool, phpEmpty, phpIsNumeric, phpStrval } from './casts.js';
import { phpStrtolower } from './strings.js';
import { phpUrldecode } from './url-encoding.js';

/** A list item as list_to_array keeps it: a numeric string becomes its number (PHP's `$v + 0`). */
const listItem = (item: unknown): unknown => (typeof item === 'string' && phpIsNumeric(item) ? Number(item.trim()) : item);

/**
 * The split step of list_to_array: preg_split('/\s*SEP\s*\/') — whitespace around separators goes,
 * at the ends it stays — then empty items dropped and numeric ones made numbers.
 */
export function splitList(text: string, separator = ','): Array<string | number> {
  const sep = separator.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return text
    .split(new RegExp(`\\s*${sep}\\s*`))
    .filter((item) => item !== '')
    .map((item) => listItem(item) as string | number);
}

/**
 * Tribe__Utils__Array::list_to_array: PHP-empty input ('', '0', 0, false, null, []) is [];
 * an array keeps its items (numeric strings made numbers, '' dropped); anything else is
 * URL-decoded and split (splitList).
 */
export function listToArray(value: unknown, separator = ','): unknown[] {
  if (phpEmpty(value)) return [];
  if (Array.isArray(value) || isPlainObject(value))
    return Object.values(value)
      .filter((item) => item !== '')
      .map(listItem);
  return splitList(phpUrldecode(phpStrval(value)), separator);
}

const TRUTHY_STRINGS = ['1', 'enable', 'enabled', 'on', 'y', 'yes', 'true'];

/** tribe_is_truthy: a boolean as it is; a string only when one of TRUTHY_STRINGS (any case); else PHP (bool). */
export function tribeIsTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return TRUTHY_STRINGS.includes(phpStrtolower(value));
  return phpBool(value);
}
