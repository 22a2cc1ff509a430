// One Prisma client per process, on the driver adapter that DATABASE_URL names. Each provider has
// its own generated client (a client is tied to one provider); both expose the same model API.
import './node-runtime.js';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { createHash } from 'node:crypto';
import { type SqlDriverAdapter, type SqlDriverAdapterFactory, type SqlQuery } from '@prisma/driver-adapter-utils';
import type BetterSqlite3Database from 'better-sqlite3';
import type { PrismaClient } from '../generated/sqlite/client.js';
import { likeWithBackslashEscape } from './like.js';
import { retriedOnceWhenSafe } from './retry.js';
import { BEGUN_ALREADY, beginningImmediately } from './sqlite-transactions.js';
import { wrapStatements } from './statements.js';
import { databaseKind, sqliteFile, type DatabaseKind } from './url.js';

export type Prisma = PrismaClient;

/** A raw read's parameter; id lists only on PostgreSQL (`= ANY($1)`), SQLite binds scalars. */
export type RawArg = number | string | readonly number[];

export interface Database {
  prisma: Prisma;
  kind: DatabaseKind;
  /** Counts SQL statements, for tests and benchmarks that bound statements per request. */
  statements: { count: number };
  /** Calls `listener` with each statement's SQL and parameters (JSON) until the returned function is called (tests read query plans with it). */
  observe(listener: (statement: { query: string; params: string }) => void): () => void;
  /**
   * Rows of one read-only statement (placeholders `?` on SQLite, `$1…` on PostgreSQL), straight
   * on the connection of the driver adapter Prisma uses (SQLite: better-sqlite3 itself; PostgreSQL:
   * the adapter), as objects keyed by column name (booleans as booleans).
   * For the hot joined reads of the domain layer: Prisma's raw-query pipeline cost ~0.3 ms per
   * statement of a list page beyond the statement itself. Counted and traced like Prisma's.
   */
  readRows<T>(sql: string, args: readonly RawArg[]): Promise<T[]>;
  close(): Promise<void>;
}

/** A copy of `value` with NUL characters removed from every string (Dates and bytes untouched). */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\0') ? value.replaceAll('\0', '') : value) as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = withoutNul(item);
    return out as T;
  }
  return value;
}

/**
 * PostgreSQL text cannot hold NUL characters (it would answer with an error, i.e. a 500 from user
 * input); WordPress strips them too. Done once here, on every statement's parameters, on both
 * engines. A Prisma query extension did this before: it cost ~4% of a list request's CPU (every
 * operation's arguments deep-copied, and every result visited by the extension machinery).
 */
function withoutNulParameters<F extends SqlDriverAdapterFactory>(factory: F, connected?: (adapter: SqlDriverAdapter) => void): F {
  const cleaned = (query: SqlQuery): SqlQuery => (query.args.some(hasNul) ? { ...query, args: withoutNul(query.args) } : query);
  return wrapStatements(factory, (run) => (query) => run(cleaned(query)), connected);
}

const hasNul = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.includes('\0')
    : Array.isArray(value)
      ? value.some(hasNul)
      : value !== null &&
        typeof value === 'object' &&
        Object.getPrototypeOf(value) === Object.prototype &&
        Object.values(value).some(hasNul);

const TRACE_SQL = process.env.ALMANAC_TRACE_SQL === '1';

