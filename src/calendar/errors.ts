// The calendar's own errors. Its codes are the ones the GraphQL API reports (the edge passes them
// through unchanged, src/graphql/errors.ts), so a client and the REST layer read one vocabulary.
import { DomainError } from '../domain-error.js';

export type CalendarErrorCode =
  | 'UNAUTHENTICATED' // no valid credentials for an operation that needs them
  | 'FORBIDDEN' // authenticated, but the role or ownership does not allow it
  | 'NOT_FOUND' // no record with that id or slug
  | 'WRONG_TYPE' // the id names a record of another type (e.g. a venue's id where an event's is expected)
  | 'TRASHED' // the record is in the trash (reads)
  | 'ALREADY_TRASHED' // delete of a record already in the trash: it is gone
  | 'NOT_ACCESSIBLE' // exists, but the caller may not read it (draft, private…)
  | 'PASSWORD_REQUIRED' // password-protected and the right password was not given
  | 'INVALID_INPUT' // arguments failed validation: details.params = {name: reason}
  | 'TERM_EXISTS' // a term with that name already exists (details.termId)
  | 'NOT_HIERARCHICAL' // parent given for a flat taxonomy
  | 'INVALID_LINKED_POST' // {id} of a venue/organizer that is not one
  | 'COULD_NOT_CREATE_VENUE'
  | 'COULD_NOT_CREATE_ORGANIZER'
  | 'CONFLICT' // the action does not fit the record's state
  | 'CURSOR_EXPIRED'; // the change log no longer holds what follows the cursor: read everything again

export class CalendarError extends DomainError<CalendarErrorCode> {}

/** Validation failure with a reason per argument, in the order the arguments were checked. */
export function invalidInput(params: Record<string, string>, details: Record<string, unknown> = {}): CalendarError {
  const names = Object.keys(params);
  return new CalendarError('INVALID_INPUT', `Invalid parameter(s): ${names.join(', ')}`, { params, details });
}
