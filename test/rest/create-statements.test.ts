// The SQL statements of one REST create with a venue, an organizer and two categories (the write
// benchmark's create), counted through the public API: a change that adds a read or a write to every
// create fails here. The bound is what a create takes today, per engine (PostgreSQL writes the links
// and counts in one statement, which gives back the terms' rows the answer shows, and takes the
// slug's advisory lock); the record it answers is checked too, so that a statement saved is not a
// field lost (the categories' counts included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { DATABASE_KINDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startQuietServer } from '../support/seeded-server.js';

const ADMIN_KEY = 'create-statements-admin-key-0123456789';
const MOST_STATEMENTS = { sqlite: 11, postgresql: 8 } as const;

describe.each(DATABASE_KINDS)('statements of a REST create with its links, on %s', (kind) => {
  let database: TestDatabase;
  let server: RunningServer;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}/wp-json/calendar/events/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ({ server } = await startQuietServer(database.url, ADMIN_KEY));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('takes a bounded number of statements and answers the whole record', async () => {
    const venue = (await post('/venues', { venue: 'Counted hall' })).json.id;
    const organizer = (await post('/organizers', { organizer: 'Counted organizer' })).json.id;
    const first = (await post('/categories', { name: 'Counted A' })).json.id;
    const second = (await post('/categories', { name: 'Counted B' })).json.id;
    const create = (n: number) =>
      post('/events', {
        title: `Counted ${n}`,
        description: '<p>A written event.</p>',
        start_date: '2031-02-05 10:00:00',
        end_date: '2031-02-05 11:00:00',
        venue,
        organizer,
        categories: [first, second],
      });
    await create(0); // the first create compiles the operation
    // The fewest of three, as the server's own background rounds count too.
    let fewest = Infinity;
    for (let n = 1; n <= 3; n++) {
      const before = server.db.statements.count;
      const created = await create(n);
      fewest = Math.min(fewest, server.db.statements.count - before);
      expect(created.status).toBe(201);
      expect(created.json.slug).toBe(`counted-${n}`);
      expect(created.json.description).toBe('<p>A written event.</p>');
      expect(created.json.venue.id).toBe(venue);
      expect(created.json.organizer.map((o: { id: number }) => o.id)).toEqual([organizer]);
      expect(created.json.categories.map((c: { id: number }) => c.id).sort()).toEqual([first, second].sort());
      expect(created.json.categories.map((c: { count: number }) => c.count)).toEqual([n + 1, n + 1]);
    }
    // Each create counted in both categories' counts, as the created records show them.
    const category = await fetch(`${server.url}/wp-json/calendar/events/v1/categories/${first}`).then((r) => r.json());
    expect(category.count).toBe(4);
    // Another create of a taken title gets the next free slug.
    expect((await create(1)).json.slug).toBe('counted-1-2');
    expect(fewest).toBeLessThanOrEqual(MOST_STATEMENTS[kind]);
  });
});
