// The public site at the URLs the records name: the upcoming-events list, event pages, category and
// tag archives, venue and organizer pages, each also as an iCalendar feed (`?ical=1`). Pages run
// GraphQL in-process, so what a visitor sees is what the API shows the same caller. Every page and
// the site root carry WordPress's REST discovery link and The Events Calendar's discovery headers
// (X-TEC-API-*), and the pages' CSP
// allows no script and no asset from elsewhere.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'koa';
import { decodeEntities } from '../calendar/text.js';
import { errorCode } from '../graphql/errors.js';
import { page, pageTable, plainErrors, type PageErrors, type PageRoute } from '../http/page-route.js';
import type { Table } from '../http/router.js';
import { contentTypeOf, sendFile, staticFile } from '../http/static-files.js';
import { projectRoot } from '../paths.js';
import { apiRootLink, restRootUrl } from '../rest/namespace-index.js';
import { feeds, type Archive } from './feeds.js';
import {
  errorPage,
  EVENT_CARD_FIELDS,
  eventList,
  eventPage,
  layout,
  organizerIntro,
  venueIntro,
  type PageEvent,
  type PageHead,
  type PageOrganizer,
  type PageTerm,
  type PageVenue,
} from './pages.js';
import { SiteError, siteServices, type SiteOptions } from './services.js';
import { viewRoutes } from './views/views.js';

const LIST = `query SiteList($filter: EventFilter, $page: Int!, $perPage: Int!) {
  events(filter: $filter, page: { page: $page, perPage: $perPage }) { total totalPages page items { ${EVENT_CARD_FIELDS} } }
}`;
const EVENT = `query SiteEvent($slug: String!, $password: String, $from: String!) {
  event(slug: $slug, password: $password) { ${EVENT_CARD_FIELDS} eventStatusReason masked passwordProtected descriptionHtml image { url } jsonLd icalUrl googleCalendarUrl outlookUrl
    organizers { name url email phone website }
    recurrenceText occurrences(first: 8, between: { start: $from }) { id url allDay startDate endDate timezoneAbbr } }
}`;
const CATEGORY = `query SiteCategory($slug: String!) { eventCategory(slug: $slug) { name slug url } }`;
const TAG = `query SiteTag($slug: String!) { tag(slug: $slug) { name slug url } }`;
const VENUE = `query SiteVenue($slug: String!) { venue(slug: $slug) { id name url address city stateprovince zip country phone website descriptionHtml jsonLd } }`;
const ORGANIZER = `query SiteOrganizer($slug: String!) { organizer(slug: $slug) { id name url email phone website descriptionHtml jsonLd } }`;

const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";
const TITLES: Record<number, string> = { 404: 'Not found', 503: 'Unavailable' };
const NOT_FOUND_CODES = new Set(['NOT_FOUND', 'INVALID_INPUT', 'TRASHED', 'NOT_ACCESSIBLE', 'WRONG_TYPE']);

function stylesheet() {
  const body = readFileSync(join(projectRoot, 'src/site/site.css'));
  return { file: staticFile(contentTypeOf('site.css')!, body), version: createHash('sha256').update(body).digest('hex').slice(0, 12) };
}

