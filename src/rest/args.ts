// Argument checks and coercions of WordPress and The Events Calendar, reproduced with PHP's
// semantics (is_numeric, (int), empty…) and WordPress's exact messages, so validation results are
// the original's: e.g. "featured is not of type boolean." (rest_validate_value_from_schema).
import { ArgError } from './errors.js';
import type { ArgSchema, JsonType } from './route-table.js';
import { isPlainObject } from '../values.js';
import { phpBool, phpEmpty, phpFloatval, phpIntval, phpIsNumeric, phpStrval } from '../php/casts.js';

type PlainObject = Record<string, unknown>;

const INT_KEY = /^(0|-?[1-9]\d*)$/;

/** WP wp_is_numeric_array: a JS array, or an object whose keys are all integers (PHP list). */
export function isList(value: unknown): value is unknown[] | PlainObject {
  if (Array.isArray(value)) return true;
  return isPlainObject(value) && Object.keys(value).every((k) => INT_KEY.test(k));
}

const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** WP wp_parse_list: a string split on commas/whitespace, or the scalar items of an array. */
export function wpParseList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.filter(isScalar);
  if (isPlainObject(value)) return Object.values(value).filter(isScalar);
  return phpStrval(value)
    .split(/[\s,]+/)
    .filter((s) => s !== '');
}

// ---------------------------------------------------------------------------------------------
// WordPress REST type checks (wp-includes/rest-api.php)

export function restIsBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') return ['false', 'true', '0', '1'].includes(value.toLowerCase());
  if (typeof value === 'number') return value === 0 || value === 1;
  return false;
}

export function restSanitizeBoolean(value: unknown): boolean {
  if (typeof value === 'string' && ['false', '0'].includes(value.toLowerCase())) return false;
  return phpBool(value);
}

export function restIsInteger(value: unknown): boolean {
  return phpIsNumeric(value) && Number.isInteger(phpFloatval(value));
}

export function restIsArray(value: unknown): boolean {
  return isScalar(value) || isList(value);
}

export function restSanitizeArray(value: unknown): unknown[] {
  if (isScalar(value)) return wpParseList(value);
  if (Array.isArray(value)) return value;
  if (isPlainObject(value)) return Object.values(value);
  return [];
}

export function restIsObject(value: unknown): boolean {
  return value === '' || (typeof value === 'object' && value !== null);
}

export function restSanitizeObject(value: unknown): PlainObject {
  if (Array.isArray(value)) return { ...value };
  return isPlainObject(value) ? value : {};
}

const TYPE_CHECKS: Record<JsonType, (v: unknown) => boolean> = {
  array: restIsArray,
  object: restIsObject,
  integer: restIsInteger,
  number: phpIsNumeric,
  boolean: restIsBoolean,
  string: (v) => typeof v === 'string',
  null: (v) => v === null,
};

/** WP rest_get_best_type_for_value: '' prefers string; else the first type that fits. */
function bestType(value: unknown, types: JsonType[]): JsonType | undefined {
  if (value === '' && types.includes('string')) return 'string';
  return types.find((t) => TYPE_CHECKS[t]?.(value));
}

const typeError = (param: string, type: string) => new ArgError('rest_invalid_type', `${param} is not of type ${type}.`, { param });

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** WP wp_sprintf's %l list: "a", "a and b", "a, b, and c". */
function humanList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

function valuesEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && valuesEqual((a as PlainObject)[k], (b as PlainObject)[k]));
  }
  return a === b;
}

