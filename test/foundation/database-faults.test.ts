// Database faults are the server's, not the client's (src/db/faults.ts): a database that cannot be
// reached, drops connections or stays busy is answered 503 with Retry-After in each API's own error
// shape, logged in one line, and the server recovers by itself. PostgreSQL statements are retried
// once where running them again cannot do anything twice (src/db/retry.ts). The PostgreSQL server
// is reached through a proxy of this file's own, so that no other test sees it fail.
import Database from 'better-sqlite3';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database as AlmanacDatabase } from '../../src/db/client.js';
import { databaseFault, DatabaseUnavailable } from '../../src/db/faults.js';
import { sqliteFile } from '../../src/db/url.js';
import { DomainError } from '../../src/domain-error.js';
import { PrismaClient as SqliteClient } from '../../src/generated/sqlite/client.js';
import { createLogger } from '../../src/http/logger.js';
import { daysFromNow } from '../support/clock.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { freePort } from '../support/ports.js';
import { ADMIN_KEY, useTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const NS = '/wp-json/calendar/events/v1';
const POSTGRES = { host: '127.0.0.1', port: 5432 };

const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

/** The fault's reason and whether the statement is known to be unsent, or null for no fault. */
const faultOf = (error: unknown) => {
  const fault = databaseFault(error);
  return fault ? { reason: fault.reason, unsent: fault.unsent } : null;
};

describe('database faults are told apart from other errors', () => {
  it('on PostgreSQL: no server at the address, raw and wrapped by the adapter and by Prisma', async () => {
    const url = `postgresql://postgres@127.0.0.1:${await freePort()}/almanac`;
    const client = new pg.Client({ connectionString: url });
    expect(faultOf(await rejection(client.connect()))).toEqual({ reason: 'unreachable', unsent: true });
    const db = await openDatabase(url);
    try {
      for (const attempt of [
        () => db.prisma.user.findFirst(),
        () => db.prisma.$queryRawUnsafe('SELECT 1'),
        () => db.readRows('SELECT 1', []),
      ])
        expect(faultOf(await rejection(attempt()))).toEqual({ reason: 'unreachable', unsent: true });
    } finally {
      await db.close();
    }
  });

  it('on PostgreSQL: a connection the server terminates under a statement (57P01); constraints and syntax are no faults', async () => {
    const database = await createTestDatabase('postgresql');
    const db = await openDatabase(database.url, { poolSize: 2 });
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await db.prisma.$executeRawUnsafe('CREATE TABLE t (x int PRIMARY KEY)');
      await db.prisma.$executeRawUnsafe('INSERT INTO t VALUES (1)');
      // Inside a transaction, so that the read is not retried (a retry would sleep again, and succeed).
      const sleeping = rejection(db.prisma.$transaction((tx) => tx.$queryRawUnsafe('SELECT pg_sleep(30)')));
      let terminated = 0;
      for (let tries = 0; !terminated && tries < 100; tries++) {
        const { rows } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'SELECT pg_sleep(30)' AND pid <> pg_backend_pid()`,
        );
        terminated = rows.length;
        if (!terminated) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(terminated).toBe(1);
      const error = await sleeping;
      expect(faultOf(error)).toEqual({ reason: 'connection-lost', unsent: false });
      expect(databaseFault(error)?.driverCode).toBe('57P01');

      expect(faultOf(await rejection(db.prisma.$executeRawUnsafe('INSERT INTO t VALUES (1)')))).toBeNull(); // unique violation
      expect(faultOf(await rejection(db.prisma.$queryRawUnsafe('SELEC 1')))).toBeNull(); // syntax
      expect(faultOf(await rejection(db.prisma.user.findFirst()))).toBeNull(); // no such table
    } finally {
      await admin.end();
      await db.close();
      await database.drop();
    }
  });

  it('on SQLite: busy past the busy timeout (raw and through Prisma), and a full database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'almanac-faults-'));
    const file = join(dir, 'faults.db');
    const holder = new Database(file);
    const waiter = new Database(file, { timeout: 0 });
    const prisma = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: file, timeout: 50 }) });
    try {
      holder.exec('CREATE TABLE t (x BLOB)');
      holder.exec('BEGIN EXCLUSIVE');
      expect(faultOf(await rejection(Promise.resolve().then(() => waiter.exec('INSERT INTO t VALUES (1)'))))).toEqual({
        reason: 'busy',
        unsent: false,
      });
      expect(faultOf(await rejection(prisma.$executeRawUnsafe('INSERT INTO t VALUES (1)')))).toEqual({ reason: 'busy', unsent: false });
      holder.exec('COMMIT');

      // A database that may grow no further: SQLITE_FULL ("database or disk is full").
      holder.pragma('max_page_count = 8');
      const filling = Promise.resolve().then(() => {
        for (let i = 0; i < 100; i++) holder.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(4096));
      });
      expect(faultOf(await rejection(filling))).toEqual({ reason: 'storage', unsent: false });
    } finally {
      await prisma.$disconnect();
      waiter.close();
      holder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('by the codes of both drivers, and nothing else', () => {
    const sqlite = (code: string) => Object.assign(new Error(code), { name: 'SqliteError', code });
    const postgres = (code: string) => Object.assign(new Error(code), { code, severity: 'FATAL' });
    const adapter = (cause: object) => Object.assign(new Error('adapter'), { name: 'DriverAdapterError', cause });
    const cases: [unknown, ReturnType<typeof faultOf>][] = [
      [sqlite('SQLITE_IOERR_WRITE'), { reason: 'storage', unsent: false }],
      [sqlite('SQLITE_LOCKED_SHAREDCACHE'), { reason: 'busy', unsent: false }],
      [sqlite('SQLITE_CANTOPEN'), { reason: 'unreachable', unsent: true }],
      [sqlite('SQLITE_CONSTRAINT_UNIQUE'), null],
      [postgres('57P03'), { reason: 'refusing-connections', unsent: true }], // the database system is starting up
      [postgres('57P02'), { reason: 'connection-lost', unsent: false }],
      [postgres('08006'), { reason: 'connection-lost', unsent: false }],
      [postgres('23505'), null],
      [postgres('40001'), null], // a serialization failure is the transaction's, not the database's
      [adapter({ kind: 'ConnectionClosed' }), { reason: 'connection-lost', unsent: false }],
      [adapter({ kind: 'postgres', code: '57P01', originalCode: '57P01' }), { reason: 'connection-lost', unsent: false }],
      [adapter({ kind: 'UniqueConstraintViolation' }), null],
      [new Error('Connection terminated unexpectedly'), { reason: 'connection-lost', unsent: false }],
      [Object.assign(new Error('x'), { code: 'P1001' }), { reason: 'unreachable', unsent: true }],
      [Object.assign(new Error('x'), { code: 'P1017' }), { reason: 'connection-lost', unsent: false }],
      [
        Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' }),
        { reason: 'timed-out', unsent: true },
      ],
      [Object.assign(new Error('Transaction API error: Transaction not found.'), { code: 'P2028' }), null],
      [new DomainError('NOT_FOUND', 'No such event.'), null],
      // Some other server refusing a fetch is no database fault.
      [
        Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED', syscall: 'connect' }),
        }),
        null,
      ],
      [new Error('ECONNREFUSED'), null],
    ];
    for (const [error, expected] of cases) expect(faultOf(error), String((error as Error).message)).toEqual(expected);
    expect(databaseFault(new DatabaseUnavailable('busy', 'SQLITE_BUSY', false))?.driverCode).toBe('SQLITE_BUSY');
  });
});

describe('PostgreSQL statements are retried once where that is safe', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let db: AlmanacDatabase;
  let direct: pg.Client;
  /** The proxy cut, and time for the pool to see its connections closed (else a write would go out on one). */
  const cut = async () => {
    await proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 100));
  };
  const rows = async (x: number) => Number((await direct.query('SELECT count(*) AS n FROM t WHERE x = $1', [x])).rows[0].n);

  beforeAll(async () => {
    database = await createTestDatabase('postgresql');
    proxy = await startTcpProxy(POSTGRES);
    db = await openDatabase(proxy.through(database.url));
    direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    await direct.query('CREATE TABLE t (x int)');
  });
  afterAll(async () => {
    await db?.close();
    await direct?.end();
    await proxy?.close();
    await database?.drop();
  });

  it('a read whose connection breaks under it is read again', async () => {
    proxy.dropNextStatement();
    expect(await db.prisma.$queryRawUnsafe('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    proxy.dropNextStatement();
    expect(await db.readRows('SELECT 2 AS two', [])).toEqual([{ two: 2 }]);
  });

  it('a write whose connection breaks under it is not sent again: its outcome is unknown', async () => {
    proxy.dropNextStatement();
    expect(faultOf(await rejection(db.prisma.$executeRawUnsafe('INSERT INTO t VALUES (1)')))).toEqual({
      reason: 'connection-lost',
      unsent: false,
    });
    proxy.dropNextStatement();
    expect(faultOf(await rejection(db.prisma.$queryRawUnsafe('INSERT INTO t VALUES (1) RETURNING x')))).not.toBeNull();
    expect(await rows(1)).toBe(0); // neither reached the database, and neither was sent again
  });

  it('a transaction whose start breaks is started again; one that breaks later is not', async () => {
    proxy.dropNextStatement(); // BEGIN
    await db.prisma.$transaction((tx) => tx.$executeRawUnsafe('INSERT INTO t VALUES (2)'));
    expect(await rows(2)).toBe(1);

    const failed = await rejection(
      db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('INSERT INTO t VALUES (3)');
        proxy.dropNextStatement();
        await tx.$queryRawUnsafe('SELECT 1');
      }),
    );
    expect(faultOf(failed)).not.toBeNull();
    expect(await rows(3)).toBe(0); // the transaction died with its connection
  });

  it('a write refused a connection is sent again, once, after a pause; a database still away fails it', async () => {
    await cut();
    setTimeout(() => void proxy.restore(), 100);
    await db.prisma.$executeRawUnsafe('INSERT INTO t VALUES (4)');
    expect(await rows(4)).toBe(1);

    await cut();
    const started = Date.now();
    expect(faultOf(await rejection(db.prisma.$executeRawUnsafe('INSERT INTO t VALUES (5)')))).toEqual({
      reason: 'unreachable',
      unsent: true,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250); // one pause, then the second refusal
    await proxy.restore();
    expect(await db.prisma.$queryRawUnsafe('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(await rows(5)).toBe(0);
  });
});

/** Log lines written by a server under test. */
function capturedLogger() {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

/** What every answer of a fault carries: 503 and Retry-After in whole seconds. */
function expectUnavailable(response: TestResponse, what: string) {
  expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBe(503);
  expect(response.headers.get('retry-after'), what).toMatch(/^[1-9]\d*$/);
}

describe('on PostgreSQL, each API answers a database it cannot reach with 503 and Retry-After, then recovers', () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await startTcpProxy(POSTGRES);
  });
  afterAll(async () => {
    await proxy?.close();
  });
  const { logger, lines } = capturedLogger();
  const api = useTestServer('postgresql', {}, { databaseUrl: (url) => proxy.through(url), logger });

  it('in the calendar REST API, the task API, GraphQL, the pages and feeds, and health', async () => {
    const created = await api.request('POST', `${NS}/events`, {
      body: { title: 'Before the fault', start_date: daysFromNow(5), end_date: daysFromNow(5, '12:00:00'), status: 'publish' },
      key: ADMIN_KEY,
    });
    expect(created.status).toBe(201);
    const slug = created.json.slug as string;
    const editor = api.keys.editor;
    const requests: Record<string, () => Promise<TestResponse>> = {
      'REST list': () => api.request('GET', `${NS}/events`),
      'REST create': () =>
        api.request('POST', `${NS}/events`, {
          body: { title: 'During the fault', start_date: daysFromNow(6), end_date: daysFromNow(6, '12:00:00') },
          key: ADMIN_KEY,
        }),
      'task API list': () => api.request('GET', '/api/v1/tasks', { key: editor }),
      'GraphQL query': () => api.request('POST', '/graphql', { body: { query: '{ events { total } }' }, key: editor }),
      'GraphQL GET': () => api.request('GET', `/graphql?query=${encodeURIComponent('{ venues { total } }')}`),
      'GraphQL mutation': () =>
        api.request('POST', '/graphql', { body: { query: 'mutation { createTag(input: { name: "During" }) { id } }' }, key: ADMIN_KEY }),
      'event page': () => api.request('GET', `/event/${slug}/`),
      'list page': () => api.request('GET', '/events/'),
      feed: () => api.request('GET', '/events/?ical=1'),
      health: () => api.request('GET', '/healthz'),
    };

    await proxy.cut();
    lines.length = 0;
    const answers: Record<string, TestResponse> = {};
    for (const [what, send] of Object.entries(requests)) {
      answers[what] = await send();
      expectUnavailable(answers[what], what);
    }
    for (const what of ['REST list', 'REST create']) {
      const { code, message, data } = answers[what].json;
      expect({ code, status: data.status }).toEqual({ code: 'database_unavailable', status: 503 });
      expect(message).toMatch(/database/i);
    }
    expect(answers['task API list'].json).toEqual({ success: false, error: expect.stringMatching(/database/i) });
    for (const what of ['GraphQL query', 'GraphQL GET', 'GraphQL mutation']) {
      const { errors } = answers[what].json;
      expect(errors?.[0]?.extensions, what).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: expect.any(Number) });
      expect(JSON.stringify(errors), what).not.toMatch(/Prisma|postgres|127\.0\.0\.1|stack/i);
    }
    for (const what of ['event page', 'list page']) {
      expect(answers[what].headers.get('content-type'), what).toMatch(/^text\/html/);
      expect(answers[what].text, what).toMatch(/unavailable for a moment/);
    }
    expect(answers.feed.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answers.health.json).toEqual({ status: 'unavailable', database: 'postgresql' });

    // One line per answered request (health answers for itself), naming the fault, without a stack or the driver's words.
    const faults = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'database unavailable');
    expect(faults).toHaveLength(Object.keys(requests).length - 1);
    for (const entry of faults) expect(entry).toMatchObject({ level: 50, requestId: expect.any(String), database: 'unreachable' });
    // Background loops (task run sweeps, webhook deliveries) meet the fault too: a line each, no stack either.
    const otherErrors = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50 && entry.msg !== 'database unavailable');
    for (const entry of otherErrors)
      expect(entry.err).toEqual({ type: 'DatabaseUnavailable', database: 'unreachable', code: expect.any(String) });
    expect(lines.join('\n')).not.toMatch(/stack|Prisma|Can't reach/);

    await proxy.restore();
    for (const [what, send] of Object.entries(requests)) {
      const response = await send();
      expect(response.status, `${what} after the fault: ${response.text.slice(0, 300)}`).toBeLessThan(300);
    }
  });
});

describe('on SQLite, a database locked past the busy timeout is answered 503 with Retry-After', () => {
  const { logger, lines } = capturedLogger();
  const api: TestServer = useTestServer('sqlite', {}, { logger });

  it('for writes through REST and GraphQL, then recovers', { timeout: 60_000 }, async () => {
    // The key's last use is written at most once a minute: written now, not while the lock is held.
    expect((await api.request('GET', `${NS}/events`, { key: ADMIN_KEY })).status).toBe(200);
    const holder = new Database(sqliteFile(api.databaseUrl));
    try {
      holder.exec('BEGIN EXCLUSIVE'); // another process holding the write lock for 10 s and more
      const body = { title: 'Locked out', start_date: daysFromNow(7), end_date: daysFromNow(7, '12:00:00') };
      const [rest, graphql] = await Promise.all([
        api.request('POST', `${NS}/events`, { body, key: ADMIN_KEY }),
        api.request('POST', '/graphql', { body: { query: 'mutation { createTag(input: { name: "Locked" }) { id } }' }, key: ADMIN_KEY }),
      ]);
      expectUnavailable(rest, 'REST create');
      expect(rest.json.code).toBe('database_unavailable');
      expectUnavailable(graphql, 'GraphQL mutation');
      expect(graphql.json.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const body = { title: 'Let in', start_date: daysFromNow(7), end_date: daysFromNow(7, '12:00:00') };
    // At once: a transaction that could not begin leaves nothing behind (src/db/sqlite-transactions.ts).
    expect((await api.request('POST', `${NS}/events`, { body, key: ADMIN_KEY })).status).toBe(201);
    const faults = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'database unavailable');
    expect(faults).toHaveLength(2);
    // Busy past the busy timeout, or (the second, waiting its turn behind the first) Prisma's maxWait.
    for (const entry of faults) expect(['busy', 'timed-out']).toContain(entry.database);
  });
});
