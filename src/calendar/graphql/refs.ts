// The calendar's object types, declared before their fields so the type files can refer to each
// other (event → venue → events) without import cycles. Each type's fields, queries and mutations
// live in its own file (event.ts, venue.ts, organizer.ts, terms.ts).
import { builder } from '../../graphql/builder.js';

export const Event = builder.prismaObject('Event', {
  description: 'A calendar event.',
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The event id (shared id space with venues and organizers).' }) }),
});

export const Venue = builder.prismaObject('Venue', {
  description: 'A place where events happen.',
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The venue id (shared id space with events and organizers).' }) }),
});

export const Organizer = builder.prismaObject('Organizer', {
  description: 'A person or body that organizes events.',
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The organizer id (shared id space with events and venues).' }) }),
});

export const EventCategory = builder.prismaObject('Term', {
  variant: 'EventCategory',
  description: 'An event category. Categories nest: each may have a parent.',
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The term id (shared id space with tags).' }) }),
});

export const Tag = builder.prismaObject('Term', {
  variant: 'Tag',
  description: 'A tag.',
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The term id (shared id space with categories).' }) }),
});
