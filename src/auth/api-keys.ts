// API keys: shown once at creation, stored only as a SHA-256 hash. A request names its key with
// `x-api-key`, `Authorization: Bearer <key>` or `Authorization: Basic base64(login:key)`.
import { createHash, randomBytes } from 'node:crypto';
import type { Prisma } from '../db/client.js';
import type { Viewer } from './viewer.js';
import { isRole } from './viewer.js';
import { keySignals } from './key-signals.js';

const LAST_USED_RESOLUTION_MS = 60_000;

export function newApiKey(): string {
  return `alm_${randomBytes(24).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface Credentials {
  key: string;
  login?: string;
}

/** The credentials a request carries, or null. Never logged. */
export function credentialsFromHeaders(headers: Record<string, string | string[] | undefined>): Credentials | null {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.trim()) return { key: apiKey.trim() };
  const authorization = headers.authorization;
  if (typeof authorization !== 'string') return null;
  const [scheme, value = ''] = authorization.trim().split(/\s+/, 2);
  if (/^bearer$/i.test(scheme) && value) return { key: value };
  if (/^basic$/i.test(scheme) && value) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { login: decoded.slice(0, colon), key: decoded.slice(colon + 1).replace(/\s+/g, '') };
  }
  return null;
}

export class UserExistsError extends Error {}

/**
 * Creates a user and returns a fresh API key for it. With `reuse`, an existing user of that login
 * keeps its record and is given the role (the start-up's ALMANAC_ADMIN_KEY user); without it, an
 * existing login is refused, so nobody's role changes by accident.
 */
export async function createUserWithKey(
  prisma: Prisma,
  input: { login: string; role: string; displayName?: string; email?: string; key?: string; label?: string; reuse?: boolean },
): Promise<{ userId: number; key: string }> {
  if (!isRole(input.role)) throw new Error(`role must be one of subscriber, contributor, author, editor, administrator`);
  const key = input.key ?? newApiKey();
  return prisma.$transaction(async (tx) => {
    if (!input.reuse) {
      const existing = await tx.user.findUnique({ where: { login: input.login }, select: { role: true } });
      if (existing) throw new UserExistsError(`user ${input.login} already exists (role ${existing.role})`);
    }
    const user = await tx.user.upsert({
      where: { login: input.login },
      create: { login: input.login, role: input.role, displayName: input.displayName ?? input.login, email: input.email ?? '' },
      update: { role: input.role },
    });
    const hash = hashApiKey(key);
    const existing = await tx.apiKey.findUnique({ where: { hash } });
    if (!existing) await tx.apiKey.create({ data: { userId: user.id, hash, prefix: key.slice(0, 8), label: input.label ?? '' } });
    else if (existing.userId !== user.id) throw new Error('that API key already belongs to another user');
    return { userId: user.id, key };
  });
}

/**
 * Resolves credentials to a viewer. Results are cached briefly per key hash, so a busy client costs
 * one lookup every few seconds rather than one per request; revocation takes effect within that time.
 */
export class ApiKeyResolver {
  private cache = new Map<string, { viewer: Viewer | null; until: number }>();
  // A key revoked in this process stops working at once (other processes: within ttlMs).
  private forget = (hash: string) => void this.cache.delete(hash);
  constructor(
    private prisma: Prisma,
    private ttlMs = 5000,
  ) {
    keySignals.on('revoked', this.forget);
  }

  /** Stops listening for revocations (the emitter is process-wide; a closed app must not stay on it). */
  close(): void {
    keySignals.off('revoked', this.forget);
  }

  async resolve(credentials: Credentials | null): Promise<Viewer | null | 'invalid'> {
    if (!credentials) return null;
    const hash = hashApiKey(credentials.key);
    const now = Date.now();
    let entry = this.cache.get(hash);
    if (!entry || entry.until < now) {
      const row = await this.prisma.apiKey.findUnique({ where: { hash }, include: { user: true } });
      const viewer =
        row && !row.revokedAt && isRole(row.user.role)
          ? { userId: row.user.id, login: row.user.login, role: row.user.role, keyId: row.id }
          : null;
      // last_used_at to the minute: one write per key per minute at most, never one per request.
      if (viewer && (!row!.lastUsedAt || now - row!.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS)) {
        await this.prisma.apiKey.update({ where: { id: row!.id }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
      }
      entry = { viewer, until: now + this.ttlMs };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, entry);
    }
    if (!entry.viewer) return 'invalid';
    if (credentials.login !== undefined && credentials.login !== entry.viewer.login) return 'invalid';
    return entry.viewer;
  }
}
