// Serves the task console (and the calendar editor, src/manage): a static page and its assets in one
// folder, read once at start-up.
// The page is revalidated on each visit (ETag); its assets are addressed with a version (a hash of
// every file) and cached for a year. Compressed once with gzip for clients that accept it.
// Everything comes from Almanac: the CSP forbids loading anything from elsewhere.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Middleware } from 'koa';
import { projectRoot } from '../paths.js';

export const CONSOLE_PATH = '/console';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  // Screenshot URLs carry their run's token: never hand them on in a Referer.
  'Referrer-Policy': 'no-referrer',
};

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

function asset(type: string, text: string): Asset {
  const body = Buffer.from(text);
  return {
    type,
    body,
    gzip: gzipSync(body, { level: 9 }),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
}

/** Reads a page's files; the page and the modules name each other with `?v=<version>`. */
export function loadConsoleAssets(dir = join(projectRoot, 'src/console'), path = CONSOLE_PATH) {
  const files = readdirSync(dir)
    .filter((name) => TYPES[extname(name)])
    .sort();
  const sources = new Map(files.map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
  const hash = createHash('sha256');
  for (const [name, text] of sources) hash.update(name).update('\0').update(text).update('\0');
  const version = hash.digest('hex').slice(0, 12);
  const assets = new Map<string, Asset>();
  for (const [name, text] of sources) {
    // `/console/x.js` in the page and `./x.js` in the modules become versioned URLs.
    const versioned = text.replace(new RegExp(`((?:${path}/|\\./)[\\w-]+\\.(?:js|css|svg))(?=["'])`, 'g'), `$1?v=${version}`);
    assets.set(name, asset(TYPES[extname(name)], versioned));
  }
  return { assets, version };
}

export function consoleRoutes(): Middleware {
  return staticPageRoutes(CONSOLE_PATH, join(projectRoot, 'src/console'));
}

/** Serves the page in `dir` (index.html) and its assets at `path`. */
export function staticPageRoutes(path: string, dir: string): Middleware {
  const { assets } = loadConsoleAssets(dir, path);
  const page = assets.get('index.html');
  if (!page) throw new Error(`${dir}/index.html is missing`);

  return async (ctx, next) => {
    if (ctx.path !== path && !ctx.path.startsWith(`${path}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      ctx.body = 'Method not allowed';
      return;
    }
    const name = ctx.path.slice(path.length).replace(/^\/+/, '');
    const found = name === '' || name === 'index.html' ? page : name.includes('/') ? undefined : assets.get(name);
    if (!found) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not found';
      return;
    }
    ctx.set(SECURITY_HEADERS);
    ctx.set('ETag', found.etag);
    ctx.set('Vary', 'Accept-Encoding');
    ctx.set('Cache-Control', found !== page && ctx.query.v ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = found.type;
    if (
      ctx
        .get('If-None-Match')
        .split(/\s*,\s*/)
        .includes(found.etag)
    ) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = found.gzip;
    } else {
      ctx.body = found.body;
    }
  };
}
