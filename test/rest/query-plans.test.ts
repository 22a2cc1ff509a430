// Every statement the list and read routes issue is served by an index: the engine's own plan for
// each statement a request runs (captured with its parameters) must not read a table from end to
// end. On PostgreSQL sequential scans are priced out (enable_seqscan = off), so one still chosen
// means no index can serve the statement; small tables make that the only way to ask.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCalendar, type Seeded } from '../../bench/seed.js';
import { extendSeriesHorizons } from '../../src/calendar/series.js';
import type { Config } from '../../src/config.js';
import { sqliteFile } from '../../src/db/url.js';
import type { RunningServer } from '../../src/server.js';
import { DATABASE_KINDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startQuietServer } from '../support/seeded-server.js';

const NS = '/wp-json/calendar/events/v1';
const ADMIN_KEY = 'query-plans-admin-key-0123456789';

interface Statement {
  query: string;
  params: unknown[];
}

/** Plan lines that read a whole table, for one statement; [] when every table is reached through an index. */
type Explain = (statement: Statement) => Promise<string[]>;

/** What an engine says of a statement's plan: the whole-table reads, and the sorts of rows read. */
interface Explainer {
  explain: Explain;
  sorts: Explain;
  /** The indexes the plan reads. */
  indexes: Explain;
  close(): void | Promise<void>;
}

/**
 * Term lists sort in WordPress's collation after reading every term of the taxonomy (their answer,
 * its total and the order need them all); their cost follows the number of terms, never of events.
 * On SQLite a table that holds little else is read whole for them, rightly.
 */
const wholeTaxonomy = (query: string) => /^SELECT [^;]* FROM `main`\.`Term` WHERE \(?`main`\.`Term`\.`taxonomy` = \?/.test(query);
/** DataVersion holds a handful of counters (the calendar's version, where pruning got to): SQLite reads it whole, rightly. */
const counters = (query: string) => /^SELECT [^;]* FROM `main`\.`DataVersion` WHERE/.test(query);

function sqliteExplain(url: string): Explainer {
  const db = new Database(sqliteFile(url), { readonly: true });
  const tables = new Set(
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>).map((row) => row.name),
  );
  const plan = ({ query, params }: Statement) => {
    const values = params.map((v) => (typeof v === 'boolean' ? Number(v) : v));
    return (db.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...values) as Array<{ detail: string }>).map((row) => row.detail.trim());
  };
  // "SCAN t" reads table t whole ("SCAN t USING INDEX" walks an index in order and stops at the
  // page's end; "SCAN sub" reads a subquery's rows, planned on their own lines).
  const explain: Explain = async (statement) =>
    plan(statement).filter(
      (detail) =>
        tables.has(/^SCAN (?:main\.)?(\w+)$/.exec(detail)?.[1] ?? '') && !wholeTaxonomy(statement.query) && !counters(statement.query),
    );
  const sorts: Explain = async (statement) => plan(statement).filter((detail) => detail.startsWith('USE TEMP B-TREE'));
  const indexes: Explain = async (statement) =>
    plan(statement).flatMap((detail) => /USING (?:COVERING )?INDEX (\w+)/.exec(detail)?.[1] ?? []);
  return {
    explain,
    sorts,
    indexes,
    close: () => {
      db.close();
    },
  };
}

async function postgresExplain(url: string): Promise<Explainer> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SET enable_seqscan = off');
  /** The plan's nodes that `describe` names (undefined: none). */
  const nodes =
    (describe: (node: any) => string | undefined): Explain =>
    async ({ query, params }) => {
      const result = await client.query(`EXPLAIN (FORMAT JSON) ${query}`, params);
      const found: string[] = [];
      const walk = (node: any) => {
        const named = describe(node);
        if (named) found.push(named);
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(result.rows[0]['QUERY PLAN'][0].Plan);
      return found;
    };
  const explain = nodes((node) =>
    node['Node Type'] === 'Seq Scan' ? `Seq Scan on ${node['Relation Name']}${node.Filter ? ` (${node.Filter})` : ''}` : undefined,
  );
  const sorts = nodes((node) => (node['Node Type'] === 'Sort' ? `Sort by ${node['Sort Key'].join(', ')}` : undefined));
  const indexes = nodes((node) => node['Index Name']);
  return { explain, sorts, indexes, close: () => client.end() };
}

