// Keeps every open series' occurrences made up to the horizon as time passes: once at start, then
// every hour, in each process (extendSeriesHorizons is safe to run from several at once).
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Logger } from '../http/logger.js';
import { everyInterval, type Rounds } from '../rounds.js';
import { extendSeriesHorizons } from './series.js';

const EVERY_MS = 3_600_000;

export function keepSeriesHorizons(prisma: Prisma, config: Config, logger: Logger): Rounds {
  return everyInterval(
    EVERY_MS,
    async () => {
      const made = await extendSeriesHorizons(prisma, config);
      if (made) logger.info({ occurrences: made }, 'recurring events: occurrences made up to the horizon');
    },
    (error) => logger.error({ err: error }, 'recurring events: extending the horizon failed (tried again within the hour)'),
    { immediately: true },
  );
}
