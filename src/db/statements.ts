// How every statement of a driver adapter runs, wrapped: the layers of src/db/client.ts (NUL
// characters, kept statements, retries) each wrap the adapter Prisma connects this way.
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlQueryable } from '@prisma/driver-adapter-utils';

export type RunStatement = (query: SqlQuery) => Promise<never>;

/** Where a statement runs: inside a transaction or not, and as a read of rows (queryRaw) or not. */
export interface StatementPlace {
  inTransaction: boolean;
  method: 'queryRaw' | 'executeRaw';
}

/**
 * Wraps how every statement runs — queryRaw and executeRaw of the adapter a factory connects and of
 * each transaction it starts — with `wrap` (told where the statement runs).
 */
export function wrapStatements<F extends SqlDriverAdapterFactory>(
  factory: F,
  wrap: (run: RunStatement, place: StatementPlace) => RunStatement,
  connected?: (adapter: SqlDriverAdapter) => void,
): F {
  const patch = <Q extends SqlQueryable>(queryable: Q, inTransaction: boolean): Q => {
    for (const method of ['queryRaw', 'executeRaw'] as const) {
      const run = queryable[method].bind(queryable) as RunStatement;
      (queryable as Record<typeof method, RunStatement>)[method] = wrap(run, { inTransaction, method });
    }
    return queryable;
  };
  return wrapConnections(factory, (adapter) => {
    patch(adapter, false);
    connected?.(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => patch(await startTransaction(isolationLevel), true);
  });
}

/** Calls `adjust` with each adapter the factory connects, before Prisma uses it. */
export function wrapConnections<F extends SqlDriverAdapterFactory>(factory: F, adjust: (adapter: SqlDriverAdapter) => void): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async (): Promise<SqlDriverAdapter> => {
    const adapter = await connect();
    adjust(adapter);
    return adapter;
  };
  return factory;
}
