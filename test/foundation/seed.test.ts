// `npm run seed`: demo data a new user can browse at once, consistent with what the API reports.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, createTestDatabase } from '../support/databases.js';
import { clientFor, startAlmanac } from '../support/tasks.js';

const run = promisify(execFile);

describe.each(DATABASE_KINDS)('npm run seed on %s', (kind) => {
  it('fills an empty calendar that the API then serves, and refuses one that is not empty', async () => {
    const database = await createTestDatabase(kind);
    try {
      const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
      const seeded = await run(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--events', '500'], { env });
      expect(seeded.stdout).toMatch(/seed: 500 events, 25 venues, 15 organizers, 30 categories, 100 tags/);

      const server = await startAlmanac(database.url, { TASK_WORKERS: '0' });
      try {
        const api = clientFor(server.url);
        const events = await api.request('GET', '/wp-json/calendar/events/v1/events?per_page=50');
        expect(events.status).toBe(200);
        // Five years of events, two of them in the list's default window.
        expect(Number(events.headers.get('x-tec-total'))).toBeGreaterThan(150);
        const first = events.json.events[0];
        expect(first.title).toMatch(/^[A-Z][a-z]+.* (jazz|market|lecture|workshop|concert|festival|reading|tour|fair|meetup) /);
        expect(first.venue.city).toBeTruthy();
        expect(first.categories).toHaveLength(1);
        // Stored term counts agree with what the lists count.
        const music = (await api.request('GET', '/wp-json/calendar/events/v1/categories?search=music')).json.categories[0];
        const listed = await api.request(
          'GET',
          `/wp-json/calendar/events/v1/events?categories=${music.slug}&start_date=2000-01-01&end_date=2100-01-01&per_page=1`,
        );
        expect(music.count).toBeGreaterThan(0);
        const jazz = (await api.request('GET', '/wp-json/calendar/events/v1/categories?search=jazz')).json.categories[0];
        expect(jazz.parent).toBe(music.id);
        // The music list holds its own events and its children's (jazz).
        expect(Number(listed.headers.get('x-tec-total'))).toBeGreaterThanOrEqual(music.count);
      } finally {
        await server.close();
      }
      await expect(run(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], { env })).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('demo data goes into an empty one only'),
      });
    } finally {
      await database.drop();
    }
  });
});
