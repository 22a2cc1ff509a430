// Another Almanac as an import source. It answers The Events Calendar's REST API like any such site
// (records are read there, through the same mapping); besides, it keeps a change log, which its
// GraphQL endpoint serves: a run after the first reads only the changes since the last one.
// An Almanac is told from a WordPress site by asking its /graphql for `calendarChangeCursor`, a
// field only Almanac has (a WordPress site answers 404, or WPGraphQL an error naming the field).
import type { UrlPolicy } from '../../net/url-policy.js';
import { answerJson, ImportError, readSource, withRetries, type PeerJson } from './errors.js';
import type { SourceOptions, TecCollection } from './tec-source.js';

/** calendarChanges' largest page. */
const CHANGES_PER_PAGE = 500;

export interface SourceChange {
  collection: TecCollection;
  id: number;
  /** The record left the importer's view at the source (deleted, trashed, unpublished). */
  removed: boolean;
}

export interface SourceChangePage {
  changes: SourceChange[];
  cursor: string;
  hasMore: boolean;
}

/** The source no longer keeps the changes after the cursor: everything must be read again. */
export class ChangeCursorExpired extends Error {}

const COLLECTION_OF: Record<string, TecCollection> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
};

/** The GraphQL endpoint beside a REST base ("…/wp-json/tribe/events/v1" → "…/graphql"). */
export function graphqlUrlOf(restBase: string): string {
  const url = new URL(restBase);
  url.pathname = `${url.pathname.split('/wp-json/')[0]!.replace(/\/+$/, '')}/graphql`;
  return url.toString();
}

export class AlmanacChangeLog {
  constructor(
    private policy: UrlPolicy,
    /** The source's GraphQL endpoint. */
    readonly url: string,
    private options: SourceOptions = {},
  ) {}

  /**
   * The change log of the Almanac at `restBase` and where it ends now, or null when the source is
   * not an Almanac. A source that does not answer (network, 5xx) stops the import: guessing "not an
   * Almanac" would cost a full read and the cursor.
   */
  static async find(
    policy: UrlPolicy,
    restBase: string,
    options: SourceOptions = {},
  ): Promise<{ log: AlmanacChangeLog; head: string } | null> {
    const log = new AlmanacChangeLog(policy, graphqlUrlOf(restBase), options);
    try {
      return { log, head: await log.head() };
    } catch (error) {
      if (error instanceof ImportError && error.code === 'source_invalid') return null;
      throw error;
    }
  }

  /** Where the source's log ends now: taken before a full read, so nothing written during it is missed. */
  async head(): Promise<string> {
    const data = await this.query('{ calendarChangeCursor }', {});
    if (typeof data.calendarChangeCursor !== 'string') throw new ImportError('source_invalid', `${this.url} is not an Almanac`);
    return data.calendarChangeCursor;
  }

  /** The changes after `after`, as the importer's credentials see them; ChangeCursorExpired when they are gone. */
  async page(after: string): Promise<SourceChangePage> {
    const data = await this.query(
      'query ($after: String!, $first: Int!) { calendarChanges(after: $after, first: $first) { cursor hasMore changes { type id removed } } }',
      { after, first: CHANGES_PER_PAGE },
    );
    const page = data.calendarChanges;
    if (!page || typeof page.cursor !== 'string' || !Array.isArray(page.changes))
      throw new ImportError('source_invalid', `${this.url} answered calendarChanges without a page`);
    return {
      cursor: page.cursor,
      hasMore: page.hasMore === true,
      changes: page.changes
        .filter((change: PeerJson) => COLLECTION_OF[String(change?.type).toLowerCase()] && Number.isInteger(change.id))
        .map((change: PeerJson) => ({
          collection: COLLECTION_OF[String(change.type).toLowerCase()]!,
          id: change.id,
          removed: change.removed === true,
        })),
    };
  }

  private query(query: string, variables: Record<string, unknown>): Promise<PeerJson> {
    return withRetries(this.options.retryDelaysMs, async () => {
      const response = await readSource(this.policy, this.url, {
        method: 'POST',
        body: JSON.stringify({ query, variables }),
        headers: { accept: 'application/json', ...this.options.headers, 'content-type': 'application/json' },
        timeoutMs: this.options.timeoutMs ?? 30_000,
        maxBytes: 10 * 1024 * 1024,
      });
      const body = answerJson(this.url, response);
      const errors: PeerJson[] = Array.isArray(body?.errors) ? body.errors : [];
      if (errors.some((error) => error?.extensions?.code === 'CURSOR_EXPIRED')) throw new ChangeCursorExpired(errors[0].message);
      if (response.status !== 200 || errors.length || !body?.data)
        throw new ImportError(
          'source_invalid',
          `${this.url} answered ${response.status}${errors[0]?.message ? `: ${errors[0].message}` : ''}`,
        );
      return body.data;
    });
  }
}
