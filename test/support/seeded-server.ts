// A server over a database a test seeded itself (bench/seed.ts), for tests that observe the SQL of
// single requests: uncached, without task workers, and returned once its start-up work is done.
import { loadConfig, type Config } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';

export async function startQuietServer(databaseUrl: string, adminKey: string): Promise<{ server: RunningServer; config: Config }> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    ALMANAC_ADMIN_KEY: adminKey,
    RESPONSE_CACHE: 'false',
    TASK_WORKERS: '0',
  });
  const server = await startServer(config);
  // Seeded weekly series are due for the horizon extension a process runs at start, in the
  // background: wait until the database goes quiet, so that each request is observed alone.
  for (let seen = -1; seen !== server.db.statements.count;) {
    seen = server.db.statements.count;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return { server, config };
}
