// The checker of a table's declared arguments for JSON APIs that refuse the first bad argument (the
// task API). The value checks are the calendar API's (validateValueFromSchema: type, enum, bounds,
// lengths), on JSON's own types: no PHP juggling ("5" is not an integer), a query integer is written
// in decimal digits, and nested items and properties are left to the domain, whose messages name
// the path. The calendar API's WordPress juggling and aggregated errors are rest/pipeline.ts's.
// What a table chooses: the bounds of an undeclared integer and the wording of a refusal.
import { validateValueFromSchema } from './args.js';
import { ArgError, type RestError } from './errors.js';
import type { ArgSpec, Args, JsonType } from './route-table.js';
import { isPlainObject } from '../values.js';

/** Where the values come from: a JSON body's keep JSON's types, a query's are strings. */
export type ArgPlace = 'body' | 'query';

/** Why an argument was refused: missing, or the validator's error (its code: rest_invalid_type, …). */
export type ArgRefusal = { name: string; spec: ArgSpec; place: ArgPlace } & ({ missing: true } | { missing?: false; error: ArgError });

export interface ArgRules {
  /** Bounds of an integer where it declares none (e.g. a database's 32-bit column). */
  integerBounds?: { minimum: number; maximum: number };
  /** The table's answer to a refused argument. */
  refuse(refusal: ArgRefusal): RestError;
}

const JSON_TYPES: Partial<Record<JsonType, (value: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  array: Array.isArray,
  object: isPlainObject,
};

/** Args the checker reads: one of these types each and no callbacks; refused at start-up otherwise. */
export function assertCheckable(path: string, args: Args): void {
  for (const [name, spec] of Object.entries(args)) {
    if (spec.validate || spec.sanitize || typeof spec.type !== 'string' || !JSON_TYPES[spec.type]) {
      throw new Error(`route ${path}: arg ${name} must be a string, integer, number, array or object, without callbacks`);
    }
  }
}

/** A query's value as its declared type: decimal digits for an integer, else the text. */
function fromQuery(raw: string, type: JsonType): unknown {
  if (type !== 'integer') return raw;
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

/** The value, or why its declaration refuses it. */
function checkValue(value: unknown, spec: ArgSpec, name: string, rules: ArgRules): ArgError | undefined {
  const type = spec.type as JsonType;
  if (!JSON_TYPES[type]!(value)) return new ArgError('rest_invalid_type', `${name} is not of type ${type}.`, { param: name });
  const bounds = type === 'integer' && rules.integerBounds;
  const shallow: ArgSpec = {
    ...spec,
    minimum: spec.minimum ?? (bounds ? bounds.minimum : undefined),
    maximum: spec.maximum ?? (bounds ? bounds.maximum : undefined),
    items: undefined,
    properties: undefined,
    additionalProperties: undefined,
  };
  const result = validateValueFromSchema(value, shallow, name);
  return result === true ? undefined : result;
}

/**
 * Checks the declared arguments in declaration order and throws the table's refusal of the first
 * bad one; null, an absent value and an empty query value count as absent (then `default`, if
 * any). Returns the declared arguments only. A repeated query parameter counts by its last value.
 */
export function checkArgs(values: Record<string, unknown>, args: Args, place: ArgPlace, rules: ArgRules): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(args)) {
    let value = values[name];
    if (place === 'query' && Array.isArray(value)) value = value[value.length - 1];
    if (value === undefined || value === null || (place === 'query' && value === '')) {
      if (spec.required) throw rules.refuse({ name, spec, place, missing: true });
      if (spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    if (place === 'query') value = fromQuery(String(value), spec.type as JsonType);
    const error = checkValue(value, spec, name, rules);
    if (error) throw rules.refuse({ name, spec, place, error });
    out[name] = value;
  }
  return out;
}
