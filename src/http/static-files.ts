// The one way the app answers a file (the console's and the editor's pages and modules, the site's
// stylesheet, GraphiQL's assets): its content type by extension, an ETag and 304s, the compressed
// copy the client accepts, a year's cache where the URL names the version (else revalidation on
// each visit), the row's own headers (its CSP) and a plain 404.
import { extname } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context } from 'koa';
import { etagOf, matchesEtag } from './response-cache.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/** The content type of a file name; undefined for a kind the app does not serve. */
export const contentTypeOf = (name: string): string | undefined => CONTENT_TYPES[extname(name)];

export interface StaticFile {
  type: string;
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
}

/** A file read once: its ETag, and a gzip copy unless compressed ones are given. */
export function staticFile(
  type: string,
  body: Buffer,
  compressed: { gzip?: Buffer; br?: Buffer } = { gzip: gzipSync(body, { level: 9 }) },
): StaticFile {
  return { type, body, etag: etagOf(body), ...compressed };
}

export interface FileAnswer {
  /** The URL names this version of the file (a hash in its name or `?v=`): cached for good. */
  immutable: boolean;
  headers?: Record<string, string>;
}

export function sendFile(ctx: Context, file: StaticFile | undefined, { immutable, headers = {} }: FileAnswer): void {
  if (!file) {
    ctx.status = 404;
    ctx.type = 'text/plain';
    ctx.body = 'Not found';
    return;
  }
  ctx.set(headers);
  ctx.set('ETag', file.etag);
  ctx.set('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  ctx.type = file.type;
  const encodings = [file.br && 'br', file.gzip && 'gzip'].filter((e): e is string => Boolean(e));
  if (encodings.length) ctx.vary('Accept-Encoding');
  if (matchesEtag(ctx.get('If-None-Match') || undefined, file.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  const encoding = encodings.length ? ctx.acceptsEncodings(...encodings, 'identity') : 'identity';
  if (encoding === 'br' || encoding === 'gzip') {
    ctx.set('Content-Encoding', encoding);
    ctx.body = file[encoding];
  } else {
    ctx.body = file.body;
  }
}
