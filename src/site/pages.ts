// The public pages as HTML: plain server-rendered documents, no script, one stylesheet served by
// Almanac. Every value is escaped here except descriptions, which are the rendered HTML the API
// serves (`descriptionHtml`); the pages' Content-Security-Policy allows no script at all, so even
// markup an editor saved cannot run in a visitor's browser.
import { eventStatusLabel } from '../calendar/event-status.js';
import { decodeEntities, escHtml } from '../calendar/text.js';

/** What an event's card reads, in lists and on its own page. */
export const EVENT_CARD_FIELDS = `id slug title url allDay startDate endDate timezoneAbbr cost featured eventStatus
  venue { name city url address stateprovince zip country }
  categories { name url } tags { name url }`;

export interface PageVenue {
  name: string;
  url: string;
  address: string;
  city: string;
  stateprovince: string;
  zip: string;
  country: string;
  phone?: string;
  website?: string;
  descriptionHtml?: string;
}
export interface PageTerm {
  name: string;
  url: string;
}
export interface PageOrganizer {
  name: string;
  url: string;
  email: string;
  phone: string;
  website: string;
  descriptionHtml?: string;
}
export interface PageEvent {
  id: number;
  slug: string;
  title: string;
  url: string;
  allDay: boolean;
  startDate: string;
  endDate: string;
  timezoneAbbr: string;
  cost: string;
  featured: boolean | null;
  /** GraphQL's EventStatus: SCHEDULED, CANCELED or POSTPONED. */
  eventStatus: string;
  eventStatusReason?: string;
  excerptHtml?: string;
  descriptionHtml?: string;
  masked?: boolean;
  passwordProtected?: boolean;
  image?: { url: string } | null;
  jsonLd?: unknown;
  venue: (PageVenue & { url: string }) | null;
  organizers?: PageOrganizer[];
  categories: PageTerm[];
  tags: PageTerm[];
  icalUrl?: string;
  googleCalendarUrl?: string;
  outlookUrl?: string;
  /** How a recurring event repeats, and its series' next occurrences. */
  recurrenceText?: string | null;
  occurrences?: Pick<PageEvent, 'id' | 'url' | 'allDay' | 'startDate' | 'endDate' | 'timezoneAbbr'>[];
}

/** Where a page's API data lives (The Events Calendar's discovery), and its own feed. */
export interface PageHead {
  title: string;
  siteName: string;
  apiRoot: string;
  home: string;
  stylesheet: string;
  feedUrl?: string;
  canonical?: string;
  jsonLd?: unknown;
}

const esc = (value: unknown) => escHtml(String(value ?? ''));

// Wall times are "YYYY-MM-DD HH:MM:SS" in the event's zone: formatted as UTC so nothing converts them.
const asWall = (wall: string) => new Date(`${wall.slice(0, 10)}T${wall.slice(11, 19) || '00:00:00'}Z`);
const dayFormat = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });

/** "Saturday 5 December 2026, 20:00 – 23:00 CET", "… – Sunday 6 December 2026", "Saturday 5 December 2026 (all day)". */
export function whenText(event: Pick<PageEvent, 'allDay' | 'startDate' | 'endDate' | 'timezoneAbbr'>): string {
  const start = asWall(event.startDate);
  const end = asWall(event.endDate);
  const sameDay = event.startDate.slice(0, 10) === event.endDate.slice(0, 10);
  if (event.allDay) return sameDay ? `${dayFormat.format(start)} (all day)` : `${dayFormat.format(start)} – ${dayFormat.format(end)}`;
  const zone = event.timezoneAbbr ? ` ${event.timezoneAbbr}` : '';
  if (sameDay) return `${dayFormat.format(start)}, ${timeFormat.format(start)} – ${timeFormat.format(end)}${zone}`;
  return `${dayFormat.format(start)}, ${timeFormat.format(start)} – ${dayFormat.format(end)}, ${timeFormat.format(end)}${zone}`;
}

