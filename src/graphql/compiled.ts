// Operations over HTTP run compiled (graphql-jit, as the REST layer's do: src/graphql/execute.ts)
// from their second run on: the benchmark's nested events page gained 15-40% (100k events, SQLite
// and PostgreSQL). Compiling costs more than one interpreted run (~1 ms for that page), so a
// document is compiled when it comes again. graphql-jit keeps ~0.13 MB for every distinct document
// it compiles for the rest of the process, whatever becomes of the compiled query, so a process
// compiles at most MAX_COMPILED operations: a client sending ever new documents cannot grow the
// heap, and later documents run interpreted, as before.
// The document compiled is the one executed, after other plugins' changes (the response cache adds
// type names to it). A compiled run answers as an interpreted one: where graphql-jit's answers
// differ, it is not used (variables that do not coerce) or its errors are mended (locations).
import {
  GraphQLError,
  getOperationAST,
  getVariableValues,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type Source,
  type SourceLocation,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/** How many operations (a document and an operation name) a process compiles at most. */
export const MAX_COMPILED = 50;

export function compiledOnRepeat(): Plugin {
  const seen = new WeakSet<DocumentNode>();
  /** By executed document, then operation name: the compiled query, or null when it did not compile. */
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();
  let compiles = 0;

  const compiledFor = ({ schema, document, variableValues, operationName }: ExecutionArgs): CompiledQuery | null => {
    if (!seen.has(document)) return (seen.add(document), null);
    let byName = compiled.get(document);
    if (!byName) compiled.set(document, (byName = new Map()));
    let query = byName.get(operationName ?? '');
    if (query === undefined) {
      if (compiles >= MAX_COMPILED) return null;
      compiles++;
      const result = compileQuery(schema, document, operationName ?? undefined);
      byName.set(operationName ?? '', (query = isCompiledQuery(result) ? result : null));
    }
    if (!query) return null;
    // graphql-jit words a variable's coercion error its own way (and yoga then answers 200, not 400).
    const definitions = getOperationAST(document, operationName)?.variableDefinitions;
    if (definitions?.length && 'errors' in getVariableValues(schema, definitions, variableValues ?? {})) return null;
    return query;
  };

  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((run: ExecutionArgs) => {
        const source = run.document.loc?.source;
        const query = source ? compiledFor(run) : null;
        if (!query || !source) return executeFn(run);
        const relocate = (result: ExecutionResult) =>
          result.errors?.length ? { ...result, errors: result.errors.map((error) => located(error, source)) } : result;
        const result = query.query(run.rootValue, run.contextValue, run.variableValues ?? {});
        return result instanceof Promise ? result.then(relocate) : relocate(result);
      });
    },
  };
}

/**
 * graphql-jit's errors carry `locations` but not the nodes or positions they came from, which is
 * what yoga rebuilds an error from when it writes it: the same error, located by positions.
 */
function located(error: GraphQLError, source: Source): GraphQLError {
  if (error.nodes || error.positions || !error.locations) return error;
  const { message, path, originalError, extensions } = error;
  const positions = error.locations.map((location) => offsetOf(source.body, location));
  return new GraphQLError(message, { source, positions, path, originalError, extensions });
}

/** The offset of a line and column (both from 1) in a GraphQL source (lines end at \r\n, \n or \r). */
function offsetOf(body: string, { line, column }: SourceLocation): number {
  let offset = 0;
  for (let at = 1; at < line; at++) {
    const end = body.slice(offset).search(/\r\n|[\n\r]/);
    if (end < 0) break;
    offset += end + (body.startsWith('\r\n', offset + end) ? 2 : 1);
  }
  return offset + column - 1;
}
