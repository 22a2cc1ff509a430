// The task API's own conventions on the shared route-table pipeline: its error envelope
// {success: false, error}, its JSON-only body, and the checks of the arguments its table declares.
import type { IncomingMessage } from 'node:http';
import type { ErrorEnvelope } from '../error-answer.js';
import { RestError } from '../errors.js';
import { readBody } from '../request.js';
import type { Args } from '../route-table.js';
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
const CHECKABLE = Object.keys(typeNames);
const INT32 = 2 ** 31 - 1;

/** Refuses, at start-up, args the task API's checks do not read (they take JSON-schema keywords only). */
export function assertCheckable(path: string, args: Args): void {
  for (const [name, spec] of Object.entries(args)) {
    const type = spec.type;
    if (spec.validate || spec.sanitize || !CHECKABLE.includes(type as string)) {
      throw new Error(`task route ${path}: arg ${name} must be a string, integer, number, array or object without callbacks`);
    }
  }
}

/** Checks body arguments against their specs; null counts as absent. Returns only declared ones. */
export function checkBody(body: Record<string, unknown>, specs: Args): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = body[name];
    if (value === undefined || value === null) {
      if (spec.required) throw taskError(400, `${name} is required`);
      continue;
    }
    if (spec.enum && !spec.enum.includes(value)) throw taskError(400, `${name} must be one of: ${spec.enum.join(', ')}`);
    const fits =
      spec.type === 'string'
        ? typeof value === 'string'
        : spec.type === 'array'
          ? Array.isArray(value)
          : spec.type === 'object'
            ? isPlainObject(value)
            : spec.type === 'number'
              ? typeof value === 'number' && Number.isFinite(value)
              : Number.isSafeInteger(value);
    if (!fits) throw taskError(400, `${name} must be ${typeNames[spec.type as string]}`);
    if (spec.type === 'integer' && Math.abs(value as number) > INT32) throw taskError(400, `${name} is out of range`);
    out[name] = value;
  }
  return out;
}

/** Checks query arguments (strings) against their specs, converting integers. */
export function checkQuery(query: Record<string, string | string[] | undefined>, specs: Args): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    let raw = query[name];
    if (Array.isArray(raw)) raw = raw[raw.length - 1];
    if (raw === undefined || raw === '') {
      if (spec.required) throw taskError(400, `${name} is required`);
      if (spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    if (spec.type === 'integer') {
      const n = Number(raw);
      const min = spec.minimum ?? -(2 ** 31);
      const max = spec.maximum ?? INT32;
      if (!/^-?\d+$/.test(raw) || n < min || n > max) throw taskError(400, `${name} must be an integer from ${min} to ${max}`);
      out[name] = n;
    } else {
      out[name] = raw;
    }
  }
  return out;
}