/**
 * How long a write transaction may wait for its turn (a pool connection, SQLite's one connection)
 * and run, its waits for locks included. Prisma's defaults (2 s, 5 s) turned a burst of writes
 * into 500s ("Unable to start a transaction in the given time"): 100 creates of one title at once
 * queue on the slug lock. As long as SQLite's busy timeout, then the write fails.
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 };

/**
 * The adapter's better-sqlite3 connection, adjusted in three ways:
 *
 * - LIKE takes "\" as its escape character, as PostgreSQL's does (src/db/like.ts).
 * - Transactions take the write lock when they begin (BEGIN IMMEDIATE: src/db/sqlite-transactions.ts),
 *   waiting their turn (the busy timeout) if another process holds it. The adapter begins them
 *   DEFERRED: a transaction that reads before it writes (a slug, a term's row) then fails at once
 *   with SQLITE_BUSY ("Operation has timed out", a 500) when another process wrote in between, since
 *   its snapshot is stale; waiting cannot help it. Found by the hostile suite's two processes on one
 *   file (hostile/concurrency.test.ts).
 * - Statements are compiled once per SQL text and kept (the most recent STATEMENT_CACHE_SIZE): the
 *   adapter prepares every statement anew, which was about a fifth of the SQL time of a list page
 *   (SQLite compiles a 32-column SELECT each time). The adapter binds parameters with `bind()`,
 *   which binds a statement for good, so a kept statement is handed out behind a view that passes
 *   each call's parameters to the one call that runs it.
 */
function sqliteConnection(factory: PrismaBetterSqlite3, onReader: (read: SqliteReader) => void): PrismaBetterSqlite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = (adapter as unknown as { client: { prepare(sql: string): unknown } }).client;
    (client as unknown as BetterSqlite3Database.Database).function('like', { deterministic: true }, likeWithBackslashEscape);
    const prepare = client.prepare.bind(client) as (sql: string) => SqliteStatement;
    const kept = new Map<string, SqliteStatement>();
    const statementFor = (text: string) => {
      let statement = kept.get(text);
      if (!statement) {
        statement = prepare(text);
        kept.set(text, statement);
        if (kept.size > STATEMENT_CACHE_SIZE) kept.delete(kept.keys().next().value!);
      }
      return statement;
    };
    client.prepare = (sql: string) => (sql === 'BEGIN' ? BEGUN_ALREADY : reusable(statementFor(sql)));
    beginningImmediately(adapter);
    // readRows on SQLite: rows read as arrays, then made objects by a builder compiled per statement.
    const builders = new WeakMap<SqliteStatement, RowBuilder>();
    onReader((sql, args) => {
      const statement = statementFor(sql);
      let build = builders.get(statement);
      if (!build) builders.set(statement, (build = rowBuilder(statement.columns() as SqliteColumn[])));
      // The adapter reads integers as BigInt (then makes numbers of them); the calendar has no column
      // beyond 2^53, so this read takes plain numbers, then gives the statement back its BigInts
      // (Prisma's own reads set raw mode themselves).
      try {
        return (statement.safeIntegers(false).raw(true).all(args) as unknown[][]).map(build);
      } finally {
        statement.safeIntegers(true);
      }
    });
    return adapter;
  };
  return factory;
}

interface SqliteColumn {
  name: string;
  type: string | null;
}
type RowBuilder = (row: unknown[]) => Record<string, unknown>;

/**
 * A function making one row object of a statement's array row: an object literal with the
 * statement's column names, compiled once per statement. better-sqlite3 builds row objects through
 * V8's API one property at a time, about 40% slower than arrays mapped this way (a 50-event page:
 * 0.60 against 0.37 ms). SQLite stores booleans as 0/1; BOOLEAN columns are made booleans here.
 * The source is named (sourceURL) so that a stack trace through it is recognizable.
 */
export function rowBuilder(columns: readonly SqliteColumn[]): RowBuilder {
  const fields = columns.map((column, i) => {
    // A plain "__proto__" key would set the prototype; a computed one is an own property.
    const key = column.name === '__proto__' ? '["__proto__"]' : JSON.stringify(column.name);
    return isBoolean(column) ? `${key}: typeof r[${i}] === 'number' ? r[${i}] !== 0 : r[${i}]` : `${key}: r[${i}]`;
  });
  return new Function('r', `return { ${fields.join(', ')} };\n//# sourceURL=almanac:sqlite-row-builder`) as RowBuilder;
}
const isBoolean = (column: SqliteColumn) => column.type?.toUpperCase() === 'BOOLEAN';

type SqliteReader = (sql: string, args: readonly unknown[]) => Record<string, unknown>[];

const STATEMENT_CACHE_SIZE = 500;

