// MCP's Streamable HTTP transport at /mcp, as a table of the app's one router. This file owns what
// the SDK's transport leaves to its host: the API key of every request (401 + WWW-Authenticate),
// the Origin check against DNS rebinding, bounded bodies (413), and sessions that are bounded in
// number and expire when idle. A session belongs to the user who opened it: another key's request
// naming it is answered as an unknown session. Sessions live in this process's memory: see
// docs/mcp.md for what a deployment with several processes must do.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Context } from 'koa';
import type { Viewer } from '../auth/viewer.js';
import type { Authenticate } from '../http/caller.js';
import { page, pageTable, plainErrors } from '../http/page-route.js';
import type { Table } from '../http/router.js';
import type { McpDeps } from './tool-kit.js';

export interface McpHttpOptions extends McpDeps {
  /** The app's caller resolution, shared by every table (src/http/caller.ts). */
  authenticate: Authenticate;
  /** CORS_ORIGINS: a listed origin may call /mcp from a browser; '*' allows none beyond the site's own. */
  corsOrigins: '*' | string[];
  maxBodyBytes?: number;
  maxSessions?: number;
  maxSessionsPerUser?: number;
  sessionIdleMs?: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  userId: number;
  lastUsed: number;
}

const DEFAULTS = { maxBodyBytes: 1024 * 1024, maxSessions: 1000, maxSessionsPerUser: 20, sessionIdleMs: 30 * 60_000 };

/** The answer of a refused request: a JSON-RPC error with no id, as the SDK's own refusals. */
function refuse(ctx: Context, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  ctx.set(headers);
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Origins that may call: none (programs), the site's own, the configured CORS origins, and a local
 * page calling a local server. A DNS-rebinding page has its own origin (evil.example), which none of
 * these is; it would also need an API key, which no browser sends by itself (keys are not cookies).
 */
export function originAllowed(
  origin: string | undefined,
  options: { siteUrl: string; corsOrigins: '*' | string[]; host: string },
): boolean {
  if (!origin) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === new URL(options.siteUrl).origin) return true;
  if (options.corsOrigins !== '*' && options.corsOrigins.includes(url.origin)) return true;
  const requestHost = options.host.replace(/:\d+$/, '');
  return LOOPBACK.has(url.hostname) && LOOPBACK.has(requestHost);
}

/** The request's body, at most `limit` bytes: 'too large' past it. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too large'> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return 'too large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The app's refusal of a caller, as /mcp answers it. */
class CallerRefused extends Error {
  constructor(
    readonly reason: string,
    readonly retryAfter?: number,
  ) {
    super(reason);
  }
}

/** 401 with WWW-Authenticate for a missing or wrong key; any other refusal (an address that failed
 *  too often) 429, with Retry-After when the app gives one. */
function refuseCaller(ctx: Context, refusal: CallerRefused): void {
  if (refusal.reason === 'missing')
    return refuse(ctx, 401, -32001, 'An API key is required: header x-api-key or Authorization: Bearer <key>.', {
      'WWW-Authenticate': 'Bearer realm="almanac"',
    });
  if (refusal.reason === 'invalid')
    return refuse(ctx, 401, -32001, 'The API key is not valid.', { 'WWW-Authenticate': 'Bearer realm="almanac", error="invalid_token"' });
  const wait = refusal.retryAfter ?? 60;
  return refuse(ctx, 429, -32000, `Too many failed sign-ins from this address; retry in ${wait} s.`, { 'Retry-After': String(wait) });
}

const isInitialize = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some((message) => (message as { method?: unknown })?.method === 'initialize');

export interface McpHttp {
  table: Table;
  /** Ends every session (the server is closing). */
  close(): Promise<void>;
}

// The SDK and the tools' schemas (~35 MB resident) load with the first session, not with every
// process; the build splits this dynamic import into a chunk of its own.
let sdk: Promise<[typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'), typeof import('./server.js')]> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./server.js')]));

