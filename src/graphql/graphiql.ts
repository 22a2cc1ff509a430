// GraphiQL as a small page and content-addressed assets. Yoga's offline GraphiQL is one 9 MB page
// with everything inline, sent whole on every visit; here its stylesheet, scripts and icon become
// /graphiql/<hash>.<ext> files, compressed once (brotli, gzip) and cached by browsers for a year
// (`immutable`: a new version has a new name), so a second visit loads only the page itself.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const GRAPHIQL_ASSET_PATH = '/graphiql/';

export interface GraphiQLAsset {
  type: string;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const assets = new Map<string, GraphiQLAsset>();

function store(body: Buffer, ext: string, type: string): string {
  const name = `${createHash('sha256').update(body).digest('hex').slice(0, 20)}.${ext}`;
  if (!assets.has(name)) {
    assets.set(name, {
      type,
      body,
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gzip: gzipSync(body, { level: 9 }),
    });
  }
  return GRAPHIQL_ASSET_PATH + name;
}

/** The page with its inline stylesheet, scripts and icon moved to asset files (the page's own start-up call stays inline). */
export function externalizeGraphiQL(html: string): string {
  let page = html.replace(
    /href="data:image\/x-icon;base64,([^"]+)"/,
    (_whole, data: string) => `href="${store(Buffer.from(data, 'base64'), 'ico', 'image/x-icon')}"`,
  );
  page = page.replace(
    /<style>([\s\S]*?)<\/style>/g,
    (_whole, css: string) => `<link rel="stylesheet" href="${store(Buffer.from(css), 'css', 'text/css; charset=utf-8')}">`,
  );
  page = page.replace(/<script>([\s\S]*?)<\/script>/g, (_whole, code: string) => {
    // The bundle ends with the call that renders this site's GraphiQL (title, default query): that stays here.
    const start = code.lastIndexOf('YogaGraphiQL.renderYogaGraphiQL(');
    const bundle = start > 0 ? code.slice(0, start) : code;
    const call = start > 0 ? `<script>${code.slice(start)}</script>` : '';
    return `<script src="${store(Buffer.from(bundle), 'js', 'text/javascript; charset=utf-8')}"></script>${call}`;
  });
  return page;
}

/** An asset by its file name; null when unknown (this process has not rendered GraphiQL yet). */
export function graphiqlAsset(name: string): GraphiQLAsset | null {
  return assets.get(name) ?? null;
}
