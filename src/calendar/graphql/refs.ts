// The calendar's object types, declared before their fields so the type files can refer to each
// other (event → venue → events) without import cycles. Each type's fields, queries and mutations
// live in its own file (event.ts, venue.ts, organizer.ts, terms.ts). Each is a Node: its `nodeId`
// is fetchable with Query.node (src/graphql/node.ts); `id` stays the database id.
import { builder } from '../../graphql/builder.js';
import { NodeInterface, nodeIdField } from '../../graphql/node.js';

export const Event = builder.prismaObject('Event', {
  description: 'A calendar event.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The event id (shared id space with venues and organizers).' }),
    nodeId: nodeIdField(t, 'Event'),
  }),
});

export const Venue = builder.prismaObject('Venue', {
  description: 'A place where events happen.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The venue id (shared id space with events and organizers).' }),
    nodeId: nodeIdField(t, 'Venue'),
  }),
});

export const Organizer = builder.prismaObject('Organizer', {
  description: 'A person or body that organizes events.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The organizer id (shared id space with events and venues).' }),
    nodeId: nodeIdField(t, 'Organizer'),
  }),
});

export const EventCategory = builder.prismaObject('Term', {
  variant: 'EventCategory',
  description: 'An event category. Categories nest: each may have a parent.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The term id (shared id space with tags).' }),
    nodeId: nodeIdField(t, 'EventCategory'),
  }),
});

export const Tag = builder.prismaObject('Term', {
  variant: 'Tag',
  description: 'A tag.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The term id (shared id space with categories).' }),
    nodeId: nodeIdField(t, 'Tag'),
  }),
});
