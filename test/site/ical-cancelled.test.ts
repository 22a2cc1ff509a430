// Deletions reach subscribed calendars: an event trashed or deleted within the change log's
// retention window stays in the calendar's feed as STATUS:CANCELLED with a higher SEQUENCE, a whole
// recurring event as its series' UID; read with ical.js, on both databases.
import type ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { parseFeed } from '../support/ical.js';
import { useTestServer, type TestServer } from '../support/server.js';

const FEED = '/events/?ical=1&start_date=2030-01-01&end_date=2033-12-31';
const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id series { id } } }`;
const REST = '/wp-json/tribe/events/v1';

async function ok(api: TestServer, query: string, variables: Record<string, unknown>) {
  const result = await api.graphql(query, variables, api.keys.administrator);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

async function feed(api: TestServer, key?: string) {
  const response = await api.request('GET', FEED, { key });
  expect(response.status).toBe(200);
  const byUid = new Map<string, ICAL.Component>();
  for (const event of parseFeed(response.text).events) {
    // One entry per UID except a series' exceptions (RECURRENCE-ID): keep the master.
    if (!event.hasProperty('recurrence-id')) byUid.set(String(event.getFirstPropertyValue('uid')), event);
  }
  return byUid;
}

const uidOf = (kind: 'event' | 'series', id: number) => `${kind}-${id}@almanac.test`;
const status = (event: ICAL.Component | undefined) => event?.getFirstPropertyValue('status');
const sequence = (event: ICAL.Component | undefined) => Number(event?.getFirstPropertyValue('sequence'));

describe.each(DATABASE_KINDS)('cancelled events in the calendar feed on %s', (kind) => {
  const api = useTestServer(kind);

  it('keeps trashed events and whole recurring events as CANCELLED, with a higher SEQUENCE; restored ones come back', async () => {
    const single = (
      await ok(api, CREATE, {
        input: { title: 'Lantern Walk', startDate: '2031-11-11 18:00:00', endDate: '2031-11-11 20:00:00' },
      })
    ).createEvent;
    const restored = (
      await ok(api, CREATE, {
        input: { title: 'Choir', startDate: '2031-11-12 18:00:00', endDate: '2031-11-12 20:00:00' },
      })
    ).createEvent;
    const weekly = (
      await ok(api, CREATE, {
        input: {
          title: 'Chess Club',
          startDate: '2031-11-04 19:00:00',
          endDate: '2031-11-04 21:00:00',
          timezone: 'Europe/Berlin',
          recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' },
        },
      })
    ).createEvent;
    const before = await feed(api);
    expect(status(before.get(uidOf('event', single.id)))).toBe('CONFIRMED');
    expect(status(before.get(uidOf('series', weekly.series.id)))).toBe('CONFIRMED');
    const sequenceBefore = sequence(before.get(uidOf('event', single.id)));

    expect((await api.request('DELETE', `${REST}/events/${single.id}`, { key: api.keys.administrator })).status).toBe(200);
    expect((await api.request('DELETE', `${REST}/events/${restored.id}`, { key: api.keys.administrator })).status).toBe(200);
    await ok(api, `mutation($id: Int!, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { id } }`, {
      id: restored.id,
      input: { status: 'publish' },
    });
    await ok(api, `mutation($id: Int!) { deleteEvent(id: $id, scope: ALL) { id } }`, { id: weekly.id });

    const after = await feed(api);
    const cancelled = after.get(uidOf('event', single.id));
    expect(status(cancelled)).toBe('CANCELLED');
    expect(cancelled?.getFirstPropertyValue('summary')).toBe('Lantern Walk');
    expect(sequence(cancelled)).toBeGreaterThan(sequenceBefore);
    expect(String(cancelled?.getFirstPropertyValue('dtstart'))).toMatch(/^2031-11-11/);
    const series = after.get(uidOf('series', weekly.series.id));
    expect(status(series)).toBe('CANCELLED');
    expect(series?.hasProperty('rrule')).toBe(false);
    expect(status(after.get(uidOf('event', restored.id)))).toBe('CONFIRMED');
    // Filtered feeds cannot tell what they held: no cancellations there.
    const filtered = await api.request('GET', `${FEED}&search=Choir`);
    expect(filtered.text).not.toContain('CANCELLED');
  });

  it('cancels for each caller only what it could see', async () => {
    const draft = (
      await ok(api, CREATE, {
        input: { title: 'Staff Rehearsal', status: 'draft', startDate: '2031-12-01 18:00:00', endDate: '2031-12-01 20:00:00' },
      })
    ).createEvent;
    expect((await api.request('DELETE', `${REST}/events/${draft.id}`, { key: api.keys.administrator })).status).toBe(200);
    expect((await feed(api)).has(uidOf('event', draft.id))).toBe(false);
    expect(status((await feed(api, api.keys.editor)).get(uidOf('event', draft.id)))).toBe('CANCELLED');
  });
});
