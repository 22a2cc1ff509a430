// GraphiQL as a small page and content-addressed assets. Yoga's offline GraphiQL is one 9 MB page
// with everything inline, sent whole on every visit; here its stylesheet, scripts and icon become
// /graphiql/<hash>.<ext> files, compressed once (brotli, gzip) and cached by browsers for a year
// (`immutable`: a new version has a new name), so a second visit loads only the page itself.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { contentTypeOf, staticFile, type StaticFile } from '../http/static-files.js';

export const GRAPHIQL_ASSET_PATH = '/graphiql/';

const assets = new Map<string, StaticFile>();

function store(body: Buffer, ext: string): string {
  const name = `${createHash('sha256').update(body).digest('hex').slice(0, 20)}.${ext}`;
  if (!assets.has(name)) {
    assets.set(
      name,
      staticFile(contentTypeOf(name)!, body, {
        br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        gzip: gzipSync(body, { level: 9 }),
      }),
    );
  }
  return GRAPHIQL_ASSET_PATH + name;
}

/** The page with its inline stylesheet, scripts and icon moved to asset files (the page's own start-up call stays inline). */
export function externalizeGraphiQL(html: string): string {
  let page = html.replace(
    /href="data:image\/x-icon;base64,([^"]+)"/,
    (_whole, data: string) => `href="${store(Buffer.from(data, 'base64'), 'ico')}"`,
  );
  page = page.replace(
    /<style>([\s\S]*?)<\/style>/g,
    (_whole, css: string) => `<link rel="stylesheet" href="${store(Buffer.from(css), 'css')}">`,
  );
  page = page.replace(/<script>([\s\S]*?)<\/script>/g, (_whole, code: string) => {
    // The bundle ends with the call that renders this site's GraphiQL (title, default query): that stays here.
    const start = code.lastIndexOf('YogaGraphiQL.renderYogaGraphiQL(');
    const bundle = start > 0 ? code.slice(0, start) : code;
    const call = start > 0 ? `<script>${code.slice(start)}</script>` : '';
    return `<script src="${store(Buffer.from(bundle), 'js')}"></script>${call}`;
  });
  return page;
}

/** An asset by its file name; null when unknown (this process has not rendered GraphiQL yet). */
export function graphiqlAsset(name: string): StaticFile | null {
  return assets.get(name) ?? null;
}
