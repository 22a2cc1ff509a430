// A The Events Calendar REST record → the fields Almanac's own writes take. The source's answers are
// rendered (titles with entities, descriptions with paragraphs); names are decoded back to text.
import type { EventFields } from '../events.js';
import { META_FIELDS, type LinkedFields } from '../linked.js';
import type { LinkedType } from '../posts.js';
import type { TermInput } from '../terms.js';
import { decodeEntities } from '../text.js';
import type { PeerJson } from './errors.js';

/** A record as the source sent it (only the keys read here are typed). */
export type TecRecord = Record<string, PeerJson>;

const IMPORTED_STATUSES = new Set(['publish', 'future', 'draft', 'pending', 'private']);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** Almanac's writes (as the original's) refuse an empty description or excerpt: an empty one is not sent. */
const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
/** WordPress's "no date yet" (drafts) is no date: the record gets one when it is published here. */
const realDate = (value: unknown): string | undefined => (typeof value === 'string' && !value.startsWith('0000') ? value : undefined);
const imageUrl = (image: unknown): string | false =>
  image && typeof image === 'object' && typeof (image as { url?: unknown }).url === 'string' ? (image as { url: string }).url : false;

function common(record: TecRecord) {
  return {
    description: nonEmpty(record.description),
    slug: text(record.slug) || undefined,
    status: IMPORTED_STATUSES.has(record.status) ? (record.status as string) : undefined,
    // The UTC publication date: the source's site time zone need not be ours.
    dateUtc: realDate(record.date_utc),
    image: imageUrl(record.image),
  };
}

/** Local ids of what an event links to, already imported. */
export interface EventLinks {
  venue: number | null;
  organizers: number[];
  categories: number[];
  tags: number[];
}

export function eventFields(record: TecRecord, links: EventLinks): EventFields {
  const website = text(record.website);
  return {
    ...common(record),
    title: decodeEntities(String(record.title ?? '')),
    excerpt: nonEmpty(record.excerpt),
    startDate: text(record.start_date),
    endDate: text(record.end_date),
    timezone: text(record.timezone) || undefined,
    allDay: flag(record.all_day) ?? false,
    cost: text(record.cost) ?? '',
    // The original shows the event's own page as its website when none is set: that is no website.
    website: website && website !== record.url ? website : '',
    showMap: flag(record.show_map),
    showMapLink: flag(record.show_map_link),
    hideFromListings: flag(record.hide_from_listings),
    sticky: flag(record.sticky),
    featured: flag(record.featured),
    venue: links.venue ?? '',
    organizer: links.organizers,
    categories: links.categories,
    tags: links.tags,
  };
}

export function linkedFields(type: LinkedType, record: TecRecord): LinkedFields {
  const fields: LinkedFields = { ...common(record), name: decodeEntities(String(record[type] ?? '')) };
  // Organizer e-mails come obfuscated with entities (antispambot).
  for (const key of META_FIELDS[type]) fields[key] = decodeEntities(text(record[key]) ?? '');
  if (type === 'venue') {
    fields.showMap = flag(record.show_map);
    fields.showMapLink = flag(record.show_map_link);
  }
  return fields;
}

export function termInput(record: TecRecord, parent: number | null): TermInput {
  return {
    name: decodeEntities(String(record.name ?? '')),
    slug: text(record.slug) || null,
    description: nonEmpty(record.description),
    ...(parent ? { parent } : {}),
  };
}

/** The remote ids an event record links to. */
export function eventRefs(record: TecRecord) {
  const venue =
    record.venue && typeof record.venue === 'object' && !Array.isArray(record.venue) && record.venue.id
      ? (record.venue as TecRecord)
      : null;
  const list = (value: unknown) =>
    (Array.isArray(value) ? value.filter((item) => item && typeof item === 'object' && item.id) : []) as TecRecord[];
  return { venue, organizers: list(record.organizer), categories: list(record.categories), tags: list(record.tags) };
}
