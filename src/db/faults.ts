// Database faults: the database could not be reached, lost the connection, refused new ones while it
// starts or stops, or could not do its part (SQLite busy past its timeout, out of disk, I/O errors).
// They are the server's, not the client's: each HTTP edge answers them 503 with Retry-After, and
// logs one line without a stack. Everything else a statement can fail with stays what it was.
//
// A fault reaches the edges in several wrappings: the driver's own error (pg, better-sqlite3), the
// driver adapter's DriverAdapterError (`cause.kind`, `cause.originalCode`), Prisma's
// PrismaClientKnownRequestError (`code` P1001…, `meta.driverAdapterError`), or a GraphQLError whose
// `originalError` is any of these. `databaseFault` looks through all of them.

/** What went wrong, for logs and for the retry policy; never shown with driver text. */
export type FaultReason = 'unreachable' | 'refusing-connections' | 'connection-lost' | 'timed-out' | 'busy' | 'storage';

/** How long a client should wait before trying again (the Retry-After header, in seconds). */
export const RETRY_AFTER_SECONDS = 2;

export class DatabaseUnavailable extends Error {
  constructor(
    readonly reason: FaultReason,
    /** The driver's code (ECONNREFUSED, 57P01, SQLITE_BUSY…) or Prisma's (P1001), when there is one. */
    readonly driverCode: string | undefined,
    /** The statement was refused before it reached the database: running it again cannot run it twice. */
    readonly unsent: boolean,
  ) {
    super('The database is unavailable for a moment; retry shortly.');
    this.name = 'DatabaseUnavailable';
  }

  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
}

type Classified = [reason: FaultReason, unsent: boolean];

/**
 * Node's socket errors (system errors, with a `syscall`): no connection (nothing sent), or the
 * connection went away mid-statement. The pg adapter turns the commonest into kinds
 * (ADAPTER_KINDS) and lets the others through as they are.
 */
const SOCKET_CODES: Record<string, Classified> = {
  ECONNREFUSED: ['unreachable', true],
  ENOTFOUND: ['unreachable', true],
  EAI_AGAIN: ['unreachable', true],
  EHOSTUNREACH: ['unreachable', true],
  ENETUNREACH: ['unreachable', true],
  ECONNRESET: ['connection-lost', false],
  EPIPE: ['connection-lost', false],
  ETIMEDOUT: ['timed-out', false],
};

/**
 * PostgreSQL's SQLSTATEs (appendix A of its manual): class 08 connection exceptions, 57P01–57P03
 * (admin_shutdown, crash_shutdown, cannot_connect_now: starting up, shutting down, in recovery),
 * and from class 53 disk_full and too_many_connections. cannot_connect_now, too_many_connections and
 * 08001/08004 (the client or server could not establish the connection) come before any statement.
 */
function postgresState(code: string): Classified | undefined {
  if (code === '57P03' || code === '53300' || code === '08001' || code === '08004') return ['refusing-connections', true];
  if (code === '57P01' || code === '57P02' || code.startsWith('08')) return ['connection-lost', false];
  if (code === '53100') return ['storage', false];
  return undefined;
}