function validateNumber(value: unknown, schema: ArgSchema, param: string, type: string): true | ArgError {
  if (!phpIsNumeric(value)) return typeError(param, type);
  const n = phpFloatval(value);
  const { minimum: min, maximum: max, exclusiveMinimum: exMin, exclusiveMaximum: exMax } = schema;
  const d = (x: number) => Math.trunc(x); // sprintf %d
  const out = (msg: string) => new ArgError('rest_out_of_bounds', msg);
  if (min !== undefined && max === undefined) {
    if (exMin && n <= min) return out(`${param} must be greater than ${d(min)}`);
    if (!exMin && n < min) return out(`${param} must be greater than or equal to ${d(min)}`);
  }
  if (max !== undefined && min === undefined) {
    if (exMax && n >= max) return out(`${param} must be less than ${d(max)}`);
    if (!exMax && n > max) return out(`${param} must be less than or equal to ${d(max)}`);
  }
  if (min !== undefined && max !== undefined) {
    const low = exMin ? n <= min : n < min;
    const high = exMax ? n >= max : n > max;
    if (low || high) {
      const kind = (ex?: boolean) => (ex ? 'exclusive' : 'inclusive');
      return out(`${param} must be between ${d(min)} (${kind(exMin)}) and ${d(max)} (${kind(exMax)})`);
    }
  }
  if (type === 'integer' && !restIsInteger(value)) return typeError(param, 'integer');
  return true;
}

function validateString(value: unknown, schema: ArgSchema, param: string): true | ArgError {
  if (typeof value !== 'string') return typeError(param, 'string');
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) {
    const n = schema.minLength;
    return new ArgError('rest_too_short', `${param} must be at least ${n} ${plural(n, 'character', 'characters')} long.`);
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    const n = schema.maxLength;
    return new ArgError('rest_too_long', `${param} must be at most ${n} ${plural(n, 'character', 'characters')} long.`);
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
    return new ArgError('rest_invalid_pattern', `${param} does not match pattern ${schema.pattern}.`);
  }
  return true;
}

function validateArray(value: unknown, schema: ArgSchema, param: string): true | ArgError {
  if (!restIsArray(value)) return typeError(param, 'array');
  const list = restSanitizeArray(value);
  if (schema.items) {
    for (let i = 0; i < list.length; i++) {
      const result = validateValueFromSchema(list[i], schema.items, `${param}[${i}]`);
      if (result !== true) return result;
    }
  }
  if (schema.minItems !== undefined && list.length < schema.minItems) {
    const n = schema.minItems;
    return new ArgError('rest_too_few_items', `${param} must contain at least ${n} ${plural(n, 'item', 'items')}.`);
  }
  if (schema.maxItems !== undefined && list.length > schema.maxItems) {
    const n = schema.maxItems;
    return new ArgError('rest_too_many_items', `${param} must contain at most ${n} ${plural(n, 'item', 'items')}.`);
  }
  if (schema.uniqueItems && hasDuplicates(list)) return new ArgError('rest_duplicate_items', `${param} has duplicate items.`);
  return true;
}

function hasDuplicates(list: unknown[]): boolean {
  return list.some((item, i) => list.findIndex((other) => valuesEqual(item, other)) !== i);
}

function validateObject(value: unknown, schema: ArgSchema, param: string): true | ArgError {
  if (!restIsObject(value)) return typeError(param, 'object');
  const object = restSanitizeObject(value);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.required === true && !(name in object)) {
      return new ArgError('rest_property_required', `${name} is a required property of ${param}.`);
    }
  }
  for (const [name, v] of Object.entries(object)) {
    const property = schema.properties?.[name];
    if (property) {
      const result = validateValueFromSchema(v, property, `${param}[${name}]`);
      if (result !== true) return result;
    } else if (schema.additionalProperties === false) {
      return new ArgError('rest_additional_properties_forbidden', `${name} is not a valid property of Object.`);
    } else if (typeof schema.additionalProperties === 'object') {
      const result = validateValueFromSchema(v, schema.additionalProperties, `${param}[${name}]`);
      if (result !== true) return result;
    }
  }
  return true;
}

/**
 * WP rest_validate_value_from_schema for the keywords route tables use: type (one or several),
 * items, properties/additionalProperties, enum, numeric bounds, string length/pattern, array size.
 * (anyOf/oneOf, patternProperties and `format` checks are not implemented.)
 */
