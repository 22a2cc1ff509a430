// PostgreSQL keeps Almanac's statements prepared per connection (src/db/client.ts). A migration made
// by another process can change what a kept statement returns; PostgreSQL then refuses it ("cached
// plan must not change result type") on every connection that kept it. Reads must go on answering:
// the statements are prepared again. (SQLite re-prepares a changed statement itself.) And a
// connection keeps a bounded set of them, however many different statements clients cause.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedCalendar } from '../../bench/seed.js';
import { loadConfig } from '../../src/config.js';
import { MAX_NAMED_STATEMENTS, statementNaming } from '../../src/db/client.js';
import { startServer } from '../../src/server.js';
import { useTestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';

describe('kept PostgreSQL statements', () => {
  const api = useTestServer('postgresql', { RESPONSE_CACHE: 'false' });
  beforeAll(async () => {
    await seedCalendar(api.databaseUrl, { events: 60 });
  });

  it('are prepared again when a migration changes the columns they read', async () => {
    const routes = [
      `${NS}/events?per_page=50`,
      `${NS}/venues`,
      `/graphql?query=${encodeURIComponent('{ events { items { id venue { name zip } } } }')}`,
    ];
    const before: string[] = [];
    // Several rounds, so that the statements are kept on more than one pooled connection.
    for (let round = 0; round < 3; round++)
      for (const route of routes) {
        const response = await api.request('GET', route);
        expect(response.status, response.text.slice(0, 300)).toBe(200);
        if (round === 0) before.push(response.text);
      }

    // What another process's migration could do: a column every venue read returns changes type.
    const client = new pg.Client({ connectionString: api.databaseUrl });
    await client.connect();
    try {
      await client.query('ALTER TABLE "Venue" ALTER COLUMN "zip" TYPE varchar(200)');
    } finally {
      await client.end();
    }

    for (let round = 0; round < 3; round++)
      for (const [i, route] of routes.entries()) {
        const response = await api.request('GET', route);
        expect(response.status, response.text.slice(0, 300)).toBe(200);
        expect(response.text).toBe(before[i]);
      }
  });

  it('stay unnamed behind PgBouncer (pgbouncer=true in the URL), where reads work as well', async () => {
    const kept = statementNaming('postgresql://db.example/almanac')!;
    expect(kept({ sql: 'SELECT 1', args: [], argTypes: [] })).toMatch(/^almanac\d+_[\w-]{32}$/);
    expect(kept({ sql: 'SELECT 1', args: [], argTypes: [] })).toBe(kept({ sql: 'SELECT 1', args: [], argTypes: [] }));
    expect(kept({ sql: 'SELECT 2', args: [], argTypes: [] })).not.toBe(kept({ sql: 'SELECT 1', args: [], argTypes: [] }));
    // Long id lists are not kept: each length would be another statement on every connection.
    expect(kept({ sql: 'SELECT 3', args: Array(101).fill(1), argTypes: [] })).toBeUndefined();
    expect(statementNaming('postgresql://db.example/almanac?pgbouncer=true')).toBeUndefined();

    const server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: `${api.databaseUrl}?pgbouncer=true`,
        LOG_LEVEL: 'silent',
        TASK_WORKERS: '0',
        RESPONSE_CACHE: 'false',
      }),
    );
    try {
      const response = await fetch(`${server.url}${NS}/events?per_page=5`);
      expect(response.status).toBe(200);
      expect((await response.json()).events.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it(`are named for at most ${MAX_NAMED_STATEMENTS} texts a process; later texts run unnamed and answer as well`, async () => {
    const kept = statementNaming('postgresql://db.example/almanac')!;
    const page = `/graphql?query=${encodeURIComponent('{ events { items { id title venue { city } } } }')}`;
    const before = await api.request('GET', page);
    expect(before.status).toBe(200);
    const early = kept({ sql: 'SELECT 42 AS early', args: [], argTypes: [] });
    expect(early).toMatch(/^almanac\d+_/);
    // Texts vary with what clients ask (each selection's columns): fill the budget with new ones.
    for (let i = 0; i < MAX_NAMED_STATEMENTS; i++) kept({ sql: `SELECT ${i} AS filler`, args: [], argTypes: [] });
    expect(kept({ sql: 'SELECT 1 AS beyond', args: [], argTypes: [] })).toBeUndefined();
    expect(kept({ sql: 'SELECT 42 AS early', args: [], argTypes: [] })).toBe(early);

    const fresh = await api.request(
      'GET',
      `/graphql?query=${encodeURIComponent('{ events { items { id venue { zip } organizers { email } } } }')}`,
    );
    expect(fresh.status, fresh.text.slice(0, 300)).toBe(200);
    expect(fresh.json.data.events.items.length).toBeGreaterThan(0);
    expect((await api.request('GET', page)).text).toBe(before.text);
  });
});
