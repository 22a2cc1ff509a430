// The one error path of every route table (src/http/router.ts): a database fault is a 503 with
// Retry-After, a RestError is its own answer, anything else is what the table's mapError makes of
// it, or a logged 500 that says nothing of its cause. Only the envelope the error is rendered in
// belongs to the table.
import { databaseFault } from '../db/faults.js';
import { noteFault, retryAfter, type FaultNote } from '../http/unavailable.js';
import { RestError, databaseUnavailable, internalError } from './errors.js';
import type { RestResult } from './route-table.js';

export interface ErrorEnvelope {
  /** The body of an error's answer, in the table's shape. */
  render(error: RestError): unknown;
  /** What an unexpected failure answers. */
  internal(): RestError;
}

/** WordPress's {code, message, data: {status}} (the calendar API). */
export const WP_ERROR_ENVELOPE: ErrorEnvelope = { render: (error) => error.toBody(), internal: internalError };

export interface ErrorContext {
  envelope: ErrorEnvelope;
  /** Where a database fault is noted for the access log (ctx.state). */
  state: FaultNote;
  /** Turns an exception the table knows (e.g. a GraphQL error) into a RestError. */
  mapError?: (error: unknown) => RestError | undefined;
  logger: { error(details: object, message?: string): void };
  /** Added to the log line of an unexpected failure (request id, path). */
  logFields: Record<string, unknown>;
}

export function errorAnswer(error: unknown, { envelope, state, mapError, logger, logFields }: ErrorContext): RestResult {
  const fault = databaseFault(error);
  if (fault) {
    noteFault(state, fault);
    const error = databaseUnavailable(fault.message, retryAfter(fault));
    return { status: 503, headers: error.headers, body: envelope.render(error) };
  }
  let rest = error instanceof RestError ? error : mapError?.(error);
  if (!rest) {
    logger.error({ ...logFields, err: error }, 'request failed');
    rest = envelope.internal();
  }
  return { status: rest.status, headers: rest.headers, body: envelope.render(rest) };
}
