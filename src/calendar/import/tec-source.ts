// Reads a site running The Events Calendar through its public REST API, page by page, through the
// outbound URL policy. Failed reads are retried with backoff before the import stops (resumable).
import type { UrlPolicy } from '../../net/url-policy.js';
import { answerJson, ImportError, readSource, withRetries, type PeerJson } from './errors.js';
import type { TecRecord } from './tec-records.js';

export const TEC_COLLECTIONS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;
export type TecCollection = (typeof TEC_COLLECTIONS)[number];

export interface TecPage {
  items: TecRecord[];
  total: number;
  totalPages: number;
}

export const PAGE_SIZE = 50;

// Every event the site has, not the default window (from today to 24 months ahead); terms with no
// events too (the default hides them).
const LIST_QUERY: Record<TecCollection, Record<string, string>> = {
  events: { start_date: '1900-01-01 00:00:00', end_date: '2200-12-31 23:59:59' },
  venues: {},
  organizers: {},
  categories: { hide_empty: 'false' },
  tags: { hide_empty: 'false' },
};

/** The REST base of a site: a site's address gets The Events Calendar's namespace appended. */
export function tecBase(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ImportError('invalid', `"${input}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImportError('invalid', `"${input}" is not an http(s) URL`);
  url.search = '';
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.includes('/wp-json/') ? path : `${path}/wp-json/tribe/events/v1`;
  return url.toString();
}

export interface SourceOptions {
  headers?: Record<string, string>;
  /** Waits between tries of a failed read (the number of retries is its length). */
  retryDelaysMs?: number[];
  timeoutMs?: number;
}

export class TecSource {
  constructor(
    private policy: UrlPolicy,
    readonly base: string,
    private options: SourceOptions = {},
  ) {}

  async page(collection: TecCollection, page: number): Promise<TecPage> {
    const query = new URLSearchParams({ ...LIST_QUERY[collection], per_page: String(PAGE_SIZE), page: String(page) });
    const body = await this.json(`/${collection}?${query}`);
    const items = Array.isArray(body?.[collection]) ? (body[collection] as TecRecord[]) : [];
    const total = Number(body?.total ?? items.length) || 0;
    return { items, total, totalPages: Number(body?.total_pages ?? (items.length ? page : 0)) || 0 };
  }

  /** One record by id (a parent category not seen yet). */
  async record(collection: TecCollection, id: number): Promise<TecRecord> {
    return this.json(`/${collection}/${id}`);
  }

  /** One record by id, or null when the source no longer shows it (gone, trashed, not readable). */
  async recordIfShown(collection: TecCollection, id: number): Promise<TecRecord | null> {
    try {
      return await this.record(collection, id);
    } catch (error) {
      if (error instanceof ImportError && GONE_STATUSES.has(error.details.status as number)) return null;
      throw error;
    }
  }

  private json(path: string): Promise<PeerJson> {
    const url = this.base + path;
    return withRetries(this.options.retryDelaysMs, () => this.fetchJson(url));
  }

  private async fetchJson(url: string): Promise<PeerJson> {
    const response = await readSource(this.policy, url, {
      headers: { accept: 'application/json', ...this.options.headers },
      timeoutMs: this.options.timeoutMs ?? 30_000,
      maxBytes: 50 * 1024 * 1024,
    });
    const body = answerJson(url, response, ': is it a The Events Calendar REST API?');
    if (response.status !== 200) {
      throw new ImportError('source_invalid', `${url} answered ${response.status}${body?.message ? `: ${body.message}` : ''}`, {
        status: response.status,
      });
    }
    return body;
  }
}

/** How the original answers a record it does not show: deleted, trashed, or not the caller's to read. */
const GONE_STATUSES = new Set([401, 403, 404, 410]);
