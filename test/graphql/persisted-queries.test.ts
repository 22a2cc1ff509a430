// Automatic persisted queries with Apollo Client's own persisted-query link, over POST and GET: the
// first request sends only the hash, the server asks for the document, later requests send only the
// hash. Malformed persisted-query requests are 200/400 GraphQL errors with codes, never 5xx.
import { createHash } from 'node:crypto';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('automatic persisted queries', () => {
  const api = useTestServer('sqlite');

  function client(useGET: boolean) {
    const sent: { method: string; hasQuery: boolean }[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      const body = init?.body ? JSON.parse(String(init.body)) : null;
      sent.push({ method: init?.method ?? 'GET', hasQuery: Boolean(body?.query ?? url.searchParams.get('query')) });
      return fetch(input, init);
    };
    const http = new HttpLink({ uri: `${api.url}/graphql`, fetch: recordingFetch, headers: { 'x-api-key': api.keys.administrator } });
    const link = ApolloLink.from([new PersistedQueryLink({ sha256, useGETForHashedQueries: useGET }), http]);
    return { apollo: new ApolloClient({ link, cache: new InMemoryCache() }), sent };
  }

  for (const useGET of [false, true]) {
    it(`registers a document once, then runs it by hash (${useGET ? 'GET' : 'POST'})`, async () => {
      const { apollo, sent } = client(useGET);
      const query = gql`query Upcoming${useGET ? 'Get' : 'Post'} { events(page: { perPage: 2 }) { total } }`;
      const first = await apollo.query({ query, fetchPolicy: 'network-only' });
      expect(first.data).toEqual({ events: { __typename: 'EventPage', total: 0 } });
      // Hash only → PERSISTED_QUERY_NOT_FOUND → the same operation again with its document.
      expect(sent.map((r) => r.hasQuery)).toEqual([false, true]);
      if (useGET) expect(sent[0].method).toBe('GET');
      const second = await apollo.query({ query, fetchPolicy: 'network-only' });
      expect(second.data).toEqual(first.data);
      expect(sent.map((r) => r.hasQuery)).toEqual([false, true, false]);
    });
  }

  it('answers unknown and mismatched hashes with codes, never a 5xx', async () => {
    const extensions = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
    const unknown = await api.request('POST', '/graphql', { body: { extensions: extensions('a'.repeat(64)) } });
    expect(unknown.json.errors[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    const mismatch = await api.request('POST', '/graphql', { body: { query: '{ __typename }', extensions: extensions('b'.repeat(64)) } });
    expect(mismatch.json.errors[0].extensions.code).toBe('BAD_REQUEST');
    for (const persistedQuery of [{ version: 2, sha256Hash: 'c'.repeat(64) }, { version: 1, sha256Hash: 'not hex' }, { version: 1 }]) {
      const response = await api.request('POST', '/graphql', { body: { extensions: { persistedQuery } } });
      expect(response.status).toBeLessThan(500);
      expect(response.json.errors[0].extensions.code).toMatch(/PERSISTED_QUERY_NOT_SUPPORTED|BAD_REQUEST/);
    }
    const viaGet = await api.request(
      'GET',
      `/graphql?extensions=${encodeURIComponent(JSON.stringify(extensions(sha256('{ __typename }'))))}`,
    );
    expect(viaGet.json.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });
});