const isoOf = (wall: string) => `${wall.slice(0, 10)}T${wall.slice(11, 19) || '00:00:00'}`;
const when = (event: PageEvent) => `<time datetime="${esc(isoOf(event.startDate))}">${esc(whenText(event))}</time>`;
const place = (venue: PageVenue) =>
  [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(', ');
// Term names are stored with HTML entities (as WordPress stores them): decoded, then escaped once.
const termLinks = (terms: PageTerm[]) => terms.map((term) => `<a href="${esc(term.url)}">${esc(decodeEntities(term.name))}</a>`).join(', ');

export function layout(head: PageHead, main: string): string {
  // JSON inside a script element: "</" must not close it.
  const jsonLd = head.jsonLd ? `\n<script type="application/ld+json">${JSON.stringify(head.jsonLd).replace(/<\//g, '<\\/')}</script>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(head.title)} – ${esc(head.siteName)}</title>
<link rel="stylesheet" href="${esc(head.stylesheet)}">
<meta name="tec-api-version" content="v1">
<meta name="tec-api-origin" content="${esc(head.home)}">
<link rel="alternate" href="${esc(head.apiRoot)}">${head.feedUrl ? `\n<link rel="alternate" type="text/calendar" title="${esc(head.title)} (iCalendar)" href="${esc(head.feedUrl)}">` : ''}${head.canonical ? `\n<link rel="canonical" href="${esc(head.canonical)}">` : ''}${jsonLd}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><a class="brand" href="/events/">${esc(head.siteName)}</a>
<nav aria-label="Site"><a href="/events/">Upcoming events</a> <a href="/events/month/">Month</a> <a href="/events/today/">Today</a></nav></header>
<main id="main">
${main}
</main>
</body>
</html>
`;
}

/** "Canceled" or "Postponed" before a title, as The Events Calendar's views show it; "" when scheduled. */
export function statusLabel(event: Pick<PageEvent, 'eventStatus'>): string {
  const label = eventStatusLabel(event.eventStatus.toLowerCase());
  return label ? `<span class="event-status ${event.eventStatus.toLowerCase()}">${label}</span> ` : '';
}

export function eventCard(event: PageEvent): string {
  const venue = event.venue ? `<p class="venue">${esc(event.venue.name)}${event.venue.city ? `, ${esc(event.venue.city)}` : ''}</p>` : '';
  const terms = event.categories.length ? `<p class="terms">${termLinks(event.categories)}</p>` : '';
  const cost = event.cost ? `<p class="cost">${esc(event.cost)}</p>` : '';
  return `<li class="event${event.featured ? ' featured' : ''}">
<h2>${statusLabel(event)}<a href="${esc(event.url)}">${esc(event.title)}</a></h2>
<p class="when">${when(event)}</p>${venue}${cost}${terms}
</li>`;
}

export interface Paging {
  page: number;
  totalPages: number;
  total: number;
  /** The URL of page n. */
  href(n: number): string;
}

export function eventList(heading: string, intro: string, events: PageEvent[], paging: Paging, feedUrl: string): string {
  const items = events.length
    ? `<ol class="events">\n${events.map(eventCard).join('\n')}\n</ol>`
    : '<p class="empty">No upcoming events.</p>';
  const nav: string[] = [];
  if (paging.page > 1) nav.push(`<a rel="prev" href="${esc(paging.href(paging.page - 1))}">Previous events</a>`);
  if (paging.page < paging.totalPages) nav.push(`<a rel="next" href="${esc(paging.href(paging.page + 1))}">Next events</a>`);
  const pages =
    paging.totalPages > 1
      ? `<nav class="paging" aria-label="Pages">${nav.join(' ')}<span>Page ${paging.page} of ${paging.totalPages}</span></nav>`
      : '';
  return `<h1>${esc(heading)}</h1>
${intro}<p class="count">${paging.total} event${paging.total === 1 ? '' : 's'} · <a href="${esc(feedUrl)}">Subscribe (iCalendar)</a></p>
${items}
${pages}`;
}

export function passwordForm(action: string, wrong: boolean): string {
  return `<form class="password" method="post" action="${esc(action)}">
<p>This event is password protected. ${wrong ? '<strong role="alert">That password is not right.</strong> ' : ''}Enter the password to see its details.</p>
<label for="post_password">Password</label>
<input id="post_password" name="post_password" type="password" autocomplete="current-password" required>
<button type="submit">Show the event</button>
</form>`;
}

/** A recurring event's rule and its next dates, each linking to its own page. */
function seriesSection(event: PageEvent): string {
  const dates = (event.occurrences ?? []).map((occurrence) => {
    const current = occurrence.id === event.id ? ' aria-current="page"' : '';
    return `<li><a href="${esc(occurrence.url)}"${current}>${esc(whenText(occurrence))}</a></li>`;
  });
  return `<section class="series" aria-label="Dates"><p class="repeats">Repeats: ${esc(event.recurrenceText ?? '')}</p>${
    dates.length ? `<h2>Next dates</h2><ul class="occurrences">${dates.join('')}</ul>` : ''
  }</section>`;
}

export function eventPage(event: PageEvent, options: { passwordWrong: boolean; action: string }): string {
  const parts = [`<article class="event-page">`, `<h1>${statusLabel(event)}${esc(event.title)}</h1>`, `<p class="when">${when(event)}</p>`];
  if (event.eventStatusReason) parts.push(`<p class="event-status-reason">${esc(event.eventStatusReason)}</p>`);
  if (event.masked) {
    parts.push(passwordForm(options.action, options.passwordWrong), '</article>');
    return parts.join('\n');
  }
  if (event.image?.url) parts.push(`<img class="image" src="${esc(event.image.url)}" alt="">`);
  if (event.cost) parts.push(`<p class="cost"><span class="label">Cost:</span> ${esc(event.cost)}</p>`);
  if (event.descriptionHtml) parts.push(`<div class="description">${event.descriptionHtml}</div>`);
  const details: string[] = [];
  if (event.venue) {
    const address = place(event.venue);
    const map = address
      ? ` <a href="https://www.google.com/maps/search/?api=1&amp;query=${encodeURIComponent(`${event.venue.name}, ${address}`)}">Map</a>`
      : '';
    details.push(
      `<dt>Venue</dt><dd><a href="${esc(event.venue.url)}">${esc(event.venue.name)}</a>${address ? `<br><span class="address">${esc(address)}</span>` : ''}${map}</dd>`,
    );
  }
  for (const organizer of event.organizers ?? []) {
    const contact = [
      organizer.email && `<a href="mailto:${esc(organizer.email)}">${esc(organizer.email)}</a>`,
      organizer.phone && esc(organizer.phone),
    ]
      .filter(Boolean)
      .join(' · ');
    details.push(`<dt>Organizer</dt><dd><a href="${esc(organizer.url)}">${esc(organizer.name)}</a>${contact ? `<br>${contact}` : ''}</dd>`);
  }
  if (event.categories.length) details.push(`<dt>Categories</dt><dd>${termLinks(event.categories)}</dd>`);
  if (event.tags.length) details.push(`<dt>Tags</dt><dd>${termLinks(event.tags)}</dd>`);
  if (details.length) parts.push(`<dl class="details">${details.join('')}</dl>`);
  if (event.recurrenceText) parts.push(seriesSection(event));
  if (event.icalUrl) {
    parts.push(`<nav class="add" aria-label="Add to calendar"><h2>Add to calendar</h2><ul>
<li><a href="${esc(event.googleCalendarUrl)}">Google Calendar</a></li>
<li><a href="${esc(event.outlookUrl)}">Outlook</a></li>
<li><a href="${esc(event.icalUrl)}">iCalendar file (Apple Calendar, Thunderbird…)</a></li>
</ul></nav>`);
  }
  parts.push('</article>');
  return parts.join('\n');
}

export function venueIntro(venue: PageVenue): string {
  const address = place(venue);
  const lines = [
    address && `<p class="address">${esc(address)}</p>`,
    venue.phone && `<p>${esc(venue.phone)}</p>`,
    venue.website && `<p><a href="${esc(venue.website)}">${esc(venue.website)}</a></p>`,
    venue.descriptionHtml && `<div class="description">${venue.descriptionHtml}</div>`,
  ];
  return lines.filter(Boolean).join('\n') + '\n';
}

export function organizerIntro(organizer: PageOrganizer): string {
  const lines = [
    organizer.email && `<p><a href="mailto:${esc(organizer.email)}">${esc(organizer.email)}</a></p>`,
    organizer.phone && `<p>${esc(organizer.phone)}</p>`,
    organizer.website && `<p><a href="${esc(organizer.website)}">${esc(organizer.website)}</a></p>`,
    organizer.descriptionHtml && `<div class="description">${organizer.descriptionHtml}</div>`,
  ];
  return lines.filter(Boolean).join('\n') + '\n';
}

export function errorPage(status: number, message: string): string {
  return `<h1>${status === 404 ? 'Not found' : 'Cannot show this page'}</h1>\n<p>${esc(message)}</p>\n<p><a href="/events/">Upcoming events</a></p>`;
}
