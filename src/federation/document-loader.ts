// How Fedify reaches other servers to read (actors, their keys, JSON-LD contexts): through
// Almanac's one outbound URL policy (src/net), never Fedify's own fetch. A private or loopback
// address is refused unless the policy allows it (TASK_ALLOW_PRIVATE_NETWORK, TASK_ALLOWED_HOSTS),
// so a signed request naming a key at http://127.0.0.1/… cannot make Almanac call itself or its
// network. The contexts Fedify ships with are answered from memory.
import type { DocumentLoader, RemoteDocument } from '@fedify/fedify/runtime';
import { FetchError, preloadedContexts } from '@fedify/fedify/runtime';
import { guardedRequest } from '../net/guarded-request.js';
import type { UrlPolicy } from '../net/url-policy.js';

/** Remote documents are small: an actor with its keys is a few kB. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams", application/json;q=0.5';

/** A Fedify document loader whose every request obeys `policy`. */
export function guardedDocumentLoader(policy: UrlPolicy, extraHeaders: Record<string, string> = {}): DocumentLoader {
  return async (url: string): Promise<RemoteDocument> => {
    const known = preloadedContexts[url];
    if (known) return { contextUrl: null, documentUrl: url, document: known };
    let response;
    try {
      response = await guardedRequest(policy, url, {
        headers: { accept: ACCEPT, ...extraHeaders },
        timeoutMs: 10_000,
        maxBytes: MAX_DOCUMENT_BYTES,
      });
    } catch (error) {
      throw new FetchError(url, (error as Error).message);
    }
    if (response.status < 200 || response.status >= 300) throw new FetchError(url, `HTTP ${response.status}: ${url}`);
    let document: unknown;
    try {
      document = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new FetchError(url, `not JSON: ${url}`);
    }
    return { contextUrl: null, documentUrl: response.url, document };
  };
}
