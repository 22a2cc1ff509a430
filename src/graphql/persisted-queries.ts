// Automatic persisted queries, Apollo's protocol: a client sends only the SHA-256 of a document it
// has sent before (GET or POST, `extensions.persistedQuery`); an unknown hash answers
// PERSISTED_QUERY_NOT_FOUND and the client sends the document with its hash once, which is then
// kept. Written here rather than with @graphql-yoga/plugin-apq, whose peer range (graphql-tools
// utils 10) conflicts with the response cache's (11). Each process keeps its own set (a miss only
// costs the client one retry), bounded in count.
import { createHash } from 'node:crypto';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const MAX_DOCUMENTS = 1000;

interface PersistedQuery {
  version?: unknown;
  sha256Hash?: unknown;
}

export function usePersistedQueries(): Plugin {
  const documents = new Map<string, string>(); // insertion order = least recently used first
  const fail = (message: string, code: string) => createGraphQLError(message, { extensions: { code, http: { status: 200 } } });
  return {
    onParams({ params, setParams }) {
      const persisted = params.extensions?.persistedQuery as PersistedQuery | undefined;
      if (!persisted || typeof persisted !== 'object') return;
      if (persisted.version !== 1) throw fail('Unsupported persisted query version', 'PERSISTED_QUERY_NOT_SUPPORTED');
      const hash = typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash.toLowerCase() : '';
      if (!/^[0-9a-f]{64}$/.test(hash)) throw fail('Invalid persisted query hash', 'BAD_REQUEST');
      if (params.query == null || params.query === '') {
        const query = documents.get(hash);
        if (query === undefined) throw fail('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
        documents.delete(hash);
        documents.set(hash, query);
        setParams({ ...params, query });
        return;
      }
      if (typeof params.query !== 'string' || createHash('sha256').update(params.query).digest('hex') !== hash) {
        throw fail('The persisted query hash does not match the query', 'BAD_REQUEST');
      }
      documents.delete(hash);
      documents.set(hash, params.query);
      if (documents.size > MAX_DOCUMENTS) documents.delete(documents.keys().next().value!);
    },
  };
}