/** better-sqlite3's codes, extended ones included (SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE…). */
function sqliteCode(code: string): Classified | undefined {
  if (/^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return ['busy', false];
  if (/^SQLITE_(IOERR|FULL)(_|$)/.test(code)) return ['storage', false];
  if (/^SQLITE_CANTOPEN(_|$)/.test(code)) return ['unreachable', true];
  return undefined;
}

/** The driver adapter's error kinds (@prisma/driver-adapter-utils) that mean a fault. */
const ADAPTER_KINDS: Record<string, Classified> = {
  DatabaseNotReachable: ['unreachable', true],
  TooManyConnections: ['refusing-connections', true],
  ConnectionClosed: ['connection-lost', false],
  SocketTimeout: ['timed-out', false],
};

/** Prisma's codes for the same kinds, when only the code is left. */
const PRISMA_CODES: Record<string, Classified> = {
  P1001: ['unreachable', true], // can't reach the database server
  P1002: ['unreachable', true], // reached, but timed out connecting
  P2037: ['refusing-connections', true], // too many connections
  P1017: ['connection-lost', false], // the server closed the connection
  P1008: ['timed-out', false], // operations timed out (SQLite: busy past its timeout)
};

/**
 * node-postgres's own errors, which carry no code: the socket closed under a statement, or a
 * client whose connection already failed refused a statement without sending it.
 */
const PG_MESSAGES: [RegExp, Classified][] = [
  [/^Connection terminated( unexpectedly| due to connection timeout)?$/, ['connection-lost', false]],
  [/^Client has encountered a connection error and is not queryable$/, ['connection-lost', true]],
  [/^timeout exceeded when trying to connect$/, ['unreachable', true]],
];

interface ErrorLike {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
  originalError?: unknown;
}

/** A code of the driver, its adapter or Prisma that this module knows, with the code it was found under. */
function classify(value: ErrorLike): [Classified, string | undefined] | undefined {
  const code = typeof value.code === 'string' ? value.code : undefined;
  const originalCode = typeof value.originalCode === 'string' ? value.originalCode : undefined;
  // The driver's own code wins over a wrapper's summary of it (SQLite's busy is a "SocketTimeout").
  for (const driverCode of [originalCode, code]) {
    if (!driverCode) continue;
    const found =
      (typeof value.syscall === 'string' ? SOCKET_CODES[driverCode] : undefined) ??
      sqliteCode(driverCode) ??
      (/^[0-9A-Z]{5}$/.test(driverCode) ? postgresState(driverCode) : undefined);
    if (found) return [found, driverCode];
  }
  if (typeof value.kind === 'string' && ADAPTER_KINDS[value.kind]) return [ADAPTER_KINDS[value.kind], originalCode ?? value.kind];
  if (typeof value.message === 'string') {
    const message = PG_MESSAGES.find(([pattern]) => pattern.test(value.message as string));
    if (message) return [message[1], undefined];
    // Prisma waited its maxWait for a connection (a pool whose connections all hang, SQLite's one
    // connection waiting on another process's lock): the transaction never began.
    if (code === 'P2028' && /Unable to start a transaction in the given time/.test(value.message)) return [['timed-out', true], code];
  }
  return undefined;
}

/**
 * The fault `error` stands for, or undefined when it is no database fault (a constraint, a bug…).
 * Looks through GraphQL's, Prisma's and the adapter's wrappings, innermost first.
 */
export function databaseFault(error: unknown): DatabaseUnavailable | undefined {
  const seen = new Set<unknown>();
  let prismaCode: string | undefined;
  const visit = (value: unknown): DatabaseUnavailable | undefined => {
    if (value === null || typeof value !== 'object' || seen.has(value) || seen.size > 8) return undefined;
    seen.add(value);
    if (value instanceof DatabaseUnavailable) return value;
    const e = value as ErrorLike;
    // A cause is followed only from the adapter's error (a plain object of its kind and codes): a
    // failed fetch's cause (ECONNREFUSED from some web site) is no database fault.
    const inner =
      visit(e.originalError) ??
      visit(e.meta?.driverAdapterError) ??
      ((value as Error).name === 'DriverAdapterError' ? visit(e.cause) : undefined);
    if (inner) return inner;
    if (typeof e.code === 'string' && PRISMA_CODES[e.code]) prismaCode ??= e.code;
    const found = classify(e);
    return found ? new DatabaseUnavailable(found[0][0], found[1], found[0][1]) : undefined;
  };
  const found = visit(error);
  if (found || !prismaCode) return found;
  const [reason, unsent] = PRISMA_CODES[prismaCode];
  return new DatabaseUnavailable(reason, prismaCode, unsent);
}
