// One way for tests to send a request and read its answer as a client would: the body as text and,
// when it is JSON, parsed. Used by every test client (useTestServer, clientFor, the REST framework's).

export interface RequestOptions {
  /** A JSON body (content-type application/json): a string is sent as it is (malformed JSON too),
   *  anything else as JSON. */
  body?: unknown;
  /** A body sent as it is, with no content type unless `headers` names one. */
  rawBody?: string | Uint8Array;
  /** A form body (application/x-www-form-urlencoded). */
  form?: string;
  headers?: Record<string, string>;
  /** Sent as x-api-key. */
  key?: string;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

export async function requestJson(url: string, method: string, options: RequestOptions = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  let body: string | Uint8Array | undefined;
  if (options.form !== undefined) {
    body = options.form;
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (options.rawBody !== undefined) {
    body = options.rawBody;
  } else if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetchOnce(url, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * fetch, sent again once when a GET or HEAD meets a connection reset: a kept-alive connection the
 * server closed (its 5 s idle timeout) just as a busy test process reused it. Other methods are
 * never repeated.
 */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if ((init.method === 'GET' || init.method === 'HEAD') && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')) return fetch(url, init);
    throw error;
  }
}
