// What of an imported event was edited here since the import last wrote it. After each write the
// import keeps a hash per group of the event's stored fields (ImportedRecord.localPrint); a group
// whose hash differs now was changed by someone else here. A source's update authority then decides
// what a change at the source may do: overwrite everything, leave an edited event alone, or write
// only the groups nobody edited here.
import { createHash } from 'node:crypto';
import type { Prisma } from '../../db/client.js';
import type { EventFields } from '../events.js';

export const AUTHORITIES = ['overwrite', 'keep', 'unedited'] as const;
export type Authority = (typeof AUTHORITIES)[number];

/** Each group of stored fields, and the import's fields that write it. */
export const FIELD_GROUPS = {
  title: ['title'],
  description: ['description'],
  excerpt: ['excerpt'],
  time: ['startDate', 'endDate', 'timezone', 'allDay'],
  cost: ['cost'],
  website: ['website'],
  status: ['status'],
  image: ['image'],
  venue: ['venue'],
  organizers: ['organizer'],
  terms: ['categories', 'tags'],
} as const satisfies Record<string, readonly (keyof EventFields)[]>;
export type FieldGroup = keyof typeof FIELD_GROUPS;
export type LocalPrint = Partial<Record<FieldGroup, string>>;

const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 16);

/** The hash of each group of the event as stored now; null when it is gone. */
export async function localPrint(prisma: Prisma, eventId: number): Promise<LocalPrint | null> {
  const row = await prisma.event.findUnique({
    where: { id: eventId },
    select: {
      title: true,
      content: true,
      excerpt: true,
      startLocal: true,
      endLocal: true,
      timezone: true,
      allDay: true,
      cost: true,
      website: true,
      status: true,
      imageId: true,
    },
  });
  if (!row) return null;
  const [venues, organizers, terms] = await Promise.all([
    prisma.eventVenue.findMany({ where: { eventId }, select: { venueId: true }, orderBy: { venueId: 'asc' } }),
    prisma.eventOrganizer.findMany({ where: { eventId }, select: { organizerId: true }, orderBy: { position: 'asc' } }),
    prisma.eventTerm.findMany({ where: { eventId }, select: { termId: true }, orderBy: { termId: 'asc' } }),
  ]);
  return {
    title: hash(row.title),
    description: hash(row.content),
    excerpt: hash(row.excerpt),
    time: hash([row.startLocal, row.endLocal, row.timezone, row.allDay]),
    cost: hash(row.cost),
    website: hash(row.website),
    status: hash(row.status),
    image: hash(row.imageId),
    venue: hash(venues.map((v) => v.venueId)),
    organizers: hash(organizers.map((o) => o.organizerId)),
    terms: hash(terms.map((t) => t.termId)),
  };
}

export function parsePrint(json: string): LocalPrint | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as LocalPrint;
  } catch {
    return null;
  }
}

/** The groups whose stored fields differ from those the import left (none when it kept no print). */
export function editedGroups(before: LocalPrint | null, now: LocalPrint | null): FieldGroup[] {
  if (!before || !now) return [];
  return (Object.keys(FIELD_GROUPS) as FieldGroup[]).filter((group) => before[group] !== undefined && before[group] !== now[group]);
}

/** The fields without those of the edited groups. */
export function withoutGroups(fields: EventFields, groups: FieldGroup[]): EventFields {
  const kept: EventFields = { ...fields };
  for (const group of groups) for (const key of FIELD_GROUPS[group]) delete kept[key];
  return kept;
}

/**
 * The print to keep after a write that left `edited` groups alone: their old hashes stay, so they
 * still count as edited here at the next run (the local edit is not forgiven by a partial update).
 */
export function carriedPrint(after: LocalPrint, before: LocalPrint | null, edited: FieldGroup[]): LocalPrint {
  const print = { ...after };
  for (const group of edited) if (before?.[group] !== undefined) print[group] = before[group];
  return print;
}
