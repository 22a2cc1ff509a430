// The import's own errors, mapped to GraphQL codes (and command-line messages) at the edge, and the
// one way an import reads its source.
import { DomainError } from '../../domain-error.js';
import { guardedRequest, OutboundDenied, type GuardedOptions, type GuardedResponse } from '../../net/guarded-request.js';
import type { UrlPolicy } from '../../net/url-policy.js';

export type ImportErrorCode =
  | 'invalid' // the request itself: a bad URL, options, a job that cannot be resumed
  | 'not_found' // no such job
  | 'forbidden' // only administrators import
  | 'conflict' // the job is running (here or in another process)
  | 'denied' // the URL policy refuses the source
  | 'source_unavailable' // the source did not answer (network, 5xx): worth resuming later
  | 'source_invalid'; // the source answered something that is not what an import reads

export class ImportError extends DomainError<ImportErrorCode> {}

/**
 * A source's answer through the outbound policy, its failures as ImportErrors: refused by the policy
 * (`denied`), no answer, 5xx or 429 (`source_unavailable`: worth a retry or a resume). Any other
 * status is the caller's to judge.
 */
export async function readSource(policy: UrlPolicy, url: string, options: GuardedOptions): Promise<GuardedResponse> {
  let response: GuardedResponse;
  try {
    response = await guardedRequest(policy, url, options);
  } catch (error) {
    throw new ImportError(error instanceof OutboundDenied ? 'denied' : 'source_unavailable', `${url}: ${(error as Error).message}`);
  }
  if (response.status >= 500 || response.status === 429) throw new ImportError('source_unavailable', `${url} answered ${response.status}`);
  return response;
}

/**
 * `read`, tried again after each of `delaysMs` (default: three tries with backoff) while the source
 * is unavailable; answers that will not change on a retry (denied, 4xx, not JSON) stop at once.
 */
export async function withRetries<T>(delaysMs: number[] | undefined, read: () => Promise<T>): Promise<T> {
  const delays = delaysMs ?? [500, 2000, 5000];
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof ImportError && error.code === 'source_unavailable') || attempt >= delays.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON another server sent: each use checks what it reads
export type PeerJson = any;

/** A source's answer as JSON; source_invalid (with `hint`, what the source should have been) when it is not. */
export function answerJson(url: string, response: GuardedResponse, hint = ''): PeerJson {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new ImportError('source_invalid', `${url} did not answer JSON (status ${response.status})${hint}`);
  }
}
