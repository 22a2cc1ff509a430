// Errors as the GraphQL API reports them. Each carries `extensions.code`, one per condition, so a
// client (and the REST layer) can map it without reading messages. Resolvers raise AppError for
// conditions of the API itself; domain modules raise their own DomainErrors, which become AppErrors
// here, at the edge, in one place (every field, both yoga and the in-process REST runner), and so
// do database faults (SERVICE_UNAVAILABLE, src/db/faults.ts). Yoga masks every other error.
import { GraphQLError } from 'graphql';
import type { CalendarErrorCode } from '../calendar/errors.js';
import { databaseFault, type DatabaseUnavailable } from '../db/faults.js';
import { DomainError } from '../domain-error.js';

export type ErrorCode = CalendarErrorCode | 'RATE_LIMITED' | 'SERVICE_UNAVAILABLE';

export class AppError extends GraphQLError {
  constructor(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}, at?: GraphQLError, originalError?: Error) {
    super(message, {
      nodes: at?.nodes,
      source: at?.source,
      positions: at?.positions,
      path: at?.path,
      originalError,
      extensions: { code, ...extensions },
    });
  }
}

export function errorCode(error: unknown): ErrorCode | undefined {
  return (error as GraphQLError)?.extensions?.code as ErrorCode | undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor signature: the classes differ in their parameters
type DomainErrorClass<E extends DomainError> = abstract new (...args: any[]) => E;
/** How a domain's errors read in GraphQL: a code and extensions (none: its own code and details). */
type Translation = { code: ErrorCode; extensions?: Record<string, unknown> };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each translation takes its own class's errors; the list holds them side by side
const translations: [DomainErrorClass<DomainError>, (error: any) => Translation][] = [];

/** Declares how the errors of one domain read in GraphQL (called by that domain's GraphQL module). */
export function translateDomainErrors<E extends DomainError>(type: DomainErrorClass<E>, translate: (error: E) => Translation): void {
  translations.push([type, translate]);
}

/**
 * The error as the API reports it: a GraphQL error raised for a DomainError becomes the coded
 * AppError its domain declared, at the same path, and one raised for a database fault becomes
 * SERVICE_UNAVAILABLE; any other error is returned as it is.
 */
export function asApiError(error: unknown): unknown {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const at = error instanceof GraphQLError ? error : undefined;
  if (!(original instanceof DomainError)) {
    const fault = databaseFault(original);
    return fault ? serviceUnavailable(fault, at) : error;
  }
  const translate = translations.find(([type]) => original instanceof type)?.[1];
  const { code, extensions } = translate ? translate(original) : { code: original.code as ErrorCode, extensions: original.details };
  return new AppError(code, original.message, extensions ?? {}, at);
}

/**
 * A database fault as GraphQL reports it: SERVICE_UNAVAILABLE, with `retryAfter` (seconds) for
 * programs and yoga's Retry-After header (`http`, which yoga does not send in the body). The fault
 * stays its original error, for the edges' logs (src/http/unavailable.ts).
 */
function serviceUnavailable(fault: DatabaseUnavailable, at?: GraphQLError): AppError {
  const retryAfter = fault.retryAfterSeconds;
  return new AppError(
    'SERVICE_UNAVAILABLE',
    fault.message,
    { retryAfter, http: { headers: { 'Retry-After': String(retryAfter) } } },
    at,
    fault,
  );
}
