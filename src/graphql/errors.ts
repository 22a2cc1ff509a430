// Errors that resolvers raise on purpose. Each carries `extensions.code`, one per condition, so a
// client (and the REST layer) can map it without reading messages. Yoga masks every other error.
import { GraphQLError } from 'graphql';

export type ErrorCode =
  | 'UNAUTHENTICATED' // no valid credentials for an operation that needs them
  | 'FORBIDDEN' // authenticated, but the role or ownership does not allow it
  | 'NOT_FOUND' // no record with that id or slug
  | 'WRONG_TYPE' // the id names a record of another type (e.g. a venue's id where an event's is expected)
  | 'TRASHED' // the record is in the trash (reads)
  | 'ALREADY_TRASHED' // delete of a record already in the trash: it is gone
  | 'NOT_ACCESSIBLE' // exists, but the caller may not read it (draft, private…)
  | 'PASSWORD_REQUIRED' // password-protected and the right password was not given
  | 'INVALID_INPUT' // arguments failed validation: extensions.params = {name: reason}
  | 'TERM_EXISTS' // a term with that name already exists (extensions.termId)
  | 'NOT_HIERARCHICAL' // parent given for a flat taxonomy
  | 'INVALID_LINKED_POST' // {id} of a venue/organizer that is not one
  | 'COULD_NOT_CREATE_VENUE'
  | 'COULD_NOT_CREATE_ORGANIZER'
  | 'CONFLICT' // the action does not fit the record's state
  | 'RATE_LIMITED';

export class AppError extends GraphQLError {
  constructor(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}) {
    super(message, { extensions: { code, ...extensions } });
  }
}

/** Validation failure with a reason per argument, in the order the arguments were checked. */
export function invalidInput(params: Record<string, string>, details: Record<string, unknown> = {}): AppError {
  const names = Object.keys(params);
  return new AppError('INVALID_INPUT', `Invalid parameter(s): ${names.join(', ')}`, { params, details });
}

export function errorCode(error: unknown): ErrorCode | undefined {
  return (error as GraphQLError)?.extensions?.code as ErrorCode | undefined;
}
