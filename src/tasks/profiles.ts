// Browser profiles: the cookies and local storage a task's runs start with and save back when they
// end, kept under a name so that a login survives from one task to the next (browser-use's user data
// dir, Skyvern's browser sessions). A profile belongs to the user of the key that made it, like saved
// tools, so a rotated key keeps its logins; another user's profile does not exist for the caller.
// Stored sealed with ALMANAC_SECRET_KEY (AES-256-GCM); no API returns its contents.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../db/client.js';
import type { StorageState } from './browser.js';
import { invalid, TaskError } from './errors.js';
import { openText, sealText } from './secrets.js';
import type { Owner } from './tasks.js';

const NAME_RULE = /^[A-Za-z0-9_.-]{1,64}$/;
/** How many profiles one user may keep. */
export const MAX_PROFILES = 50;
/** A profile's stored state at most; past it local storage is dropped and only cookies are kept. */
export const MAX_PROFILE_CHARS = 1024 * 1024;
const PURPOSE = 'almanac browser profiles';

/** create's `profile`, for both APIs. */
export const PROFILE_DOC =
  'A browser profile of the caller (a name, ^[A-Za-z0-9_.-]{1,64}$): each run starts with its cookies and local storage and saves them back when it ends, so a login survives from task to task. A new name makes the profile. Needs ALMANAC_SECRET_KEY: stored encrypted, never returned.';

export interface ProfileView {
  name: string;
  /** Cookies and origins with local storage it holds: enough to tell a used profile from an empty one. */
  cookies: number;
  origins: number;
  bytes: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Create's `profile`: a name (letters, digits, `_ . -`, at most 64); null when absent. */
export function validateProfileName(value: unknown, field = 'profile'): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !NAME_RULE.test(value)) throw invalid(field, 'must match ^[A-Za-z0-9_.-]{1,64}$');
  return value;
}

/** The state a run starts with: the profile's, or undefined when the profile is new. */
export async function loadProfile(prisma: Prisma, secretKey: string, ownerId: number, name: string): Promise<StorageState | undefined> {
  const row = await prisma.browserProfile.findUnique({ where: { ownerId_name: { ownerId, name } }, select: { state: true } });
  return row ? (JSON.parse(openText(row.state, secretKey, PURPOSE)) as StorageState) : undefined;
}

/**
 * Keeps `storage` as the profile (made on its first save). Two runs of one profile that end together:
 * the last to end wins, as two browser windows sharing a profile would. Past MAX_PROFILES a new one
 * is not made (false).
 */
export async function saveProfile(
  prisma: Prisma,
  secretKey: string,
  ownerId: number,
  name: string,
  storage: StorageState,
): Promise<boolean> {
  let kept = storage;
  if (JSON.stringify(kept).length > MAX_PROFILE_CHARS) kept = { cookies: storage.cookies, origins: [] };
  const text = JSON.stringify(kept);
  const data = {
    state: sealText(text, secretKey, PURPOSE),
    cookies: kept.cookies.length,
    origins: kept.origins.length,
    bytes: text.length,
  };
  const { count } = await prisma.browserProfile.updateMany({ where: { ownerId, name }, data });
  if (count) return true;
  if ((await prisma.browserProfile.count({ where: { ownerId } })) >= MAX_PROFILES) return false;
  await prisma.browserProfile.upsert({
    where: { ownerId_name: { ownerId, name } },
    create: { id: randomUUID(), ownerId, name, ...data },
    update: data,
  });
  return true;
}

const VIEW = { name: true, cookies: true, origins: true, bytes: true, createdAt: true, updatedAt: true } as const;

export function listProfiles(prisma: Prisma, owner: Owner): Promise<ProfileView[]> {
  return prisma.browserProfile.findMany({ where: { ownerId: owner.userId }, select: VIEW, orderBy: { name: 'asc' } });
}

/** Deletes one of the caller's profiles and answers what it was; tasks naming it start logged out again. */
export async function deleteProfile(prisma: Prisma, owner: Owner, name: string): Promise<ProfileView> {
  const valid = validateProfileName(name, 'name')!;
  const row = await prisma.browserProfile.findUnique({ where: { ownerId_name: { ownerId: owner.userId, name: valid } }, select: VIEW });
  if (!row) throw new TaskError('not_found', `No browser profile named "${valid}".`);
  await prisma.browserProfile.deleteMany({ where: { ownerId: owner.userId, name: valid } });
  return row;
}
