// Calendar webhooks as a receiver sees them, on both databases: signed POSTs of the change log, in
// order, retried after a failure; a receiver that applies them ends in the state of a full read;
// pause, resume and replay; administrators only; URLs checked.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';
import { eventually } from '../support/tasks.js';

const CREATE_HOOK = `mutation($input: CalendarWebhookInput!, $after: String) {
  createCalendarWebhook(input: $input, after: $after) { id url types secret paused cursor } }`;
const HOOKS = `{ calendarWebhooks { id secret paused lastError deliveries(first: 100) { status attempts lastStatus changeCount } } }`;
const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { id } }`;
const REST = '/wp-json/tribe/events/v1';

async function ok(api: TestServer, query: string, variables: Record<string, unknown> = {}, key?: string) {
  const result = await api.graphql(query, variables, key ?? api.keys.administrator);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

interface Received {
  headers: IncomingHttpHeaders;
  body: any;
  raw: string;
}

/** A change-log cursor's place in the log (its commit sequence), for ordering cursors. */
const logPosition = (cursor: string) => Number(Buffer.from(cursor, 'base64url').toString().split('.')[1]);

describe.each(DATABASE_KINDS)('calendar webhooks on %s', (kind) => {
  const api = useTestServer(kind, { TASK_ALLOW_PRIVATE_NETWORK: 'true', TASK_WORKERS: '0' });
  const received: Received[] = [];
  let failNext = 1;
  const receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (failNext > 0) {
        failNext--;
        res.writeHead(503).end('busy');
        return;
      }
      received.push({ headers: req.headers, raw, body: JSON.parse(raw) });
      res.writeHead(204).end();
    });
  });
  let receiverUrl = '';
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/calendar-hook`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('is for administrators only, and refuses URLs it may not or cannot reach', async () => {
    const editor = await api.graphql(CREATE_HOOK, { input: { url: receiverUrl } }, api.keys.editor);
    expect(editor.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const anonymous = await api.graphql(HOOKS);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    for (const url of ['ftp://example.org/hook', 'not a url', 'mailto:hooks@example.org']) {
      const bad = await api.graphql(CREATE_HOOK, { input: { url } }, api.keys.administrator);
      expect(bad.errors?.[0]?.extensions?.code, url).toBe('INVALID_INPUT');
      expect(Object.keys(bad.errors?.[0]?.extensions?.params ?? {})).toEqual(['url']);
    }
  });

  it('delivers signed, ordered changes, retried after a failure, that a receiver can mirror the calendar from', async () => {
    const hook = (await ok(api, CREATE_HOOK, { input: { url: receiverUrl, types: ['EVENT'] } })).createCalendarWebhook;
    expect(hook).toMatchObject({ url: receiverUrl, types: ['EVENT'], paused: false });
    expect(hook.secret).toMatch(/^whsec_/);

    const ids: number[] = [];
    for (const title of ['Book Fair', 'Poetry Slam', 'Film Club']) {
      ids.push(
        (await ok(api, CREATE, { input: { title, startDate: '2031-06-01 18:00:00', endDate: '2031-06-01 20:00:00' } })).createEvent.id,
      );
    }
    await ok(api, UPDATE, { id: ids[0], input: { title: 'Book Fair (moved indoors)' } });
    expect((await api.request('DELETE', `${REST}/events/${ids[1]}`, { key: api.keys.administrator })).status).toBe(200);
    await ok(api, UPDATE, { id: ids[2], input: { status: 'draft' } });

    // The receiver applies each delivery in order, reading the records it is told about.
    const mirror = new Map<number, string>();
    const apply = async (delivery: Received) => {
      for (const change of delivery.body.changes) {
        if (change.removed) mirror.delete(change.id);
        else {
          const read = await api.graphql(`query($id: Int!) { event(id: $id) { title status } }`, { id: change.id }, api.keys.administrator);
          if (read.data?.event) mirror.set(change.id, `${read.data.event.title}|${read.data.event.status}`);
        }
      }
    };
    const truth = async () => {
      const full = await ok(api, `{ events(filter: { startDate: "2031-06-01", endDate: "2031-06-02" }) { items { id title status } } }`);
      return new Map<number, string>(full.events.items.map((e: any) => [e.id, `${e.title}|${e.status}`]));
    };
    const expected = await truth();
    let applied = 0;
    await eventually(async () => {
      for (; applied < received.length; applied++) await apply(received[applied]!);
      return JSON.stringify([...mirror].sort()) === JSON.stringify([...expected].sort());
    }, 'the receiver to mirror the calendar');
    expect(expected.get(ids[0]!)).toBe('Book Fair (moved indoors)|PUBLISH');
    expect(expected.has(ids[1]!)).toBe(false);

    // Signed with the secret given at creation, in order, each carrying its cursor, as the OpenAPI
    // document's webhooks describe.
    const documented = (await api.request('GET', '/api/v1/openapi.json')).json.webhooks.calendarChanges.post.requestBody.content[
      'application/json'
    ].schema;
    for (const delivery of received) {
      expect(Object.keys(delivery.body).sort()).toEqual([...documented.required].sort());
      for (const change of delivery.body.changes)
        expect(Object.keys(change).sort()).toEqual([...documented.properties.changes.items.required].sort());
      const ts = String(delivery.headers['x-almanac-timestamp']);
      expect(delivery.headers['x-almanac-event']).toBe('calendar.changes');
      expect(delivery.headers['x-almanac-signature']).toBe(
        `sha256=${createHmac('sha256', hook.secret).update(`${ts}.${delivery.raw}`).digest('hex')}`,
      );
      expect(delivery.body.webhookId).toBe(hook.id);
      // The delivery's cursor is where the endpoint's reading stopped: its last change, or past
      // changes it does not follow (a venue's, when it follows events) read in the same page.
      expect(logPosition(delivery.body.cursor)).toBeGreaterThanOrEqual(logPosition(delivery.body.changes.at(-1).cursor));
    }
    // The first POST was refused: its delivery was retried, and nothing came before it. (The mirror
    // may be right before the last delivery is sent: it reads each record as it is now.)
    const listedHook = async () => (await ok(api, HOOKS)).calendarWebhooks.find((h: any) => h.id === hook.id);
    await eventually(async () => (await listedHook()).deliveries.every((d: any) => d.status === 'delivered'), 'every delivery sent');
    const listed = await listedHook();
    expect(listed.secret).toBeNull();
    expect(listed.deliveries.at(-1)).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 204 });

    // Paused, nothing is sent; resumed, what was written meanwhile comes.
    await ok(api, `mutation($id: String!) { updateCalendarWebhook(id: $id, input: { paused: true }) { paused } }`, { id: hook.id });
    const before = received.length;
    await ok(api, UPDATE, { id: ids[0], input: { title: 'Book Fair (cancelled)' } });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(received.length).toBe(before);
    await ok(api, `mutation($id: String!) { updateCalendarWebhook(id: $id, input: { paused: false }) { paused } }`, { id: hook.id });
    await eventually(() => received.length > before, 'the delivery after resuming');
    expect(received.at(-1)!.body.changes.map((c: any) => [c.id, c.kind, c.fields])).toEqual([[ids[0], 'UPDATED', ['title']]]);

    // Replayed from where it started: everything comes again, as one page now shows it (the event
    // created and trashed since is no news to a receiver that starts there).
    const replayFrom = hook.cursor;
    const count = received.length;
    await ok(api, `mutation($id: String!, $after: String!) { replayCalendarWebhook(id: $id, after: $after) { cursor } }`, {
      id: hook.id,
      after: replayFrom,
    });
    await eventually(() => received.length > count, 'the replayed delivery');
    const replayed = received.slice(count).flatMap((d) => d.body.changes.map((c: any) => c.id));
    expect(new Set(replayed)).toEqual(new Set([ids[0], ids[2]]));
  });
});
