// A raw HTTP client for hostile requests: paths sent byte for byte (no URL normalisation, so `../`
// and `%2e%2e%2f` reach the server as written), any header, any body, chunked or not; plus a pool
// that sends many requests a few at a time and a tally of the answers.
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** Sent as is: the caller percent-encodes what node:http would refuse (spaces, non-ASCII). */
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
  /** A label for reports (which family of hostile input this is). */
  family?: string;
}

export interface RawResponse {
  /** The HTTP status, or 0 when the connection failed before an answer (see `error`). */
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Milliseconds from sending to the end of the answer. */
  ms: number;
  error?: string;
}

export function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One client per server: keep-alive connections, at most `sockets` at a time. */
export class RawClient {
  private agent: http.Agent;
  constructor(
    readonly base: string,
    sockets = 8,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  send(request: RawRequest, timeoutMs = 60_000): Promise<RawResponse> {
    const url = new URL(this.base);
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    return new Promise((resolve) => {
      let settled = false;
      const done = (response: RawResponse) => {
        if (settled) return;
        settled = true;
        resolve(response);
      };
      const headers: OutgoingHttpHeaders = { ...request.headers };
      const body =
        request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
      if (body && request.chunked) headers['transfer-encoding'] = 'chunked';
      else if (body && headers['content-length'] === undefined) headers['content-length'] = body.length;
      const req = http.request(
        { host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), ms: elapsed() }),
          );
          res.on('error', (error) =>
            done({ status: 0, headers: {}, text: '', ms: elapsed(), error: (error as NodeJS.ErrnoException).code ?? error.message }),
          );
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
      req.on('error', (error: NodeJS.ErrnoException) =>
        done({ status: 0, headers: {}, text: '', ms: elapsed(), error: error.code ?? error.message }),
      );
      if (body && request.chunked) {
        // Several chunks, so that the server really reads a chunked stream.
        for (let i = 0; i < body.length; i += 65_536) req.write(body.subarray(i, i + 65_536));
      } else if (body) req.write(body);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `work` on every item, `concurrency` at a time, in order of the list. */
export async function pool<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** Answers counted by status, with a few examples of the ones a test must explain (5xx, failures). */
export class Tally {
  readonly byStatus = new Map<string, number>();
  /** Answer times (ms) per family of hostile input. */
  readonly byFamily = new Map<string, number[]>();
  readonly failures: Array<{ request: RawRequest; response: RawResponse }> = [];
  total = 0;

  add(request: RawRequest, response: RawResponse): void {
    this.total++;
    const key = response.status ? String(response.status) : `no answer (${response.error})`;
    this.byStatus.set(key, (this.byStatus.get(key) ?? 0) + 1);
    const family = request.family ?? 'other';
    if (!this.byFamily.has(family)) this.byFamily.set(family, []);
    this.byFamily.get(family)!.push(response.ms);
    if (response.status >= 500 || response.status === 0) this.failures.push({ request, response });
  }

  get serverErrors(): number {
    return [...this.byStatus].filter(([status]) => Number(status) >= 500).reduce((sum, [, n]) => sum + n, 0);
  }

  /** `1,234 requests: 200 ×12, 400 ×1,000, …` */
  summary(): string {
    const statuses = [...this.byStatus].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status} ×${n.toLocaleString('en')}`);
    return `${this.total.toLocaleString('en')} requests: ${statuses.join(', ')}`;
  }

  /** One line per family: how many, median and slowest answer. */
  timings(): string {
    return [...this.byFamily]
      .map(
        ([family, ms]) =>
          `  ${family.padEnd(14)} ${String(ms.length).padStart(6)} requests, median ${median(ms).toFixed(1)} ms, max ${Math.max(...ms).toFixed(0)} ms`,
      )
      .join('\n');
  }

  /** The failures, readable: method, path (cut), body (cut), status, answer (cut). */
  describeFailures(limit = 10): string {
    return this.failures
      .slice(0, limit)
      .map(({ request, response }) => {
        const body = request.body === undefined ? '' : ` body=${String(request.body).slice(0, 200)}`;
        return `[${request.family}] ${request.method} ${request.path.slice(0, 300)}${body} → ${response.status || response.error} ${response.text.slice(0, 300)}`;
      })
      .join('\n');
  }
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Sends every request through `client`, `concurrency` at a time, tallying the answers. */
export async function fire(client: RawClient, requests: readonly RawRequest[], concurrency: number, tally = new Tally()): Promise<Tally> {
  await pool(requests, concurrency, async (request) => tally.add(request, await client.send(request)));
  return tally;
}
