// Integrity of a calendar's database, read straight from its tables (raw SQL, the same on both
// engines), and of what the REST API answers for each record it holds.
import type { Database } from '../../src/db/client.js';
import type { TestServer } from '../../test/support/server.js';
import { pool } from './http.js';

type Row = Record<string, unknown>;

async function rows(db: Database, sql: string): Promise<Row[]> {
  const result = (await db.prisma.$queryRawUnsafe(sql)) as Row[];
  // Counts come back as bigint on both engines.
  return result.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
}

/** Each check: a query listing the rows that break a rule (none expected). */
export const INTEGRITY_CHECKS: Record<string, string> = {
  'event links to a missing venue or event': `SELECT ev."eventId", ev."venueId" FROM "EventVenue" ev
     LEFT JOIN "Event" e ON e."id" = ev."eventId" LEFT JOIN "Venue" v ON v."id" = ev."venueId" WHERE e."id" IS NULL OR v."id" IS NULL`,
  'event links to a missing organizer or event': `SELECT eo."eventId", eo."organizerId" FROM "EventOrganizer" eo
     LEFT JOIN "Event" e ON e."id" = eo."eventId" LEFT JOIN "Organizer" o ON o."id" = eo."organizerId" WHERE e."id" IS NULL OR o."id" IS NULL`,
  'event links to a missing term or event': `SELECT et."eventId", et."termId" FROM "EventTerm" et
     LEFT JOIN "Event" e ON e."id" = et."eventId" LEFT JOIN "Term" t ON t."id" = et."termId" WHERE e."id" IS NULL OR t."id" IS NULL`,
  'term whose parent is missing': `SELECT t."id", t."parentId" FROM "Term" t LEFT JOIN "Term" p ON p."id" = t."parentId" WHERE t."parentId" IS NOT NULL AND p."id" IS NULL`,
  'record whose image is missing': `SELECT x."id" FROM (SELECT "id", "imageId" FROM "Event" UNION ALL SELECT "id", "imageId" FROM "Venue" UNION ALL SELECT "id", "imageId" FROM "Organizer") x
     LEFT JOIN "Attachment" a ON a."id" = x."imageId" WHERE x."imageId" IS NOT NULL AND a."id" IS NULL`,
  'record without its post row, or of another type': `SELECT x."id", x."type" FROM (SELECT "id", 'event' AS "type" FROM "Event" UNION ALL SELECT "id", 'venue' FROM "Venue"
     UNION ALL SELECT "id", 'organizer' FROM "Organizer") x LEFT JOIN "Post" p ON p."id" = x."id" WHERE p."id" IS NULL OR p."type" <> x."type"`,
  'post row without its record': `SELECT p."id", p."type" FROM "Post" p LEFT JOIN "Event" e ON e."id" = p."id" LEFT JOIN "Venue" v ON v."id" = p."id"
     LEFT JOIN "Organizer" o ON o."id" = p."id" LEFT JOIN "Attachment" a ON a."id" = p."id"
     WHERE e."id" IS NULL AND v."id" IS NULL AND o."id" IS NULL AND a."id" IS NULL`,
  // Term counts count the published events carrying the term (src/calendar/term-lookup.ts refreshTermCounts).
  'term count other than its published events': `SELECT t."id", t."count", (SELECT COUNT(*) FROM "EventTerm" et JOIN "Event" e ON e."id" = et."eventId"
     WHERE et."termId" = t."id" AND e."status" = 'publish') AS "actual" FROM "Term" t
     WHERE t."count" <> (SELECT COUNT(*) FROM "EventTerm" et JOIN "Event" e ON e."id" = et."eventId" WHERE et."termId" = t."id" AND e."status" = 'publish')`,
  // Drafts and pending events have no slug (NULL) until they are published: those never clash.
  'event slug used twice': `SELECT "slug", COUNT(*) AS "n" FROM "Event" WHERE "slug" IS NOT NULL GROUP BY "slug" HAVING COUNT(*) > 1`,
  'venue slug used twice': `SELECT "slug", COUNT(*) AS "n" FROM "Venue" GROUP BY "slug" HAVING COUNT(*) > 1`,
  'organizer slug used twice': `SELECT "slug", COUNT(*) AS "n" FROM "Organizer" GROUP BY "slug" HAVING COUNT(*) > 1`,
  'term slug used twice in a taxonomy': `SELECT "taxonomy", "slug", COUNT(*) AS "n" FROM "Term" GROUP BY "taxonomy", "slug" HAVING COUNT(*) > 1`,
  'event date that is no wall time': `SELECT "id", "startLocal", "endLocal", "startUtc", "endUtc" FROM "Event"
     WHERE NOT ("startLocal" LIKE '____-__-__ __:__:__' AND "endLocal" LIKE '____-__-__ __:__:__' AND "startUtc" LIKE '____-__-__ __:__:__' AND "endUtc" LIKE '____-__-__ __:__:__')
        OR "startLocal" LIKE '-%' OR "startUtc" LIKE '-%' OR "endLocal" LIKE '-%' OR "endUtc" LIKE '-%'`,
};

/** The rows breaking each rule, by rule (empty when the database is sound). */
export async function integrityViolations(db: Database): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const [rule, sql] of Object.entries(INTEGRITY_CHECKS)) {
    const found = await rows(db, sql);
    if (found.length) out[rule] = found.slice(0, 20);
  }
  return out;
}

export interface RecordCounts {
  events: number;
  venues: number;
  organizers: number;
  terms: number;
  links: number;
}

export async function recordCounts(db: Database): Promise<RecordCounts> {
  const [counts] = await rows(
    db,
    `SELECT (SELECT COUNT(*) FROM "Event") AS "events", (SELECT COUNT(*) FROM "Venue") AS "venues", (SELECT COUNT(*) FROM "Organizer") AS "organizers",
            (SELECT COUNT(*) FROM "Term") AS "terms",
            (SELECT COUNT(*) FROM "EventVenue") + (SELECT COUNT(*) FROM "EventOrganizer") + (SELECT COUNT(*) FROM "EventTerm") AS "links"`,
  );
  return counts as unknown as RecordCounts;
}

/**
 * Reads every event, venue and organizer the database holds through REST as `key` (an
 * administrator's, in the edit context, which unlocks protected records): a live record must answer
 * 200 with its own id, a trashed one its documented answer. Returns the mismatches.
 */
export async function unreadableRecords(db: Database, api: TestServer, key: string, ns = '/wp-json/calendar/events/v1'): Promise<string[]> {
  const records = await rows(
    db,
    `SELECT "id", 'events' AS "route", "status" FROM "Event" UNION ALL SELECT "id", 'venues', "status" FROM "Venue" UNION ALL SELECT "id", 'organizers', "status" FROM "Organizer"`,
  );
  const problems: string[] = [];
  await pool(records, 8, async ({ id, route, status }) => {
    const response = await api.request('GET', `${ns}/${route}/${id}?context=edit`, { key });
    if (status === 'trash' && route === 'events') {
      // TRASHED: the original's 403 event-no-longer-available.
      if (response.status !== 403 || response.json?.code !== 'event-no-longer-available')
        problems.push(`${route}/${id} (trash): ${response.status} ${response.text.slice(0, 200)}`);
    } else if (response.status !== 200 || response.json?.id !== id) {
      problems.push(`${route}/${id} (${status}): ${response.status} ${response.text.slice(0, 200)}`);
    }
  });
  return problems;
}
