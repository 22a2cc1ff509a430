// GraphQL results → the original's JSON records (spec §3), one pass per record, keys in the
// original's order. The selections below are what each record needs from the GraphQL API.
import { dateDetails } from '../../calendar/dates/wall-times.js';
import type { RestRequest } from '../route-table.js';
import { wpStatus } from './common.js';

const IMAGE = 'image { record }';

export const TERM_EMBED_FIELDS = 'id name slug termGroup termTaxonomyId taxonomy description count';
// Embedded terms carry no archive link, so event records do not load the category tree.
export const CATEGORY_FIELDS = `${TERM_EMBED_FIELDS} parentId url`;
export const TAG_FIELDS = `${TERM_EMBED_FIELDS} url`;

const POST_FIELDS = `id globalId globalIdLineage author status date dateUtc modified modifiedUtc url slug descriptionHtml excerptHtml ${IMAGE} masked`;
export const VENUE_FIELDS = `${POST_FIELDS} title address city country province state zip phone website stateprovince geoLat geoLng showMap showMapLink`;
export const ORGANIZER_FIELDS = `${POST_FIELDS} title phone website email`;

/** The event record's selection; `single` adds JSON-LD to the event and its nested venue and organizers. */
export function eventFields(single: boolean): string {
  const ld = single ? ' jsonLd' : '';
  return `id globalId globalIdLineage author status date dateUtc modified modifiedUtc url titleRendered descriptionHtml excerptHtml slug ${IMAGE}
    allDay startDate endDate utcStartDate utcEndDate timezone timezoneAbbr cost costDetails { currencySymbol currencyCode currencyPosition values }
    website showMap showMapLink hideFromListings sticky featured masked
    categories { ${TERM_EMBED_FIELDS} parentId } tags { ${TERM_EMBED_FIELDS} }
    venues(all: true) { ${VENUE_FIELDS}${ld} } organizers(all: true) { ${ORGANIZER_FIELDS}${ld} }${ld}`;
}

type Node = Record<string, any>;

const MASKED_COST = { currency_symbol: '', currency_position: '', currency_code: '', values: [] };

const image = (node: Node) => (node.image ? node.image.record : false);

/** An embedded term inside an event (§3.4.1). */
export function embeddedTermRecord(term: Node, req: RestRequest) {
  const collection = req.url(term.taxonomy === 'post_tag' ? '/tags' : '/categories');
  const parent = term.parentId ?? 0;
  const urls: Record<string, string> = { self: `${collection}/${term.id}`, collection };
  if (parent) urls.up = `${collection}/${parent}`;
  return {
    name: term.name,
    slug: term.slug,
    term_group: term.termGroup,
    term_taxonomy_id: term.termTaxonomyId,
    taxonomy: term.taxonomy,
    description: term.description,
    parent,
    count: term.count,
    filter: 'raw',
    id: term.id,
    urls,
  };
}

/** A term as the term endpoints return it (§3.4.2); `parent` only for categories. */
export function termRecord(term: Node, req: RestRequest) {
  const isCategory = term.taxonomy !== 'post_tag';
  const collection = req.url(isCategory ? '/categories' : '/tags');
  const parent = term.parentId ?? 0;
  const record: Record<string, unknown> = {
    id: term.id,
    count: term.count,
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
  };
  if (isCategory) record.parent = parent;
  record.meta = [];
  record.url = term.url;
  const urls: Record<string, string> = { self: `${collection}/${term.id}`, collection };
  if (parent) urls.up = `${collection}/${parent}`;
  record.urls = urls;
  return record;
}

/**
 * Every empty or falsy value is dropped from venue and organizer records (author "0", "", false, "0"),
 * except the keys password masking emptied: the original masks after filtering, so a field that
 * holds a value stays, emptied (spec §3.7). Which did, the `masked` resolver reports through this
 * request's operation options (calendarOperationOptions), not through the schema.
 */
