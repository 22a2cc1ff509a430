// What a failed statement means, whatever the engine said it in.

/** A unique constraint refused the write (Prisma's P2002, or the driver's own message). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === 'P2002' || /unique constraint/i.test(e?.message ?? '');
}
