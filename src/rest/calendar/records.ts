// GraphQL results → the original's JSON records (spec §3): the item schemas of events, venues,
// organizers and terms, from which item-schema.ts derives their selections, records and documents.
import { dateDetails } from '../../calendar/dates/wall-times.js';
import type { RestRequest } from '../route-table.js';
import { wpStatus } from './common.js';
import {
  arrayOf,
  boolean,
  buildRecord,
  integer,
  itemSchema,
  ref,
  selection,
  string,
  type ItemSchema,
  type ResultObject,
  type RecordField,
  type Schema,
} from './item-schema.js';

const IMAGE = 'image { id url width height filesize sizes }';

/** The record's `image` (spec §3.6): url, id, the path's extension, and the dimensions, file size
 *  and sizes once both dimensions are known; false without an image. */
function imageRecord(image: ResultObject | null): false | Record<string, unknown> {
  if (!image) return false;
  const extension = (new URL(image.url).pathname.match(/\.([a-z0-9]+)$/i)?.[1] ?? '').toLowerCase();
  const record: Record<string, unknown> = { url: image.url, id: image.id };
  if (extension) record.extension = extension;
  if (image.width && image.height) {
    record.width = image.width;
    record.height = image.height;
    if (image.filesize) record.filesize = image.filesize;
    record.sizes = image.sizes;
  }
  return record;
}

// ---------------------------------------------------------------------------------------------
// Terms (§3.4): an event's embedded categories and tags, and the term endpoints' records

/** The original documents one Term for both shapes (TEC's Term definition, verbatim, /doc's order). */
export const TERM_DOC = {
  id: { type: 'integer', description: 'The WordPress term ID' },
  name: { type: 'string', description: 'The term name' },
  slug: { type: 'string', description: 'The term slug' },
  taxonomy: { type: 'string', description: 'The taxonomy the term belongs to' },
  description: { type: 'string', description: 'The term description' },
  parent: { type: 'integer', description: 'The term parent term if any' },
  count: { type: 'integer', description: 'The number of posts associated with the term' },
  url: { type: 'string', description: 'The URL to the term archive page' },
  urls: { type: 'array', items: { type: 'string' }, description: 'A list of links to the term own, archive and parent REST URL' },
};

/** A term's key that is a GraphQL field as it comes, with its Term description. */
const termField = (key: keyof typeof TERM_DOC, field: string, schema: Schema): RecordField => ({
  select: field,
  value: (term) => term[field],
  schema,
  doc: TERM_DOC[key],
  required: ['id', 'name', 'slug', 'taxonomy'].includes(key),
});

/** Both shapes of the terms of one taxonomy; only categories have parents. */
function termSchemas(hierarchical: boolean) {
  const id = termField('id', 'id', integer);
  const name = termField('name', 'name', string);
  const slug = termField('slug', 'slug', string);
  const taxonomy = termField('taxonomy', 'taxonomy', string);
  const description = termField('description', 'description', string);
  const count = termField('count', 'count', integer);
  const parent: RecordField = {
    select: hierarchical ? 'parentId' : undefined,
    value: (term) => term.parentId ?? 0,
    schema: integer,
    doc: TERM_DOC.parent,
  };
  const urls: RecordField = {
    select: hierarchical ? 'id taxonomy parentId' : 'id taxonomy',
    value: (term, req) => {
      const collection = req.url(term.taxonomy === 'post_tag' ? '/tags' : '/categories');
      const urls: Record<string, string> = { self: `${collection}/${term.id}`, collection };
      if (term.parentId) urls.up = `${collection}/${term.parentId}`;
      return urls;
    },
    schema: { type: 'object', properties: { self: string, collection: string, up: string }, required: ['self', 'collection'] },
    doc: TERM_DOC.urls,
  };
  const embedded = itemSchema('EmbeddedTerm', {
    name,
    slug,
    term_group: { select: 'termGroup', value: (term) => term.termGroup, schema: integer },
    term_taxonomy_id: { select: 'termTaxonomyId', value: (term) => term.termTaxonomyId, schema: integer },
    taxonomy,
    description,
    parent,
    count,
    filter: { value: () => 'raw', schema: string },
    id,
    urls,
  });
  const record = itemSchema('Term', {
    id,
    count,
    description,
    name,
    slug,
    taxonomy,
    ...(hierarchical
      ? { parent: { ...parent, schema: { type: 'integer', description: 'The parent category ID (categories only)' } } }
      : {}),
    meta: { value: () => [], schema: arrayOf({}) },
    url: termField('url', 'url', string),
    urls,
  });
  return { embedded, record };
}

