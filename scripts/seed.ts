// npm run seed -- [--events 1000]   fills an EMPTY calendar (DATABASE_URL) with demo data: events
// from a year ago to four years ahead with venues, organizers, categories (with sub-categories) and
// tags, written in one transaction by the bulk loader the benchmarks use (bench/seed.ts).
import { parseArgs } from 'node:util';
import { seedCalendar } from '../bench/seed.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { deployMigrations } from '../src/db/migrations.js';

const { values } = parseArgs({ options: { events: { type: 'string', default: '1000' } } });
const events = Number(values.events);
if (!Number.isInteger(events) || events < 10 || events > 10_000_000) {
  console.error('usage: npm run seed -- [--events N]   (N from 10 to 10,000,000)');
  process.exit(2);
}
const config = loadConfig();
await deployMigrations(config.databaseUrl);
const db = await openDatabase(config.databaseUrl);
const existing = await db.prisma.post.count();
await db.close();
if (existing > 0) {
  console.error(`seed: the calendar already holds ${existing} events, venues or organizers; demo data goes into an empty one only`);
  process.exit(1);
}
const seeded = await seedCalendar(config.databaseUrl, { events });
console.log(
  `seed: ${events.toLocaleString('en')} events, ${seeded.venueIds.length} venues, ${seeded.organizerIds.length} organizers, ` +
    `${seeded.categoryIds.length} categories, ${seeded.tagIds.length} tags in ${(seeded.loadMs / 1000).toFixed(1)} s`,
);
console.log(
  `seed: ${seeded.upcomingListed.toLocaleString('en')} upcoming published events; one of them: ${config.siteUrl}/event/${seeded.upcomingSlug}/ical/`,
);
