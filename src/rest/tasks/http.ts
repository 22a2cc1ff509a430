// The task API's own conventions on the shared route-table pipeline: its error envelope
// {success: false, error}, its JSON-only body, and the wording of its refused arguments.
import type { IncomingMessage } from 'node:http';
import type { ErrorEnvelope } from '../error-answer.js';
import { RestError } from '../errors.js';
import { readBody } from '../request.js';
import type { ArgRefusal, ArgRules } from '../arg-check.js';
import { isPlainObject } from '../../values.js';

/** An error the task API answers: the status and message are the spec's (the code is not shown). */
export const taskError = (status: number, message: string, headers: Record<string, string> = {}) =>
  new RestError('task_api_error', message, status, {}, {}, headers);

/** The spec's envelope of a failure. */
export const TASK_ERROR_ENVELOPE: ErrorEnvelope = {
  render: (error) => ({ success: false, error: error.message }),
  internal: () => taskError(500, 'Internal server error.'),
};

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The request's JSON body ({} when empty); 413 over the limit, 415 when not JSON, 400 when malformed.
 * The 413 closes the connection: the unread rest of a body is never taken for the next request on it.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const tooLarge = () => taskError(413, `The body is larger than ${limit} bytes.`, { Connection: 'close' });
  const text = (await readBody(req, limit, tooLarge)).toString('utf8');
  if (!text.trim()) return {};
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw taskError(415, `The body must be JSON, sent with Content-Type: application/json (got "${type || 'none'}").`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw taskError(400, `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(value)) throw taskError(400, 'The body must be a JSON object.');
  return value;
}

const typeNames: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  array: 'an array',
  object: 'an object',
};
const INT32 = { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };

/** The spec's wording of a refused argument: a closed set lists its values, a query integer gives
 *  its range, a body's value its expected type (or "out of range" past 32 bits). */
function argMessage(refusal: ArgRefusal): string {
  const { name, spec, place } = refusal;
  if (refusal.missing) return `${name} is required`;
  if (spec.enum) return `${name} must be one of: ${spec.enum.join(', ')}`;
  // A query refuses only integers: its other args are text.
  if (place === 'query') {
    return `${name} must be an integer from ${spec.minimum ?? INT32.minimum} to ${spec.maximum ?? INT32.maximum}`;
  }
  if (refusal.error.code === 'rest_out_of_bounds') return `${name} is out of range`;
  return `${name} must be ${typeNames[spec.type as string]}`;
}

/** The task table's choices for the shared argument checker (rest/arg-check.ts). */
export const TASK_ARG_RULES: ArgRules = {
  integerBounds: INT32,
  refuse: (refusal) => taskError(400, argMessage(refusal)),
};