export const CATEGORY_TERMS = termSchemas(true);
export const TAG_TERMS = termSchemas(false);

/** A term as the term endpoints return it (§3.4.2); `parent` only for categories. */
export const termRecord = (term: ResultObject, req: RestRequest) =>
  buildRecord(term.taxonomy === 'post_tag' ? TAG_TERMS.record : CATEGORY_TERMS.record, term, req);

// ---------------------------------------------------------------------------------------------
// What the three post types share

/** A password-protected record the caller may not read has its texts emptied to `[]`, as the original does. */
const maskable: Schema = { type: ['string', 'array'], items: false };
const IMAGE_OR_FALSE: Schema = { oneOf: [ref('Image'), { const: false }] };
const STATUSES: Schema = { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'] };

/** A key that is a GraphQL field as it comes. */
const exposed = (field: string, schema: Schema, description?: string): RecordField => ({
  select: field,
  value: (node) => node[field],
  schema,
  doc: description === undefined ? undefined : { type: schema.type, description },
});

/** JSON-LD as the original prints it: its texts went through esc_js, which writes a line break as
 *  the two characters `\n` (samples 11, 19, 21: `"description":"&lt;p&gt;…&lt;\/p&gt;\\n"`). */
function jsonLd(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\r/g, '').replace(/\n/g, '\\n');
  if (Array.isArray(value)) return value.map(jsonLd);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonLd(v)]));
  return value;
}

/** Keys of every post record, with TEC's descriptions of its post type (the *_Definition_Provider
 *  classes); the original documents the global ids right after `id` and `status` after the dates. */
function postFields(type: 'event' | 'venue' | 'organizer') {
  const lineageOf = type === 'event' ? 'event' : 'organizer'; // sic: venues say "organizer" too
  return {
    id: { ...exposed('id', integer, `The ${type} WordPress post ID`), required: true },
    global_id: { ...exposed('globalId', string, `The ${type} ID used to globally identify in Event Aggregator`), docAfter: 'id' },
    global_id_lineage: {
      ...exposed('globalIdLineage', arrayOf(string)),
      doc: {
        type: 'array',
        items: { type: 'string' },
        description: `An Array containing the lineage of where this ${lineageOf} comes from, this should not change after the ${lineageOf} is created.`,
      },
      docAfter: 'global_id',
    },
    author: {
      select: 'author',
      value: (node) => String(node.author),
      schema: { type: 'string', description: 'The author’s user ID, as a string (as the original sends it)' },
      doc: { type: 'integer', description: `The ${type} author WordPress post ID` },
    },
    status: {
      select: 'status',
      value: (node) => wpStatus(node.status),
      schema: STATUSES,
      required: true,
      doc: { type: 'string', description: `The ${type} status` },
      docAfter: 'modified_utc',
    },
    date: exposed('date', string, `The ${type} creation date in the site time zone`),
    date_utc: exposed('dateUtc', string, `The ${type} creation date in UTC time`),
    modified: exposed('modified', string, `The ${type} last modification date in the site time zone`),
    modified_utc: exposed('modifiedUtc', string, `The ${type} last modification date in UTC time`),
    url: exposed('url', string, `The URL to the ${type} page`),
    description: { ...exposed('descriptionHtml', maskable), doc: { type: 'string', description: `The ${type} long description` } },
    excerpt: { ...exposed('excerptHtml', maskable), doc: { type: 'string', description: `The ${type} short description` } },
    slug: exposed('slug', string, `The ${type} slug`),
    image: {
      select: IMAGE,
      value: (node) => imageRecord(node.image),
      schema: IMAGE_OR_FALSE,
      // sic: the venue and organizer image is "string" and an "event featured image"
      doc: {
        type: type === 'event' ? 'object' : 'string',
        description: 'The event featured image details if set',
        $ref: ref('Image').$ref,
      },
    },
    json_ld: {
      select: (single) => (single ? 'jsonLd' : ''),
      value: (node) => (node.jsonLd === undefined ? undefined : jsonLd(node.jsonLd)),
      schema: ref('JsonLd'),
    },
  } satisfies Record<string, RecordField>;
}