describe.each(DATABASE_KINDS)('statements of the read routes on %s', (kind) => {
  let database: TestDatabase;
  let server: RunningServer;
  let seeded: Seeded;
  let explainer: Explainer;
  let config: Config;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // Enough of every record that reaching 50 of them through an index beats reading them all.
    seeded = await seedCalendar(database.url, { events: 3000, venues: 1000, organizers: 1000, tags: 1000 });
    ({ server, config } = await startQuietServer(database.url, ADMIN_KEY));
    explainer = kind === 'sqlite' ? sqliteExplain(database.url) : await postgresExplain(database.url);
  });
  afterAll(async () => {
    await explainer?.close();
    await server?.close();
    await database?.drop();
  });

  /** The statements `run` runs, with the parameters it ran them with. */
  async function statementsWhile(run: () => Promise<unknown>): Promise<Statement[]> {
    const statements: Statement[] = [];
    const stop = server.db.observe(({ query, params }) => statements.push({ query, params: JSON.parse(params || '[]') }));
    try {
      await run();
    } finally {
      stop();
    }
    return statements;
  }

  /** The statements one request runs. */
  const statementsOf = (path: string, init: RequestInit = {}) =>
    statementsWhile(async () => {
      const response = await fetch(server.url + path, init);
      const body = await response.text();
      expect(response.status, `${path}: ${body.slice(0, 300)}`).toBe(200);
      expect(body, path).not.toMatch(/"errors"/);
    });

  const graphql = (query: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });

  /** Each statement's whole-table reads, as report lines. */
  async function scansOf(what: string, statements: Statement[]): Promise<string[]> {
    const scans: string[] = [];
    for (const statement of statements) {
      for (const scan of await explainer.explain(statement)) scans.push(`${what}: ${scan}\n    ${statement.query.slice(0, 300)}`);
    }
    return scans;
  }

  it('reach every table through an index, on every list filter and read', async () => {
    const admin = { headers: { 'x-api-key': ADMIN_KEY } };
    const [venue, organizer] = [seeded.venueIds[3], seeded.organizerIds[2]];
    const requests: Array<[string, RequestInit?]> = [
      [`${NS}/events`],
      [`${NS}/events?per_page=50`],
      [`${NS}/events?page=20`],
      [`${NS}/events?categories=${seeded.categorySlug}&per_page=50`],
      [`${NS}/events?tags=${seeded.tagIds[5]}`],
      [`${NS}/events?venue=${venue}`],
      [`${NS}/events?organizer=${organizer}`],
      [`${NS}/events?search=${seeded.searchWord}`],
      [`${NS}/events?search=nowhere-to-be-found`],
      [`${NS}/events?start_date=2020-01-01&end_date=2040-12-31`],
      [`${NS}/events?starts_after=2030-01-01&ends_before=2031-01-01`],
      [`${NS}/events?featured=true`],
      [`${NS}/events?include=${seeded.eventIds.slice(0, 5).join(',')}`],
      [`${NS}/events?status=draft,publish`, admin],
      [`${NS}/events/${seeded.upcomingEventId}`],
      [`${NS}/events/by-slug/${seeded.upcomingSlug}`],
      [`${NS}/venues`],
      [`${NS}/venues/${venue}`],
      [`${NS}/venues?event=${seeded.upcomingEventId}`],
      [`${NS}/venues?has_events=true`],
      [`${NS}/organizers?only_with_upcoming=true`],
      [`${NS}/organizers/${organizer}`],
      [`${NS}/categories`],
      [`${NS}/tags?per_page=50`],
      [`${NS}/categories/${seeded.categoryIds[0]}`],
      [
        '/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            query:
              '{ events(page: { perPage: 50 }) { total items { id title venue { name events(first: 3) { id } } organizers { name } categories { name } tags { name } } } }',
          }),
        },
      ],
    ];
    const scans: string[] = [];
    for (const [path, init] of requests) scans.push(...(await scansOf(path, await statementsOf(path, init))));
    expect(scans).toEqual([]);
  });

  it("reach every table through an index on the series' reads: an occurrence, its series, their lists and pages", async () => {
    // The seed makes a tenth of the events occurrences of weekly (open) and monthly (COUNT) series.
    expect(seeded.seriesIds.length).toBeGreaterThan(1);
    expect(seeded.upcomingOccurrenceId).toBeGreaterThan(0);
    const requests: Array<[string, RequestInit?]> = [
      [
        '/graphql',
        graphql(
          `{ event(id: ${seeded.upcomingOccurrenceId}) { series { rrule recurrenceText } occurrences(first: 10) { id startDate } } }`,
        ),
      ],
      ['/graphql', graphql('{ events(page: { perPage: 50 }, filter: { firstOccurrenceOnly: true }) { total items { id title } } }')],
      ['/graphql', graphql(`{ events(filter: { series: [${seeded.seriesIds[0]}] }) { total items { id startDate } } }`)],
      ['/graphql', graphql(`{ event(slug: "${seeded.seriesSlug}") { id startDate } }`)],
      ['/graphql', graphql(`{ event(slug: "${seeded.upcomingOccurrenceSlug}") { id recurrenceText } }`)],
      [`/event/${seeded.upcomingOccurrenceSlug}/`],
      [`/event/${seeded.seriesSlug}/`],
    ];
    const scans: string[] = [];
    for (const [path, init] of requests) scans.push(...(await scansOf(`${path} ${init?.body ?? ''}`, await statementsOf(path, init))));
    // The horizon scan (each process, every hour): the open series whose occurrences end before the due horizon.
    const horizon = await statementsWhile(() => extendSeriesHorizons(server.db.prisma, config));
    const dueSeries = horizon.filter((statement) => /FROM [`"](main|public)[`"]\.[`"]EventSeries[`"] WHERE .*open/.test(statement.query));
    expect(dueSeries.length).toBeGreaterThan(0);
    scans.push(...(await scansOf('extendSeriesHorizons', dueSeries)));
    expect(scans).toEqual([]);
    // …through the index of the open series in id order, never reading the closed ones.
    for (const statement of dueSeries) expect(await explainer.indexes(statement), statement.query).toEqual(['EventSeries_open_id_idx']);
  });

  it("reach the change log through an index: a sync page, the log's end, the feed's cancellations", async () => {
    // The seed loads without triggers, as a restore would: write to every event once to fill the log.
    await server.db.prisma.$executeRawUnsafe(`UPDATE "Event" SET "excerpt" = "excerpt" || ' '`);
    // A cursor part-way in, as a client that synced earlier holds.
    const cursor = (
      await (await fetch(server.url + '/graphql', graphql('{ calendarChanges(first: 500, types: [EVENT]) { cursor } }'))).json()
    ).data.calendarChanges.cursor;
    const requests: Array<[string, RequestInit?]> = [
      ['/graphql', graphql(`{ calendarChanges(after: "${cursor}", first: 100) { cursor changes { id kind } } }`)],
      ['/graphql', graphql('{ calendarChangeCursor }')],
      ['/graphql', graphql('{ removedEvents(first: 100) { id title } }')],
    ];
    const scans: string[] = [];
    for (const [path, init] of requests) scans.push(...(await scansOf(`${path} ${init?.body ?? ''}`, await statementsOf(path, init))));
    expect(scans).toEqual([]);
  });

  it('page venues and organizers in their list order through an index, sorting none of them', async () => {
    // Their list order (newest first, then id) read from an index stops at the page's end; a sort
    // would read every venue first, so a page would cost more as the calendar grows.
    const sorted: string[] = [];
    for (const path of [`${NS}/venues`, `${NS}/venues?page=5`, `${NS}/organizers`, `${NS}/organizers?per_page=50&page=3`]) {
      for (const statement of await statementsOf(path)) {
        if (!/FROM [`"](main|public)[`"]\.[`"](Venue|Organizer)[`"] WHERE .* ORDER BY .* LIMIT/.test(statement.query)) continue;
        for (const sort of await explainer.sorts(statement)) sorted.push(`${path}: ${sort}\n    ${statement.query.slice(0, 300)}`);
      }
    }
    expect(sorted).toEqual([]);
  });

  it('search a rare word through the search index', async () => {
    // A word in one event only: the list finds it, and its statements read no table whole.
    const created = await fetch(`${server.url}${NS}/events`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Quartet',
        description: 'A night of Xylofonics',
        start_date: '2031-05-01 20:00',
        end_date: '2031-05-01 22:00',
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const find = async (search: string) =>
      (await (
        await fetch(`${server.url}${NS}/events?search=${encodeURIComponent(search)}&start_date=2031-01-01&end_date=2031-12-31`)
      ).json()) as any;
    expect((await find('xylofonic')).events.map((e: any) => e.id)).toEqual([id]);
    const statements = await statementsOf(`${NS}/events?search=xylofonic&start_date=2031-01-01&end_date=2031-12-31`);
    for (const statement of statements) expect(await explainer.explain(statement), statement.query).toEqual([]);

    // The index follows updates and deletions (triggers on SQLite, the table's own indexes on PostgreSQL).
    const updated = await fetch(`${server.url}${NS}/events/${id}`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'A night of marimbas' }),
    });
    expect(updated.status).toBe(200);
    expect((await find('xylofonic')).events).toEqual([]);
    expect((await find('marimba')).events.map((e: any) => e.id)).toEqual([id]);
    const deleted = await fetch(`${server.url}${NS}/events/${id}?force=true`, { method: 'DELETE', headers: { 'x-api-key': ADMIN_KEY } });
    expect(deleted.status).toBe(200);
    expect((await find('marimba')).events).toEqual([]);
  });
});
