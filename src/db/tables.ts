// The tables raw reads filter with Prisma's `where` language (where-sql.ts): each model's columns,
// from the generated client (the same for both providers), and the link tables of its relations.
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