/** The site's table, served by the app's one router (src/http/router.ts). */
export function siteTable(options: SiteOptions): Table {
  const services = siteServices(options);
  const { config, runner } = services;
  const feed = feeds(services);
  const css = stylesheet();
  // The primary namespace, as the interface's documentation names it (aliases serve the same API).
  const apiRoot = `${restRootUrl(config)}${config.restNamespaces[0]}/`;
  // WordPress sends its discovery link on every front-end page.
  const apiLink = apiRootLink(config);
  const site = config.siteName;
  const perPage = config.postsPerPage;

  // Links between pages are paths, so the site works under any host name it is reached by; the
  // head's canonical and feed links and the JSON-LD keep SITE_URL's absolute URLs.
  const local = (value: unknown, key = ''): unknown => {
    if (typeof value === 'string') return value.startsWith(`${config.siteUrl}/`) ? value.slice(config.siteUrl.length) : value;
    if (key === 'jsonLd' || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => local(item));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, local(v, k)]));
  };

  async function query<T>(ctx: Context, source: string, variables: Record<string, unknown>): Promise<T> {
    const result = await runner<T>(source, variables, await services.graphqlContext(ctx));
    if (result.errors?.length) {
      const code = errorCode(result.errors[0]);
      if (code && NOT_FOUND_CODES.has(code)) throw new SiteError(404, 'There is no such page.');
      if (code === 'PASSWORD_REQUIRED') throw new SiteError(403, 'This page is password protected.');
      throw result.errors[0];
    }
    return local(result.data) as T;
  }

  /** Discovery headers (spec appendix A) and the page itself. */
  function sendPage(
    ctx: Context,
    head: Omit<PageHead, 'siteName' | 'home' | 'stylesheet' | 'apiRoot'> & { apiRoot?: string },
    main: string,
  ) {
    discovery(ctx, head.apiRoot ?? apiRoot);
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = layout(
      { ...head, apiRoot: head.apiRoot ?? apiRoot, siteName: site, home: config.siteUrl, stylesheet: `/assets/site.css?v=${css.version}` },
      main,
    );
  }
  function discovery(ctx: Context, root: string) {
    ctx.set('Link', apiLink);
    ctx.set('X-TEC-API-VERSION', 'v1');
    ctx.set('X-TEC-API-ROOT', root);
    ctx.set('X-TEC-API-ORIGIN', config.siteUrl);
  }

  const pageNumber = (ctx: Context) => {
    const raw = ctx.query.page;
    if (raw === undefined) return 1;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new SiteError(404, 'There is no such page.');
    return n;
  };
  const wantsIcal = (ctx: Context) => ctx.query.ical !== undefined && ctx.query.ical !== '0';

  async function listPage(
    ctx: Context,
    filter: Archive,
    view: { heading: string; intro: string; path: string; apiRoot?: string; jsonLd?: unknown },
  ) {
    const page = pageNumber(ctx);
    const data = await query<{ events: { total: number; totalPages: number; page: number; items: PageEvent[] } }>(ctx, LIST, {
      filter,
      page,
      perPage,
    });
    const { total, totalPages, items } = data.events;
    if (page > 1 && page > totalPages) throw new SiteError(404, 'There is no such page.');
    const feedUrl = `${config.siteUrl}${view.path}?ical=1`;
    const href = (n: number) => (n === 1 ? view.path : `${view.path}?page=${n}`);
    sendPage(
      ctx,
      { title: view.heading, feedUrl, canonical: `${config.siteUrl}${href(page)}`, apiRoot: view.apiRoot, jsonLd: view.jsonLd },
      eventList(view.heading, view.intro, items, { page, totalPages, total, href }, feedUrl),
    );
  }

  async function archive(ctx: Context, kind: 'category' | 'tag', slug: string, path: string) {
    const filterOf: Archive = kind === 'category' ? { categories: [slug] } : { tags: [slug] };
    if (wantsIcal(ctx)) return feed.list(ctx, filterOf, `${site}: ${slug}`, `${kind}-${slug}`);
    const term =
      kind === 'category'
        ? (await query<{ eventCategory: PageTerm }>(ctx, CATEGORY, { slug })).eventCategory
        : (await query<{ tag: PageTerm }>(ctx, TAG, { slug })).tag;
    const apiFilter = kind === 'category' ? `categories=${encodeURIComponent(slug)}` : `tags=${encodeURIComponent(slug)}`;
    await listPage(ctx, filterOf, {
      heading: `${kind === 'category' ? 'Category' : 'Tag'}: ${decodeEntities(term.name)}`,
      intro: '',
      path,
      apiRoot: `${apiRoot}events/?${apiFilter}`,
    });
  }

  const table: PageRoute[] = [
    // The list, month and day views (/events/month/, /events/list/, /events/today/, …; views/).
    viewRoutes({ services, feed, local, sendPage }),
    page(String.raw`/assets/site\.css`, async ({ ctx }) => sendFile(ctx, css.file, { immutable: ctx.query.v === css.version })),
    page(String.raw`/events\.ics`, ({ ctx }) => feed.list(ctx, {}, `${site}: events`, 'events')),
    // The site's front page is the upcoming list itself, as WordPress serves a front page (no
    // redirect): discovery clients such as wpapi read the Link header of the address they are given
    // from a HEAD request, which follows no redirect.
    page('/(?:events/?)?', async ({ ctx }) => {
      if (wantsIcal(ctx)) return feed.list(ctx, {}, `${site}: events`, 'events');
      await listPage(ctx, {}, { heading: 'Upcoming events', intro: '', path: '/events/' });
    }),
    // Child categories nest their ancestors' slugs: /events/category/music/jazz/.
    page('/events/category/(?P<parents>(?:[^/]+/)*)(?P<slug>[^/]+)/?', ({ ctx, params: { parents, slug } }) =>
      archive(ctx, 'category', decodeURIComponent(slug), `/events/category/${parents}${slug}/`),
    ),
    page('/(?:events/)?tag/(?P<slug>[^/]+)/?', ({ ctx, params: { slug } }) =>
      archive(ctx, 'tag', decodeURIComponent(slug), `/tag/${slug}/`),
    ),
    page(String.raw`/event/(?P<slug>[^/]+(?:/\d{4}-\d{2}-\d{2}(?:-\d+)?)?)/ical/?`, ({ ctx, params }) =>
      feed.event(ctx, decodeURIComponent(params.slug)),
    ),
    // An occurrence of a series: /event/<series slug>/<YYYY-MM-DD>/.
    page(
      String.raw`/event/(?P<slug>[^/]+(?:/\d{4}-\d{2}-\d{2}(?:-\d+)?)?)/?`,
      async ({ ctx, params }) => {
        const slug = decodeURIComponent(params.slug);
        if (wantsIcal(ctx)) return feed.event(ctx, slug);
        const password = ctx.method === 'POST' ? await formPassword(ctx) : undefined;
        // A series' next dates, from yesterday on (every zone's today has begun by then).
        const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
        const result = await runner<{ event: PageEvent }>(EVENT, { slug, password, from }, await services.graphqlContext(ctx));
        const locked = result.errors?.[0]?.extensions?.code === 'PASSWORD_REQUIRED' ? Number(result.errors[0].extensions.id) : undefined;
        let event: PageEvent;
        if (locked !== undefined) {
          // Protected, and no right password: what lists show of it (masked), and the password form.
          const card = await query<{ events: { items: PageEvent[] } }>(ctx, LIST, {
            filter: { include: [locked], startsAfter: '1970-01-01' },
            page: 1,
            perPage: 1,
          });
          if (!card.events.items.length) throw new SiteError(404, 'There is no such page.');
          event = { ...card.events.items[0], masked: true };
        } else {
          event = (await query<{ event: PageEvent }>(ctx, EVENT, { slug, password, from })).event;
        }
        const wrong = event.masked === true && password !== undefined;
        sendPage(
          ctx,
          {
            title: event.title,
            feedUrl: `${config.siteUrl}${event.icalUrl}`,
            canonical: `${config.siteUrl}${event.url}`,
            apiRoot: `${apiRoot}events/${event.id}`,
            jsonLd: event.masked ? undefined : event.jsonLd,
          },
          eventPage(event, { passwordWrong: wrong, action: `/event/${params.slug}/` }),
        );
        if (wrong) ctx.status = 403;
      },
      ['GET', 'POST'],
    ),
    page('/venue/(?P<slug>[^/]+)/?', async ({ ctx, params: { slug } }) => {
      const venue = (await query<{ venue: PageVenue & { id: number; jsonLd: unknown } }>(ctx, VENUE, { slug: decodeURIComponent(slug) }))
        .venue;
      if (wantsIcal(ctx)) return feed.list(ctx, { venue: [venue.id] }, `${site}: ${venue.name}`, `venue-${slug}`);
      await listPage(
        ctx,
        { venue: [venue.id] },
        {
          heading: venue.name,
          intro: venueIntro(venue),
          path: `/venue/${slug}/`,
          apiRoot: `${apiRoot}events/?venue=${venue.id}`,
          jsonLd: venue.jsonLd,
        },
      );
    }),
    page('/organizer/(?P<slug>[^/]+)/?', async ({ ctx, params: { slug } }) => {
      const organizer = (
        await query<{ organizer: PageOrganizer & { id: number; jsonLd: unknown } }>(ctx, ORGANIZER, { slug: decodeURIComponent(slug) })
      ).organizer;
      if (wantsIcal(ctx)) return feed.list(ctx, { organizer: [organizer.id] }, `${site}: ${organizer.name}`, `organizer-${slug}`);
      await listPage(
        ctx,
        { organizer: [organizer.id] },
        { heading: organizer.name, intro: organizerIntro(organizer), path: `/organizer/${slug}/`, jsonLd: organizer.jsonLd },
      );
    }),
  ];
  // Errors are pages (a feed's are a line of text); a malformed escape in a path names no page.
  const isFeed = (ctx: Context) => wantsIcal(ctx) || ctx.path.endsWith('.ics') || /\/ical\/?$/.test(ctx.path);
  const errors = (ctx: Context): PageErrors => {
    const feedError = isFeed(ctx);
    return {
      envelope: {
        render: (error) => (feedError ? `${error.message}\n` : errorPage(error.status, error.message)),
        internal: () => new SiteError(500, 'Something went wrong on our side.'),
      },
      mapError: (error) => (error instanceof URIError ? new SiteError(404, 'There is no such page.') : undefined),
      send(answer) {
        if (feedError) return plainErrors(ctx).send(answer);
        sendPage(ctx, { title: TITLES[answer.status] ?? 'Error' }, String(answer.body));
        ctx.set(answer.headers ?? {});
        ctx.status = answer.status;
      },
    };
  };
  return pageTable('site', table, errors, {
    refuseMethod: (allow) => new SiteError(405, 'This page only answers GET.', { Allow: allow }),
    // An unchanged page is a 304. Not a feed: its DTSTAMP is the second it was made (METHOD:PUBLISH,
    // RFC 5545 3.8.7.2), so hashing it would never match.
    conditional: (ctx) => !isFeed(ctx),
  });
}

/** The `post_password` field of a posted form (WordPress's name for it), at most 1 KB read. */
async function formPassword(ctx: Context): Promise<string> {
  let body = '';
  for await (const chunk of ctx.req) {
    body += chunk;
    if (body.length > 1024) throw new SiteError(413, 'The form is too large.');
  }
  return new URLSearchParams(body).get('post_password') ?? '';
}
