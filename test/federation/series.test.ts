// A series federates one occurrence at a time, as each comes within FEDERATION_SERIES_DAYS: never
// the whole expansion at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { federationUrls } from '../../src/federation/urls.js';
import { sweepNearOccurrences } from '../../src/federation/outbox.js';
import { loadConfig } from '../../src/config.js';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { freePort } from '../support/ports.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { activityOf, startPeer, type Peer } from './peer.js';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DATABASE_KINDS)('a series on %s', (kind) => {
  let peer: Peer;
  let site = '';
  beforeAll(async () => {
    peer = await startPeer({ name: 'carol' });
  });
  afterAll(async () => peer?.close());
  const env = async () => {
    const port = await freePort();
    site = `http://127.0.0.1:${port}`;
    return { PORT: String(port), SITE_URL: site, FEDERATION_SERIES_DAYS: '10', TASK_ALLOWED_HOSTS: peer.host };
  };
  const api = useTestServer(kind, env);

  it('announces the occurrences within the horizon, then each as it comes near', async () => {
    const actor = await (await fetch(`${site}/ap/actors/events`, { headers: { accept: 'application/activity+json' } })).json();
    expect((await peer.post(actor.inbox, activityOf(peer, 'Follow', actor.id))).status).toBe(202);
    await peer.waitFor((r) => r.activity?.type === 'Accept');
    const made = await api.graphql(
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { id series { id } } }`,
      {
        input: {
          title: 'Weekly run',
          startDate: daysFromNow(2, '07:00:00'),
          endDate: daysFromNow(2, '08:00:00'),
          recurrence: { rrule: 'FREQ=WEEKLY;COUNT=6' },
        },
      },
      ADMIN_KEY,
    );
    expect(made.errors).toBeUndefined();
    const occurrences = await api.server.db.prisma.event.findMany({
      where: { seriesId: Number(made.data.createEvent.series.id) },
      orderBy: { startUtc: 'asc' },
      select: { id: true },
    });
    expect(occurrences).toHaveLength(6);
    const objectOf = (index: number) => `${site}/ap/events/${occurrences[index]!.id}`;
    const creates = () => peer.received.filter((r) => r.activity?.type === 'Create').map((r) => r.activity.object.id);
    // Days 2 and 9 are within 10 days; days 16 to 37 are not.
    await peer.waitFor((r) => r.activity?.type === 'Create' && r.activity.object.id === objectOf(1));
    await settle(2000);
    expect(creates().sort()).toEqual([objectOf(0), objectOf(1)].sort());

    // A week later, day 16 has come near: the sweep announces it, once, whichever process runs it.
    const config = loadConfig({ SITE_URL: site, FEDERATION_SERIES_DAYS: '10', DATABASE_URL: 'file:unused.db' });
    const weekLater = new Date(Date.now() + 7 * 86_400_000);
    const prisma = api.server.db.prisma;
    const swept = await Promise.all([
      sweepNearOccurrences(prisma, config, federationUrls(config), weekLater),
      sweepNearOccurrences(prisma, config, federationUrls(config), weekLater),
    ]);
    expect(swept[0] + swept[1]).toBe(1);
    await peer.waitFor((r) => r.activity?.type === 'Create' && r.activity.object.id === objectOf(2));
    await settle(1500);
    expect(creates()).toHaveLength(3);
  });
});
