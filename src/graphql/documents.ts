// Typed GraphQL documents (gql.tada): an operation written with `graphql` from 'gql.tada' carries
// the type of its data and variables, read from schema.graphql's introspection in
// src/generated/graphql-env.d.ts (written by `npm run generate`: `gql-tada generate output`, set up
// in tsconfig.json's plugins), so a field renamed or retyped in the schema fails `npm run typecheck`
// where the code reads it. This adds the schema's own scalars and reads fragments unmasked.
import { print, type DocumentNode } from 'graphql';

declare module 'gql.tada' {
  interface setupSchema {
    scalars: { DateTime: string; JSON: unknown };
    disableMasking: true;
  }
}

const sources = new WeakMap<DocumentNode, string>();

/** The text of a document, printed once (with the fragments it spreads): the in-process runner's key. */
export function sourceOf(operation: string | DocumentNode): string {
  if (typeof operation === 'string') return operation;
  let source = sources.get(operation);
  if (source === undefined) sources.set(operation, (source = print(operation)));
  return source;
}
