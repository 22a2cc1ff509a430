// How transactions begin on SQLite. The driver adapter's startTransaction takes a mutex of its own,
// then runs BEGIN; a BEGIN that fails — SQLITE_BUSY past the busy timeout, another process holding
// the write lock — leaves that mutex taken for good, and every later transaction of the process
// waits for ever (Prisma gives up after maxWait: every write a 503, the server never recovering).
// So each transaction begins here, under a lock of Almanac's own, with BEGIN IMMEDIATE (the write
// lock at once, waiting its turn: see sqliteConnection in src/db/client.ts); the adapter then takes
// its mutex, which is always free, and its BEGIN does nothing. A BEGIN that fails releases the lock.
import type { SqlDriverAdapter, Transaction } from '@prisma/driver-adapter-utils';

/** What the connection hands the adapter for its own BEGIN: the transaction has begun already. */
export const BEGUN_ALREADY = { run: () => undefined };

const statement = (sql: string) => ({ sql, args: [], argTypes: [] });

export function beginningImmediately(adapter: SqlDriverAdapter): void {
  const startTransaction = adapter.startTransaction.bind(adapter);
  let queue: Promise<void> = Promise.resolve();
  /** Waits for the previous transaction to end; resolves with the function that ends this one's turn. */
  const turn = (): Promise<() => void> => {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const previous = queue;
    queue = queue.then(() => ended);
    return previous.then(() => end);
  };
  adapter.startTransaction = async (isolationLevel): Promise<Transaction> => {
    const end = await turn();
    try {
      await adapter.executeRaw(statement('BEGIN IMMEDIATE')); // a DriverAdapterError when busy, as Prisma expects
    } catch (error) {
      end();
      throw error;
    }
    let transaction: Transaction;
    try {
      transaction = await startTransaction(isolationLevel);
    } catch (error) {
      await adapter.executeRaw(statement('ROLLBACK')).catch(() => undefined);
      end();
      throw error;
    }
    // Prisma runs COMMIT or ROLLBACK as statements, then calls one of these: the turn ends there.
    for (const method of ['commit', 'rollback'] as const) {
      const finish = transaction[method].bind(transaction);
      transaction[method] = () => finish().finally(end);
    }
    return transaction;
  };
}
