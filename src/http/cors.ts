// One cross-origin policy for every surface (REST, GraphQL, the task API, feeds). API keys travel in
// headers, never in cookies, so no answer allows credentials: a page from any allowed origin can
// call the APIs with its own key, and no page can ride on a visitor's session. Allowed origins come
// from CORS_ORIGINS (any by default). Preflights are answered here, before any route runs.
import type { Middleware } from 'koa';

const ALLOW_METHODS = 'OPTIONS, GET, HEAD, POST, PUT, PATCH, DELETE';
// MCP's Streamable HTTP (/mcp) adds its session and protocol headers, and resumes streams with Last-Event-ID.
const ALLOW_HEADERS =
  'Authorization, X-API-Key, Content-Type, X-WP-Nonce, Content-Disposition, Content-MD5, If-None-Match, X-Request-Id, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const EXPOSE_HEADERS =
  'X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, Link, ETag, Location, Allow, X-Request-Id, Mcp-Session-Id, WWW-Authenticate';
/** Browsers may keep a preflight's answer this many seconds. */
const MAX_AGE = '600';

export function corsPolicy(origins: '*' | string[]): Middleware {
  const allowed = (origin: string) => origins === '*' || origins.includes(origin);
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    // Answers differ by Origin when only some origins are allowed: caches must keep them apart.
    if (origins !== '*') ctx.vary('Origin');
    if (!origin || !allowed(origin)) return next();
    const preflight = ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '';
    const headers = {
      'Access-Control-Allow-Origin': origins === '*' ? '*' : origin,
      'Access-Control-Expose-Headers': EXPOSE_HEADERS,
    };
    if (preflight) {
      ctx.set({
        ...headers,
        'Access-Control-Allow-Methods': ALLOW_METHODS,
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        'Access-Control-Max-Age': MAX_AGE,
      });
      ctx.status = 204;
      return;
    }
    // Before the route (a streamed answer sends its headers early) and again after it, so that no
    // route's own CORS headers survive.
    ctx.set(headers);
    try {
      await next();
    } finally {
      if (!ctx.headerSent) {
        ctx.remove('Access-Control-Allow-Credentials');
        ctx.set(headers);
      }
    }
  };
}
