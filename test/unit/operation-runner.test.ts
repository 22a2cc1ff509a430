// The in-process runner (REST, pages, feeds) compiles its documents with graphql-jit, which reads a
// left-out variable inside an input-object literal as null: such documents are refused when first run.
import { describe, expect, it } from 'vitest';
import { createSchema } from 'graphql-yoga';
import type { GraphQLContext } from '../../src/graphql/context.js';
import { createOperationRunner } from '../../src/graphql/execute.js';

const schema = createSchema({
  typeDefs: 'input I { a: String }\ntype Query { f(i: I, a: String): String! }',
  resolvers: { Query: { f: (_: unknown, args: object) => JSON.stringify(args) } },
});
const run = createOperationRunner(schema);
const context = {} as GraphQLContext;

describe('the in-process operation runner', () => {
  it('refuses an optional variable written inside an input object', async () => {
    await expect(run('query($x: String) { f(i: { a: $x }) }', {}, context)).rejects.toThrow(
      /optional variables inside an input object \(x\)/,
    );
  });

  it('runs a required one there, and an optional one as an argument, as graphql-js does', async () => {
    expect((await run('query($x: String!) { f(i: { a: $x }) }', { x: 'y' }, context)).data).toEqual({ f: '{"i":{"a":"y"}}' });
    expect((await run('query($x: String) { f(a: $x) }', {}, context)).data).toEqual({ f: '{}' });
  });
});