/** The record's name key (`venue`, `organizer`): `[]` when masked. */
const linkedName = (type: 'venue' | 'organizer'): RecordField => ({
  select: 'title',
  value: (node) => (node.masked ? [] : node.title),
  schema: maskable,
  doc: { type: 'string', description: `The ${type} name` },
});

// ---------------------------------------------------------------------------------------------
// Venues and organizers (§3.2, §3.3)

const venue = postFields('venue');
const venueText = (field: string, description: string) => exposed(field, string, `The venue ${description}`);
const geo = (field: string, description: string): RecordField => ({
  select: field,
  value: (node) => node[field] ?? undefined,
  schema: { type: 'number' },
  doc: { type: 'number', format: 'double', description },
});

export const VENUE = itemSchema(
  'Venue',
  {
    id: venue.id,
    author: venue.author,
    status: venue.status,
    date: venue.date,
    date_utc: venue.date_utc,
    modified: venue.modified,
    modified_utc: venue.modified_utc,
    url: venue.url,
    venue: linkedName('venue'),
    description: venue.description,
    excerpt: venue.excerpt,
    slug: venue.slug,
    image: venue.image,
    address: venueText('address', 'address'),
    city: venueText('city', 'city'),
    country: venueText('country', 'country'),
    province: venueText('province', 'province'),
    state: venueText('state', 'state'),
    zip: venueText('zip', 'ZIP code'),
    phone: venueText('phone', 'phone number'),
    website: venueText('website', 'website URL'),
    stateprovince: venueText('stateprovince', 'state or province'),
    geo_lat: geo('geoLat', 'The venue geo latitude'),
    geo_lng: geo('geoLng', 'The venue geo longitude'),
    json_ld: venue.json_ld,
    // Set after the empty values are dropped, as the original does.
    show_map: {
      ...exposed('showMap', boolean, 'Whether the map should be shown for the venue or not'),
      keepEmpty: true,
      docAfter: 'image',
    },
    show_map_link: {
      ...exposed('showMapLink', boolean, 'Whether the map link should be shown for the venue or not'),
      keepEmpty: true,
      docAfter: 'show_map',
    },
    global_id: { ...venue.global_id, keepEmpty: true },
    global_id_lineage: { ...venue.global_id_lineage, keepEmpty: true },
  },
  'venue',
);

const organizer = postFields('organizer');

export const ORGANIZER = itemSchema(
  'Organizer',
  {
    id: organizer.id,
    author: organizer.author,
    status: organizer.status,
    date: organizer.date,
    date_utc: organizer.date_utc,
    modified: organizer.modified,
    modified_utc: organizer.modified_utc,
    url: organizer.url,
    organizer: linkedName('organizer'),
    description: organizer.description,
    excerpt: organizer.excerpt,
    slug: organizer.slug,
    image: organizer.image,
    phone: exposed('phone', string, 'The organizer phone number'),
    website: exposed('website', string, 'The organizer website'),
    email: exposed('email', string, 'The organizer email address'),
    json_ld: organizer.json_ld,
    global_id: organizer.global_id,
    global_id_lineage: organizer.global_id_lineage,
  },
  'organizer',
);

const venueRecord = (node: ResultObject, req: RestRequest) => buildRecord(VENUE, node, req);
const organizerRecord = (node: ResultObject, req: RestRequest) => buildRecord(ORGANIZER, node, req);

// ---------------------------------------------------------------------------------------------
// Events (§3.1)

const event = postFields('event');
const MASKED_COST = { currency_symbol: '', currency_position: '', currency_code: '', values: [] };

/** A date, and its *_date_details from the same string (rather than GraphQL's DateDetails: the
 *  same values, without 28 field executions per record). */
const details = (field: string, description: string): RecordField => ({
  select: field,
  value: (node) => dateDetails(node[field]),
  schema: ref('DateDetails'),
  doc: { type: 'array', description, items: ref('DateDetails') },
});
const eventFlag = (field: string, description: string) => exposed(field, boolean, description);
const terms = (field: 'categories' | 'tags', embedded: ItemSchema, description: string): RecordField => ({
  select: `${field} { ${selection(embedded, false)} }`,
  value: (node, req) => (node[field] as ResultObject[]).map((term) => buildRecord(embedded, term, req)),
  schema: arrayOf(ref('EmbeddedTerm')),
  doc: { type: 'array', description, items: ref('Term') },
});

