// Offset pagination shared by every list: page/perPage in, items/total/totalPages out.
import type { ObjectRef } from '@pothos/core';
import { builder, type AlmanacTypes, type ArgsOf, type SharedFieldBuilder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { MAX_PER_PAGE, pageSize } from '../paging.js';

export const PageArgs = builder.inputType('PageInput', {
  description: 'Which page of a list to return.',
  fields: (t) => ({
    page: t.int({ description: 'The page, from 1.', defaultValue: 1 }),
    perPage: t.int({ description: `Items per page (default: the site's posts per page; at most ${MAX_PER_PAGE}).` }),
  }),
});

export interface PageRequest {
  page: number;
  perPage: number;
  skip: number;
}

export function pageRequest(ctx: GraphQLContext, input?: { page?: number | null; perPage?: number | null } | null): PageRequest {
  const page = Math.max(1, input?.page ?? 1);
  const perPage = pageSize(input?.perPage, ctx.config.postsPerPage);
  return { page, perPage, skip: (page - 1) * perPage };
}

export interface PageShape<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

/** A `<Name>Page` object type over a Prisma object type. */
export function pageType<T extends object>(name: string, itemType: ObjectRef<AlmanacTypes, T>, what: string) {
  return builder.objectRef<PageShape<T>>(name).implement({
    description: `One page of ${what}.`,
    fields: (t) => ({
      items: t.field({ type: [itemType], description: `The ${what} on this page.`, resolve: (p) => p.items }),
      total: t.exposeInt('total', { description: 'How many match, over all pages.' }),
      totalPages: t.int({ description: 'ceil(total / perPage); 0 when nothing matches.', resolve: (p) => Math.ceil(p.total / p.perPage) }),
      page: t.exposeInt('page', { description: 'This page, from 1.' }),
      perPage: t.exposeInt('perPage', { description: 'The page size used.' }),
    }),
  });
}

/** Names and descriptions of a Relay connection and its edge (totalCount re-declared only to describe it). */
export function connectionTypes(typeName: string, what: string) {
  return [
    {
      name: `${typeName}Connection`,
      description: `A slice of the ${what} list (Relay connection).`,
      fields: (c: SharedFieldBuilder) => ({
        totalCount: c.int({
          description: 'How many match, over all pages.',
          extensions: { pothosPrismaTotalCount: true },
          resolve: (parent: { totalCount?: () => unknown }) => parent.totalCount?.(),
        }),
      }),
    },
    { name: `${typeName}Edge`, description: `One ${what} in a connection, with its cursor.` },
  ] as const;
}

/** Nested lists are bounded too, so no single request can ask for every row of a table. */
export const NESTED_DEFAULT = 50;
export const NESTED_MAX = 100;
export const nestedTake = (first: number | null | undefined): number => Math.min(Math.max(first ?? NESTED_DEFAULT, 0), NESTED_MAX);
export const nestedFirstArg = (t: ArgsOf) =>
  t.arg.int({ description: `At most this many (default ${NESTED_DEFAULT}, at most ${NESTED_MAX}).` });
