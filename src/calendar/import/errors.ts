// The import's own errors, mapped to GraphQL codes (and command-line messages) at the edge, and the
// one way an import reads its source.
import { DomainError } from '../../domain-error.js';
import { guardedRequest, OutboundDenied, type GuardedOptions, type GuardedResponse } from '../../http/guarded-request.js';
import type { UrlPolicy } from '../../http/url-policy.js';

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
