// Runs GraphQL operations in-process for the REST layers, public pages and feeds: each document is
// parsed, validated and compiled once (graphql-jit), then only executed — no HTTP round trip, no
// re-parsing, and no per-field walk of the document per request. A REST list of 50 events resolves
// ~12,000 fields; graphql-js's interpreter spent about a sixth of the request's CPU walking them.
import { Kind, getOperationAST, parse, validate, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { TadaDocumentNode } from 'gql.tada';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { variablesInObjects } from './compiled.js';
import { sourceOf } from './documents.js';
import { asApiError } from './errors.js';
import type { GraphQLContext } from './context.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the data of a document validated at start-up: its shape is the document's
export type GraphQLData = any;

/**
 * Runs one operation: a typed document (src/graphql/documents.ts), whose data the type checker
 * knows from the schema, or a source text built at run time, whose data it does not. Variables are
 * checked by GraphQL's coercion at run time either way: they come from checked request arguments.
 */
export interface OperationRunner {
  <Data, Variables>(
    operation: TadaDocumentNode<Data, Variables>,
    variables: Record<string, unknown>,
    context: GraphQLContext,
  ): Promise<ExecutionResult<Data>>;
  <T = GraphQLData>(source: string, variables: Record<string, unknown>, context: GraphQLContext): Promise<ExecutionResult<T>>;
}

export function createOperationRunner(schema: GraphQLSchema): OperationRunner {
  const compiled = new Map<string, CompiledQuery>();
  const prepare = (source: string): CompiledQuery => {
    let query = compiled.get(source);
    if (!query) {
      const document = parse(source);
      const errors = validate(schema, document);
      // A document that does not validate is a programming error in a route table: fail loudly.
      if (errors.length) throw new Error(`invalid operation: ${errors.map((e) => e.message).join('; ')}\n${source}`);
      // graphql-jit reads a left-out variable inside an input-object literal as null (compiled.ts):
      // such a variable must be required here, so that it is never left out.
      const definitions = getOperationAST(document)?.variableDefinitions ?? [];
      const optional = variablesInObjects(document, definitions)
        .filter((definition) => definition.type.kind !== Kind.NON_NULL_TYPE)
        .map((definition) => definition.variable.name.value);
      if (optional.length)
        throw new Error(`optional variables inside an input object (${optional.join(', ')}): make them required\n${source}`);
      const result = compileQuery(schema, document);
      if (!isCompiledQuery(result))
        throw new Error(`operation not compiled: ${result.errors?.map((e) => e.message).join('; ')}\n${source}`);
      compiled.set(source, (query = result));
    }
    return query;
  };
  return async (operation: string | TadaDocumentNode, variables: Record<string, unknown>, context: GraphQLContext) => {
    const result = (await prepare(sourceOf(operation)).query(undefined, context, variables)) as ExecutionResult<GraphQLData>;
    // Domain errors as the API reports them, as yoga does for HTTP (src/graphql/errors.ts).
    return result.errors ? { ...result, errors: result.errors.map((error) => asApiError(error) as GraphQLError) } : result;
  };
}
