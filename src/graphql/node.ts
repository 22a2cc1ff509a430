// Global object identification, PostGraphile's way: the `Node` interface with `nodeId: ID!` (the
// plugin-relay interface, its id field named `nodeId`), and Query.node(nodeId) / Query.nodes(nodeIds).
// Every record keeps its database `id`; `nodeId` is base64 of "Type:id", opaque to clients.
//
// Each type registers a NodeSource next to its own queries (same file, same rule): `load` returns
// the records among the ids that the caller may see, in one statement, through the function the
// type's own query uses to decide visibility. An id that does not decode, names no node type, or
// names a record that is absent or hidden reads null: the answer never tells "hidden" from "absent".
import { brandWithType } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { builder, type AlmanacTypes } from './builder.js';
import type { GraphQLContext } from './context.js';
import { AppError } from './errors.js';
import { readsColumns } from './selected-columns.js';

/** Most ids one `nodes` call takes. */
export const MAX_NODE_IDS = 100;

/** The Node interface (declared once by plugin-relay; its field is `nodeId`, see builder.ts). */
export const NodeInterface = builder.nodeInterfaceRef();

type Key = number | string;

export interface NodeSource {
  /** The GraphQL type name, the "Type" of its global ids. */
  typeName: string;
  /** The type's ref: loaded records are branded with it, so the interface resolves to it. */
  ref: Parameters<typeof brandWithType>[1];
  /** The database id a global id's id part names, or null when it cannot name one. */
  parseId: (raw: string) => Key | null;
  /** A Prisma type: the field's selection under this type (relations…) is loaded with the records. */
  prisma?: boolean;
  /** The records among `ids` the caller may see, each with its `id` (order free; one statement). */
  load: (ctx: GraphQLContext, ids: Key[], query: object) => Promise<{ id: Key }[]>;
}

const sources = new Map<string, NodeSource>();

/** Makes `source.typeName` fetchable by node/nodes. The type itself lists NodeInterface and a `nodeId` field (nodeIdField). */
export function nodeSource(source: NodeSource): void {
  sources.set(source.typeName, source);
}

/** Database ids that are positive 32-bit integers. */
export const intId = (raw: string): number | null => (/^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null);
/** Database ids that are strings (UUIDs). */
export const stringId = (raw: string): string | null => (/^[\w-]{1,64}$/.test(raw) ? raw : null);

/**
 * The type and database id a global id names; null when it is not one this server wrote (the
 * nodeId fields write base64 of "Type:id" with plugin-relay's encoder, canonical base64).
 */
export function decodeNodeId(nodeId: string): { source: NodeSource; id: Key } | null {
  if (nodeId.length > 200 || !/^[A-Za-z0-9+/]+={0,2}$/.test(nodeId)) return null;
  const text = Buffer.from(nodeId, 'base64').toString('utf8');
  if (Buffer.from(text, 'utf8').toString('base64') !== nodeId) return null; // not canonical base64 (or not UTF-8)
  const colon = text.indexOf(':');
  const source = colon > 0 ? sources.get(text.slice(0, colon)) : undefined;
  const id = source ? source.parseId(text.slice(colon + 1)) : null;
  return source && id !== null ? { source, id } : null;
}

/** The `nodeId` field of a Node type (`t` is its field builder). */
export function nodeIdField<Shape extends { id: Key }>(
  t: Pick<PothosSchemaTypes.ObjectFieldBuilder<AlmanacTypes, Shape>, 'globalID'>,
  typeName: string,
) {
  return t.globalID({
    description: 'Opaque global id of the record: pass it to node(nodeId) or nodes(nodeIds). Not the database id.',
    extensions: readsColumns('id'),
    resolve: (row: { id: Key }) => ({ type: typeName, id: row.id }),
  });
}

/**
 * The request's loader of `source` for one Prisma selection: ids asked in the same tick (nodes,
 * several node fields with the same selection) are loaded together.
 */
function loaderFor(ctx: GraphQLContext, source: NodeSource, query: object): DataLoader<Key, unknown> {
  const name = `node:${source.typeName}:${JSON.stringify(query)}`;
  let found = ctx.cache.get(name) as DataLoader<Key, unknown> | undefined;
  if (!found) {
    found = new DataLoader<Key, unknown>(async (ids) => {
      const rows = await source.load(ctx, [...ids], query);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => {
        const row = byId.get(id);
        if (!row) return null;
        brandWithType(row, source.ref);
        return row;
      });
    });
    ctx.cache.set(name, found);
  }
  return found;
}

async function resolveNodes(ctx: GraphQLContext, info: GraphQLResolveInfo, nodeIds: readonly string[]): Promise<unknown[]> {
  const wanted = nodeIds.map(decodeNodeId);
  const queries = new Map<NodeSource, object>();
  for (const one of wanted) {
    if (!one || queries.has(one.source)) continue;
    const query = one.source.prisma
      ? await queryFromInfo({ context: ctx, info, typeName: one.source.typeName, awaitSelections: true })
      : {};
    queries.set(one.source, query);
  }
  return Promise.all(wanted.map((one) => (one ? loaderFor(ctx, one.source, queries.get(one.source)!).load(one.id) : null)));
}

/** The record of `typeName` with database id `id`, as node(nodeId) answers for it (`info`: a field of type Node). */
export async function resolveNode(ctx: GraphQLContext, info: GraphQLResolveInfo, typeName: string, id: Key): Promise<unknown> {
  const source = sources.get(typeName);
  if (!source) return null;
  const query = source.prisma ? await queryFromInfo({ context: ctx, info, typeName, awaitSelections: true }) : {};
  return loaderFor(ctx, source, query).load(id);
}

builder.queryFields((t) => ({
  node: t.field({
    type: NodeInterface,
    nullable: true,
    description:
      'The record with this global id (a `nodeId`), as its own query shows it to the caller; null when the id is malformed or unknown, or the caller may not see the record. Password-protected records come masked, as in lists.',
    args: { nodeId: t.arg.id({ required: true, description: 'The global id (a `nodeId` field).' }) },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a record of any node type: Pothos resolves the interface's concrete type from it
    resolve: async (_root, args, ctx, info) => (await resolveNodes(ctx, info, [String(args.nodeId)]))[0] as any,
  }),
  nodes: t.field({
    type: [NodeInterface],
    nullable: { list: false, items: true },
    description: `The records with these global ids, in the order given, each as node(nodeId) answers it (null where that is null). At most ${MAX_NODE_IDS} ids: more is INVALID_INPUT.`,
    args: {
      nodeIds: t.arg.idList({ required: true, description: `The global ids (\`nodeId\` fields), at most ${MAX_NODE_IDS}.` }),
    },
    resolve: async (_root, args, ctx, info) => {
      if (args.nodeIds.length > MAX_NODE_IDS)
        throw new AppError('INVALID_INPUT', `At most ${MAX_NODE_IDS} ids per nodes query (${args.nodeIds.length} given).`, {
          params: { nodeIds: `At most ${MAX_NODE_IDS} ids.` },
        });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- records of any node types, as above
      return (await resolveNodes(ctx, info, args.nodeIds.map(String))) as any[];
    },
  }),
}));