export function validateValueFromSchema(value: unknown, schema: ArgSchema, param: string): true | ArgError {
  let type = schema.type;
  if (Array.isArray(type)) {
    const best = bestType(value, type);
    if (!best) return typeError(param, type.join(','));
    type = best;
  }
  let result: true | ArgError = true;
  switch (type) {
    case 'null':
      result = value === null ? true : typeError(param, 'null');
      break;
    case 'boolean':
      result = restIsBoolean(value) ? true : typeError(param, 'boolean');
      break;
    case 'object':
      result = validateObject(value, schema, param);
      break;
    case 'array':
      result = validateArray(value, schema, param);
      break;
    case 'number':
    case 'integer':
      result = validateNumber(value, schema, param, type);
      break;
    case 'string':
      result = validateString(value, schema, param);
      break;
  }
  if (result !== true) return result;
  if (schema.enum && schema.enum.length) {
    const sanitized = sanitizeValueFromSchema(value, { ...schema, type }, param);
    if (!schema.enum.some((e) => valuesEqual(sanitized, e))) {
      const values = schema.enum.map((e) => (isScalar(e) || e === null ? phpStrval(e) : JSON.stringify(e)));
      const message = values.length === 1 ? `${param} is not ${values[0]}.` : `${param} is not one of ${humanList(values)}.`;
      return new ArgError('rest_not_in_enum', message);
    }
  }
  return true;
}

/** WP rest_sanitize_value_from_schema (coercion after a successful validation). */
export function sanitizeValueFromSchema(value: unknown, schema: ArgSchema, param: string): unknown {
  let type = schema.type;
  if (Array.isArray(type)) {
    type = bestType(value, type);
    if (!type) return null;
  }
  switch (type) {
    case 'array': {
      const list = restSanitizeArray(value);
      const items = schema.items;
      return items && Object.keys(items).length ? list.map((v, i) => sanitizeValueFromSchema(v, items, `${param}[${i}]`)) : list;
    }
    case 'object': {
      const object = { ...restSanitizeObject(value) };
      for (const [name, v] of Object.entries(object)) {
        const property = schema.properties?.[name];
        if (property) object[name] = sanitizeValueFromSchema(v, property, `${param}[${name}]`);
        else if (schema.additionalProperties === false) delete object[name];
        else if (typeof schema.additionalProperties === 'object') {
          object[name] = sanitizeValueFromSchema(v, schema.additionalProperties, `${param}[${name}]`);
        }
      }
      return object;
    }
    case 'null':
      return null;
    case 'integer':
      return phpIntval(value);
    case 'number':
      return phpFloatval(value);
    case 'boolean':
      return restSanitizeBoolean(value);
    case 'string':
      return phpStrval(value);
    default:
      return value;
  }
}

/** WP rest_parse_request_arg: the default sanitizer of a typed arg (validate, then coerce). */
export function parseRequestArg(value: unknown, schema: ArgSchema, param: string): unknown {
  const valid = validateValueFromSchema(value, schema, param);
  if (valid !== true) return valid;
  return sanitizeValueFromSchema(value, schema, param);
}

// ---------------------------------------------------------------------------------------------
// The Events Calendar's validators (tribe-common Validator/Base)

/** Validator::is_positive_int: numeric, integral (intval == value) and > 0. */
export function isPositiveInt(value: unknown): boolean {
  if (!phpIsNumeric(value)) return false;
  const int = phpIntval(value);
  return int === phpFloatval(value) && int > 0;
}

/** Validator::is_string: a non-empty string (PHP-empty '0' fails too). */
export const isNonEmptyString = (value: unknown): boolean => typeof value === 'string' && !phpEmpty(value);

/** Validator::is_string_or_empty. */
export const isStringOrEmpty = (value: unknown): boolean => phpEmpty(value) || typeof value === 'string';

/**
 * Validator::is_time: a number (timestamp) or a string `strtotime` accepts. The date parser is the
 * caller's (calendar/dates/strtotime); to mimic PHP it returns the timestamp (0, the epoch, counts as a failure).
 */
export function timeValidator(strtotime: (text: string) => unknown): (value: unknown) => boolean {
  return (value) => phpIsNumeric(value) || (typeof value === 'string' && Boolean(strtotime(value)));
}

/** A sanitizer: intval capped at `max` (TEC's per_page). */
export function cappedInt(max: number): (value: unknown) => number {
  return (value) => Math.min(max, phpIntval(value));
}
