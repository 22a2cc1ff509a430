// Errors the task domain raises on purpose; the GraphQL layer maps each code to its own.
import { DomainError } from '../domain-error.js';

export type TaskErrorCode = 'invalid' | 'not_found' | 'conflict' | 'unauthenticated' | 'limit';

export class TaskError extends DomainError<TaskErrorCode> {
  constructor(
    code: TaskErrorCode,
    message: string,
    /** The input field at fault, for `invalid`. */
    readonly field?: string,
  ) {
    super(code, message);
  }
}

export const invalid = (field: string, rule: string) => new TaskError('invalid', `${field} ${rule}`, field);
