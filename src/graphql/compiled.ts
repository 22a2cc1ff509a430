// Operations over HTTP run compiled (graphql-jit, as the REST layer's do: src/graphql/execute.ts)
// from their second run on: the benchmark's nested events page gained 15-40% (100k events, SQLite
// and PostgreSQL). Compiling costs more than one interpreted run (~1 ms for that page), so a
// document is compiled when it comes again. graphql-jit keeps ~0.13 MB for every distinct document
// it compiles for the rest of the process, whatever becomes of the compiled query, so a process
// compiles at most MAX_COMPILED distinct operations and keeps them: a client sending ever new
// documents cannot grow the heap, and later documents run interpreted, as before. Operations are
// known by their printed document (the one executed, after other plugins' changes: the response
// cache adds type names) and operation name, so a document yoga's parse cache drops and parses again
// is not compiled again.
// A compiled run answers as an interpreted one, but for the order of errors (graphql-jit lists a
// non-null field's errors last). Where graphql-jit would answer otherwise it is not used: variables
// that do not coerce (it words the error its own way, and yoga then answers 200, not 400) and
// variables written inside an input-object literal and left out without a default (it reads them
// as null there, where graphql-js leaves the field out: an update would clear what it was not
// given; as an argument's whole value or in a list it reads them as graphql-js does). Its errors are
// mended: located by positions (yoga drops bare locations) and, when they are its own (a null in a
// non-null field, a scalar that cannot be written), masked as graphql-js's are.
import {
  GraphQLError,
  Kind,
  getOperationAST,
  getVariableValues,
  print,
  visit,
  type ASTNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type Source,
  type SourceLocation,
  type VariableDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/** How many distinct operations (a printed document and an operation name) a process compiles at most. */
export const MAX_COMPILED = 50;

export function compiledOnRepeat(): Plugin {
  const seen = new WeakSet<DocumentNode>();
  const printed = new WeakMap<DocumentNode, string>();
  /** By operation name and printed document: the compiled query, or null when it did not compile. */
  const compiled = new Map<string, Compiled | null>();

  const compiledFor = ({ schema, document, variableValues, operationName }: ExecutionArgs): CompiledQuery | null => {
    if (!seen.has(document)) return (seen.add(document), null);
    let text = printed.get(document);
    if (text === undefined) printed.set(document, (text = print(document)));
    const key = `${operationName ?? ''}\n${text}`;
    let kept = compiled.get(key);
    if (kept === undefined) {
      if (compiled.size >= MAX_COMPILED) return null;
      const result = compileQuery(schema, document, operationName ?? undefined);
      const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
      kept = isCompiledQuery(result)
        ? {
            query: result,
            definitions,
            omittable: variablesInObjects(document, definitions).filter((definition) => !definition.defaultValue),
          }
        : null;
      compiled.set(key, kept);
    }
    if (!kept) return null;
    const given = variableValues ?? {};
    if (kept.omittable.some((definition) => !Object.hasOwn(given, definition.variable.name.value))) return null;
    if (kept.definitions.length && 'errors' in getVariableValues(schema, kept.definitions, given)) return null;
    return kept.query;
  };

  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((run: ExecutionArgs) => {
        const source = run.document.loc?.source;
        const query = source ? compiledFor(run) : null;
        if (!query || !source) return executeFn(run);
        const mend = (result: ExecutionResult) =>
          result.errors?.length ? { ...result, errors: result.errors.map((error) => asInterpreted(error, source)) } : result;
        const result = query.query(run.rootValue, run.contextValue, run.variableValues ?? {});
        return result instanceof Promise ? result.then(mend) : mend(result);
      });
    },
  };
}

interface Compiled {
  query: CompiledQuery;
  /** The operation's variables. */
  definitions: readonly VariableDefinitionNode[];
  /** Those written inside an input-object literal without a default: they must not be left out. */
  omittable: VariableDefinitionNode[];
}

/** Of `definitions`, the variables the document writes somewhere inside an input-object literal. */
export function variablesInObjects(document: DocumentNode, definitions: readonly VariableDefinitionNode[]): VariableDefinitionNode[] {
  const names = new Set<string>();
  visit(document, {
    Variable(node, _key, _parent, _path, ancestors) {
      if (ancestors.some((ancestor) => (ancestor as ASTNode).kind === Kind.OBJECT)) names.add(node.name.value);
    },
  });
  return definitions.filter((definition) => names.has(definition.variable.name.value));
}

/**
 * A graphql-jit error as graphql-js reports it. graphql-jit's errors carry `locations` but not the
 * nodes or positions they came from, which is what yoga rebuilds an error from when it writes it:
 * the same error, located by positions. Errors it raises itself (no original error, no code) get an
 * original error, as graphql-js's do, so that yoga masks them.
 */
function asInterpreted(error: GraphQLError, source: Source): GraphQLError {
  const own = !error.originalError && error.extensions?.code === undefined;
  if (!own && (error.nodes || error.positions || !error.locations)) return error;
  const { message, path, extensions } = error;
  const positions = error.locations?.map((location) => offsetOf(source.body, location));
  const originalError = error.originalError ?? new Error(message);
  return new GraphQLError(message, { source: positions ? source : undefined, positions, path, originalError, extensions });
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
