// From the change log to the delivery queue. The federation reads the calendar's change log
// (src/calendar/changes.ts) as an anonymous visitor would, from its own cursor, and turns each
// event that changed into one activity per follower inbox. The rows are inserted in the same
// transaction that moves the cursor (compare-and-set): a restart between a publication and its
// delivery finds the rows waiting, and two processes never queue the same changes twice.
//
// Series: an occurrence is announced only when it comes within FEDERATION_SERIES_DAYS of now
// (a sweep queues those that have come near), never the whole series at once: a weekly series
// expands two years ahead, and a hundred posts in a follower's timeline would bury it.
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import { changeLogHead, readChanges } from '../calendar/changes.js';
import { CalendarError } from '../calendar/errors.js';
import { eventActivity, type EventActivityType } from './activities.js';
import { isPublic, loadEvent, type FederatedEventRow } from './event-object.js';
import type { FederationUrls } from './urls.js';

const CURSOR = 'events';
/** Changes read per round at most. */
const CHANGES_PER_ROUND = 100;

/** The distinct inboxes of the followers: a server's shared inbox once, else each actor's own. */
export async function followerInboxes(prisma: Prisma): Promise<string[]> {
  const followers = await prisma.federationFollower.findMany({ select: { inbox: true, sharedInbox: true } });
  return [...new Set(followers.map((f) => f.sharedInbox || f.inbox))];
}

const utcWall = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

/** Whether an event is due to be announced now: a single event always, an occurrence once near. */
export function isNear(event: Pick<FederatedEventRow, 'seriesId' | 'startUtc' | 'endUtc'>, config: Config, now: Date): boolean {
  if (event.seriesId === null) return true;
  const horizon = utcWall(new Date(now.getTime() + config.federation.seriesDays * 86_400_000));
  return event.startUtc <= horizon && event.endUtc >= utcWall(now);
}

interface Planned {
  eventId: number;
  type: EventActivityType;
  id: string;
  body: string;
}

/** An activity's id and body, built only when some inbox will receive it: with no follower the
 *  objects' state still moves on, and the JSON-LD work (the largest part of a round) is skipped. */
const NO_BODY = { id: '', body: '' };

/** What the fediverse should hear of event `eventId` now, given what it was told before. */
async function plan(
  prisma: Prisma,
  config: Config,
  urls: FederationUrls,
  eventId: number,
  now: Date,
  withBody: boolean,
): Promise<Planned | null> {
  const [event, told] = await Promise.all([loadEvent(prisma, eventId), prisma.federationObject.findUnique({ where: { eventId } })]);
  const known = told !== null && !told.deleted;
  if (event && isPublic(event) && (known || isNear(event, config, now))) {
    const type = known ? 'Update' : 'Create';
    return { eventId, type, ...(withBody ? await eventActivity(type, urls, eventId, event) : NO_BODY) };
  }
  if (known) return { eventId, type: 'Delete', ...(withBody ? await eventActivity('Delete', urls, eventId) : NO_BODY) };
  return null;
}

type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];

async function record(tx: Tx, planned: Planned, inboxes: string[]) {
  const deleted = planned.type === 'Delete';
  await tx.federationObject.upsert({
    where: { eventId: planned.eventId },
    create: { eventId: planned.eventId, deleted },
    update: { deleted, ...(planned.type === 'Create' ? { announcedAt: new Date() } : {}) },
  });
  if (!inboxes.length) return;
  await tx.federationDelivery.createMany({
    data: inboxes.map((inbox) => ({
      id: randomUUID(),
      activityId: planned.id,
      activityType: planned.type,
      eventId: planned.eventId,
      inbox,
      body: planned.body,
    })),
  });
}

/** The events the changes concern: each changed event, and the announced events at a changed venue
 *  (their Place and address are part of the Event). */
