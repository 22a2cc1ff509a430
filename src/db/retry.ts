// PostgreSQL statements retried once, after a short pause, when a database fault (src/db/faults.ts)
// failed them and running them again cannot do anything twice. A restart fails the statements of
// its moment: those on connections it closed, and those that found it not yet accepting
// connections; a second try on a new connection often finds it back.
//
// Safe to repeat: a read outside a transaction; any statement outside a transaction that never
// reached the database (no connection could be made); the start of a transaction (a new connection
// and BEGIN, which change nothing). Never repeated: a statement inside a transaction (the
// transaction died with its connection: its earlier statements are gone), nor a write whose
// connection failed under it (it may have been committed, or not; COMMIT is such a write).
// SQLite is not retried: better-sqlite3 already waits out a busy database (its busy timeout).
import type { SqlDriverAdapterFactory, SqlQuery } from '@prisma/driver-adapter-utils';
import { databaseFault } from './faults.js';
import { wrapConnections, wrapStatements, type StatementPlace } from './statements.js';

/** Long enough for a restarting server to accept connections again, short enough not to matter much. */
const RETRY_DELAY_MS = 300;

const pause = () => new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));

/** A read of rows that changes nothing: a SELECT run for its rows (Prisma's reads and readRows). */
const isRead = (query: SqlQuery, place: StatementPlace) => place.method === 'queryRaw' && /^\s*SELECT\b/i.test(query.sql);

/** Whether a statement that failed with `error` may run once more. */
export function mayRepeat(error: unknown, query: SqlQuery, place: StatementPlace): boolean {
  if (place.inTransaction) return false;
  const fault = databaseFault(error);
  return fault !== undefined && (fault.unsent || isRead(query, place));
}

export function retriedOnceWhenSafe<F extends SqlDriverAdapterFactory>(factory: F): F {
  const statements = wrapStatements(
    factory,
    (run, place) => (query) =>
      run(query).catch(async (error: unknown) => {
        if (!mayRepeat(error, query, place)) throw error;
        await pause();
        return run(query);
      }),
  );
  return wrapConnections(statements, (adapter) => {
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = (isolationLevel) =>
      startTransaction(isolationLevel).catch(async (error: unknown) => {
        if (!databaseFault(error)) throw error;
        await pause();
        return startTransaction(isolationLevel);
      });
  });
}
