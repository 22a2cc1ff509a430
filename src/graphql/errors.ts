// Errors as the GraphQL API reports them. Each carries `extensions.code`, one per condition, so a
// client (and the REST layer) can map it without reading messages. Resolvers raise AppError for
// conditions of the API itself; domain modules raise their own DomainErrors, which become AppErrors
// here, at the edge, in one place (every field, both yoga and the in-process REST runner). Yoga
// masks every other error.
import { GraphQLError } from 'graphql';
import type { CalendarErrorCode } from '../calendar/errors.js';
import { DomainError } from '../domain-error.js';

export type ErrorCode = CalendarErrorCode | 'RATE_LIMITED';

export class AppError extends GraphQLError {
  constructor(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}, at?: GraphQLError) {
    super(message, { nodes: at?.nodes, source: at?.source, positions: at?.positions, path: at?.path, extensions: { code, ...extensions } });
  }
}

export function errorCode(error: unknown): ErrorCode | undefined {
  return (error as GraphQLError)?.extensions?.code as ErrorCode | undefined;
}

type DomainErrorClass<E extends DomainError> = abstract new (...args: any[]) => E;
/** How a domain's errors read in GraphQL: a code and extensions (none: its own code and details). */
type Translation = { code: ErrorCode; extensions?: Record<string, unknown> };
const translations: [DomainErrorClass<DomainError>, (error: any) => Translation][] = [];

/** Declares how the errors of one domain read in GraphQL (called by that domain's GraphQL module). */
export function translateDomainErrors<E extends DomainError>(type: DomainErrorClass<E>, translate: (error: E) => Translation): void {
  translations.push([type, translate]);
}

/**
 * The error as the API reports it: a GraphQL error raised for a DomainError becomes the coded
 * AppError its domain declared, at the same path; any other error is returned as it is.
 */
export function asApiError(error: unknown): unknown {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (!(original instanceof DomainError)) return error;
  const at = error instanceof GraphQLError ? error : undefined;
  const translate = translations.find(([type]) => original instanceof type)?.[1];
  const { code, extensions } = translate ? translate(original) : { code: original.code as ErrorCode, extensions: original.details };
  return new AppError(code, original.message, extensions ?? {}, at);
}
