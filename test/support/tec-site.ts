// A stand-in for a site running The Events Calendar, serving the original's own records: every
// event, venue, organizer, category and tag its recorded answers (shared/conformance/golden) hold,
// in their last recorded state, paged as the original pages its REST lists. Import tests read it.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GOLDEN_DIR =
  process.env.GOLDEN_DIR ?? fileURLToPath(new URL('../../../shared/conformance/golden/tec-6.17.2/', import.meta.url));
export const COLLECTIONS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
export type Collection = (typeof COLLECTIONS)[number];
export type TecRecord = Record<string, any>;
const BASE = '/wp-json/tribe/events/v1';

/** The records of the recorded conversation, each in the state of its last recorded read. */
export function recordedRecords(dir = GOLDEN_DIR): Record<Collection, TecRecord[]> {
  const latest = Object.fromEntries(COLLECTIONS.map((c) => [c, new Map<number, { seq: number; record: TecRecord }>()])) as Record<
    Collection,
    Map<number, { seq: number; record: TecRecord }>
  >;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('_'))) {
    const answer = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    if (answer.status !== 200 || answer.request?.method !== 'GET' || !answer.body || typeof answer.body !== 'object') continue;
    for (const collection of COLLECTIONS) {
      for (const record of Array.isArray(answer.body[collection]) ? answer.body[collection] : []) {
        const seen = latest[collection].get(record.id);
        if (!seen || seen.seq < answer.seq) latest[collection].set(record.id, { seq: answer.seq, record });
      }
    }
  }
  const sorted = (c: Collection, key: (r: TecRecord) => string) =>
    [...latest[c].values()].map((v) => v.record).sort((a, b) => key(a).localeCompare(key(b)) || a.id - b.id);
  return {
    events: sorted('events', (r) => r.start_date),
    venues: sorted('venues', (r) => r.venue),
    organizers: sorted('organizers', (r) => r.organizer),
    categories: sorted('categories', (r) => r.name),
    tags: sorted('tags', (r) => r.name),
  };
}

export interface TecSite {
  url: string;
  port: number;
  records: Record<Collection, TecRecord[]>;
  /** Requests received (path and query). */
  requests: string[];
  /** While set, a list page answers 400 (a broken site): the import stops there. */
  breakAt: { collection: Collection; page: number } | null;
  /** Files served as they are (e.g. `/feed.ics`). */
  files: Map<string, { type: string; body: string }>;
  close(): Promise<void>;
}

export async function startTecSite(): Promise<TecSite> {
  const site = { records: recordedRecords(), requests: [] as string[], breakAt: null, files: new Map() } as unknown as TecSite;
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site.test');
    site.requests.push(url.pathname + url.search);
    const file = site.files.get(url.pathname);
    if (file) {
      res.writeHead(200, { 'content-type': file.type });
      res.end(file.body);
      return;
    }
    const match = url.pathname
      .replace(/\/+$/, '')
      .match(/^\/wp-json\/tribe\/events\/v1\/(events|venues|organizers|categories|tags)(?:\/(\d+))?$/);
    if (!match)
      return json(res, 404, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    const collection = match[1] as Collection;
    const records = site.records[collection];
    if (match[2]) {
      const record = records.find((r) => r.id === Number(match[2]));
      return record ? json(res, 200, record) : json(res, 404, { code: 'not_found', message: 'Not found', data: { status: 404 } });
    }
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 10);
    if (site.breakAt?.collection === collection && site.breakAt.page === page) {
      return json(res, 400, { code: 'rest_invalid_param', message: 'The site is being repaired.', data: { status: 400 } });
    }
    const totalPages = Math.ceil(records.length / perPage);
    if (page > Math.max(totalPages, 1))
      return json(res, 400, {
        code: 'rest_invalid_param',
        message: 'The requested page number is higher than the total pages.',
        data: { status: 400 },
      });
    const base = `${site.url}${BASE}/${collection}`;
    json(
      res,
      200,
      {
        [collection]: records.slice((page - 1) * perPage, page * perPage),
        rest_url: `${base}/`,
        total: records.length,
        total_pages: totalPages,
      },
      { 'x-tec-total': String(records.length), 'x-tec-totalpages': String(totalPages) },
    );
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  site.port = (server.address() as AddressInfo).port;
  site.url = `http://127.0.0.1:${site.port}`;
  site.close = () => new Promise((resolve) => server.close(() => resolve()));
  return site;
}