async function changedEvents(prisma: Prisma, changes: Array<{ type: string; id: number }>): Promise<number[]> {
  const ids = new Set(changes.filter((change) => change.type === 'event').map((change) => change.id));
  const venues = changes.filter((change) => change.type === 'venue').map((change) => change.id);
  if (venues.length) {
    const atVenues = await prisma.eventVenue.findMany({ where: { venueId: { in: venues } }, select: { eventId: true } });
    const told = await prisma.federationObject.findMany({
      where: { eventId: { in: atVenues.map((link) => link.eventId) }, deleted: false },
      select: { eventId: true },
    });
    for (const { eventId } of told) ids.add(eventId);
  }
  return [...ids];
}

/** Queues the activities of the changes after the cursor; how many activities it queued. */
export async function queueChanges(prisma: Prisma, config: Config, urls: FederationUrls, now = new Date()): Promise<number> {
  const row = await prisma.federationCursor.findUnique({ where: { name: CURSOR } });
  if (!row) {
    // The first round starts from now: what was published before federation was on is not news.
    const head = await changeLogHead(prisma);
    await prisma.federationCursor.createMany({ data: [{ name: CURSOR, cursor: head }] }).catch(() => undefined);
    return 0;
  }
  let page;
  try {
    page = await readChanges(prisma, { after: row.cursor, first: CHANGES_PER_ROUND, types: ['event', 'venue'], viewer: null });
  } catch (error) {
    if (!(error instanceof CalendarError) || error.code !== 'CURSOR_EXPIRED') throw error;
    // Down longer than the log keeps changes: start again from now (the sweep still finds what is near).
    await prisma.federationCursor.updateMany({
      where: { name: CURSOR, cursor: row.cursor },
      data: { cursor: await changeLogHead(prisma) },
    });
    return 0;
  }
  if (page.cursor === row.cursor) return 0;
  const inboxes = await followerInboxes(prisma);
  const planned: Planned[] = [];
  for (const eventId of await changedEvents(prisma, page.changes)) {
    const activity = await plan(prisma, config, urls, eventId, now, inboxes.length > 0);
    if (activity) planned.push(activity);
  }
  return prisma.$transaction(async (tx) => {
    const moved = await tx.federationCursor.updateMany({ where: { name: CURSOR, cursor: row.cursor }, data: { cursor: page.cursor } });
    if (moved.count !== 1) return 0; // another process queued these changes
    for (const activity of planned) await record(tx, activity, inboxes);
    return planned.length;
  });
}

/**
 * Announces the occurrences that came within the horizon since the last sweep. Each is claimed by
 * inserting its FederationObject row: a second process's insert fails and queues nothing.
 */
export async function sweepNearOccurrences(prisma: Prisma, config: Config, urls: FederationUrls, now = new Date()): Promise<number> {
  const horizon = utcWall(new Date(now.getTime() + config.federation.seriesDays * 86_400_000));
  const near = await prisma.event.findMany({
    where: { seriesId: { not: null }, status: 'publish', password: '', startUtc: { lte: horizon }, endUtc: { gte: utcWall(now) } },
    select: { id: true },
    orderBy: { startUtc: 'asc' },
    take: 200,
  });
  const told = new Set(
    (await prisma.federationObject.findMany({ where: { eventId: { in: near.map((e) => e.id) } }, select: { eventId: true } })).map(
      (o) => o.eventId,
    ),
  );
  const inboxes = await followerInboxes(prisma);
  let queued = 0;
  for (const { id } of near) {
    if (told.has(id)) continue;
    const event = await loadEvent(prisma, id);
    if (!event || !isPublic(event)) continue;
    const activity = inboxes.length ? await eventActivity('Create', urls, id, event) : NO_BODY;
    try {
      await prisma.$transaction(async (tx) => {
        await tx.federationObject.create({ data: { eventId: id } });
        await record(tx, { eventId: id, type: 'Create', ...activity }, inboxes);
      });
      queued++;
    } catch {
      // Announced meanwhile by another process (the object row exists).
    }
  }
  return queued;
}
