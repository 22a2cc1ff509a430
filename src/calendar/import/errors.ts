// The import's own errors, mapped to GraphQL codes (and command-line messages) at the edge.
export type ImportErrorCode =
  | 'invalid' // the request itself: a bad URL, options, a job that cannot be resumed
  | 'not_found' // no such job
  | 'forbidden' // only administrators import
  | 'conflict' // the job is running (here or in another process)
  | 'denied' // the URL policy refuses the source
  | 'source_unavailable' // the source did not answer (network, 5xx): worth resuming later
  | 'source_invalid'; // the source answered something that is not what an import reads

export class ImportError extends Error {
  constructor(
    readonly code: ImportErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ImportError';
  }
}
