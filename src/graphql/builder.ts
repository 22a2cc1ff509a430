// The one Pothos builder. Types register themselves on it from their own files (src/**/graphql/*.ts).
import SchemaBuilder, { type ArgBuilder } from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type { GraphQLContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: { JSON: { Input: unknown; Output: unknown }; DateTime: { Input: Date; Output: Date } };
}>({
  plugins: [PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    // Descriptions come from our own `description` options, not from schema comments.
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  relay: {
    // The Node interface follows PostGraphile's convention: every type keeps its database `id`
    // (Int!, which clients rely on) and carries the opaque global id as `nodeId` (base64 of
    // "Type:id", the plugin's encoding). The plugin's own node/nodes queries take `id`/`ids`
    // arguments that cannot be renamed and load records without our visibility rules, so they are
    // off: src/graphql/node.ts defines node(nodeId) and nodes(nodeIds).
    idFieldName: 'nodeId',
    idFieldOptions: { description: 'Opaque global id of the record: pass it to node(nodeId) or nodes(nodeIds). Not the database id.' },
    nodeTypeOptions: {
      description:
        'A record that can be fetched by its global id (Query.node, Query.nodes), with the visibility its own query applies. Its `id` stays the database id.',
    },
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    clientMutationId: 'omit',
    cursorType: 'String',
    // Descriptions of what every Relay connection shares (the schema documents every field and argument).
    pageInfoTypeOptions: { description: 'Where a connection page sits in the whole list.' },
    pageInfoFieldOptions: { description: 'Whether more items exist before or after this page, and its first and last cursors.' },
    hasNextPageFieldOptions: { description: 'Whether items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'Whether items precede this page.' },
    startCursorFieldOptions: { description: 'Cursor of the first item on this page.' },
    endCursorFieldOptions: { description: 'Cursor of the last item on this page.' },
    cursorFieldOptions: { description: 'Opaque position of this item; pass it as after/before.' },
    edgesFieldOptions: { description: 'The items on this page, each with its cursor.' },
    nodeFieldOptions: { description: 'The item.' },
    firstArgOptions: { description: 'Return at most this many items from the start (after `after`).' },
    lastArgOptions: { description: 'Return at most this many items from the end (before `before`).' },
    afterArgOptions: { description: 'Return items after this cursor.' },
    beforeArgOptions: { description: 'Return items before this cursor.' },
  },
});

/** The schema types the builder was made with, for helpers that take one of its field builders. */
export type AlmanacTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
/** What an input type's `fields: (t) => …` receives. */
export type InputFields = PothosSchemaTypes.InputFieldBuilder<AlmanacTypes, 'InputObject'>;
/** Any field builder, as far as a helper that declares arguments (`t.arg…`) needs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a field builder handed to a helper several object types share: Pothos types each one's builder apart
export type SharedFieldBuilder = any;

export type ArgsOf = { arg: ArgBuilder<AlmanacTypes> };
export type QueryFields = PothosSchemaTypes.QueryFieldBuilder<AlmanacTypes, AlmanacTypes['Root']>;
export type MutationFields = PothosSchemaTypes.MutationFieldBuilder<AlmanacTypes, AlmanacTypes['Root']>;

builder.queryType({ description: 'Read Almanac: calendar events, venues, organizers, categories and tags.' });

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
});
builder.scalarType('DateTime', {
  description: 'An instant, written as an ISO 8601 string in UTC with milliseconds (2026-11-25T08:00:00.000Z).',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new TypeError('DateTime must be an ISO 8601 date and time, e.g. 2026-11-25T08:00:00Z');
    return date;
  },
});

/**
 * An enum of a closed set whose values keep the spelling the API has always sent ("tool_call",
 * "active"): the type tells clients the set, the wire format is unchanged for existing clients.
 */
export function closedSet<const V extends string>(name: string, description: string, values: Record<V, string>) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(Object.entries<string>(values).map(([value, about]) => [value, { value, description: about }])) as Record<
      V,
      { value: V; description: string }
    >,
  });
}

builder.mutationType({ description: 'Change Almanac. Writes need an API key whose role allows them.' });
