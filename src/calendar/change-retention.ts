// Keeps the change log to its retention window: in each process, at start and every hour, the
// changes older than CHANGES_RETENTION_DAYS go (pruneChanges is safe to run from several at once).
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Logger } from '../http/logger.js';
import { everyInterval, type Rounds } from '../rounds.js';
import { pruneChanges, retentionStartUtc } from './changes.js';

const EVERY_MS = 3_600_000;

export function keepChangeRetention(prisma: Prisma, config: Config, logger: Logger): Rounds {
  return everyInterval(
    EVERY_MS,
    async () => {
      const removed = await pruneChanges(prisma, await retentionStartUtc(prisma, config.changes.retentionDays));
      if (removed) logger.info({ changes: removed }, 'change log: changes past the retention window removed');
    },
    (error) => logger.error({ err: error }, 'change log: pruning failed (tried again within the hour)'),
    { immediately: true },
  );
}
