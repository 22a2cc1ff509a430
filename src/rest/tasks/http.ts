// HTTP plumbing of the task API: the envelope's errors, a JSON body reader with a size limit, and
// the checks of the arguments its route table declares.
import type { IncomingMessage } from 'node:http';
import type { Args } from '../route-table.js';
import { isPlainObject } from '../../values.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The request's JSON body ({} when empty); 413 over the limit, 415 when not JSON, 400 when malformed.
 * A body over the limit is not read to its end: the 413 closes the connection, or the unread rest
 * would be taken for the next request on it (a chunked body left the connection hanging).
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const tooLarge = () => new HttpError(413, `The body is larger than ${limit} bytes.`, { Connection: 'close' });
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new HttpError(415, `The body must be JSON, sent with Content-Type: application/json (got "${type || 'none'}").`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'The body must be a JSON object.');
  return value as Record<string, unknown>;
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
      if (spec.required) throw new HttpError(400, `${name} is required`);
      continue;
    }
    if (spec.enum && !spec.enum.includes(value)) throw new HttpError(400, `${name} must be one of: ${spec.enum.join(', ')}`);
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
    if (!fits) throw new HttpError(400, `${name} must be ${typeNames[spec.type as string]}`);
    if (spec.type === 'integer' && Math.abs(value as number) > INT32) throw new HttpError(400, `${name} is out of range`);
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
      if (spec.required) throw new HttpError(400, `${name} is required`);
      if (spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    if (spec.type === 'integer') {
      const n = Number(raw);
      const min = spec.minimum ?? -(2 ** 31);
      const max = spec.maximum ?? INT32;
      if (!/^-?\d+$/.test(raw) || n < min || n > max) throw new HttpError(400, `${name} must be an integer from ${min} to ${max}`);
      out[name] = n;
    } else {
      out[name] = raw;
    }
  }
  return out;
}
