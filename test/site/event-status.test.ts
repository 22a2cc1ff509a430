// An event's own status (The Events Calendar's Event Status): set and read through GraphQL with the
// rights of any other field, recorded in the change log, labelled in the list view and on the event's
// page, said in its JSON-LD and in the iCalendar feed (read with ical.js), and kept out of the REST
// records, whose shape is the recorded contract's. On both databases.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { parseFeed } from '../support/ical.js';
import { useTestServer, type TestServer } from '../support/server.js';

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id url eventStatus eventStatusReason } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { id eventStatus eventStatusReason } }`;
const READ = `query($id: Int!) { event(id: $id) { eventStatus eventStatusReason jsonLd } }`;
const FEED = '/events/?ical=1&start_date=2031-01-01&end_date=2031-12-31';

async function ok(api: TestServer, query: string, variables: Record<string, unknown>, key = api.keys.administrator) {
  const result = await api.graphql(query, variables, key);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

describe.each(DATABASE_KINDS)('event status on %s', (kind) => {
  const api = useTestServer(kind);
  const ids: Record<string, number> = {};
  const urls: Record<string, string> = {};

  it('is scheduled by default, and set and read through GraphQL', async () => {
    for (const [title, day] of [
      ['River Concert', '2031-06-10'],
      ['Book Fair', '2031-06-11'],
      ['Garden Tour', '2031-06-12'],
    ]) {
      const made = (await ok(api, CREATE, { input: { title, startDate: `${day} 18:00:00`, endDate: `${day} 20:00:00` } })).createEvent;
      expect(made).toMatchObject({ eventStatus: 'SCHEDULED', eventStatusReason: '' });
      ids[title] = Number(made.id);
      urls[title] = made.url;
    }
    const cursor = (await ok(api, `{ calendarChangeCursor }`, {})).calendarChangeCursor;
    const canceled = await ok(api, UPDATE, {
      id: ids['River Concert'],
      input: { eventStatus: 'CANCELED', eventStatusReason: 'The <b>river</b> flooded the stage.' },
    });
    expect(canceled.updateEvent).toMatchObject({ eventStatus: 'CANCELED', eventStatusReason: 'The river flooded the stage.' });
    await ok(api, UPDATE, { id: ids['Book Fair'], input: { eventStatus: 'POSTPONED', eventStatusReason: 'New date to come' } });
    const read = (await ok(api, READ, { id: ids['River Concert'] })).event;
    expect(read.eventStatus).toBe('CANCELED');
    expect(read.jsonLd.eventStatus).toBe('https://schema.org/EventCancelled');
    expect((await ok(api, READ, { id: ids['Book Fair'] })).event.jsonLd.eventStatus).toBe('https://schema.org/EventPostponed');
    expect((await ok(api, READ, { id: ids['Garden Tour'] })).event.jsonLd.eventStatus).toBe('https://schema.org/EventScheduled');
    // The change log names the field, so feeds, webhooks and the federation hear of it.
    const changes = await ok(
      api,
      `query($after: String) { calendarChanges(after: $after, types: [EVENT]) { changes { id kind fields } } }`,
      {
        after: cursor,
      },
    );
    expect(changes.calendarChanges.changes).toEqual(
      expect.arrayContaining([
        { id: ids['River Concert'], kind: 'UPDATED', fields: ['eventStatus', 'eventStatusReason'] },
        { id: ids['Book Fair'], kind: 'UPDATED', fields: ['eventStatus', 'eventStatusReason'] },
      ]),
    );
  });

  it('refuses a bad value or reason, and a caller without the right to edit the event', async () => {
    const bad = await api.graphql(UPDATE, { id: ids['Garden Tour'], input: { eventStatus: 'MAYBE' } }, api.keys.administrator);
    expect(bad.status).toBeLessThan(500);
    expect(bad.errors?.[0]?.message).toMatch(/MAYBE/);
    const long = await api.graphql(
      UPDATE,
      { id: ids['Garden Tour'], input: { eventStatusReason: 'x'.repeat(501) } },
      api.keys.administrator,
    );
    expect(long.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT' });
    for (const key of [api.keys.subscriber, api.keys.contributor, undefined]) {
      const denied = await api.graphql(UPDATE, { id: ids['Garden Tour'], input: { eventStatus: 'CANCELED' } }, key);
      expect(['FORBIDDEN', 'UNAUTHENTICATED']).toContain(denied.errors?.[0]?.extensions?.code);
    }
    expect((await ok(api, READ, { id: ids['Garden Tour'] })).event.eventStatus).toBe('SCHEDULED');
    // An editor may edit others' events: this field as any other.
    await ok(api, UPDATE, { id: ids['Garden Tour'], input: { eventStatus: 'SCHEDULED' } }, api.keys.editor);
  });

  it('labels the event in the list view and on its page, with the reason', async () => {
    const list = await api.request('GET', '/events/list/?tribe-bar-date=2031-06-01');
    expect(list.status).toBe(200);
    const cardOf = (title: string) => list.text.split('<li').find((item) => item.includes(`>${title}</a>`)) ?? '';
    expect(cardOf('River Concert')).toMatch(/<span class="event-status canceled">Canceled<\/span> <a /);
    expect(cardOf('Book Fair')).toMatch(/<span class="event-status postponed">Postponed<\/span> <a /);
    expect(cardOf('Garden Tour')).toContain('2031');
    expect(cardOf('Garden Tour')).not.toContain('event-status');
    const page = await api.request('GET', new URL(urls['River Concert']).pathname);
    expect(page.text).toContain('<h1><span class="event-status canceled">Canceled</span> River Concert</h1>');
    expect(page.text).toContain('<p class="event-status-reason">The river flooded the stage.</p>');
    expect(page.text).toContain('"eventStatus":"https://schema.org/EventCancelled"');
  });

  it('says STATUS:CANCELLED and TENTATIVE (postponed) in the iCalendar feed', async () => {
    const feed = await api.request('GET', FEED);
    expect(feed.status).toBe(200);
    const statusOf = new Map(
      parseFeed(feed.text).events.map((event) => [String(event.getFirstPropertyValue('summary')), event.getFirstPropertyValue('status')]),
    );
    expect(statusOf.get('River Concert')).toBe('CANCELLED');
    expect(statusOf.get('Book Fair')).toBe('TENTATIVE');
    expect(statusOf.get('Garden Tour')).toBe('CONFIRMED');
  });

  it('keeps the REST record as the recorded contract has it', async () => {
    const record = await api.request('GET', `/wp-json/tribe/events/v1/events/${ids['River Concert']}`);
    expect(record.status).toBe(200);
    expect(Object.keys(record.json).filter((key) => /status_reason|event_status/.test(key))).toEqual([]);
    // Its JSON-LD says what TEC's says of a canceled event.
    expect(record.json.json_ld.eventStatus).toBe('https://schema.org/EventCancelled');
  });
});
