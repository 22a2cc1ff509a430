// The task console's files (and the calendar editor's, src/manage): a static page and its assets in
// one folder, read once at start-up, as a route-table row answered by the app's one static-file
// handler (src/http/static-files.ts). The page is revalidated on each visit (ETag); its assets are
// addressed with a version (a hash of every file) and cached for a year. Everything comes from
// Almanac: the CSP forbids loading anything from elsewhere.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { page, type PageRoute } from '../http/page-route.js';
import { contentTypeOf, sendFile, staticFile, type StaticFile } from '../http/static-files.js';
import { projectRoot } from '../paths.js';
import { escapeRegex } from '../rest/route-table.js';

export const CONSOLE_PATH = '/console';

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  // Screenshot URLs carry their run's token: never hand them on in a Referer.
  'Referrer-Policy': 'no-referrer',
};

/** Reads a page's files; the page and the modules name each other with `?v=<version>`. */
export function loadConsoleAssets(dir = join(projectRoot, 'src/console'), path = CONSOLE_PATH) {
  const files = readdirSync(dir)
    .filter((name) => contentTypeOf(name))
    .sort();
  const sources = new Map(files.map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
  const hash = createHash('sha256');
  for (const [name, text] of sources) hash.update(name).update('\0').update(text).update('\0');
  const version = hash.digest('hex').slice(0, 12);
  const assets = new Map<string, StaticFile>();
  for (const [name, text] of sources) {
    // `/console/x.js` in the page and `./x.js` in the modules become versioned URLs.
    const versioned = text.replace(new RegExp(`((?:${path}/|\\./)[\\w-]+\\.(?:js|css|svg))(?=["'])`, 'g'), `$1?v=${version}`);
    assets.set(name, staticFile(contentTypeOf(name)!, Buffer.from(versioned)));
  }
  return { assets, version };
}

/** The row serving the page in `dir` (index.html) and its assets at `path`. */
export function staticPageRoute(path: string, dir: string): PageRoute {
  const { assets } = loadConsoleAssets(dir, path);
  const index = assets.get('index.html');
  if (!index) throw new Error(`${dir}/index.html is missing`);
  return page(`${escapeRegex(path)}(?:/(?P<file>.*))?`, async ({ ctx, params }) => {
    const name = (params.file ?? '').replace(/^\/+/, '');
    const found = name === '' || name === 'index.html' ? index : name.includes('/') ? undefined : assets.get(name);
    sendFile(ctx, found, { immutable: found !== index && Boolean(ctx.query.v), headers: SECURITY_HEADERS });
  });
}

export const consoleRoute = () => staticPageRoute(CONSOLE_PATH, join(projectRoot, 'src/console'));
