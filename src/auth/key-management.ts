// Managing API keys: a user lists, creates, rotates and revokes their own keys; an administrator
// anyone's; the command line (`npm run keys`) acts as the system. A key is shown once, when it is
// made; afterwards only its prefix, label and dates. Revocation takes effect at once in this
// process and within the resolver's cache time (5 s) in the others; subscriptions opened with the
// key end.
import type { Prisma } from '../db/client.js';
import { DomainError } from '../domain-error.js';
import { checkHttpUrl } from '../net/http-url.js';
import { hashApiKey, newApiKey } from './api-keys.js';
import { keySignals } from './key-signals.js';
import type { Viewer } from './viewer.js';

export type KeyErrorCode = 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'invalid';

export class KeyError extends DomainError<KeyErrorCode> {}

/** Who acts: a caller of the API, or the command line. */
export type KeyActor = Viewer | 'system';

export interface ApiKeyRecord {
  id: number;
  userId: number;
  login: string;
  prefix: string;
  label: string;
  /** Where run events of tasks created with the key go when the task names no webhookUrl. */
  defaultWebhookUrl: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const MAX_LABEL = 200;
const select = {
  id: true,
  userId: true,
  prefix: true,
  label: true,
  defaultWebhookUrl: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  user: { select: { login: true } },
} as const;
type Row = Omit<ApiKeyRecord, 'login'> & { user: { login: string } };
const record = ({ user, ...row }: Row): ApiKeyRecord => ({ ...row, login: user.login });

function actingFor(actor: KeyActor, userId: number | undefined): number | 'any' {
  if (actor === 'system') return userId ?? 'any';
  if (userId !== undefined && userId !== actor.userId && actor.role !== 'administrator') {
    throw new KeyError('forbidden', "Only administrators may manage other users' keys.");
  }
  return userId ?? actor.userId;
}

/** The key `id`, if the actor may manage it (someone else's key is "not found" to a non-administrator). */
async function manageable(prisma: Prisma, actor: KeyActor, id: number) {
  const row = await prisma.apiKey.findUnique({ where: { id }, select: { ...select, hash: true } });
  if (!row || (actor !== 'system' && actor.role !== 'administrator' && row.userId !== actor.userId)) {
    throw new KeyError('not_found', `No API key with id ${id}.`);
  }
  return row;
}

function checkLabel(label: string | undefined): string {
  const value = (label ?? '').trim();
  if (value.length > MAX_LABEL) throw new KeyError('invalid', `label must be at most ${MAX_LABEL} characters`);
  return value;
}

/** Keys of a user (the actor's own by default; the system with no user: everyone's), newest first. */
export async function listKeys(prisma: Prisma, actor: KeyActor, userId?: number): Promise<ApiKeyRecord[]> {
  const owner = actingFor(actor, userId);
  const rows = await prisma.apiKey.findMany({
    where: owner === 'any' ? {} : { userId: owner },
    select,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return rows.map(record);
}

/** A new key for a user (the actor by default). The key itself is in the answer, and nowhere else. */
export async function createKey(
  prisma: Prisma,
  actor: KeyActor,
  input: { userId?: number; label?: string },
): Promise<{ key: string; record: ApiKeyRecord }> {
  const owner = actingFor(actor, input.userId);
  if (owner === 'any') throw new KeyError('invalid', 'Name the user the key is for.');
  const label = checkLabel(input.label);
  if (!(await prisma.user.findUnique({ where: { id: owner }, select: { id: true } })))
    throw new KeyError('not_found', `No user with id ${owner}.`);
  const key = newApiKey();
  const row = await prisma.apiKey.create({ data: { userId: owner, hash: hashApiKey(key), prefix: key.slice(0, 8), label }, select });
  return { key, record: record(row) };
}

/** Revokes a key; revoking a revoked key changes nothing. */
export async function revokeKey(prisma: Prisma, actor: KeyActor, id: number): Promise<ApiKeyRecord> {
  const { hash, ...row } = await manageable(prisma, actor, id);
  if (row.revokedAt) return record(row);
  const revoked = await prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() }, select });
  keySignals.emit('revoked', hash);
  return record(revoked);
}

/** A new key with the old one's owner and label, and the old one revoked, in one transaction. */
export async function rotateKey(prisma: Prisma, actor: KeyActor, id: number): Promise<{ key: string; record: ApiKeyRecord }> {
  const old = await manageable(prisma, actor, id);
  if (old.revokedAt) throw new KeyError('conflict', `API key ${id} is revoked; create a new one instead.`);
  const key = newApiKey();
  const row = await prisma.$transaction(async (tx) => {
    // Only one rotation of a key can win: the update that revokes it must still find it active.
    const { count } = await tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count !== 1) throw new KeyError('conflict', `API key ${id} is revoked; create a new one instead.`);
    return tx.apiKey.create({
      data: {
        userId: old.userId,
        hash: hashApiKey(key),
        prefix: key.slice(0, 8),
        label: old.label,
        defaultWebhookUrl: old.defaultWebhookUrl,
      },
      select,
    });
  });
  keySignals.emit('revoked', old.hash);
  return { key, record: record(row) };
}

/**
 * Sets the key's default webhook URL, checked as a task's webhookUrl is (an absolute http(s) URL);
 * null or "" removes it. Tasks created with the key afterwards, without a webhookUrl of their own,
 * send their run events there (tasks already made keep theirs). A revoked key cannot be changed.
 */
export async function setKeyWebhookUrl(prisma: Prisma, actor: KeyActor, id: number, url: string | null | undefined): Promise<ApiKeyRecord> {
  let value: string | null = null;
  if (url !== undefined && url !== null && url.trim() !== '') {
    const checked = checkHttpUrl(url.trim());
    if ('rule' in checked) throw new KeyError('invalid', `webhookUrl ${checked.rule}`, { field: 'webhookUrl' });
    value = checked.href;
  }
  const row = await manageable(prisma, actor, id);
  if (row.revokedAt) throw new KeyError('conflict', `API key ${id} is revoked; its webhook URL cannot change.`);
  const { count } = await prisma.apiKey.updateMany({
    where: { id, userId: row.userId, revokedAt: null },
    data: { defaultWebhookUrl: value },
  });
  if (count !== 1) throw new KeyError('conflict', `API key ${id} is revoked; its webhook URL cannot change.`);
  return record(await prisma.apiKey.findUniqueOrThrow({ where: { id }, select }));
}

/** The record of the key `id`, if the actor may manage it. */
export async function getKey(prisma: Prisma, actor: KeyActor, id: number): Promise<ApiKeyRecord> {
  const { hash: _hash, ...row } = await manageable(prisma, actor, id);
  return record(row);
}

/** Is the key still usable? (Subscriptions ask as they go, so a revoked key's streams end.) */
export async function keyIsActive(prisma: Prisma, id: number): Promise<boolean> {
  const row = await prisma.apiKey.findUnique({ where: { id }, select: { revokedAt: true } });
  return Boolean(row && !row.revokedAt);
}
