// A calendar event as an ActivityPub `Event` in the shape FEP-8a8e describes and Mobilizon, Gancio
// and the WordPress Event Bridge send: Fedify's vocabulary for the ActivityStreams part, plus the
// few terms ActivityStreams lacks (timezone, the venue's PostalAddress, the iCalendar status) in
// the context Mobilizon uses, so that their readers find them where they look.
import { Temporal } from '@js-temporal/polyfill';
import { Document, Event, Hashtag, Place, PUBLIC_COLLECTION } from '@fedify/fedify/vocab';
import type { Prisma } from '../db/client.js';
import { eventStatusLabel, icalEventStatus } from '../calendar/event-status.js';
import { ksesPost } from '../calendar/kses.js';
import { permalink, zoneForLuxon } from '../calendar/posts.js';
import { plainText, renderContent, renderExcerpt, renderTitle } from '../calendar/text.js';
import type { FederationUrls } from './urls.js';

/** The terms Fedify's vocabulary does not have, named as Mobilizon names them. */
export const EXTENSION_CONTEXT = {
  sc: 'http://schema.org/',
  mz: 'https://joinmobilizon.org/ns#',
  ical: 'http://www.w3.org/2002/12/cal/ical#',
  Hashtag: 'as:Hashtag',
  PostalAddress: 'sc:PostalAddress',
  address: { '@id': 'sc:address', '@type': '@id' },
  streetAddress: 'sc:streetAddress',
  addressLocality: 'sc:addressLocality',
  addressRegion: 'sc:addressRegion',
  postalCode: 'sc:postalCode',
  addressCountry: 'sc:addressCountry',
  timezone: { '@id': 'mz:timezone', '@type': 'sc:Text' },
  status: { '@id': 'ical:status', '@type': 'sc:Text' },
} as const;

const EVENT_INCLUDE = {
  image: true,
  venues: { include: { venue: true } },
  terms: { include: { term: true } },
} as const;

export type FederatedEventRow = NonNullable<Awaited<ReturnType<typeof loadEvent>>>;

export const loadEvent = (prisma: Prisma, id: number) => prisma.event.findUnique({ where: { id }, include: EVENT_INCLUDE });

/** Whether anyone on the fediverse may see it: published and not behind a password. Private,
 *  draft, pending, scheduled and trashed events, and protected ones, never federate. */
export const isPublic = (event: { status: string; password: string }) => event.status === 'publish' && event.password === '';

/** A UTC wall "YYYY-MM-DD HH:MM:SS" as an instant. */
const instant = (utcWall: string) => Temporal.Instant.from(`${utcWall.replace(' ', 'T')}Z`);

function hashtagName(name: string): string {
  // Mastodon links #words: letters, digits and underscores.
  return `#${plainText(name).replace(/[^\p{L}\p{N}_]+/gu, '')}`;
}

/** The Fedify `Event` of a public event (the ActivityStreams part). */
export function eventObject(event: FederatedEventRow, urls: FederationUrls): Event {
  const page = permalink(urls.siteUrl, 'event', event);
  const venue = event.venues[0]?.venue;
  const place =
    venue && isPublic(venue)
      ? new Place({
          name: renderTitle(venue.title),
          latitude: venue.geoLat ?? null,
          longitude: venue.geoLng ?? null,
          url: venue.website ? new URL(venue.website) : null,
        })
      : null;
  const content = ksesPost(renderContent(event.content));
  // A canceled or postponed event says so where Mastodon shows it too (it does not read ical:status).
  const label = eventStatusLabel(event.eventStatus);
  const said = plainText(renderExcerpt(event.excerpt)) || plainText(content);
  const excerpt = label ? [`${label}.`, event.eventStatusReason, said].filter(Boolean).join(' ') : said;
  return new Event({
    id: urls.eventId(event.id),
    name: plainText(renderTitle(event.title)),
    content,
    mediaType: 'text/html',
    summary: excerpt.length > 500 ? `${excerpt.slice(0, 499)}…` : excerpt,
    startTime: instant(event.startUtc),
    endTime: instant(event.endUtc),
    location: place,
    url: new URL(page),
    attachments: event.image
      ? [new Document({ mediaType: event.image.mimeType, url: new URL(event.image.url), name: plainText(renderTitle(event.title)) })]
      : [],
    tags: event.terms.map(
      ({ term }) =>
        new Hashtag({
          name: hashtagName(term.name),
          href: new URL(
            term.taxonomy === 'post_tag' ? `${urls.siteUrl}/tag/${term.slug}/` : `${urls.siteUrl}/events/category/${term.slug}/`,
          ),
        }),
    ),
    published: instant(event.dateUtc),
    updated: instant(event.modifiedUtc),
    attribution: urls.actorId,
    to: PUBLIC_COLLECTION,
    cc: urls.followersId,
  });
}

/** The extension terms of the event, added to the compacted JSON-LD of eventObject. */
function extensions(event: FederatedEventRow) {
  const venue = event.venues[0]?.venue;
  const extra: Record<string, unknown> = {
    timezone: zoneForLuxon(event.timezone),
    // RFC 5545's STATUS, as Mobilizon reads it: CANCELLED, TENTATIVE (postponed) or CONFIRMED.
    status: icalEventStatus(event.eventStatus),
  };
  if (venue && isPublic(venue)) {
    extra.address = {
      type: 'PostalAddress',
      streetAddress: venue.address,
      addressLocality: venue.city,
      addressRegion: venue.stateprovince || venue.state || venue.province,
      postalCode: venue.zip,
      addressCountry: venue.country,
    };
  }
  return extra;
}

/** Fedify's compact JSON-LD with the extension context appended. */
export async function withExtensions(json: Record<string, unknown>): Promise<Record<string, unknown>> {
  const context = json['@context'];
  return { ...json, '@context': [...(Array.isArray(context) ? context : [context]), EXTENSION_CONTEXT] };
}

/** The event's JSON-LD document as served and as embedded in activities (with its @context). */
export async function eventDocument(event: FederatedEventRow, urls: FederationUrls): Promise<Record<string, unknown>> {
  const json = (await eventObject(event, urls).toJsonLd({ format: 'compact' })) as Record<string, unknown>;
  const extra = extensions(event);
  const location = json.location as Record<string, unknown> | undefined;
  if (location && extra.address) location.address = extra.address;
  delete extra.address;
  // Fedify compacts Hashtag to "as:Hashtag"; Mastodon and Mobilizon match on "Hashtag" (the term is
  // in EXTENSION_CONTEXT).
  const tags = json.tag === undefined ? [] : Array.isArray(json.tag) ? json.tag : [json.tag];
  for (const tag of tags as Array<Record<string, unknown>>) if (tag.type === 'as:Hashtag') tag.type = 'Hashtag';
  return withExtensions({ ...json, ...extra });
}