/** The part of better-sqlite3's Statement the adapter uses. */
interface SqliteStatement {
  readonly reader: boolean;
  columns(): unknown[];
  run(...args: unknown[]): unknown;
  raw(toggle?: boolean): { all(...args: unknown[]): unknown[] };
  safeIntegers(toggle?: boolean): SqliteStatement;
}

/** A kept statement as the adapter uses it: `prepare(sql).bind(args)`, then run or read once. */
const reusable = (statement: SqliteStatement) => ({
  run: () => statement.run(),
  bind: (args: unknown[]) => ({
    reader: statement.reader,
    columns: () => statement.columns(),
    run: () => statement.run(args),
    raw: () => ({ all: () => statement.raw(true).all(args) }),
  }),
});

/** Statements with more parameters than this (long id lists) are not kept: each length is a new text. */
const MAX_KEPT_PARAMETERS = 100;
/**
 * How many distinct statement texts a process names (per generation); later ones run unnamed. A
 * connection keeps every statement named on it until it closes (node-postgres never deallocates),
 * and texts vary with what a client asks (the columns a selection reads, the filters a list
 * combines), so without a bound a client could grow every connection, and the server's backends,
 * without end. The first texts named are those asked first and most: the routes' own.
 */
export const MAX_NAMED_STATEMENTS = 1_000;
const statementNames = new Map<string, string>();
/** Bumped when the server refuses a kept statement: every statement is then prepared anew. */
let statementGeneration = 0;

/**
 * PostgreSQL: a statement is prepared once per connection and kept there, named after its text, as
 * SQLite's are (sqliteConnection): the driver adapter sends each statement unnamed, so the server
 * parsed and planned it again on every execution — ~0.9 ms of a 1.4 ms joined read of a page, and
 * about 40% of a REST list's throughput. A statement with many parameters stays unnamed, and so
 * does any beyond the first MAX_NAMED_STATEMENTS texts, so that a connection keeps a bounded set.
 */
function preparedStatementName(query: SqlQuery): string {
  if (query.args.length > MAX_KEPT_PARAMETERS) return undefined as unknown as string; // unnamed
  let name = statementNames.get(query.sql);
  if (!name) {
    if (statementNames.size >= MAX_NAMED_STATEMENTS) return undefined as unknown as string; // unnamed
    name = `almanac${statementGeneration}_${createHash('sha256').update(query.sql).digest('base64url').slice(0, 32)}`;
    statementNames.set(query.sql, name);
  }
  return name;
}

/**
 * How statements are named on `url`: kept (preparedStatementName), unless the URL says
 * `pgbouncer=true` (Prisma's own convention): PgBouncer's transaction pooling hands a server
 * session, with its prepared statements, to other clients, so statements stay unnamed there.
 */
export function statementNaming(url: string): ((query: SqlQuery) => string) | undefined {
  return new URL(url).searchParams.get('pgbouncer') === 'true' ? undefined : preparedStatementName;
}

/** "cached plan must not change result type": a migration changed a column a kept statement reads. */
const isStalePlan = (error: unknown) => (error as { cause?: { originalCode?: string } })?.cause?.originalCode === '0A000';

/**
 * A kept statement whose result changed shape under it (another process migrated the schema) fails
 * on its connection for good: the names move to a new generation, so statements are prepared again,
 * and a statement outside a transaction is retried once (the failure happens before it runs).
 * Inside a transaction the error stands: PostgreSQL has aborted the transaction.
 */
function preparedAgainOnStalePlans<F extends SqlDriverAdapterFactory>(factory: F): F {
  return wrapStatements(
    factory,
    (run, { inTransaction }) =>
      (query) =>
        run(query).catch((error: unknown) => {
          if (!isStalePlan(error)) throw error;
          statementGeneration++;
          statementNames.clear();
          if (inTransaction) throw error;
          return run(query);
        }),
  );
}

