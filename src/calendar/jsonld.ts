// Schema.org JSON-LD of single records (spec §3.8), shaped like the original's output (samples/11):
// descriptions are the escaped paragraph-formatted text plus a newline; e-mails are entity-encoded.
import { DateTime } from 'luxon';
import { schemaOrgEventStatus } from './event-status.js';
import { zoneForLuxon } from './posts.js';
import { escHtml, renderContent } from './text.js';

/** The escaped paragraphs plus a newline; an empty text stays empty. */
function ldDescription(raw: string): string {
  const html = renderContent(raw);
  return html ? escHtml(html + '\n') : '';
}

/** WordPress antispambot: every other character as a decimal entity (deterministic here). */
export function antispambot(email: string): string {
  return [...email].map((ch, i) => (i % 2 === 0 ? `&#${ch.codePointAt(0)};` : ch)).join('');
}

export interface VenueLdSource {
  title: string;
  content: string;
  address: string;
  city: string;
  state: string;
  province: string;
  /** The stored "state or province" (the REST field), which the original's addressRegion shows first. */
  stateprovince?: string;
  zip: string;
  country: string;
  phone: string;
  website: string;
  geoLat: number | null;
  geoLng: number | null;
  imageUrl?: string | null;
}

export function venueJsonLd(v: VenueLdSource, withContext = false): Record<string, unknown> {
  const ld: Record<string, unknown> = withContext ? { '@context': 'http://schema.org' } : {};
  Object.assign(ld, { '@type': 'Place', name: v.title, description: ldDescription(v.content) });
  if (v.imageUrl) ld.image = v.imageUrl;
  ld.url = '';
  const address: Record<string, string> = { '@type': 'PostalAddress' };
  if (v.address) address.streetAddress = v.address;
  if (v.city) address.addressLocality = v.city;
  const region = v.stateprovince || v.state || v.province;
  if (region) address.addressRegion = region;
  if (v.zip) address.postalCode = v.zip;
  if (v.country) address.addressCountry = v.country;
  // The original always writes the address, telephone and sameAs keys, empty or not.
  ld.address = address;
  if (v.geoLat != null && v.geoLng != null) ld.geo = { '@type': 'GeoCoordinates', latitude: v.geoLat, longitude: v.geoLng };
  ld.telephone = v.phone ?? '';
  ld.sameAs = v.website ?? '';
  return ld;
}

export interface OrganizerLdSource {
  title: string;
  content: string;
  phone: string;
  email: string;
  website: string;
  imageUrl?: string | null;
}

export function organizerJsonLd(o: OrganizerLdSource, withContext = false): Record<string, unknown> {
  const ld: Record<string, unknown> = withContext ? { '@context': 'http://schema.org' } : {};
  Object.assign(ld, { '@type': 'Person', name: o.title, description: ldDescription(o.content) });
  if (o.imageUrl) ld.image = o.imageUrl;
  ld.url = o.website;
  // Always the three keys, as the original writes them.
  ld.telephone = o.phone ?? '';
  ld.email = o.email ? antispambot(o.email) : '';
  ld.sameAs = o.website ?? '';
  return ld;
}

export interface EventLdSource {
  title: string;
  content: string;
  excerpt: string;
  url: string;
  timezone: string;
  startLocal: string;
  endLocal: string;
  date: string;
  costValues: string[];
  /** scheduled, canceled or postponed (src/calendar/event-status.ts). */
  eventStatus: string;
  imageUrl?: string | null;
  /** The first linked venue and organizer; false when one is linked that the caller may not see in JSON-LD. */
  venue?: VenueLdSource | false | null;
  organizer?: OrganizerLdSource | false | null;
}

/** PHP's DateTime::format('c'): the offset always as ±hh:mm, "+00:00" for UTC (never "Z"). */
function isoIn(wall: string, zone: string): string {
  const local = DateTime.fromFormat(wall, 'yyyy-LL-dd HH:mm:ss', { zone: zoneForLuxon(zone) });
  return local.isValid ? local.toFormat("yyyy-LL-dd'T'HH:mm:ssZZ") : wall;
}

/**
 * The original's JSON-LD link of an event not public yet (draft, pending, scheduled): its plain link
 * gets the pretty-permalink trailing slash, which lands inside the query, encoded ("…&p=33%2F/").
 */
const ldEventUrl = (url: string) => (url.includes('?') ? `${url}%2F/` : url);

export function eventJsonLd(e: EventLdSource): Record<string, unknown> {
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: e.title,
    description: ldDescription(e.excerpt || e.content),
  };
  if (e.imageUrl) ld.image = e.imageUrl;
  Object.assign(ld, {
    url: ldEventUrl(e.url),
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: schemaOrgEventStatus(e.eventStatus),
    startDate: isoIn(e.startLocal, e.timezone || 'UTC'),
    endDate: isoIn(e.endLocal, e.timezone || 'UTC'),
  });
  if (e.venue != null) ld.location = e.venue && venueJsonLd(e.venue);
  if (e.organizer != null) ld.organizer = e.organizer && organizerJsonLd(e.organizer);
  const prices = e.costValues.filter((v) => v !== '');
  if (prices.length) {
    ld.offers = {
      '@type': 'Offer',
      price: prices[0],
      priceCurrency: 'USD',
      url: e.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${e.date.slice(0, 10)}T00:00:00+00:00`,
    };
  }
  ld.performer = 'Organization';
  return ld;
}
