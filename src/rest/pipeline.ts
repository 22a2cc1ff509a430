// WordPress's processing order after a route matched (spec 0.3), which decides which error wins:
// JSON body → required args → validate_callback → sanitize/type coercion → permission → handler.
import { parseRequestArg } from './args.js';
import { ArgError, RestError, forbidden, invalidParams, isArgErrorShape, missingParams } from './errors.js';
import { mergeSources, SOURCE_ORDER, type RestRequestImpl } from './request.js';
import type { Endpoint, RestResult, ValidateResult } from './route-table.js';

type Detail = { code: string; message: string; data: unknown };

const detailOf = (error: { code: string; message: string; data?: unknown }): Detail => ({
  code: error.code,
  message: error.message,
  data: error.data ?? null,
});

export async function runPipeline(req: RestRequestImpl, jsonError?: RestError): Promise<RestResult> {
  if (jsonError) throw jsonError; // has_valid_params checks the JSON first
  checkRequired(req);
  await validateArgs(req);
  await sanitizeArgs(req);
  if (!permits(await permissionOf(req, req.endpoint, true))) throw forbidden(req.viewer !== null);
  try {
    return await req.endpoint.handler(req);
  } finally {
    if (req.endpoint.permissionAfterHandler) req.permissions.delete(req.endpoint);
  }
}

/** Step 2: `required: true` args with no non-null value, in declaration order. */
function checkRequired(req: RestRequestImpl): void {
  const missing = Object.keys(req.args).filter((name) => req.args[name].required === true && req.raw[name] === undefined);
  if (missing.length) throw missingParams(missing);
}

/** Step 3: every declared validator whose value is not null (defaults included), concurrently;
 *  reported in declaration order. A thrown ArgError counts as a returned one. */
async function validateArgs(req: RestRequestImpl): Promise<void> {
  const names = Object.keys(req.args).filter((name) => req.args[name].validate && req.raw[name] !== undefined);
  if (!names.length) return;
  const results = await Promise.all(
    names.map(async (name): Promise<ValidateResult> => {
      try {
        return await req.args[name].validate!(req.raw[name], req, name);
      } catch (error) {
        if (error instanceof ArgError) return error;
        throw error;
      }
    }),
  );
  const params: Record<string, string> = {};
  const details: Record<string, Detail> = {};
  names.forEach((name, i) => {
    const result = results[i];
    if (result === false) params[name] = 'Invalid parameter.';
    else if (isArgErrorShape(result)) {
      params[name] = result.message;
      details[name] = detailOf(result);
    }
  });
  if (Object.keys(params).length) throw invalidParams(params, details);
}

/**
 * Step 4 (WP sanitize_params): each source in precedence order, each declared arg it holds — even
 * a shadowed or null one — goes through its sanitizer, or the JSON-schema check + coercion when it
 * has a `type` and no sanitizer. Errors are reported in that visiting order.
 */
async function sanitizeArgs(req: RestRequestImpl): Promise<void> {
  const params: Record<string, string> = {};
  const details: Record<string, Detail> = {};
  for (const key of SOURCE_ORDER) {
    const source = req.sources[key];
    for (const [name, value] of Object.entries(source)) {
      if (!Object.hasOwn(req.args, name)) continue;
      const spec = req.args[name];
      let result: unknown;
      if (typeof spec.sanitize === 'function') {
        try {
          result = await spec.sanitize(value, req, name);
        } catch (error) {
          if (!(error instanceof ArgError)) throw error;
          result = error;
        }
      } else if (spec.sanitize !== false && spec.type) {
        result = parseRequestArg(value, spec, name);
      } else continue;
      if (result instanceof ArgError) {
        params[name] = result.message;
        details[name] = detailOf(result);
      } else source[name] = result;
    }
  }
  if (Object.keys(params).length) throw invalidParams(params, details);
  req.params = mergeSources(req.sources);
}

/**
 * The permission callback's answer for this request (absent = public → true), computed once per
 * endpoint. With `strict` (the matched endpoint) a returned or thrown error propagates; for the
 * Allow header it counts as a refusal.
 */
export async function permissionOf(req: RestRequestImpl, endpoint: Endpoint, strict = false): Promise<unknown> {
  if (!endpoint.permission) return true;
  if (req.permissions.has(endpoint)) return req.permissions.get(endpoint);
  let result: unknown;
  try {
    result = await endpoint.permission(req);
    if (result instanceof Error) throw result;
  } catch (error) {
    req.permissions.set(endpoint, false);
    if (strict) throw error;
    return false;
  }
  req.permissions.set(endpoint, result);
  return result;
}

/** WP: a permission result of false or null refuses; anything else that is not an error passes. */
export const permits = (result: unknown) => result !== false && result !== null && result !== undefined;

/** WP rest_send_allow_header: the route's methods whose permission result is exactly true. */
export async function allowHeader(req: RestRequestImpl, endpoints: readonly Endpoint[]): Promise<string | undefined> {
  const allowed = new Map<string, boolean>();
  for (const endpoint of endpoints) {
    const ok = (await permissionOf(req, endpoint)) === true;
    // A later handler for the same method overrides the verdict but keeps the first position (PHP keys).
    for (const method of endpoint.methods) allowed.set(method, ok);
  }
  const methods = [...allowed].filter(([, ok]) => ok).map(([method]) => method);
  return methods.length ? methods.join(', ') : undefined;
}
