// An inbox that keeps failing is retried with backoff, its later activities wait behind the failed
// one, and after the last retry all of them are given up (failed, shown to administrators), not
// retried forever. Time is moved by passing `now` to the sender (no test depends on today's date).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { sendDue } from '../../src/federation/delivery.js';
import { actorKeys } from '../../src/federation/keys.js';
import { federationUrls } from '../../src/federation/urls.js';
import { RETRY_DELAYS_MS } from '../../src/net/signed-post.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { startPeer, type Peer } from './peer.js';

describe.each(DATABASE_KINDS)('a failing inbox on %s', (kind) => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await startPeer({ name: 'dave' });
  });
  afterAll(async () => peer?.close());
  // Federation off in the server: this test is the only sender.
  const api = useTestServer(kind, { FEDERATION: 'off' });

  it('backs off, keeps order, and gives up after the last retry', async () => {
    const prisma = api.server.db.prisma;
    const config = loadConfig({ SITE_URL: 'http://calendar.test', TASK_ALLOWED_HOSTS: peer.host, DATABASE_URL: 'file:unused.db' });
    const deps = { config, urls: federationUrls(config), key: async () => (await actorKeys(prisma)())[0]!, logger: api.server.logger };
    const inbox = `${peer.url}/inbox`;
    const start = Date.now();
    for (const [i, type] of ['Create', 'Update'].entries())
      await prisma.federationDelivery.create({
        data: {
          id: randomUUID(),
          activityId: `urn:test:${type}`,
          activityType: type,
          inbox,
          body: '{}',
          createdAt: new Date(start + i),
          nextAttemptAt: new Date(start),
        },
      });
    peer.failing = true;
    let now = start;
    for (let attempt = 1; attempt <= RETRY_DELAYS_MS.length + 1; attempt++) {
      expect(await sendDue(prisma, deps, new Date(now))).toBe(1);
      const [first, second] = await prisma.federationDelivery.findMany({ orderBy: { createdAt: 'asc' } });
      expect(first!.attempts).toBe(attempt);
      expect(second!.attempts).toBe(0); // waits behind the failing one
      if (attempt <= RETRY_DELAYS_MS.length) {
        expect(first!.status).toBe('pending');
        // Not before its delay.
        expect(await sendDue(prisma, deps, new Date(now + RETRY_DELAYS_MS[attempt - 1]! - 1000))).toBe(0);
        now += RETRY_DELAYS_MS[attempt - 1]! + 1;
      }
    }
    const rows = await prisma.federationDelivery.findMany({ orderBy: { createdAt: 'asc' } });
    expect(rows.map((row) => row.status)).toEqual(['failed', 'failed']);
    expect(rows[0]!.lastStatus).toBe(503);
    expect(await sendDue(prisma, deps, new Date(now + 86_400_000))).toBe(0);
    const failed = await api.graphql(`{ federation { deliveries(failed: true) { activityType status lastError } } }`, {}, ADMIN_KEY);
    expect(failed.data.federation.deliveries).toHaveLength(2);
  });
});
