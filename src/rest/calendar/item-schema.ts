// One item schema per record type, as WordPress's get_item_schema: each key of the record in the
// order the original sends it, with the GraphQL fields it reads, how its value is made, what
// Almanac answers (JSON Schema) and the original's /doc property (verbatim). The GraphQL selection
// of a route, the record builder, the /doc schema and the OpenAPI 3.1 schema all derive from it,
// so a key is declared once.
import type { RestRequest } from '../route-table.js';
import type { GraphQLData } from '../../graphql/execute.js';

/** An object of a GraphQL execution result: a record's fields as the route's document selected them. */
export type ResultObject = Record<string, GraphQLData>;
export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const string: Schema = { type: 'string' };
export const integer: Schema = { type: 'integer' };
export const boolean: Schema = { type: 'boolean' };
export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

export interface RecordField {
  /** The GraphQL fields the value reads; `single` when the route asks for JSON-LD too. */
  select?: string | ((single: boolean) => string);
  /** The key's value; undefined leaves the key out. */
  value: (node: ResultObject, req: RestRequest) => unknown;
  /** What Almanac answers, for the OpenAPI 3.1 document (which adds the /doc description). */
  schema: Schema;
  required?: boolean;
  /** The original's /doc property; absent where the original leaves the key undocumented. */
  doc?: Schema;
  /** The original's /doc lists the key after this one rather than in the record's order. */
  docAfter?: string;
  /** A record that drops empty values keeps this key whatever it holds. */
  keepEmpty?: boolean;
}

export interface ItemSchema {
  /** The name under components.schemas. */
  title: string;
  fields: ReadonlyArray<readonly [string, RecordField]>;
  /**
   * Venue and organizer records leave out every empty value (author "0", "", false, "0"), except
   * the keys password masking emptied: the original masks after filtering, so a field that holds
   * a value stays, emptied (spec §3.7). Which did, the `masked` resolver reports through the
   * request's operation options (calendarOperationOptions), keyed by this kind.
   */
  dropsEmpty?: 'venue' | 'organizer';
  /** The GraphQL selection of a list's record and of a single one (with JSON-LD). */
  selections: readonly [string, string];
  /** The record of a node; `hidden`: the keys masking emptied (compileBuilder). */
  build: (node: ResultObject, req: RestRequest, hidden: readonly string[] | undefined) => Record<string, unknown>;
}

export function itemSchema(title: string, fields: Record<string, RecordField>, dropsEmpty?: ItemSchema['dropsEmpty']): ItemSchema {
  const entries = Object.entries(fields);
  const drops = dropsEmpty !== undefined;
  const selections = [selectionOf(entries, drops, false), selectionOf(entries, drops, true)] as const;
  return { title, fields: entries, dropsEmpty, selections, build: compileBuilder(title, entries, drops) };
}

/**
 * The record builder of a schema, compiled once to one object literal (as graphql-jit compiles a
 * query): V8 builds a literal of fixed keys in one step, where adding the keys one by one in a loop
 * cost 0.08 ms more per 50-event page (micro-benchmark: 0.21 → 0.13 ms). A key whose value is
 * undefined is in the object but not in the JSON answer, as if never set. The source is named
 * (sourceURL), so a stack trace through it says which record's builder it was.
 */
function compileBuilder(title: string, entries: ReadonlyArray<readonly [string, RecordField]>, dropsEmpty: boolean): ItemSchema['build'] {
  const members = entries.map(([key, field], i) => {
    const value = `values[${i}](node, req)`;
    return `${JSON.stringify(key)}: ${dropsEmpty && !field.keepEmpty ? `kept(${value}, ${JSON.stringify(key)}, hidden)` : value}`;
  });
  const literal = new Function(
    'values',
    'kept',
    'node',
    'req',
    'hidden',
    `return { ${members.join(', ')} };\n//# sourceURL=almanac:record-builder/${encodeURIComponent(title)}`,
  );
  const values = entries.map(([, field]) => field.value);
  return (node, req, hidden) => literal(values, kept, node, req, hidden);
}

/** The GraphQL selection a record needs, each field once. */
export const selection = (item: ItemSchema, single: boolean): string => item.selections[single ? 1 : 0];

function selectionOf(fields: ReadonlyArray<readonly [string, RecordField]>, dropsEmpty: boolean, single: boolean): string {
  const selected = new Set<string>(dropsEmpty ? ['masked'] : []);
  for (const [, { select }] of fields) {
    const text = typeof select === 'function' ? select(single) : select;
    if (text) selected.add(text);
  }
  return [...selected].join(' ');
}

const isEmpty = (value: unknown) => value === '' || value === false || value === null || value === '0' || value === 0;
const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** A value a record that drops empty values keeps (else undefined): not empty, or emptied by masking. */
const kept = (value: unknown, key: string, hidden: readonly string[] | undefined) =>
  isEmpty(value) && !hidden?.includes(key) ? undefined : value;

/** The record of a GraphQL node. */
export function buildRecord(item: ItemSchema, node: ResultObject, req: RestRequest): Record<string, unknown> {
  const masked = item.dropsEmpty && node.masked ? req.operationOptions.hiddenFields?.get(`${item.dropsEmpty}:${node.id}`) : undefined;
  return item.build(node, req, masked?.length ? masked.map(snakeCase) : undefined);
}

/** The original's /doc schema: its documented keys, in its order. */
export function documentedSchema(item: ItemSchema): Schema {
  const documented = item.fields.filter(([, field]) => field.doc);
  const keys = documented.filter(([, field]) => !field.docAfter).map(([key]) => key);
  let pending = documented.filter(([, field]) => field.docAfter);
  while (pending.length) {
    const placeable = pending.filter(([, field]) => keys.includes(field.docAfter!));
    if (!placeable.length) throw new Error(`${item.title}: docAfter names no documented key (${pending.map(([key]) => key).join(', ')})`);
    for (const [key, field] of placeable) keys.splice(keys.indexOf(field.docAfter!) + 1, 0, key);
    pending = pending.filter((entry) => !placeable.includes(entry));
  }
  const docs = new Map(documented.map(([key, field]) => [key, field.doc!]));
  return { type: 'object', properties: Object.fromEntries(keys.map((key) => [key, docs.get(key)])) };
}

/** What Almanac answers, with the original's description of each key it documents. */
export function answerSchema(item: ItemSchema): Schema {
  const properties = item.fields.map(([key, { schema, doc }]) => {
    const description = doc?.description;
    return [key, description && !schema.$ref ? { description, ...schema } : schema] as const;
  });
  const required = item.fields.filter(([, field]) => field.required).map(([key]) => key);
  return { type: 'object', properties: Object.fromEntries(properties), ...(required.length ? { required } : {}) };
}