export function mcpHttp(options: McpHttpOptions): McpHttp {
  const limits = { ...DEFAULTS, ...options };
  const sessions = new Map<string, Session>();

  const end = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.server.close().catch(() => undefined);
  };
  // Idle sessions end; the timer does not keep the process alive.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (now - session.lastUsed > limits.sessionIdleMs) void end(id);
    },
    Math.min(limits.sessionIdleMs, 60_000),
  );
  sweep.unref();

  /** Room for one more session of `userId`: the least recently used one (theirs first) ends. */
  const makeRoom = async (userId: number) => {
    const oldest = (filter: (s: Session) => boolean) =>
      [...sessions].filter(([, s]) => filter(s)).sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0]?.[0];
    const own = [...sessions.values()].filter((s) => s.userId === userId).length;
    if (own >= limits.maxSessionsPerUser) await end(oldest((s) => s.userId === userId)!);
    if (sessions.size >= limits.maxSessions) await end(oldest(() => true)!);
  };

  async function openSession(viewer: Viewer): Promise<StreamableHTTPServerTransport> {
    await makeRoom(viewer.userId);
    const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await loadSdk();
    const server = createMcpServer(options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, userId: viewer.userId, lastUsed: Date.now() }),
      onsessionclosed: (id) => void end(id),
    });
    await server.connect(transport);
    return transport;
  }

  async function handle(ctx: Context): Promise<void> {
    if (!originAllowed(ctx.get('Origin') || undefined, { siteUrl: options.siteUrl, corsOrigins: options.corsOrigins, host: ctx.host })) {
      return refuse(ctx, 403, -32000, 'Forbidden: this Origin may not call /mcp (CORS_ORIGINS lists the origins that may).');
    }
    let viewer: Viewer;
    try {
      // `refuse` takes any reason the app's rule may give (a throttled address, too), as an Error.
      const rule = { required: true, refuse: (reason: string, retryAfter?: number) => new CallerRefused(reason, retryAfter) };
      viewer = (await options.authenticate(ctx, rule))!;
    } catch (error) {
      if (error instanceof CallerRefused) return refuseCaller(ctx, error);
      throw error;
    }

    let body: unknown;
    if (ctx.method === 'POST') {
      const raw = await readBody(ctx.req, limits.maxBodyBytes);
      if (raw === 'too large') return refuse(ctx, 413, -32000, `Request body larger than ${limits.maxBodyBytes} bytes.`);
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return refuse(ctx, 400, -32700, 'Parse error: the body is not JSON.');
      }
    }

    const sessionId = ctx.get('Mcp-Session-Id');
    let transport: StreamableHTTPServerTransport;
    if (sessionId) {
      const session = sessions.get(sessionId);
      // Another user's session is as unknown as an expired one (a 404 makes the client start anew).
      if (!session || session.userId !== viewer.userId) return refuse(ctx, 404, -32001, 'Session not found.');
      session.lastUsed = Date.now();
      transport = session.transport;
    } else if (ctx.method === 'POST' && isInitialize(body)) {
      transport = await openSession(viewer);
    } else {
      return refuse(ctx, 400, -32000, 'Bad Request: no Mcp-Session-Id; start with an initialize request.');
    }

    // The SDK writes the answer (JSON or an event stream) itself; Koa only logs it. The caller
    // reaches the tools as authInfo, read again on every request (a revoked key stops at once).
    ctx.respond = false;
    ctx.status = 200;
    // The request id ties each tool call's log line to the request's access log line (app.ts).
    const requestId = (ctx.state as { requestId?: string }).requestId;
    const req = ctx.req as IncomingMessage & {
      auth?: { token: string; clientId: string; scopes: string[]; extra: Record<string, unknown> };
    };
    req.auth = { token: '', clientId: `user:${viewer.userId}`, scopes: [], extra: { viewer, requestId } };
    await transport.handleRequest(req, ctx.res, body);
  }

  return {
    table: pageTable('mcp', [page('/mcp/?', ({ ctx }) => handle(ctx), ['GET', 'POST', 'DELETE'])], plainErrors),
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map(end));
    },
  };
}
