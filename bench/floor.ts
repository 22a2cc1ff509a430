// The floor for `npm run bench`: the page a client asks for most — the 50 earliest published,
// listed events from yesterday on, each with its venue, organizers, categories and tags — built as
// JSON by ONE SQL statement through the bare driver (better-sqlite3 or pg) and served by a bare
// node:http server. Nothing Almanac does can be faster on the same data.
// Usage: floor.ts <DATABASE_URL>; prints {"port":N} once listening.
import '../src/db/node-runtime.js';
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { databaseKind, sqliteFile } from '../src/db/url.js';

const url = process.argv[2] ?? '';
/** Yesterday, 00:00:00, as the stored "YYYY-MM-DD HH:MM:SS" wall times. */
const from = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) + ' 00:00:00';

const SQLITE = `
SELECT json_group_array(json(page.doc)) AS body FROM (
  SELECT json_object('id', e.id, 'title', e.title, 'start_date', e.startLocal, 'end_date', e.endLocal, 'cost', e.cost, 'featured', json(CASE WHEN e.featured THEN 'true' ELSE 'false' END),
    'venue', (SELECT json_object('id', v.id, 'venue', v.title, 'address', v.address, 'city', v.city) FROM EventVenue ev JOIN Venue v ON v.id = ev.venueId WHERE ev.eventId = e.id LIMIT 1),
    'organizer', (SELECT json_group_array(json(o.doc)) FROM (SELECT json_object('id', o.id, 'organizer', o.title, 'email', o.email) AS doc FROM EventOrganizer eo JOIN Organizer o ON o.id = eo.organizerId WHERE eo.eventId = e.id ORDER BY eo.position) AS o),
    'categories', (SELECT json_group_array(json_object('id', t.id, 'name', t.name, 'slug', t.slug)) FROM EventTerm et JOIN Term t ON t.id = et.termId WHERE et.eventId = e.id AND t.taxonomy = 'tribe_events_cat'),
    'tags', (SELECT json_group_array(json_object('id', t.id, 'name', t.name, 'slug', t.slug)) FROM EventTerm et JOIN Term t ON t.id = et.termId WHERE et.eventId = e.id AND t.taxonomy = 'post_tag')
  ) AS doc
  FROM Event e WHERE e.hideFromListings = 0 AND e.status = 'publish' AND e.startLocal >= ? ORDER BY e.startLocal, e.id LIMIT 50
) AS page`;

const POSTGRES = `
SELECT coalesce(json_agg(page.doc ORDER BY page.start, page.id), '[]')::text AS body FROM (
  SELECT e."startLocal" AS start, e.id, json_build_object('id', e.id, 'title', e.title, 'start_date', e."startLocal", 'end_date', e."endLocal", 'cost', e.cost, 'featured', e.featured,
    'venue', (SELECT json_build_object('id', v.id, 'venue', v.title, 'address', v.address, 'city', v.city) FROM "EventVenue" ev JOIN "Venue" v ON v.id = ev."venueId" WHERE ev."eventId" = e.id LIMIT 1),
    'organizer', (SELECT coalesce(json_agg(json_build_object('id', o.id, 'organizer', o.title, 'email', o.email) ORDER BY eo.position), '[]') FROM "EventOrganizer" eo JOIN "Organizer" o ON o.id = eo."organizerId" WHERE eo."eventId" = e.id),
    'categories', (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug)), '[]') FROM "EventTerm" et JOIN "Term" t ON t.id = et."termId" WHERE et."eventId" = e.id AND t.taxonomy = 'tribe_events_cat'),
    'tags', (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug)), '[]') FROM "EventTerm" et JOIN "Term" t ON t.id = et."termId" WHERE et."eventId" = e.id AND t.taxonomy = 'post_tag')
  ) AS doc
  FROM "Event" e WHERE e."hideFromListings" = false AND e.status = 'publish' AND e."startLocal" >= $1 ORDER BY e."startLocal", e.id LIMIT 50
) AS page`;

let page: () => Promise<string>;
const kind = databaseKind(url);
if (kind === 'sqlite') {
  const statement = new Database(sqliteFile(url), { readonly: true }).prepare(SQLITE);
  page = async () => (statement.get(from()) as { body: string }).body;
} else if (kind === 'postgresql') {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  page = async () => (await pool.query<{ body: string }>({ name: 'floor', text: POSTGRES, values: [from()] })).rows[0].body;
} else {
  console.error('usage: floor.ts <file:… | postgresql://…>');
  process.exit(2);
}

const server = createServer((_req, res) => {
  page().then(
    (body) => res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(body),
    (error) => res.writeHead(500).end(String(error)),
  );
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
