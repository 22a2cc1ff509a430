// The small pieces every eval site's pages are made of.

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A whole page: no scripts, no outside assets (the sites work with JavaScript off). */
export const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  `<style>body{font-family:sans-serif;max-width:48rem;margin:1rem auto}label{display:block;margin-top:.5rem}` +
  `table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2rem .5rem}</style></head><body>${body}</body></html>`;

export interface SiteRequest {
  method: string;
  url: URL;
  /** The posted form's fields (POST only). */
  form: URLSearchParams;
  cookies: Record<string, string>;
}

export interface SiteResponse {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export const html = (body: string, status = 200): SiteResponse => ({ status, body });
export const redirect = (location: string, headers: Record<string, string> = {}): SiteResponse => ({
  status: 303,
  body: '',
  headers: { location, ...headers },
});
export const notFound = (): SiteResponse => html(page('Not found', '<h1>Not found</h1>'), 404);