export async function openDatabase(url: string, options: { poolSize?: number } = {}): Promise<Database> {
  const kind = databaseKind(url);
  const statements = { count: 0 };
  let prisma: Prisma;
  // The adapter Prisma connected (it connects once, at the first statement).
  let connectedAdapter: SqlDriverAdapter | undefined;
  const keep = (adapter: SqlDriverAdapter) => void (connectedAdapter = adapter);
  let sqliteReader: SqliteReader | undefined;
  if (kind === 'sqlite') {
    const { PrismaClient } = await import('../generated/sqlite/client.js');
    const adapter = withoutNulParameters(
      sqliteConnection(new PrismaBetterSqlite3({ url: sqliteFile(url), timeout: 10_000 }), (read) => (sqliteReader = read)),
      keep,
    );
    prisma = new PrismaClient({
      adapter,
      log: [{ emit: 'event', level: 'query' }],
      transactionOptions: TRANSACTION_OPTIONS,
    }) as Prisma;
  } else if (kind === 'postgresql') {
    const { PrismaClient } = await import('../generated/postgresql/client.js');
    const adapter = withoutNulParameters(
      retriedOnceWhenSafe(
        preparedAgainOnStalePlans(
          new PrismaPg({ connectionString: url, max: options.poolSize ?? 10 }, { statementNameGenerator: statementNaming(url) }),
        ),
      ),
      keep,
    );
    prisma = new PrismaClient({
      adapter,
      log: [{ emit: 'event', level: 'query' }],
      transactionOptions: TRANSACTION_OPTIONS,
    }) as unknown as Prisma;
  } else {
    throw new Error('DATABASE_URL must be file:<path> or postgresql://…');
  }
  const observers = new Set<(statement: { query: string; params: string }) => void>();
  const ran = (query: string, params: () => string, duration: number) => {
    statements.count++;
    for (const observer of observers) observer({ query, params: params() });
    // A profiling aid (bench counts statements per request with it); parameters are never written.
    if (TRACE_SQL) process.stderr.write(`SQL ${duration}ms ${query}\n`);
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Prisma types $on('query') only for a client built with log options; this one gets them from the adapter's factory
  (prisma as any).$on('query', (e: any) => ran(e.query, () => e.params, e.duration));
  if (kind === 'sqlite') {
    // WAL lets readers proceed while a writer commits; NORMAL sync is durable at each checkpoint.
    await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await prisma.$queryRawUnsafe('PRAGMA foreign_keys = ON');
  }
  const observe = (listener: (statement: { query: string; params: string }) => void) => {
    observers.add(listener);
    return () => void observers.delete(listener);
  };
  // PostgreSQL: the adapter hands rows over as arrays, made objects by a compiled builder as on SQLite.
  const pgBuilders = new Map<string, { columns: string; build: RowBuilder }>();
  const readRows = async <T>(sql: string, args: readonly RawArg[]): Promise<T[]> => {
    if (!connectedAdapter) await prisma.$connect();
    const started = performance.now();
    if (sqliteReader) {
      const rows = sqliteReader(sql, args.some(hasNul) ? withoutNul(args) : args);
      ran(sql, () => JSON.stringify(args), performance.now() - started);
      return rows as T[];
    }
    const argTypes = args.map(
      (arg) => ({ scalarType: typeof arg === 'string' ? 'string' : 'int', arity: Array.isArray(arg) ? 'list' : 'scalar' }) as const,
    );
    const result = await connectedAdapter!.queryRaw({ sql, args: [...args], argTypes });
    ran(sql, () => JSON.stringify(args), performance.now() - started);
    // Kept per SQL text, checked against the column names (a migration may change what a text
    // returns). pg hands booleans over as booleans: the builder needs the names only.
    const columns = result.columnNames.join('\0');
    let kept = pgBuilders.get(sql);
    if (kept?.columns !== columns) {
      kept = { columns, build: rowBuilder(result.columnNames.map((name) => ({ name, type: null }))) };
      pgBuilders.set(sql, kept);
      if (pgBuilders.size > STATEMENT_CACHE_SIZE) pgBuilders.delete(pgBuilders.keys().next().value!);
    }
    return result.rows.map(kept.build) as T[];
  };
  return { prisma, kind, statements, observe, readRows, close: () => prisma.$disconnect() };
}
