// What a failed statement means, whatever the engine said it in.

/** A unique constraint refused the write (Prisma's P2002, or the driver's own message). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === 'P2002' || /unique constraint/i.test(e?.message ?? '');
}

/**
 * PostgreSQL ended the transaction to break a deadlock (40P01) or a serialization failure (40001):
 * nothing of it was written, and running it again is the documented answer.
 */
export function isRetryableConflict(error: unknown): boolean {
  const e = error as { code?: string; message?: string; meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } };
  const code = e?.meta?.driverAdapterError?.cause?.originalCode;
  return code === '40P01' || code === '40001' || e?.code === 'P2034' || /deadlock detected/i.test(e?.message ?? '');
}
