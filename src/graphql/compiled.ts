// Operations over HTTP run compiled (graphql-jit, as the REST layer's do: src/graphql/execute.ts)
// from their second run on: the benchmark's nested events page gained 15-40% (100k events, SQLite
// and PostgreSQL). Compiling costs more than one interpreted run, so a document is compiled only
// when it comes again: a client sending ever new documents pays no more than interpretation.
// Documents are the objects yoga's parse cache keeps (bounded); a compiled query lives as long as
// its document. A compiled run answers as an interpreted one: where graphql-jit's answers differ,
// it is not used (variables that do not coerce) or its errors are mended (locations).
import { useGraphQlJit } from '@envelop/graphql-jit';
import { GraphQLError, getOperationAST, getVariableValues, type DocumentNode, type Source, type SourceLocation } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

export function compiledOnRepeat(): Plugin {
  const seen = new WeakSet<DocumentNode>();
  const compiled = new WeakSet<DocumentNode>();
  const jit = useGraphQlJit(
    {},
    {
      enableIf: ({ schema, document, variableValues, operationName }) => {
        if (!seen.has(document)) return (void seen.add(document), false);
        // graphql-jit words a variable's coercion error its own way (and yoga then answers 200, not
        // 400): requests whose variables do not coerce, or that name no runnable operation, run interpreted.
        const definitions = getOperationAST(document, operationName)?.variableDefinitions;
        if (!definitions) return false;
        const runs = !definitions.length || !('errors' in getVariableValues(schema, definitions, variableValues ?? {}));
        if (runs) compiled.add(document);
        return runs;
      },
    },
  );
  return {
    onExecute(payload) {
      jit.onExecute!(payload as never);
      const source = payload.args.document.loc?.source;
      if (!source || !compiled.has(payload.args.document)) return;
      return {
        onExecuteDone: ({ result, setResult }) => {
          if (isAsyncIterable(result) || !result.errors?.length) return;
          setResult({ ...result, errors: result.errors.map((error) => located(error, source)) });
        },
      };
    },
    onSubscribe: jit.onSubscribe,
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
