// Process entry: config → server; SIGTERM/SIGINT close it cleanly (in-flight requests finish first).
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig } from './config.js';
import { startServer, type RunningServer } from './server.js';

// V8 sizes the old generation for a multi-gigabyte limit on a large machine and lets it grow ~2×
// between full collections, so a few concurrent 185 kB pages left it at 180 MB of mostly garbage
// (peak RSS 335 MB). Growing it by a quarter instead keeps peak RSS near 200 MB for the same
// throughput (the factor is read at every collection, so setting it here takes effect). An
// operator's own heap flags win.
const HEAP_FLAGS = /--(heap-growing-percent|max-old-space-size|max-heap-size)\b/;
if (!HEAP_FLAGS.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)) {
  setFlagsFromString('--heap-growing-percent=25');
}
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
try {
  server = await startServer(config);
} catch (error) {
  // What an operator can fix (the database, the port) is said in one line; anything else keeps its stack.
  const message = error instanceof Error ? error.message : String(error);
  if (/database|can't reach|ECONNREFUSED|EADDRINUSE|authentication failed/i.test(message)) {
    console.error(`almanac: cannot start: ${message}`);
    process.exit(2);
  }
  throw error;
}
if (stopping) {
  await server.close();
  process.exit(0);
}
