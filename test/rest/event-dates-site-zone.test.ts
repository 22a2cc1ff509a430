// The event list's date filters on a site whose time zone is not UTC. The original's repository
// (per-event time zones, its default) compares such a site's bounds, as site-local times, with each
// event's own local start and end; only a site in UTC compares UTC with UTC (test/rest/events.test.ts).
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';

describe.each(DATABASE_KINDS)('event date filters on a site in America/New_York (%s)', (kind) => {
  const api = useTestServer(kind, { SITE_TIMEZONE: 'America/New_York' });

  it("compares the bounds with the events' own local dates", async () => {
    const create = async (title: string, start: string, end: string, timezone: string) => {
      const response = await api.request('POST', `${NS}/events`, {
        body: { title, start_date: start, end_date: end, timezone },
        key: api.keys.administrator,
      });
      expect(response.status, response.text).toBe(201);
      return response.json.id as number;
    };
    // 01:00–02:00 in Paris on the 10th is 23:00–00:00 UTC on the 9th, 19:00–20:00 in New York on the 9th.
    const paris = await create('Zone Paris', '2031-06-10 01:00:00', '2031-06-10 02:00:00', 'Europe/Paris');
    // 22:00–23:00 in New York on the 10th is 02:00–03:00 UTC on the 11th.
    const newYork = await create('Zone New York', '2031-06-10 22:00:00', '2031-06-10 23:00:00', 'America/New_York');
    const ids = async (query: string) => {
      const response = await api.request('GET', `${NS}/events?search=Zone&${query}`);
      expect(response.status, response.text).toBe(200);
      return response.json.events.map((event: { id: number }) => event.id);
    };
    expect(await ids('start_date=2031-06-10&end_date=2031-06-10')).toEqual([paris, newYork]);
    expect(await ids('start_date=2031-06-09&end_date=2031-06-09')).toEqual([]);
    expect(await ids('start_date=2031-06-11&end_date=2031-06-11')).toEqual([]);
    // starts_*/ends_* times are read as UTC and moved to the site's zone first (localize_date):
    // 05:30 UTC is 01:30 in New York.
    expect(await ids('starts_after=2031-06-10 04:30:00&strict_dates=true')).toEqual([paris, newYork]);
    expect(await ids('starts_after=2031-06-10 05:30:00&strict_dates=true')).toEqual([newYork]);
    expect(await ids('ends_before=2031-06-10 06:30:00&strict_dates=true')).toEqual([paris]);
  });
});
