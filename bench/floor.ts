// The floor for `npm run bench`: the events page read straight through better-sqlite3 by a bare
// node:http server (one statement per table, JSON out). Prints its port on stdout.
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const sqlite = new Database(process.argv[2], { readonly: true });
const events = sqlite.prepare(`SELECT * FROM Event WHERE status = 'publish' AND hideFromListings = 0 ORDER BY startLocal, id LIMIT 10`);
const venues = sqlite.prepare(`SELECT ev.eventId, v.* FROM EventVenue ev JOIN Venue v ON v.id = ev.venueId WHERE ev.eventId IN (SELECT value FROM json_each(?))`);
const organizers = sqlite.prepare(`SELECT eo.eventId, o.* FROM EventOrganizer eo JOIN Organizer o ON o.id = eo.organizerId WHERE eo.eventId IN (SELECT value FROM json_each(?))`);
const terms = sqlite.prepare(`SELECT et.eventId, t.* FROM EventTerm et JOIN Term t ON t.id = et.termId WHERE et.eventId IN (SELECT value FROM json_each(?))`);
const total = sqlite.prepare(`SELECT count(*) AS n FROM Event WHERE status = 'publish' AND hideFromListings = 0`);

const server = createServer((_req, res) => {
  const rows = events.all() as { id: number }[];
  const ids = JSON.stringify(rows.map((r) => r.id));
  const body = JSON.stringify({ events: rows, venues: venues.all(ids), organizers: organizers.all(ids), terms: terms.all(ids), total: total.get() });
  res.writeHead(200, { 'content-type': 'application/json' }).end(body);
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })));
