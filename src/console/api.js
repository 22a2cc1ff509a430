// @ts-check
// Talking to Almanac's GraphQL API: queries and mutations over fetch, subscriptions over
// server-sent events (a POST with `Accept: text/event-stream`, read as a stream: EventSource cannot
// send the x-api-key header). The key lives in this tab's sessionStorage only.

const STORAGE_KEY = 'almanac.console.apiKey';
const ENDPOINT = '/graphql';

/** The key was refused (HTTP 401): the caller signs out. */
export class AuthError extends Error {}

/** An error GraphQL reported, with its extensions.code (NOT_FOUND, CONFLICT…) and, for INVALID_INPUT, the reason per field. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {string} [code]
   * @param {Record<string, string>} [params]
   */
  constructor(message, code, params) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

/** An error's message, whatever was thrown. */
export const messageOf = (/** @type {unknown} */ error) => (error instanceof Error ? error.message : String(error));

export const storedKey = () => sessionStorage.getItem(STORAGE_KEY);
export const storeKey = (/** @type {string} */ key) => sessionStorage.setItem(STORAGE_KEY, key);
export const forgetKey = () => sessionStorage.removeItem(STORAGE_KEY);

/** @param {string} key @param {string} accept */
function headers(key, accept) {
  return { 'content-type': 'application/json', accept, 'x-api-key': key };
}

/** @param {Response} response */
async function refusal(response) {
  const body = await response.json().catch(() => null);
  return new AuthError(body?.errors?.[0]?.message ?? 'The API key was refused.');
}

/**
 * Runs a query or mutation; resolves to its data, or rejects with an ApiError or AuthError. The
 * data's shape is the query's: callers name it with a typedef.
 * @param {string} query
 * @param {Record<string, unknown>} [variables]
 * @param {string | null} [key]
 * @returns {Promise<any>}
 */
export async function gql(query, variables = {}, key = storedKey()) {
  let response;
  try {
    response = await fetch(ENDPOINT, {
      method: 'POST',
      headers: headers(key ?? '', 'application/json'),
      body: JSON.stringify({ query, variables }),
    });
  } catch (error) {
    throw new ApiError(`Almanac could not be reached (${messageOf(error)}).`, 'NETWORK');
  }
  if (response.status === 401) throw await refusal(response);
  const body = await response.json().catch(() => null);
  if (!body) throw new ApiError(`Almanac answered with HTTP ${response.status}.`, 'HTTP');
  if (body.errors?.length) throw new ApiError(body.errors[0].message, body.errors[0].extensions?.code, body.errors[0].extensions?.params);
  return body.data;
}

/**
 * The bytes of a file the task API serves to the key's owner (a run's download), as a Blob.
 * @param {string} path
 * @returns {Promise<Blob>}
 */
export async function fetchFile(path, key = storedKey()) {
  let response;
  try {
    response = await fetch(path, { headers: { 'x-api-key': key ?? '' } });
  } catch (error) {
    throw new ApiError(`Almanac could not be reached (${messageOf(error)}).`, 'NETWORK');
  }
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new ApiError(body?.error ?? `Almanac answered with HTTP ${response.status}.`, 'HTTP');
  }
  return response.blob();
}

/**
 * Creates a task through the task API (POST /api/v1/task/create): used for a task with files, whose
 * base64 may be far larger than a GraphQL request may be (GRAPHQL_MAX_BYTES). Resolves to the taskId.
 * @param {Record<string, unknown>} body
 * @returns {Promise<string>}
 */
export async function createTaskWithFiles(body, key = storedKey()) {
  let response;
  try {
    response = await fetch('/api/v1/task/create', {
      method: 'POST',
      headers: headers(key ?? '', 'application/json'),
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(`Almanac could not be reached (${messageOf(error)}).`, 'NETWORK');
  }
  const answer = await response.json().catch(() => null);
  if (response.status === 401) throw new AuthError(answer?.error ?? 'The API key was refused.');
  if (!response.ok || !answer?.success) throw new ApiError(answer?.error ?? `Almanac answered with HTTP ${response.status}.`, 'HTTP');
  return answer.data.taskId;
}

const RETRY_MS = [500, 1000, 2000, 5000, 10000];

/**
 * Opens a subscription. `onData(data)` gets each result; `onError(error)` an error the server
 * reported (the subscription then ends); `onState(state)` is told 'connecting', 'live',
 * 'reconnecting' or 'ended'; `onAuth(error)` a refused key. A dropped connection is reopened
 * (the server sends the current state first, so nothing is lost). Returns {close()}.
 * @param {string} query
 * @param {Record<string, unknown>} variables
 * @param {{
 *   onData: (data: any) => void,
 *   onError?: (error: ApiError) => void,
 *   onState?: (state: 'connecting' | 'live' | 'reconnecting' | 'ended') => void,
 *   onAuth?: (error: AuthError) => void,
 * }} handlers
 * @returns {{close(): void}}
 */
export function subscribe(query, variables, { onData, onError = () => {}, onState = () => {}, onAuth = () => {} }) {
  let closed = false;
  /** @type {AbortController | undefined} */
  let controller;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let failures = 0;

  async function connect() {
    controller = new AbortController();
    onState(failures ? 'reconnecting' : 'connecting');
    let ended = false;
    try {
      const response = await fetch(ENDPOINT, {
        method: 'POST',
        headers: headers(storedKey() ?? '', 'text/event-stream'),
        body: JSON.stringify({ query, variables }),
        signal: controller.signal,
        cache: 'no-store',
      });
      if (response.status === 401) throw await refusal(response);
      if (!response.ok || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
        throw new Error(`HTTP ${response.status}`);
      }
      onState('live');
      if (!response.body) throw new Error('no body');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = parseEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (!event) continue;
          if (event.name === 'complete') ended = true;
          if (event.name !== 'next' || closed) continue;
          failures = 0;
          const result = JSON.parse(event.data);
          if (result.errors?.length && !result.data) {
            ended = true;
            onError(new ApiError(result.errors[0].message, result.errors[0].extensions?.code));
          } else {
            onData(result.data);
          }
        }
      }
      if (!ended) throw new Error('the stream was cut');
      if (!closed) onState('ended');
    } catch (error) {
      if (closed) return;
      if (error instanceof AuthError) return onAuth(error);
      onState('reconnecting');
      timer = setTimeout(connect, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]);
    }
  }

  connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      controller?.abort();
    },
  };
}

/**
 * One server-sent event from its block of lines; null for a comment-only block (a ping).
 * @param {string} block
 */
function parseEvent(block) {
  let name = 'message';
  const data = [];
  let fields = 0;
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    fields++;
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  return fields ? { name, data: data.join('\n') } : null;
}
