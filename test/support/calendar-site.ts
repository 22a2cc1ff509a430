// A calendar served over HTTP for the calendar-source tests: iCalendar feeds by path (changed by the
// test between runs), a status instead of a feed to play a broken source, a held request to play a
// slow one, and a webhook receiver. Feed dates are counted from today: no test depends on the day.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { eventually } from './tasks.js';

/** What the tests ask of a calendar source. */
export const SOURCE_FIELDS = `id name kind address hasCredentials refreshSeconds authority state failures nextRunAt runningJobId
  lastRun { jobId at outcome error warnings counts { kind created updated unchanged skipped kept removed failed } }`;

/** The calendar served: feeds by path (a number: that status instead), the requests it got, and webhook POSTs received. */
export interface CalendarSite {
  port: number;
  url: string;
  feeds: Map<string, string | number>;
  /** Paths whose next request is held unanswered (a slow source), until the process asking gives up. */
  holdNext: Set<string>;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  notices: { event: string; body: any }[];
  close(): Promise<void>;
}

export async function startCalendarSite(): Promise<CalendarSite> {
  const site = { feeds: new Map(), holdNext: new Set(), requests: [], notices: [] } as unknown as CalendarSite;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site.test').pathname;
    if (req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        site.notices.push({ event: String(req.headers['x-almanac-event']), body: JSON.parse(body) });
        res.writeHead(200).end('ok');
      });
      return;
    }
    site.requests.push({ path, headers: req.headers });
    if (site.holdNext.delete(path)) return;
    const feed = site.feeds.get(path);
    if (typeof feed === 'string') res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(feed);
    else res.writeHead(feed ?? 404, { 'content-type': 'text/plain' }).end('not a calendar');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  site.port = (server.address() as AddressInfo).port;
  site.url = `http://127.0.0.1:${site.port}`;
  site.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections(); // held requests too
    });
  return site;
}

/** A UTC iCalendar time `days` after today at `hour`:00. */
function icalTime(days: number, hour: number): string {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, hour));
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export interface FeedEvent {
  uid: string;
  title: string;
  description?: string;
  day: number;
  cancelled?: boolean;
}

export function feed(events: FeedEvent[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Almanac tests//Sources//EN'];
  for (const event of events)
    lines.push(
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      `DTSTAMP:${icalTime(0, 0)}`,
      `DTSTART:${icalTime(event.day, 18)}`,
      `DTEND:${icalTime(event.day, 20)}`,
      `SUMMARY:${event.title}`,
      `DESCRIPTION:${event.description ?? ''}`,
      ...(event.cancelled ? ['STATUS:CANCELLED'] : []),
      'END:VEVENT',
    );
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

/** An administrator's calls on a server's calendar sources, through GraphQL. */
export function sourcesOf(api: TestServer) {
  const admin = async (query: string, variables: Record<string, unknown> = {}) => {
    const result = await api.graphql(query, variables, api.keys.administrator);
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    return result.data;
  };
  const source = async (id: number) =>
    (await admin(`query($id: Int!) { calendarSource(id: $id) { ${SOURCE_FIELDS} } }`, { id })).calendarSource;
  return {
    admin,
    source,
    create: async (input: Record<string, unknown>) =>
      (await admin(`mutation($input: CalendarSourceInput!) { createCalendarSource(input: $input) { ${SOURCE_FIELDS} } }`, { input }))
        .createCalendarSource,
    /** Runs the source now and waits for that run to end; its view then. */
    runNow: async (id: number) => {
      const before = (await source(id)).lastRun?.jobId ?? 0;
      await admin(`mutation($id: Int!) { runCalendarSource(id: $id) { id } }`, { id });
      let after: any;
      await eventually(async () => {
        after = await source(id);
        return (after.lastRun?.jobId ?? 0) > before && after.state !== 'RUNNING';
      }, `source ${id} to run`);
      return after;
    },
  };
}