export const EVENT = itemSchema('Event', {
  id: event.id,
  global_id: event.global_id,
  global_id_lineage: event.global_id_lineage,
  author: event.author,
  status: event.status,
  date: event.date,
  date_utc: event.date_utc,
  modified: event.modified,
  modified_utc: event.modified_utc,
  url: event.url,
  rest_url: {
    select: 'id',
    value: (node, req) => req.url(`/events/${node.id}`),
    schema: string,
    doc: { type: 'string', description: 'The TEC REST API link to fetch this event' },
  },
  title: { ...exposed('titleRendered', maskable), required: true, doc: { type: 'string', description: 'The event name' } },
  description: event.description,
  excerpt: event.excerpt,
  slug: event.slug,
  image: event.image,
  all_day: eventFlag('allDay', 'Whether or not this event is an all day Event'),
  start_date: { ...exposed('startDate', string, 'The event start date in the event or site time zone'), required: true },
  start_date_details: details('startDate', 'An array of each component of the event start date'),
  end_date: { ...exposed('endDate', string, 'The event end date in the event or site time zone'), required: true },
  end_date_details: details('endDate', 'An array of each component of the event end date'),
  utc_start_date: { ...exposed('utcStartDate', string, 'The event start date in UTC time'), required: true },
  utc_start_date_details: details('utcStartDate', 'An array of each component of the event start date in UTC time'),
  utc_end_date: { ...exposed('utcEndDate', string, 'The event end date in UTC time'), required: true },
  utc_end_date_details: details('utcEndDate', 'An array of each component of the event end date in UTC time'),
  timezone: exposed('timezone', string, 'The event time zone string'),
  timezone_abbr: exposed('timezoneAbbr', string, 'The abbreviated event time zone string'),
  cost: exposed('cost', string, 'The event cost including the currency symbol'),
  cost_details: {
    select: 'masked costDetails { currencySymbol currencyCode currencyPosition values }',
    value: ({ masked, costDetails: cost }) =>
      masked
        ? MASKED_COST
        : {
            currency_symbol: cost.currencySymbol,
            currency_code: cost.currencyCode,
            currency_position: cost.currencyPosition,
            values: cost.values,
          },
    schema: ref('CostDetails'),
    doc: { type: 'array', description: 'The event cost details', items: ref('CostDetails') },
  },
  website: exposed('website', string, 'The event website URL'),
  show_map: eventFlag('showMap', 'Whether the map should be shown for the event or not'),
  show_map_link: eventFlag('showMapLink', 'Whether the map link should be shown for the event or not'),
  hide_from_listings: eventFlag('hideFromListings', 'Whether an event should be hidden from the calendar view or not'),
  sticky: eventFlag('sticky', 'Whether an event is sticky in the calendar view or not'),
  featured: eventFlag('featured', 'Whether the event is featured in the calendar or not'),
  categories: terms('categories', CATEGORY_TERMS.embedded, 'The event categories'),
  tags: terms('tags', TAG_TERMS.embedded, 'The event tags'),
  venue: {
    select: (single) => `venues(all: true) { ${selection(VENUE, single)} }`,
    value: (node, req) => {
      const venues = (node.venues as ResultObject[]).map((venue) => venueRecord(venue, req));
      return venues.length === 1 ? venues[0] : venues; // one venue is an object, several an array, none []
    },
    schema: { description: 'The event venue: an object, or an empty array when it has none', oneOf: [ref('Venue'), arrayOf(ref('Venue'))] },
    doc: { type: 'object', description: 'The event venue', $ref: ref('Venue').$ref },
  },
  organizer: {
    select: (single) => `organizers(all: true) { ${selection(ORGANIZER, single)} }`,
    value: (node, req) => (node.organizers as ResultObject[]).map((organizer) => organizerRecord(organizer, req)),
    schema: arrayOf(ref('Organizer')),
    doc: { type: 'array', description: 'The event organizers', items: ref('Organizer') },
  },
  custom_fields: { value: () => [], schema: arrayOf({}) },
  json_ld: event.json_ld,
});

/** The event record's selection; `single` adds JSON-LD to the event and its venues and organizers. */
export const eventFields = (single: boolean) => selection(EVENT, single);
export const eventRecord = (node: ResultObject, req: RestRequest) => buildRecord(EVENT, node, req);
