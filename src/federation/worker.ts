// The federation's background work, run by every server process like the task workers: turn the
// change log into queued activities, announce series occurrences that came near, send what is
// due, and prune Fedify's expired cache entries. While nobody follows the calendar a round costs
// one count; a Follow received here wakes it at once, and other processes notice within a minute.
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Logger } from '../http/logger.js';
import { everyInterval, type Rounds } from '../rounds.js';
import { sendDue } from './delivery.js';
import type { CalendarFederation } from './federation.js';
import { deliverySignals } from './followers.js';
import { queueChanges, sweepNearOccurrences } from './outbox.js';

const ROUND_MS = 1000;
const IDLE_CHECK_MS = 60_000;
const SWEEP_MS = 10 * 60_000;
const PRUNE_MS = 3_600_000;

export function startFederationWorker(deps: { prisma: Prisma; config: Config; logger: Logger; calendar: CalendarFederation }): Rounds {
  const { prisma, config, logger, calendar } = deps;
  let idleSince: number | null = null;
  let lastSweep = 0;
  let lastPrune = 0;
  const wake = () => (idleSince = null);
  deliverySignals.on('queued', wake);
  const rounds = everyInterval(
    ROUND_MS,
    async () => {
      const now = Date.now();
      if (idleSince !== null && now - idleSince < IDLE_CHECK_MS) return;
      const [followers, pending] = await Promise.all([
        prisma.federationFollower.count(),
        prisma.federationDelivery.count({ where: { status: 'pending' } }),
      ]);
      // With no follower the cursor still moves on (what was published meanwhile is not news).
      await queueChanges(prisma, config, calendar.urls);
      if (!followers && !pending) {
        idleSince = now;
        return;
      }
      idleSince = null;
      if (now - lastSweep >= SWEEP_MS) {
        lastSweep = now;
        await sweepNearOccurrences(prisma, config, calendar.urls);
      }
      await sendDue(prisma, { config, urls: calendar.urls, key: calendar.signingKey, logger });
      if (now - lastPrune >= PRUNE_MS) {
        lastPrune = now;
        await calendar.kv.prune();
      }
    },
    (error) => logger.warn({ err: error }, 'federation: a round failed; retrying'),
    { immediately: true },
  );
  return {
    firstRound: rounds.firstRound,
    async stop() {
      deliverySignals.off('queued', wake);
      await rounds.stop();
    },
  };
}
