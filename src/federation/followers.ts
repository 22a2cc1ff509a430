// The calendar's followers: kept when a Follow is accepted, dropped on Undo or by an administrator,
// and what administrators may read of the federation (followers, recent deliveries).
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Viewer } from '../calendar/capabilities.js';
import type { Config } from '../config.js';
import { CalendarError } from '../calendar/errors.js';
import type { Prisma } from '../db/client.js';
import { federationUrls } from './urls.js';

/** A delivery was queued on this process: its worker looks at once instead of at its next round. */
export const deliverySignals = new EventEmitter<{ queued: [] }>();

export interface NewFollower {
  actorId: string;
  handle: string;
  inbox: string;
  sharedInbox: string | null;
  followId: string;
}

/** Keeps the follower and queues the Accept in one transaction: an accepted follower always hears. */
export async function recordFollower(prisma: Prisma, follower: NewFollower, accept: { id: string; body: string }): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const { actorId, ...rest } = follower;
    await tx.federationFollower.upsert({ where: { actorId }, create: follower, update: rest });
    await tx.federationDelivery.create({
      data: { id: randomUUID(), activityId: accept.id, activityType: 'Accept', inbox: follower.inbox, body: accept.body },
    });
  });
  deliverySignals.emit('queued');
}

/** Undo Follow: drops the follower (only the actor that followed can undo its own follow). */
export async function forgetFollower(prisma: Prisma, actorId: string): Promise<boolean> {
  return (await prisma.federationFollower.deleteMany({ where: { actorId } })).count > 0;
}

function requireAdministrator(viewer: Viewer): void {
  if (!viewer) throw new CalendarError('UNAUTHENTICATED', 'The federation needs an administrator API key (header x-api-key).');
  if (viewer.role !== 'administrator') throw new CalendarError('FORBIDDEN', 'Only administrators may see and manage the federation.');
}

export async function listFollowers(prisma: Prisma, viewer: Viewer, first: number) {
  requireAdministrator(viewer);
  const [count, items] = await Promise.all([
    prisma.federationFollower.count(),
    prisma.federationFollower.findMany({ orderBy: { createdAt: 'desc' }, take: first }),
  ]);
  return { count, items };
}

export async function listDeliveries(prisma: Prisma, viewer: Viewer, first: number, failedOnly: boolean) {
  requireAdministrator(viewer);
  return prisma.federationDelivery.findMany({
    where: failedOnly ? { status: 'failed' } : {},
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: first,
  });
}

/** An administrator removes a follower: it gets nothing more (its pending deliveries are dropped too). */
export async function removeFollower(prisma: Prisma, viewer: Viewer, actorId: string) {
  requireAdministrator(viewer);
  const follower = await prisma.federationFollower.findUnique({ where: { actorId } });
  if (!follower) throw new CalendarError('NOT_FOUND', `No follower "${actorId}".`);
  await prisma.$transaction(async (tx) => {
    await tx.federationFollower.delete({ where: { actorId } });
    // Its own inbox only: a shared inbox still serves the server's other followers.
    await tx.federationDelivery.updateMany({
      where: { inbox: follower.inbox, status: 'pending' },
      data: { status: 'failed', lastError: 'the follower was removed' },
    });
  });
  return follower;
}

/** What an administrator sees first: whether federation is on and the calendar's handle. */
export function federationOverview(viewer: Viewer, config: Config) {
  requireAdministrator(viewer);
  const urls = federationUrls(config);
  return { enabled: config.federation.enabled, handle: `@${urls.handle}@${urls.host}`, actorId: urls.actorId.href };
}
