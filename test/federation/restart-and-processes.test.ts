// Delivery that neither loses nor repeats: an activity queued before a restart is delivered after
// it, once; two processes sharing one PostgreSQL send each activity to each inbox once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { freePort } from '../support/ports.js';
import { ADMIN_KEY, type TestServer } from '../support/server.js';
import { clientFor, useServersOnOneDatabase } from '../support/tasks.js';
import { activityOf, startPeer, type Peer } from './peer.js';

const NS = '/wp-json/tribe/events/v1';

/** Follows the calendar served at `site` from `peer`, and waits for the Accept. */
async function follow(peer: Peer, site: string) {
  const actor = await (await fetch(`${site}/ap/actors/events`, { headers: { accept: 'application/activity+json' } })).json();
  expect((await peer.post(actor.inbox, activityOf(peer, 'Follow', actor.id))).status).toBe(202);
  await peer.waitFor((r) => r.activity?.type === 'Accept');
}

async function publish(api: TestServer, title: string): Promise<number> {
  const made = await api.request('POST', `${NS}/events`, {
    key: ADMIN_KEY,
    body: { title, start_date: daysFromNow(6), end_date: daysFromNow(6, '12:00:00') },
  });
  expect(made.status).toBe(201);
  return made.json.id;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setup(kind: (typeof DATABASE_KINDS)[number]) {
  let peer: Peer;
  const ports = { site: 0 };
  beforeAll(async () => {
    peer = await startPeer({ name: 'bob' });
    ports.site = await freePort();
  });
  afterAll(async () => peer?.close());
  const servers = useServersOnOneDatabase(kind, () => ({
    SITE_URL: `http://127.0.0.1:${ports.site}`,
    TASK_ALLOWED_HOSTS: peer.host,
  }));
  return { servers, ports, peer: () => peer };
}

describe.each(DATABASE_KINDS)('delivery across a restart on %s', (kind) => {
  const { servers, ports, peer } = setup(kind);

  it('delivers an activity queued before a restart after it, once', async () => {
    const site = `http://127.0.0.1:${ports.site}`;
    const first = await servers.start({ PORT: String(ports.site) });
    await follow(peer(), site);
    // The peer is down: the Create is queued and its first attempt fails.
    peer().failing = true;
    const id = await publish(clientFor(first.url), 'Published before the restart');
    const pending = async (server: RunningServer) =>
      server.db.prisma.federationDelivery.findFirst({ where: { eventId: id, activityType: 'Create' } });
    for (let i = 0; i < 50 && !(await pending(first))?.attempts; i++) await settle(100);
    expect((await pending(first))?.status).toBe('pending');
    await first.close();
    peer().failing = false;
    const second = await servers.start({ PORT: String(ports.site) });
    const created = await peer().waitFor((r) => r.activity?.type === 'Create' && r.activity.object.id === `${site}/ap/events/${id}`);
    expect(created.verified).toBe(true);
    await settle(2500);
    expect(peer().received.filter((r) => r.activity?.type === 'Create')).toHaveLength(1);
    expect((await pending(second))?.status).toBe('delivered');
  });
});

describe.each(DATABASE_KINDS.filter((kind) => kind === 'postgresql'))('two processes on one %s', (kind) => {
  const { servers, ports, peer } = setup(kind);

  it('sends each activity to each inbox once', async () => {
    const site = `http://127.0.0.1:${ports.site}`;
    const one = await servers.start({ PORT: String(ports.site) });
    await follow(peer(), site);
    // The second process starts once there is a follower, so both are busy delivering.
    const two = await servers.start();
    const titles = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'];
    const ids: number[] = [];
    for (const [i, title] of titles.entries()) ids.push(await publish(clientFor((i % 2 ? two : one).url), title));
    for (const id of ids) await peer().waitFor((r) => r.activity?.type === 'Create' && r.activity.object.id === `${site}/ap/events/${id}`);
    await settle(3000);
    const creates = peer().received.filter((r) => r.activity?.type === 'Create');
    expect(creates.map((r) => r.activity.object.id).sort()).toEqual(ids.map((id) => `${site}/ap/events/${id}`).sort());
    expect(creates.every((r) => r.verified)).toBe(true);
    const rows = await one.db.prisma.federationDelivery.findMany({ where: { activityType: 'Create' } });
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(ids.map(() => ['delivered', 1]));
  });
});
