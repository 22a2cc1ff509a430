// Errors the task domain raises on purpose; the GraphQL layer maps each code to its own.
export type TaskErrorCode = 'invalid' | 'not_found' | 'conflict' | 'unauthenticated' | 'limit';

export class TaskError extends Error {
  constructor(
    public readonly code: TaskErrorCode,
    message: string,
    /** The input field at fault, for `invalid`. */
    public readonly field?: string,
  ) {
    super(message);
  }
}

export const invalid = (field: string, rule: string) => new TaskError('invalid', `${field} ${rule}`, field);
