// Process entry: config → server; SIGTERM/SIGINT close it cleanly (in-flight requests finish first).
import { ConfigError, loadConfig } from './config.js';
import { startServer, type RunningServer } from './server.js';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`almanac: configuration error: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

// Handlers go in before the server starts, so a signal during start-up is never the default kill.
let server: RunningServer | undefined;
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    stopping = true;
    server?.logger.info({ signal }, 'shutting down');
    await server?.close();
    process.exit(0);
  });
}
server = await startServer(config);
if (stopping) {
  await server.close();
  process.exit(0);
}
