// The change log as a mirroring client follows it (calendarChangeCursor, calendarChanges), on both
// databases: every write through GraphQL and REST shows up once, in order, with what changed; each
// caller sees it through its own rights; a mirror that follows the cursor and a webhook receiver,
// after random writes from two server processes, end in exactly the state of a full read; expired
// and malformed cursors; on PostgreSQL, transactions that overlap and commit out of order.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneChanges } from '../../src/calendar/changes.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer, type TestServer } from '../support/server.js';
import { eventually } from '../support/tasks.js';

const CURSOR = `{ calendarChangeCursor }`;
const CHANGES = `query($after: String, $first: Int, $types: [CalendarRecordType!]) {
  calendarChanges(after: $after, first: $first, types: $types) {
    cursor hasMore
    changes { cursor type id kind removed fields record { nodeId ... on Event { title startDate venue { name } } ... on Venue { name } ... on EventCategory { name } } }
  } }`;
const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { id } }`;
const DELETE = `mutation($id: Int!) { deleteEvent(id: $id) { id } }`;
const REST = '/wp-json/tribe/events/v1';

async function ok<T = any>(api: TestServer, query: string, variables: Record<string, unknown> = {}, key?: string | null): Promise<T> {
  const result = await api.graphql(query, variables, key === null ? undefined : (key ?? api.keys.administrator));
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

/** Every change after `after` as `key` sees it, page by page; and the cursor to go on from. */
async function follow(api: TestServer, after: string, key?: string | null, first = 7) {
  const changes: any[] = [];
  let cursor = after;
  for (;;) {
    const page = (await ok(api, CHANGES, { after: cursor, first }, key)).calendarChanges;
    changes.push(...page.changes);
    cursor = page.cursor;
    if (!page.hasMore) return { changes, cursor };
  }
}

const summary = (changes: any[]) =>
  changes.map((c) => `${c.type.toLowerCase()}:${c.kind}${c.fields.length ? `(${c.fields.join(',')})` : ''}`);

describe.each(DATABASE_KINDS)('the calendar change log on %s', (kind) => {
  const api = useTestServer(kind);

  it('records each write through GraphQL and REST once, in order, with the fields that changed', async () => {
    const { calendarChangeCursor: start } = await ok(api, CURSOR);
    const { createEvent } = await ok(api, CREATE, {
      input: { title: 'Harbour Swim', startDate: '2031-07-01 08:00:00', endDate: '2031-07-01 10:00:00', venue: { venue: 'Pier 4' } },
    });
    const id = createEvent.id;
    const created = await follow(api, start, undefined, 100);
    // One change per record, however many statements the write took; the event last, with its venue.
    expect(summary(created.changes)).toEqual(['venue:CREATED', 'event:CREATED']);
    expect(created.changes[1]).toMatchObject({ id, removed: false, record: { title: 'Harbour Swim', venue: { name: 'Pier 4' } } });

    await ok(api, UPDATE, { id, input: { title: 'Harbour Swim (long course)' } });
    const rest = await api.request('POST', `${REST}/events/${id}`, {
      key: api.keys.administrator,
      body: { start_date: '2031-07-02 08:00:00', end_date: '2031-07-02 10:00:00', categories: ['Sport'] },
    });
    expect(rest.status).toBe(200);
    await ok(api, DELETE, { id });
    await ok(api, UPDATE, { id, input: { status: 'publish' } });
    const updates = await follow(api, created.cursor, undefined, 1);
    expect(summary(updates.changes)).toEqual([
      'event:UPDATED(title)',
      // Pages of one change: each statement's change on its own, in the order written.
      'event:UPDATED(endDate,startDate,utcEndDate,utcStartDate)',
      'category:CREATED',
      'event:UPDATED(categories)',
      'event:TRASHED',
      'event:RESTORED',
    ]);
    expect(updates.changes[0].cursor).not.toBe(updates.changes[1].cursor);

    // Nothing after the end: the same cursor again, and no more.
    expect((await ok(api, CHANGES, { after: updates.cursor })).calendarChanges).toEqual({
      cursor: updates.cursor,
      hasMore: false,
      changes: [],
    });
    expect((await ok(api, CURSOR)).calendarChangeCursor).toBe(updates.cursor);
    // A visitor saw it published before and after: trashed and restored within one page, that is one update.
    const visitor = await follow(api, created.cursor, null, 100);
    expect(visitor.changes.map((c) => [c.type, c.kind, c.removed])).toEqual([
      ['CATEGORY', 'CREATED', false],
      ['EVENT', 'UPDATED', false],
    ]);
  });

  it('shows each caller only what it may list: drafts appear to visitors when published, and leave when unpublished', async () => {
    const { calendarChangeCursor: start } = await ok(api, CURSOR, {}, null);
    const { createEvent } = await ok(api, CREATE, {
      input: { title: 'Quiet Draft', status: 'draft', startDate: '2031-08-01 08:00:00', endDate: '2031-08-01 09:00:00' },
    });
    const id = createEvent.id;
    expect((await follow(api, start, null)).changes).toEqual([]);
    await ok(api, UPDATE, { id, input: { status: 'publish' } });
    await ok(api, UPDATE, { id, input: { status: 'private' } });
    const visitor = await follow(api, start, null, 1);
    expect(visitor.changes.map((c) => [c.kind, c.removed])).toEqual([
      ['ADDED', false],
      ['REMOVED', true],
    ]);
    expect(visitor.changes[0].record).toBeNull(); // private by now: a visitor cannot read it
    const editor = await follow(api, start, api.keys.editor, 1);
    expect(editor.changes.map((c) => c.kind)).toEqual(['CREATED', 'UPDATED', 'UPDATED']);
    expect(editor.changes[1].fields).toEqual(expect.arrayContaining(['slug', 'status']));
    expect(editor.changes[2].fields).toEqual(['status']);
    expect(editor.changes.at(-1)).toMatchObject({ removed: false, record: { title: 'Quiet Draft' } });
    // A contributor lists only its own drafts and private events of others not at all.
    const contributor = await follow(api, start, api.keys.contributor, 1);
    expect(contributor.changes.map((c) => c.kind)).toEqual(['ADDED', 'REMOVED']);
  });

  it('follows the occurrences of a recurring event, and filters by type', async () => {
    const { calendarChangeCursor: start } = await ok(api, CURSOR);
    const { createEvent } = await ok(api, CREATE, {
      input: {
        title: 'Tuesday Run',
        startDate: '2031-09-02 07:00:00',
        endDate: '2031-09-02 08:00:00',
        categories: ['Running'],
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=5' },
      },
    });
    // In one page, one change per occurrence; in small pages, the same records as more changes.
    const events = await follow(api, start, undefined, 100);
    const created = events.changes.filter((c) => c.type === 'EVENT');
    expect(created).toHaveLength(5);
    expect(new Set(created.map((c) => c.kind))).toEqual(new Set(['CREATED']));
    const paged = await follow(api, start, undefined, 2);
    expect(paged.cursor).toBe(events.cursor);
    expect(new Set(paged.changes.filter((c) => c.type === 'EVENT').map((c) => c.id))).toEqual(new Set(created.map((c) => c.id)));
    const onlyCategories = (await ok(api, CHANGES, { after: start, types: ['CATEGORY'] })).calendarChanges;
    expect(onlyCategories.changes.map((c: any) => [c.kind, c.record.name])).toEqual([['CREATED', 'Running']]);
    // A shorter rule: the last two occurrences are deleted.
    await ok(api, `mutation($id: Int!, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input, scope: ALL) { id } }`, {
      id: createEvent.id,
      input: { recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } },
    });
    const shortened = await follow(api, events.cursor, null);
    const deleted = shortened.changes.filter((c) => c.kind === 'DELETED');
    const byStart = [...created].sort((a, b) => a.record.startDate.localeCompare(b.record.startDate));
    expect(deleted.map((c) => c.id).sort()).toEqual(
      byStart
        .slice(3)
        .map((c) => c.id)
        .sort(),
    );
    expect(deleted.every((c) => c.removed && c.record === null)).toBe(true);
  });

  it("filters event changes with events(filter:)'s rules, removals always included", async () => {
    const { calendarChangeCursor: start } = await ok(api, CURSOR);
    const jazz = (
      await ok(api, CREATE, {
        input: { title: 'Late Jazz', categories: ['Jazz'], startDate: '2031-03-01 21:00:00', endDate: '2031-03-01 23:00:00' },
      })
    ).createEvent.id;
    const folk = (
      await ok(api, CREATE, {
        input: { title: 'Folk Morning', categories: ['Folk'], startDate: '2031-03-02 10:00:00', endDate: '2031-03-02 11:00:00' },
      })
    ).createEvent.id;
    const filter = { categories: ['jazz'], startDate: '2031-01-01', endDate: '2031-12-31' };
    const query = `query($after: String, $filter: EventFilter) { calendarChanges(after: $after, filter: $filter, types: [EVENT]) {
      cursor changes { id kind removed } } }`;
    const first = (await ok(api, query, { after: start, filter })).calendarChanges;
    expect(first.changes).toEqual([{ id: jazz, kind: 'CREATED', removed: false }]);
    // The folk event was never listed by the filter, but its removal comes: a client drops what it holds.
    expect((await api.request('DELETE', `${REST}/events/${folk}`, { key: api.keys.administrator })).status).toBe(200);
    expect((await ok(api, query, { after: first.cursor, filter })).calendarChanges.changes).toEqual([
      { id: folk, kind: 'TRASHED', removed: true },
    ]);
    const bad = await api.graphql(query, { after: start, filter: { categories: ['no-such-category'] } }, api.keys.administrator);
    expect(bad.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });

  it('answers a malformed cursor or page size with INVALID_INPUT, and a pruned one with CURSOR_EXPIRED', async () => {
    const bad = await api.graphql(CHANGES, { after: 'not-a-cursor' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
    const big = await api.graphql(CHANGES, { first: 501 });
    expect(big.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');

    const { calendarChangeCursor: old } = await ok(api, CURSOR);
    await ok(api, CREATE, { input: { title: 'Before the cut', startDate: '2031-10-01 08:00:00', endDate: '2031-10-01 09:00:00' } });
    // Time passes: everything written so far falls out of the retention window.
    expect(await pruneChanges(api.server.db.prisma, '9999-01-01 00:00:00')).toBeGreaterThan(0);
    const expired = await api.graphql(CHANGES, { after: old });
    expect(expired.errors?.[0]?.extensions?.code).toBe('CURSOR_EXPIRED');
    const { calendarChangeCursor: fresh } = await ok(api, CURSOR);
    await ok(api, CREATE, { input: { title: 'After the cut', startDate: '2031-10-02 08:00:00', endDate: '2031-10-02 09:00:00' } });
    expect(summary((await follow(api, fresh)).changes)).toEqual(['event:CREATED']);
  });
});

// PostgreSQL orders the log by transaction id, not under a lock: a transaction that started first
// may commit last. One is held open here by a client of its own, as a slow writer would.
describe('the change log on postgresql while transactions overlap', () => {
  const api = useTestServer('postgresql');
  const event = async (title: string) =>
    (await ok(api, CREATE, { input: { title, startDate: '2031-11-01 08:00:00', endDate: '2031-11-01 09:00:00' } })).createEvent
      .id as number;

  async function holding<T>(work: (held: pg.Client) => Promise<T>): Promise<T> {
    const held = new pg.Client({ connectionString: api.databaseUrl });
    await held.connect();
    try {
      await held.query('BEGIN');
      return await work(held);
    } finally {
      await held.end();
    }
  }

  it('gives a cursor reader both of two transactions that commit in the opposite order of their start, each once', async () => {
    const { calendarChangeCursor: start } = await ok(api, CURSOR);
    const [first, second] = [await event('Started first'), await event('Started second')];
    const created = await follow(api, start);
    expect(created.changes.map((c) => [c.id, c.kind])).toEqual([
      [first, 'CREATED'],
      [second, 'CREATED'],
    ]);
    await holding(async (held) => {
      await held.query(`UPDATE "Event" SET "title" = 'Committed last' WHERE "id" = $1`, [first]);
      await ok(api, UPDATE, { id: second, input: { title: 'Committed first' } });
      // The second is committed, but the first could still write before it in the log: not yet.
      const during = await follow(api, created.cursor);
      expect(during).toEqual({ changes: [], cursor: created.cursor });
      await held.query('COMMIT');
    });
    const both = await follow(api, created.cursor, undefined, 1);
    expect(both.changes.map((c) => [c.id, c.kind, c.fields, c.record.title])).toEqual([
      [first, 'UPDATED', ['title'], 'Committed last'],
      [second, 'UPDATED', ['title'], 'Committed first'],
    ]);
    expect((await follow(api, both.cursor)).changes).toEqual([]);
  });

  it("keeps one record's changes in the order they were made when the later one comes from the older transaction", async () => {
    const [other, target] = [await event('Elsewhere'), await event('Target')];
    const { calendarChangeCursor: start } = await ok(api, CURSOR);
    await holding(async (held) => {
      // The held transaction takes its id first, writing another record…
      await held.query(`UPDATE "Event" SET "title" = 'Elsewhere, renamed' WHERE "id" = $1`, [other]);
      await ok(api, UPDATE, { id: target, input: { title: 'Target, renamed' } });
      // …and trashes the target after the newer transaction renamed it.
      await held.query(`UPDATE "Event" SET "status" = 'trash' WHERE "id" = $1`, [target]);
      await held.query('COMMIT');
    });
    const oneByOne = await follow(api, start, undefined, 1);
    expect(oneByOne.changes.map((c) => [c.id, c.kind])).toEqual([
      [other, 'UPDATED'],
      [target, 'UPDATED'],
      [target, 'TRASHED'],
    ]);
    // Read in one page, the target's changes merge into its last state: trashed.
    const merged = await follow(api, start, undefined, 100);
    expect(merged.changes.map((c) => [c.id, c.kind, c.removed])).toEqual([
      [other, 'UPDATED', false],
      [target, 'TRASHED', true],
    ]);
  });
});

describe.each(DATABASE_KINDS)('mirrors following the change log on %s', (kind) => {
  // The webhook receiver listens on 127.0.0.1: private addresses allowed for this test.
  const env = { TASK_ALLOW_PRIVATE_NETWORK: 'true', TASK_WORKERS: '0' };
  const api = useTestServer(kind, env);
  let second: RunningServer;
  const deliveries: any[] = [];
  const receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      deliveries.push(JSON.parse(raw));
      res.writeHead(204).end();
    });
  });
  beforeAll(async () => {
    second = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: api.databaseUrl,
        LOG_LEVEL: 'silent',
        ALMANAC_ADMIN_KEY: ADMIN_KEY,
        ...env,
      }),
    );
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
  });
  afterAll(async () => {
    await second?.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('a client following the cursor and a webhook receiver end in exactly the state of a full read after random writes from two server processes', async () => {
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/changes`;
    await ok(api, `mutation($url: String!) { createCalendarWebhook(input: { url: $url, types: [EVENT] }) { id } }`, { url: hookUrl });
    // A seeded generator: the same writes on every run.
    let seed = kind === 'sqlite' ? 7 : 11;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const servers = [api.url, second.url];
    const call = async (query: string, variables: Record<string, unknown>) => {
      const response = await fetch(`${servers[random(2)]}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY },
        body: JSON.stringify({ query, variables }),
      });
      return response.json() as Promise<{ data?: any; errors?: any[] }>;
    };
    const rest = (method: string, path: string, body?: unknown) =>
      fetch(`${servers[random(2)]}${REST}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const { calendarChangeCursor: start } = await ok(api, CURSOR, {}, null);
    const mirror = new Map<number, string>();
    let cursor = start;
    const sync = async () => {
      const followed = await follow(api, cursor, null, 5);
      for (const change of followed.changes) {
        if (change.type !== 'EVENT') continue;
        if (change.removed) mirror.delete(change.id);
        else if (change.record) mirror.set(change.id, `${change.record.title}|${change.record.startDate}`);
      }
      cursor = followed.cursor;
    };
    const ids: number[] = [];
    const statuses = ['publish', 'draft', 'private', 'publish', 'publish'];
    for (let round = 0; round < 8; round++) {
      // A burst of writes in parallel, on both processes, then the mirror catches up.
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          const op = random(6);
          const id = ids.length ? ids[random(ids.length)] : undefined;
          const day = String(1 + random(28)).padStart(2, '0');
          if (op === 0 || id === undefined) {
            const created = await call(CREATE, {
              input: { title: `Event ${random(1000)}`, startDate: `2032-01-${day} 10:00:00`, endDate: `2032-01-${day} 11:00:00` },
            });
            if (created.data) ids.push(created.data.createEvent.id);
          } else if (op === 1) await call(UPDATE, { id, input: { title: `Renamed ${random(1000)}` } });
          else if (op === 2) await call(UPDATE, { id, input: { status: statuses[random(statuses.length)] } });
          else if (op === 3)
            await rest('POST', `/events/${id}`, { start_date: `2032-02-${day} 09:00:00`, end_date: `2032-02-${day} 12:00:00` });
          else if (op === 4) await rest('DELETE', `/events/${id}`);
          else await call(UPDATE, { id, input: { startDate: `2032-03-${day} 18:00:00`, endDate: `2032-03-${day} 19:00:00` } });
        }),
      );
      if (round % 3 === 2) await sync();
    }
    await sync();
    const full = await ok(
      api,
      `{ events(filter: { startDate: "2032-01-01", endDate: "2032-12-31" }, page: { perPage: 50, page: 1 }) { total items { id title startDate } } }`,
      {},
      null,
    );
    const truth = new Map<number, string>(full.events.items.map((e: any) => [e.id, `${e.title}|${e.startDate}`]));
    expect(full.events.total).toBeLessThanOrEqual(50);
    expect(mirror.size).toBeGreaterThan(0);
    expect(new Map([...mirror].sort(([a], [b]) => a - b))).toEqual(new Map([...truth].sort(([a], [b]) => a - b)));

    // The webhook receiver, as the administrator who registered it sees the calendar: it applies
    // each delivery in order, reading the records it is told about.
    const adminFull = await ok(
      api,
      `{ events(filter: { startDate: "2032-01-01", endDate: "2032-12-31" }, page: { perPage: 50, page: 1 }) { items { id title startDate status } } }`,
    );
    const adminTruth = [
      ...new Map<number, string>(adminFull.events.items.map((e: any) => [e.id, `${e.title}|${e.startDate}|${e.status}`])),
    ].sort(([a], [b]) => a - b);
    const received = new Map<number, string>();
    let applied = 0;
    await eventually(
      async () => {
        for (; applied < deliveries.length; applied++) {
          for (const change of deliveries[applied].changes) {
            if (change.removed) {
              received.delete(change.id);
              continue;
            }
            const read = await api.graphql(`query($id: Int!) { event(id: $id) { title startDate status } }`, { id: change.id }, ADMIN_KEY);
            const event = read.data?.event;
            if (event) received.set(change.id, `${event.title}|${event.startDate}|${event.status}`);
            else received.delete(change.id);
          }
        }
        return JSON.stringify([...received].sort(([a], [b]) => a - b)) === JSON.stringify(adminTruth);
      },
      'the webhook receiver to hold what a full read shows',
      30_000,
    );
    expect(adminTruth.length).toBeGreaterThan(mirror.size); // the administrator also sees drafts and private events
  });
});
