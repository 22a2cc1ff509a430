// A calendar to be hostile to: a fresh database, users with keys, and a few records to aim at.
import { createUserWithKey } from '../../src/auth/api-keys.js';
import type { Role } from '../../src/auth/viewer.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { daysFromNow } from '../../test/support/clock.js';
import type { TestServer } from '../../test/support/server.js';
import type { Fixtures } from './rest-cases.js';

export const NS = '/wp-json/calendar/events/v1';

/**
 * Opens the database for the length of `read` only. On SQLite a server starting later must be able
 * to lock the file for its migration step, so no connection is kept open between uses.
 */
export async function withDatabase<T>(url: string, read: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(url);
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

/** Users of these roles, each with a fresh API key (written straight to the database, as `npm run user:create` does). */
export async function createKeys(databaseUrl: string, roles: Role[]): Promise<Record<string, string>> {
  return withDatabase(databaseUrl, async (db) => {
    const keys: Record<string, string> = {};
    for (const role of roles) keys[role] = (await createUserWithKey(db.prisma, { login: `hostile-${role}`, role })).key;
    return keys;
  });
}

/** Expects a 2xx and returns the JSON body. */
async function created(api: TestServer, path: string, body: unknown, key: string): Promise<any> {
  const response = await api.request('POST', `${NS}${path}`, { body, key });
  if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${response.text.slice(0, 500)}`);
  return response.json;
}

/** A venue, an organizer, a category, a tag and a published event linking them all, to aim at; and bystanders. */
export async function seedFixtures(api: TestServer, key: string): Promise<Fixtures> {
  const venue = await created(api, '/venues', { venue: 'Hostile Hall', city: 'Lyon' }, key);
  const organizer = await created(api, '/organizers', { organizer: 'Hostile Org' }, key);
  const category = await created(api, '/categories', { name: 'Hostile Category' }, key);
  const tag = await created(api, '/tags', { name: 'Hostile Tag' }, key);
  const event = await created(
    api,
    '/events',
    {
      title: 'Hostile Event',
      start_date: daysFromNow(10),
      end_date: daysFromNow(10, '12:00:00'),
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
      status: 'publish',
    },
    key,
  );
  // Bystanders the fuzz never names by id or slug: their links and term counts must come through.
  const hall = await created(api, '/venues', { venue: 'Bystander Hall' }, key);
  const host = await created(api, '/organizers', { organizer: 'Bystander Host' }, key);
  const [music, loud] = [
    await created(api, '/categories', { name: 'Bystander Music' }, key),
    await created(api, '/tags', { name: 'bystander-loud' }, key),
  ];
  for (const [i, status] of ['publish', 'publish', 'publish', 'draft', 'pending'].entries()) {
    await created(
      api,
      '/events',
      {
        title: `Bystander ${i}`,
        start_date: daysFromNow(20 + i),
        end_date: daysFromNow(20 + i, '12:00:00'),
        status,
        venue: hall.id,
        organizer: [host.id],
        categories: [music.id],
        tags: [loud.id],
      },
      key,
    );
  }
  return {
    ids: { events: event.id, venues: venue.id, organizers: organizer.id, categories: category.id, tags: tag.id },
    slugs: { events: event.slug, venues: venue.slug, organizers: organizer.slug },
  };
}
