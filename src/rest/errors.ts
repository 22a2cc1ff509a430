// Errors of the REST layer, rendered as WordPress's envelope {code, message, data: {status, ...}}.
// Messages of the framework's own errors are WordPress's, verbatim (spec §5.2).

/** An error a handler, permission callback or the pipeline throws; becomes the response. */
export class RestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 500,
    /** Extra keys of `data`, after `status` (e.g. `{params}`, `{term_id}`). */
    readonly data: Record<string, unknown> = {},
    /** Extra top-level keys after `data` (WP's `additional_errors` / `additional_data`). */
    readonly extra: Record<string, unknown> = {},
    /** Response headers the error's answer carries (Retry-After, Allow, Connection). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RestError';
  }

  toBody(): Record<string, unknown> {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data }, ...this.extra };
  }
}

/**
 * What an argument validator or sanitizer reports instead of `false` (WP returns a WP_Error):
 * `params.<name>` gets its message and `details.<name>` gets `{code, message, data}`.
 */
export class ArgError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ArgError';
  }
}

/** The `{code, message, data}` a validator may return (an ArgError or a plain object of that shape). */
export interface ArgErrorShape {
  code: string;
  message: string;
  data?: unknown;
}

export function isArgErrorShape(value: unknown): value is ArgErrorShape {
  if (value instanceof ArgError) return true;
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.message === 'string';
}

export const noRoute = () => new RestError('rest_no_route', 'No route was found matching the URL and request method.', 404);

export const missingParams = (names: string[]) =>
  new RestError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, 400, { params: names });

/** `details` is PHP's empty array `[]` when no validator produced an error object (sample 35). */
export function invalidParams(params: Record<string, string>, details: Record<string, unknown>): RestError {
  const detailsOut = Object.keys(details).length ? details : [];
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, 400, {
    params,
    details: detailsOut,
  });
}

export const invalidJson = (jsonErrorCode: number, jsonErrorMessage: string) =>
  new RestError('rest_invalid_json', 'Invalid JSON body passed.', 400, {
    json_error_code: jsonErrorCode,
    json_error_message: jsonErrorMessage,
  });

/** 401 for an anonymous caller, 403 for an authenticated one (WP rest_authorization_required_code). */
export const forbidden = (authenticated: boolean) =>
  new RestError('rest_forbidden', 'Sorry, you are not allowed to do that.', authenticated ? 403 : 401);

/** Credentials were sent but match no key: WP's answer to a wrong application password. */
export const invalidCredentials = () =>
  new RestError('incorrect_password', 'The provided password is an invalid application password.', 401);

/** Almanac's own: WordPress has no equivalent (PHP's post_max_size silently drops the body). */
export const payloadTooLarge = (limit: number) =>
  new RestError('rest_payload_too_large', `The request body is larger than ${limit} bytes.`, 413);

/** An unexpected failure: nothing about its cause leaves the process. */
export const internalError = () => new RestError('internal_server_error', 'There has been a critical error on this website.', 500);

/**
 * The database is unavailable for a moment (src/db/faults.ts): the server's fault, not the
 * client's, so 503 (with Retry-After) where WordPress would die with a 500 "Error establishing a
 * database connection".
 */
export const databaseUnavailable = (message: string, headers: Record<string, string> = {}) =>
  new RestError('database_unavailable', message, 503, {}, {}, headers);
