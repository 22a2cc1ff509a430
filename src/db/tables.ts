// The tables that raw reads (Database.readRows) select from and filter with Prisma's `where`
// language (where-sql.ts): each model's columns, from the generated client (the same for both
// providers), and the link tables of its relations. Raw reads name their columns rather than `*`:
// PostgreSQL keeps statements prepared per connection, and a kept `SELECT *` fails ("cached plan
// must not change result type") once another process's migration adds a column.
import { Prisma as Models } from '../generated/sqlite/client.js';
import type { SqlModel } from './where-sql.js';

const table = (name: string, fields: Record<string, string>, relations?: SqlModel['relations']): SqlModel => ({
  table: name,
  columns: new Set(Object.values(fields)),
  relations,
});

export const EVENT_TABLE = table('Event', Models.EventScalarFieldEnum, {
  terms: { model: table('EventTerm', Models.EventTermScalarFieldEnum), key: 'eventId' },
  venues: { model: table('EventVenue', Models.EventVenueScalarFieldEnum), key: 'eventId' },
  organizers: { model: table('EventOrganizer', Models.EventOrganizerScalarFieldEnum), key: 'eventId' },
});
export const VENUE_TABLE = table('Venue', Models.VenueScalarFieldEnum);
export const ORGANIZER_TABLE = table('Organizer', Models.OrganizerScalarFieldEnum);
export const TERM_TABLE = table('Term', Models.TermScalarFieldEnum);
