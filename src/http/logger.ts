import pino from 'pino';
import { databaseFault } from '../db/faults.js';
import { faultFields } from './unavailable.js';

/**
 * Structured JSON logs (to stdout, or `destination`). Credentials are redacted wherever they could
 * appear. A database fault is logged as what it is (reason and driver code), without its stack or
 * the driver's message: a background loop that meets a restart writes a line, not a trace.
 */
export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.password', '*.apiKey', '*.key'],
        censor: '[redacted]',
      },
      serializers: {
        err: (error: Error) => {
          const fault = databaseFault(error);
          return fault ? { type: fault.name, ...faultFields(fault) } : pino.stdSerializers.err(error);
        },
      },
    },
    destination,
  );
}

export type Logger = ReturnType<typeof createLogger>;
