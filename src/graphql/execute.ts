// Runs GraphQL operations in-process for the REST layers: each document is parsed and validated
// once, then only executed (no HTTP round trip, no re-parsing per request).
import { execute, parse, validate, type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import { asApiError } from './errors.js';
import type { GraphQLContext } from './context.js';

export type OperationRunner = <T = any>(
  source: string,
  variables: Record<string, unknown>,
  context: GraphQLContext,
) => Promise<ExecutionResult<T>>;

export function createOperationRunner(schema: GraphQLSchema): OperationRunner {
  const documents = new Map<string, DocumentNode>();
  const prepare = (source: string): DocumentNode => {
    let document = documents.get(source);
    if (!document) {
      document = parse(source);
      const errors = validate(schema, document);
      // A document that does not validate is a programming error in a route table: fail loudly.
      if (errors.length) throw new Error(`invalid operation: ${errors.map((e) => e.message).join('; ')}\n${source}`);
      documents.set(source, document);
    }
    return document;
  };
  return async (source, variables, context) => {
    const result = (await execute({
      schema,
      document: prepare(source),
      variableValues: variables,
      contextValue: context,
    })) as ExecutionResult<any>;
    // Domain errors as the API reports them, as yoga does for HTTP (src/graphql/errors.ts).
    return result.errors ? { ...result, errors: result.errors.map((error) => asApiError(error) as GraphQLError) } : result;
  };
}
