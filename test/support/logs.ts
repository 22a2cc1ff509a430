// A logger like the server's whose lines a test can read.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/http/logger.js';

/** The app's logger at `level`, writing each JSON line into `lines`. */
export function capturedLogger(level = 'info'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger(
    level,
    new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    }),
  );
  return { logger, lines };
}