function dropEmpty(record: Record<string, unknown>, node: Node, type: 'venue' | 'organizer', req: RestRequest): Record<string, unknown> {
  const fields = node.masked ? req.operationOptions.hiddenFields?.get(`${type}:${node.id}`) : undefined;
  const hidden = fields?.length ? fields.map(snakeCase) : undefined;
  // A new object rather than `delete`: deleting keys turns the record into a slow dictionary object.
  const kept: Record<string, unknown> = {};
  for (const key in record) {
    const value = record[key];
    if (value === '' || value === false || value === null || value === undefined || value === '0' || value === 0) {
      if (!hidden?.includes(key)) continue;
    }
    kept[key] = value;
  }
  return kept;
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function linkedBase(node: Node, nameKey: 'venue' | 'organizer') {
  return {
    id: node.id,
    author: String(node.author),
    status: wpStatus(node.status),
    date: node.date,
    date_utc: node.dateUtc,
    modified: node.modified,
    modified_utc: node.modifiedUtc,
    url: node.url,
    [nameKey]: node.masked ? [] : node.title,
    description: node.descriptionHtml,
    excerpt: node.excerptHtml,
    slug: node.slug,
    image: image(node),
  };
}

export function venueRecord(node: Node, req: RestRequest) {
  const record: Record<string, unknown> = linkedBase(node, 'venue');
  for (const key of ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'])
    record[key] = node[key];
  if (node.geoLat != null) record.geo_lat = node.geoLat;
  if (node.geoLng != null) record.geo_lng = node.geoLng;
  if (node.jsonLd !== undefined) record.json_ld = jsonLd(node.jsonLd);
  const kept = dropEmpty(record, node, 'venue', req);
  if (node.masked) kept.venue = [];
  kept.show_map = node.showMap;
  kept.show_map_link = node.showMapLink;
  kept.global_id = node.globalId;
  kept.global_id_lineage = node.globalIdLineage;
  return kept;
}

export function organizerRecord(node: Node, req: RestRequest) {
  const record: Record<string, unknown> = linkedBase(node, 'organizer');
  for (const key of ['phone', 'website', 'email']) record[key] = node[key];
  if (node.jsonLd !== undefined) record.json_ld = jsonLd(node.jsonLd);
  record.global_id = node.globalId;
  record.global_id_lineage = node.globalIdLineage;
  const kept = dropEmpty(record, node, 'organizer', req);
  if (node.masked) kept.organizer = [];
  return kept;
}

/** JSON-LD as the original prints it: its texts went through esc_js, which writes a line break as
 *  the two characters `\n` (samples 11, 19, 21: `"description":"&lt;p&gt;…&lt;\/p&gt;\\n"`). */
function jsonLd(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\r/g, '').replace(/\n/g, '\\n');
  if (Array.isArray(value)) return value.map(jsonLd);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonLd(v)]));
  return value;
}

/** One event record. Its *_date_details come from the date strings here rather than from GraphQL's
 *  DateDetails: the same values, without 28 field executions per record. */
export function eventRecord(node: Node, req: RestRequest) {
  const venues = (node.venues as Node[]).map((venue) => venueRecord(venue, req));
  const record: Record<string, unknown> = {
    id: node.id,
    global_id: node.globalId,
    global_id_lineage: node.globalIdLineage,
    author: String(node.author),
    status: wpStatus(node.status),
    date: node.date,
    date_utc: node.dateUtc,
    modified: node.modified,
    modified_utc: node.modifiedUtc,
    url: node.url,
    rest_url: req.url(`/events/${node.id}`),
    title: node.titleRendered,
    description: node.descriptionHtml,
    excerpt: node.excerptHtml,
    slug: node.slug,
    image: image(node),
    all_day: node.allDay,
    start_date: node.startDate,
    start_date_details: dateDetails(node.startDate),
    end_date: node.endDate,
    end_date_details: dateDetails(node.endDate),
    utc_start_date: node.utcStartDate,
    utc_start_date_details: dateDetails(node.utcStartDate),
    utc_end_date: node.utcEndDate,
    utc_end_date_details: dateDetails(node.utcEndDate),
    timezone: node.timezone,
    timezone_abbr: node.timezoneAbbr,
    cost: node.cost,
    cost_details: node.masked
      ? MASKED_COST
      : {
          currency_symbol: node.costDetails.currencySymbol,
          currency_code: node.costDetails.currencyCode,
          currency_position: node.costDetails.currencyPosition,
          values: node.costDetails.values,
        },
    website: node.website,
    show_map: node.showMap,
    show_map_link: node.showMapLink,
    hide_from_listings: node.hideFromListings,
    sticky: node.sticky,
    featured: node.featured,
    categories: (node.categories as Node[]).map((term) => embeddedTermRecord(term, req)),
    tags: (node.tags as Node[]).map((term) => embeddedTermRecord(term, req)),
    // One venue is an object, several an array, none an empty array.
    venue: venues.length === 1 ? venues[0] : venues,
    organizer: (node.organizers as Node[]).map((organizer) => organizerRecord(organizer, req)),
    custom_fields: [],
  };
  if (node.jsonLd !== undefined) record.json_ld = jsonLd(node.jsonLd);
  return record;
}
