// Feeds as subscribed calendar clients poll them (issue 50, item 5): how often to poll
// (REFRESH-INTERVAL, X-PUBLISHED-TTL, read by ical.js and by Python's icalendar, an independent
// parser), the same bytes for the same calendar (DTSTAMP is each entry's last modification), and a
// 304 with no body for a poll of an unchanged calendar, by ETag or by date; an edit changes both.
import { execFileSync } from 'node:child_process';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id icalUrl } }`;
const UPDATE = `mutation($id: Int, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { id } }`;

/** Python's icalendar (Debian's python3-icalendar, which `npm test` installs): the calendar's
 *  REFRESH-INTERVAL and X-PUBLISHED-TTL, and its events' DTSTAMPs, as it reads them. */
function readWithPythonICalendar(feed: string): { refresh: string; ttl: string; stamps: string[] } {
  const script = `
import json, sys, icalendar
cal = icalendar.Calendar.from_ical(sys.stdin.read())
refresh = cal.get('REFRESH-INTERVAL')
print(json.dumps({
  'refresh': str(icalendar.vDuration.from_ical(str(refresh.to_ical().decode() if hasattr(refresh, 'to_ical') else refresh))),
  'ttl': str(cal.get('X-PUBLISHED-TTL')),
  'stamps': [c.get('DTSTAMP').to_ical().decode() for c in cal.walk('VEVENT')],
}))`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: feed, encoding: 'utf8' }));
}

describe.each(DATABASE_KINDS)('feeds polled by calendar clients on %s', (kind) => {
  const api = useTestServer(kind);

  it('say how often to poll, in words ical.js and Python icalendar both read, and give the same bytes for the same calendar', async () => {
    const created = await api.graphql(
      CREATE,
      { input: { title: 'Polled concert', startDate: daysFromNow(20), endDate: daysFromNow(20, '23:00:00') } },
      api.keys.administrator,
    );
    expect(created.errors).toBeUndefined();
    const first = await api.request('GET', '/events/?ical=1');
    expect(first.status).toBe(200);
    const calendar = new ICAL.Component(ICAL.parse(first.text));
    expect(calendar.getFirstProperty('refresh-interval')!.type).toBe('duration');
    expect(calendar.getFirstPropertyValue('refresh-interval')!.toString()).toBe('PT1H');
    expect((calendar.getFirstPropertyValue('refresh-interval') as ICAL.Duration).toSeconds()).toBe(3600);
    expect(calendar.getFirstPropertyValue('x-published-ttl')).toBe('PT1H');

    const python = readWithPythonICalendar(first.text);
    expect(python.refresh).toBe('1:00:00');
    expect(python.ttl).toBe('PT1H');
    // DTSTAMP is the event's last modification, not the second the feed was made.
    const event = calendar.getAllSubcomponents('vevent').find((e) => e.getFirstPropertyValue('summary') === 'Polled concert')!;
    expect(event.getFirstPropertyValue('dtstamp')!.toString()).toBe(event.getFirstPropertyValue('last-modified')!.toString());
    expect(python.stamps.length).toBe(calendar.getAllSubcomponents('vevent').length);

    // A second later, the same calendar is the same bytes (the feed is not kept: no ETag sent).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await api.request('GET', '/events/?ical=1');
    expect(again.text).toBe(first.text);
  });

  it('answers a poll of an unchanged calendar 304 with no body, by ETag or date; an edit changes the ETag', async () => {
    const made = await api.graphql(
      CREATE,
      { input: { title: 'Conditional lecture', startDate: daysFromNow(21), endDate: daysFromNow(21, '12:00:00') } },
      api.keys.administrator,
    );
    const { id, icalUrl } = made.data.createEvent;
    const eventFeed = new URL(icalUrl).pathname;
    for (const path of ['/events/?ical=1', eventFeed]) {
      const first = await api.request('GET', path);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      expect(etag).toMatch(/^"ical-/);
      expect(Number.isNaN(Date.parse(lastModified))).toBe(false);

      const byEtag = await api.request('GET', path, { headers: { 'If-None-Match': etag } });
      expect(byEtag.status).toBe(304);
      expect(byEtag.text).toBe('');
      expect(byEtag.headers.get('etag')).toBe(etag);
      const byDate = await api.request('GET', path, { headers: { 'If-Modified-Since': lastModified } });
      expect(byDate.status).toBe(304);
      expect(byDate.text).toBe('');
      // A signed-in caller's feed is another feed (it may hold private events).
      const signedIn = await api.request('GET', path, { headers: { 'If-None-Match': etag }, key: api.keys.administrator });
      expect(signedIn.status).toBe(200);
    }

    const edit = await api.graphql(UPDATE, { id, input: { title: 'Conditional lecture, moved' } }, api.keys.administrator);
    expect(edit.errors).toBeUndefined();
    for (const path of ['/events/?ical=1', eventFeed]) {
      const before = await api.request('GET', path);
      expect(before.text).toContain('Conditional lecture\\, moved');
    }
    const whole = await api.request('GET', '/events/?ical=1');
    const stale = await api.request('GET', '/events/?ical=1', { headers: { 'If-None-Match': '"ical-not-this-one"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(whole.headers.get('etag'));
  });
});
