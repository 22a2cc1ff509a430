// The federation's table of the one router (src/http/router.ts): WebFinger, NodeInfo and /ap/…
// go to Fedify's `federation.fetch` (a Koa request turned into a fetch Request and back), and an
// event's page and its object id answer ActivityPub clients with the Event (event-object.ts).
// Before Fedify sees a request: bodies are bounded (413) and each address is rate-limited (429),
// counted in the database (src/db/rate-window.ts) so that processes sharing it enforce one limit.
// What Fedify answers 5xx (a listener that failed) is logged and answered 503, to be retried.
import type { Context } from 'koa';
import type { Prisma } from '../db/client.js';
import { SharedRateLimit } from '../db/rate-window.js';
import type { DatabaseKind } from '../db/url.js';
import type { Logger } from '../http/logger.js';
import { plainErrors } from '../http/page-route.js';
import type { Table } from '../http/router.js';
import { eventDocument, isPublic, loadEvent } from './event-object.js';
import type { CalendarFederation } from './federation.js';

/** An activity is a few kB; Mastodon caps its inbox bodies at 1 MB, Almanac at this. */
export const MAX_INBOX_BYTES = 256 * 1024;

const FEDERATION_PATH = /^\/(?:\.well-known\/(?:webfinger|nodeinfo|host-meta)|ap\/)/;
const EVENT_PAGE = /^\/event\/([^/]+(?:\/\d{4}-\d{2}-\d{2}(?:-\d+)?)?)\/?$/;
const EVENT_OBJECT = /^\/ap\/events\/(\d{1,12})$/;
const ACTIVITY_JSON = 'application/activity+json';
/** Record ids are 32-bit integers: a larger one names no event (and must not reach the database). */
const MAX_ID = 2 ** 31 - 1;

/** Whether the client asks for ActivityStreams (activity+json, or ld+json with its profile). */
export function wantsActivityJson(accept: string): boolean {
  return accept.includes(ACTIVITY_JSON) || /application\/ld\+json[^,]*activitystreams/.test(accept);
}

class BodyTooLarge extends Error {}

async function readBounded(ctx: Context): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_INBOX_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_INBOX_BYTES) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function plain(ctx: Context, status: number, message: string, headers: Record<string, string> = {}) {
  ctx.status = status;
  ctx.set(headers);
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = message;
}

/** The Event as JSON-LD, or a 404 when it is not public. */
async function answerEvent(ctx: Context, prisma: Prisma, calendar: CalendarFederation, where: { id: number } | { slug: string }) {
  const row = 'id' in where ? { id: where.id } : await prisma.event.findUnique({ where, select: { id: true } });
  const event = row ? await loadEvent(prisma, row.id) : null;
  if (!event || !isPublic(event)) return plain(ctx, 404, 'There is no such event.');
  ctx.status = 200;
  ctx.set('Vary', 'Accept');
  ctx.type = `${ACTIVITY_JSON}; charset=utf-8`;
  ctx.body = JSON.stringify(await eventDocument(event, calendar.urls));
}

async function handOver(ctx: Context, calendar: CalendarFederation, logger: Pick<Logger, 'warn'>) {
  let body: Buffer | undefined;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') body = await readBounded(ctx);
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The public address, not the Host header: what a sender signed (RFC 9421's @target-uri) is the
  // URL it posted to, which a reverse proxy in front of Almanac does not change.
  const request = new Request(new URL(ctx.originalUrl, calendar.urls.siteUrl), {
    method: ctx.method,
    headers,
    body: body ? new Uint8Array(body) : undefined,
  });
  const response = await calendar.federation.fetch(request, {
    contextData: undefined,
    onNotFound: () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } }),
    onNotAcceptable: () =>
      new Response('Not acceptable: ask for application/activity+json', { status: 406, headers: { 'content-type': 'text/plain' } }),
  });
  if (response.status >= 500) {
    logger.warn(
      { path: ctx.path, status: response.status, body: (await response.text()).slice(0, 300) },
      'federation: Fedify failed a request',
    );
    return plain(ctx, 503, 'The request could not be handled now; try again.', { 'Retry-After': '30' });
  }
  ctx.status = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding') ctx.set(name, value);
  });
  ctx.body = Buffer.from(await response.arrayBuffer());
}

/** The router's table of the federation (only built when federation is on). */
export function federationTable({
  prisma,
  kind,
  perMinute,
  calendar,
  logger,
}: {
  prisma: Prisma;
  kind: DatabaseKind;
  /** Requests per minute per client address to the federation's paths, over all processes. */
  perMinute: number;
  calendar: CalendarFederation;
  logger: Logger;
}): Table {
  const limit = new SharedRateLimit(prisma, kind, perMinute);
  return {
    name: 'federation',
    claim(ctx) {
      const page = EVENT_PAGE.exec(ctx.path);
      const forUs = FEDERATION_PATH.test(ctx.path) || (page && ctx.method === 'GET' && wantsActivityJson(ctx.get('accept')));
      if (!forUs) return undefined;
      const errors = plainErrors(ctx);
      return {
        path: ctx.path,
        method: ctx.method,
        routes: [],
        envelope: errors.envelope,
        send: errors.send,
        unmatched: () => undefined,
        run: async () => undefined,
        async begin() {
          const { allowed, retryAfter } = await limit.count(`federation:${ctx.ip}`);
          if (!allowed) {
            plain(ctx, 429, 'Too many requests; slow down.', { 'Retry-After': String(retryAfter) });
            return 'answered';
          }
          try {
            const object = EVENT_OBJECT.exec(ctx.path);
            if (page) await answerEvent(ctx, prisma, calendar, { slug: decodeURIComponent(page[1]!) });
            else if (object && (ctx.method === 'GET' || ctx.method === 'HEAD'))
              await answerEvent(ctx, prisma, calendar, { id: Math.min(Number(object[1]), MAX_ID) });
            else await handOver(ctx, calendar, logger);
          } catch (error) {
            if (error instanceof BodyTooLarge) plain(ctx, 413, `The body is larger than ${MAX_INBOX_BYTES} bytes.`);
            else if (error instanceof URIError) plain(ctx, 404, 'There is no such page.');
            else throw error;
          }
          return 'answered';
        },
      };
    },
  };
}
