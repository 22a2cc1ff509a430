import pino from 'pino';

/** Structured JSON logs. Credentials are redacted wherever they could appear. */
export function createLogger(level: string) {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.password', '*.apiKey', '*.key'],
      censor: '[redacted]',
    },
  });
}

export type Logger = ReturnType<typeof createLogger>;
