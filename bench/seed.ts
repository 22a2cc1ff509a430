// A bulk loader for benchmarks: a realistic calendar of any size, written as multi-row INSERTs in
// one transaction (100,000 events in seconds; one mutation per event takes many minutes, and even
// Prisma's createMany minutes). Events spread from a year ago to four years ahead, most published,
// some drafts, private or hidden; each has one venue, one or two organizers, a category, two tags.
// Values are written as quoted literals, which both engines cast to the column's type.
import type { Database } from '../src/db/client.js';

export interface SeedSize {
  events: number;
  venues?: number;
  organizers?: number;
  categories?: number;
  tags?: number;
}

const BATCH = 1_000; // rows per INSERT

type Row = Record<string, string | number | boolean | null>;
type Tx = { $executeRawUnsafe(sql: string): Promise<number> };

const literal = (value: Row[string]) =>
  value === null ? 'NULL' : typeof value === 'boolean' ? (value ? "'1'" : "'0'") : `'${String(value).replaceAll("'", "''")}'`;

async function insert(tx: Tx, table: string, rows: Row[]): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]);
  for (let i = 0; i < rows.length; i += BATCH) {
    const values = rows.slice(i, i + BATCH).map((row) => `(${columns.map((c) => literal(row[c])).join(',')})`);
    await tx.$executeRawUnsafe(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(',')}) VALUES ${values.join(',')}`);
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
/** "YYYY-MM-DD HH:MM:SS" of a Date, in UTC. */
const wall = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** Seeds an empty database; returns the id of a published upcoming event and the ids it made. */
export async function seedCalendar(db: Database, size: SeedSize) {
  const prisma = db.prisma as any;
  const venues = size.venues ?? Math.max(25, Math.round(size.events / 200));
  const organizers = size.organizers ?? Math.max(15, Math.round(size.events / 300));
  const categories = size.categories ?? 30;
  const tags = size.tags ?? 100;
  const now = new Date();
  const published = wall(new Date(now.getTime() - 30 * 86_400_000));
  const common = (title: string, slug: string) => ({ title, slug, date: published, dateUtc: published, modified: published, modifiedUtc: published, authorId: 1 });

  const firstPost = ((await prisma.post.aggregate({ _max: { id: true } }))._max.id ?? 0) + 1;
  let nextPost = firstPost;
  const venueIds = Array.from({ length: venues }, () => nextPost++);
  const organizerIds = Array.from({ length: organizers }, () => nextPost++);
  const eventIds = Array.from({ length: size.events }, () => nextPost++);
  const firstTerm = ((await prisma.term.aggregate({ _max: { id: true } }))._max.id ?? 0) + 1;
  const categoryIds = Array.from({ length: categories }, (_, i) => firstTerm + i);
  const tagIds = Array.from({ length: tags }, (_, i) => firstTerm + categories + i);

  // Spread over five years, starting a year ago: about 55 events a day at 100,000.
  const span = 5 * 365 * 86_400_000;
  const start0 = now.getTime() - 365 * 86_400_000;
  const words = ['jazz', 'market', 'lecture', 'workshop', 'concert', 'festival', 'reading', 'tour', 'fair', 'meetup'];
  const events = eventIds.map((id, i) => {
    const start = new Date(start0 + Math.floor((i / size.events) * span) + ((i * 7919) % 86_400) * 1000);
    const end = new Date(start.getTime() + 3 * 3_600_000);
    const status = i % 50 === 7 ? 'draft' : i % 97 === 3 ? 'private' : 'publish';
    const word = words[i % words.length];
    return {
      id,
      ...common(`Event ${i}: ${word} night`, `event-${i}`),
      status,
      content: `<p>Description of event ${i}, a ${word} with enough words to look like a real one.</p>`,
      excerpt: `A ${word}`,
      timezone: 'UTC',
      timezoneAbbr: 'UTC',
      startLocal: wall(start),
      endLocal: wall(end),
      startUtc: wall(start),
      endUtc: wall(end),
      cost: JSON.stringify([String((i % 5) * 10)]),
      currencySymbol: '$',
      currencyPosition: 'prefix',
      hideFromListings: i % 200 === 11,
      featured: i % 20 === 0,
    };
  });
  await prisma.$transaction(
    async (tx: Tx) => {
      // PostgreSQL: skip the per-row data-version triggers of a bulk load; the version moves once below.
      if (db.kind === 'postgresql') await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
      await insert(tx, 'Post', [
        ...venueIds.map((id) => ({ id, type: 'venue' })),
        ...organizerIds.map((id) => ({ id, type: 'organizer' })),
        ...eventIds.map((id) => ({ id, type: 'event' })),
      ]);
      await insert(tx, 'Venue', venueIds.map((id, i) => ({ id, ...common(`Venue ${i}`, `venue-${i}`), address: `${i} Main Street`, city: 'Springfield', country: 'United States', state: 'IL', zip: '62701' })));
      await insert(tx, 'Organizer', organizerIds.map((id, i) => ({ id, ...common(`Organizer ${i}`, `organizer-${i}`), email: `org${i}@example.com`, phone: '555-0100' })));
      await insert(tx, 'Term', [
        ...categoryIds.map((id, i) => ({ id, taxonomy: 'tribe_events_cat', name: `Category ${i}`, slug: `category-${i}`, parentId: i >= 10 ? categoryIds[i % 10] : null })),
        ...tagIds.map((id, i) => ({ id, taxonomy: 'post_tag', name: `tag-${i}`, slug: `tag-${i}`, parentId: null })),
      ]);
      await insert(tx, 'Event', events);
      await insert(tx, 'EventVenue', eventIds.map((eventId, i) => ({ eventId, venueId: venueIds[i % venues] })));
      await insert(
        tx,
        'EventOrganizer',
        eventIds.flatMap((eventId, i) => [
          { eventId, organizerId: organizerIds[i % organizers], position: 0 },
          ...(i % 3 === 0 ? [{ eventId, organizerId: organizerIds[(i + 1) % organizers], position: 1 }] : []),
        ]),
      );
      await insert(
        tx,
        'EventTerm',
        eventIds.flatMap((eventId, i) => [
          { eventId, termId: categoryIds[i % categories] },
          { eventId, termId: tagIds[i % tags] },
          { eventId, termId: tagIds[(i + 37) % tags] },
        ]),
      );
      // What the write paths keep: term counts, and the calendar's data version.
      await tx.$executeRawUnsafe(`UPDATE "Term" SET "count" = (SELECT COUNT(*) FROM "EventTerm" JOIN "Event" ON "Event"."id" = "EventTerm"."eventId" WHERE "EventTerm"."termId" = "Term"."id" AND "Event"."status" = 'publish')`);
      await tx.$executeRawUnsafe(`UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'`);
      if (db.kind === 'postgresql') {
        // Explicit ids leave the sequences behind: move them past what was written.
        await tx.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"Post"', 'id'), (SELECT max(id) FROM "Post"))`);
        await tx.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"Term"', 'id'), (SELECT max(id) FROM "Term"))`);
      }
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
  await prisma.$executeRawUnsafe('ANALYZE'); // both engines plan with fresh statistics
  const upcoming = events.find((e) => e.status === 'publish' && !e.hideFromListings && e.startLocal > wall(now))!;
  return { upcomingEventId: upcoming.id, upcomingSlug: upcoming.slug, venueIds, organizerIds, categoryIds, tagIds, eventIds };
}
