// Process entry: config → server; SIGTERM/SIGINT close it cleanly.
import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';

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

const server = await startServer(config);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    server.logger.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  });
}
