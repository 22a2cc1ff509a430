// Builds and starts the whole server from a config: migrations, database, app, listener.
// Used by src/main.ts and by the tests (on an ephemeral port).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { createUserWithKey } from './auth/api-keys.js';
import { createApp } from './app.js';
import { stopBackgroundImports } from './calendar/import/background.js';
import { startSourceSchedule } from './calendar/import/schedule.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { deployMigrations } from './db/migrations.js';
import { keepChangeRetention } from './calendar/change-retention.js';
import { keepSeriesHorizons } from './calendar/series-horizon.js';
import { startCalendarWebhooks } from './calendar/webhooks.js';
import { serveGraphQLOverWebSocket } from './graphql/websocket.js';
import { answerClientErrors } from './http/client-errors.js';
import { createLogger, type Logger } from './http/logger.js';
import { startTaskWorkers } from './tasks/workers.js';
import { startTaskSchedules } from './tasks/schedules.js';
import { serveLiveRuns } from './rest/tasks/live-socket.js';

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  logger: Logger;
  close(): Promise<void>;
}

export async function startServer(config: Config, options: { logger?: Logger } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const applied = await deployMigrations(config.databaseUrl);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const db = await openDatabase(config.databaseUrl);
  if (config.adminKey) {
    await createUserWithKey(db.prisma, {
      login: 'admin',
      role: 'administrator',
      key: config.adminKey,
      label: 'ALMANAC_ADMIN_KEY',
      reuse: true,
    });
  }
  const { app, keys, mcp, federation } = await createApp({ config, db, logger });
  const server = createServer(app.callback());
  answerClientErrors(server);
  const websockets = serveGraphQLOverWebSocket({ keys, db, config });
  const liveRuns = serveLiveRuns({ keys, db });
  // WebSocket upgrades by path: GraphQL's, and the live view of task runs; any other is refused.
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === websockets.path) websockets.handleUpgrade(req, socket, head);
    else if (liveRuns.matches(path)) liveRuns.handleUpgrade(req, socket, head);
    else socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
  server.keepAliveTimeout = 5000;
  server.listen(config.port, config.host);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const taskWorkers = await startTaskWorkers({ config, logger });
  const horizons = keepSeriesHorizons(db.prisma, config, logger);
  const retention = keepChangeRetention(db.prisma, config, logger);
  const calendarWebhooks = startCalendarWebhooks({ prisma: db.prisma, config, logger });
  // Calendar sources due: resumed and run from here as from every process (not awaited: a run may be long).
  const sources = startSourceSchedule({ prisma: db.prisma, config, logger });
  // Task schedules due: claimed from every process, each due time by one of them.
  const taskSchedules = startTaskSchedules({ prisma: db.prisma, config, logger });
  const federationWorker = federation
    ? (await import('./federation/worker.js')).startFederationWorker({ prisma: db.prisma, config, logger, calendar: federation })
    : undefined;
  await federationWorker?.firstRound;
  // Whether any calendar webhook is registered: looked up once now, then hourly while there is none.
  await calendarWebhooks.firstRound;
  logger.info({ port, database: db.kind }, 'almanac listening');

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    db,
    logger,
    close() {
      // Stop accepting, let in-flight requests finish (their writes are committed), then close the database.
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await websockets.close();
        await liveRuns.close();
        await mcp.close();
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), 10_000);
        // Meanwhile the task workers hand their running runs back to the queue, and imports save where they stand.
        await Promise.all([
          closed,
          taskWorkers.stop(),
          stopBackgroundImports(db.prisma),
          horizons.stop(),
          retention.stop(),
          calendarWebhooks.stop(),
          sources.stop(),
          taskSchedules.stop(),
          federationWorker?.stop(),
        ]);
        clearTimeout(force);
        keys.close();
        await db.close();
      })();
      return closing;
    },
  };
}
