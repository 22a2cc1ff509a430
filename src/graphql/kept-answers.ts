// GraphQL reads kept as whole HTTP answers, like REST answers (src/http/response-cache.ts): by GET (a
// query string, or a persisted query's hash) and by POST with a JSON body, which most clients send.
// The key holds the calendar's data version (read before anything is computed), the second, the
// caller, the Accept header and the request line (a POST's: its Content-Type and a hash of its body). Only what
// the GraphQL response cache itself judged keepable is kept (a 200 JSON result without errors and
// without task data: yoga's plugin marks those with an ETag), so limits, validation and unversioned
// types are decided by GraphQL; and the version is read here only for a request already seen to be
// keepable, so a document the limits refuse still reads nothing from the database. A hit skips
// yoga's request and result machinery (kept GraphQL answers ran at ~1,200 req/s through it, REST's
// at ~3,700 without; by POST at ~580). Answers carry a strong ETag of their body: If-None-Match gets a 304 while the
// content is unchanged.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { ResponseCache, etagOf, sendConditionally, type CachedAnswer } from '../http/response-cache.js';

/** A read request as kept answers know it: who asks, for what, and the key once it has one. */
export interface KeptRequest {
  /** The caller and the request (Accept header and request line). */
  id: string;
  key?: string;
  /** The data version the key holds (passed on to GraphQL, so a miss does not read it again). */
  version?: number;
}

export interface KeptAnswers {
  /** The request's identity, and its key when it is a read seen to be keepable; undefined for other requests. */
  lookup(ctx: Koa.Context, viewerId: number | null): Promise<KeptRequest | undefined>;
  /** Sends the kept answer for `request`; false when there is none. */
  serve(ctx: Koa.Context, request: KeptRequest): boolean;
  /** Sends `body` (or a 304), keeping it when GraphQL judged it keepable. */
  send(ctx: Koa.Context, request: KeptRequest | undefined, response: { status: number; headers: Headers }, body: Buffer): void;
}

const MAX_KNOWN = 5_000;

export function keptGraphQLAnswers(version: () => Promise<number>): KeptAnswers {
  const cache = new ResponseCache(500, 16 * 1024 * 1024);
  const keepable = new Set<string>();
  const answer = (ctx: Koa.Context, kept: CachedAnswer) => {
    ctx.status = kept.status;
    for (const [name, value] of Object.entries(kept.headers)) ctx.set(name, value);
    // If-None-Match is a GET's question: a POST gets the answer (with its ETag) whatever it sent.
    if (ctx.method === 'GET') sendConditionally(ctx, kept.body, kept.etag);
    else {
      ctx.set('ETag', kept.etag);
      ctx.body = kept.body;
    }
  };
  return {
    async lookup(ctx, viewerId) {
      const line = await requestLine(ctx);
      if (line === undefined) return undefined;
      const id = `${viewerId ?? 'anonymous'}\u0000${ctx.get('accept')}\u0000${line}`;
      if (!keepable.has(id)) return { id };
      const read = await version();
      return { id, key: ResponseCache.key({ version: read, viewer: viewerId, url: id }), version: read };
    },
    serve(ctx, request) {
      const kept = request.key ? cache.get(request.key) : undefined;
      if (kept) answer(ctx, kept);
      return kept !== undefined;
    },
    send(ctx, request, response, body) {
      const type = response.headers.get('content-type') ?? '';
      if (!request || response.status !== 200 || !response.headers.has('etag') || !/json/.test(type)) {
        ctx.body = body;
        return;
      }
      const kept: CachedAnswer = { status: 200, headers: { 'Content-Type': type }, body, etag: etagOf(body) };
      if (request.key) cache.set(request.key, kept);
      else {
        if (keepable.size >= MAX_KNOWN) keepable.clear();
        keepable.add(request.id);
      }
      ctx.remove('Last-Modified'); // yoga's; the ETag is this answer's validator, hit or miss
      answer(ctx, kept);
    },
  };
}

/**
 * What, besides the caller and Accept, decides a read's answer: a GET's URL; a JSON POST's URL,
 * Content-Type and body. The POST's body is read here, whole (its length was checked against
 * GRAPHQL_MAX_BYTES before), and handed on to yoga as the request's body, which yoga then uses
 * instead of the consumed stream. Other requests (no length given, multipart, form) are not kept.
 */
async function requestLine(ctx: Koa.Context): Promise<string | undefined> {
  if (ctx.method === 'GET') return ctx.querystring ? ctx.url : undefined;
  const type = ctx.get('content-type');
  if (ctx.method !== 'POST' || !/^application\/(graphql\+)?json\b/i.test(type) || !ctx.get('content-length')) return undefined;
  const body = await readWhole(ctx.req);
  (ctx.req as IncomingMessage & { body?: Buffer }).body = body;
  return `POST ${ctx.url}\u0000${type}\u0000${createHash('sha256').update(body).digest('base64url')}`;
}

/** The body as sent; cut short when the client went away, which yoga then answers as unreadable (400). */
async function readWhole(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk as Buffer);
  } catch {
    // aborted: what arrived is all there is
  }
  return Buffer.concat(chunks);
}
