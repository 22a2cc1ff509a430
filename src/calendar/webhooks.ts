// Calendar webhooks: endpoints an administrator registers receive the change log (changes.ts) in
// signed POSTs. Each endpoint has a cursor: every process, every second, turns the changes after
// it into one delivery (compare-and-set on the cursor, so two processes never queue the same
// changes), and sends each endpoint's oldest pending delivery, so a receiver gets them in order.
// A delivery is retried with backoff until it is answered 2xx (at least once); one that fails
// for good pauses its endpoint, which an administrator resumes or replays from a cursor.
//
// The body: {"webhookId", "deliveryId", "cursor", "changes": [{cursor, type, id, kind, removed,
// fields, atUtc}]}; the receiver reads the records it needs through the API. Header
// X-Almanac-Event: calendar.changes (calendar.source_failing for a notice that a calendar source
// failed three runs in a row: the body's `event` and `source` say so, and `changes` is empty). Signed as the task webhooks are (src/net/signed-post.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Logger } from '../http/logger.js';
import { afterAttempt, postSigned } from '../net/signed-post.js';
import { outboundPolicy } from '../net/url-policy.js';
import { everyInterval, type Rounds } from '../rounds.js';
import type { Viewer } from './capabilities.js';
import { changeLogHead, CHANGE_TYPES, decodeCursor, readChanges, type ChangeType } from './changes.js';
import { CalendarError, invalidInput } from './errors.js';
import { isPostgres } from './term-lookup.js';

/** Changes per delivery at most. */
export const CHANGES_PER_DELIVERY = 100;
/** A claimed delivery is tried again after this long if its process died mid-POST. */
const CLAIM_MS = 60_000;
const MAX_URL_LENGTH = 2000;

type Db = Prisma;

export interface WebhookInput {
  url?: string | null;
  types?: ChangeType[] | null;
  paused?: boolean | null;
}

function requireAdministrator(viewer: Viewer): NonNullable<Viewer> {
  if (!viewer) throw new CalendarError('UNAUTHENTICATED', 'Calendar webhooks need an administrator API key (header x-api-key).');
  if (viewer.role !== 'administrator') throw new CalendarError('FORBIDDEN', 'Only administrators may manage calendar webhooks.');
  return viewer;
}

/** An http(s) URL the outbound policy lets Almanac reach, or INVALID_INPUT on `url`. */
async function checkedUrl(config: Config, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidInput({ url: 'must be an absolute http(s) URL' });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || raw.length > MAX_URL_LENGTH)
    throw invalidInput({ url: `must be an http(s) URL of at most ${MAX_URL_LENGTH} characters` });
  const verdict = await outboundPolicy(config).check(url.href);
  if (!verdict.allowed) throw invalidInput({ url: verdict.reason });
  return url.href;
}

function typesJson(types: readonly string[] | null | undefined): string {
  const list = [...new Set(types ?? [])];
  if (list.some((type) => !(CHANGE_TYPES as readonly string[]).includes(type))) throw invalidInput({ types: 'unknown record type' });
  return JSON.stringify(list);
}

export function webhookTypes(json: string): ChangeType[] | null {
  const list = JSON.parse(json) as ChangeType[];
  return list.length ? list : null;
}

export async function listWebhooks(db: Db, viewer: Viewer) {
  requireAdministrator(viewer);
  return db.calendarWebhook.findMany({ orderBy: { createdAt: 'asc' } });
}

async function findWebhook(db: Db, id: string) {
  const webhook = await db.calendarWebhook.findUnique({ where: { id } });
  if (!webhook) throw new CalendarError('NOT_FOUND', `No calendar webhook "${id}".`);
  return webhook;
}

/** Registers an endpoint; it receives the changes after `after` (default: from now). */
export async function createWebhook(db: Db, config: Config, viewer: Viewer, input: WebhookInput & { after?: string | null }) {
  const admin = requireAdministrator(viewer);
  const url = await checkedUrl(config, input.url ?? '');
  const types = typesJson(input.types);
  if (input.after) decodeCursor(input.after, isPostgres(db)); // INVALID_INPUT when it is not one of ours
  const cursor = input.after || (await changeLogHead(db));
  const created = await db.calendarWebhook.create({
    data: {
      id: randomUUID(),
      url,
      types,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      cursor,
      paused: input.paused ?? false,
      userId: admin.userId,
    },
  });
  webhookSignals.emit('changed');
  return created;
}

/** Changes its URL, types or pause; resuming clears the error that paused it. */
export async function updateWebhook(db: Db, config: Config, viewer: Viewer, id: string, input: WebhookInput) {
  requireAdministrator(viewer);
  await findWebhook(db, id);
  const updated = await db.calendarWebhook.update({
    where: { id },
    data: {
      ...(input.url != null ? { url: await checkedUrl(config, input.url) } : {}),
      ...(input.types !== undefined ? { types: typesJson(input.types) } : {}),
      ...(input.paused != null ? { paused: input.paused, ...(input.paused ? {} : { lastError: '' }) } : {}),
    },
  });
  webhookSignals.emit('changed');
  return updated;
}

/**
 * Sends the changes after `after` again (or skips ahead): pending deliveries are cancelled and the
 * endpoint's cursor moves there. CURSOR_EXPIRED when the log no longer holds what follows it.
 */
export async function replayWebhook(db: Db, viewer: Viewer, id: string, after: string) {
  const admin = requireAdministrator(viewer);
  const webhook = await findWebhook(db, id);
  await readChanges(db, { after, first: 1, types: webhookTypes(webhook.types), viewer: admin });
  const replayed = await db.$transaction(async (tx) => {
    await tx.calendarWebhookDelivery.updateMany({ where: { webhookId: id, status: 'pending' }, data: { status: 'cancelled' } });
    return tx.calendarWebhook.update({ where: { id }, data: { cursor: after, paused: false, lastError: '' } });
  });
  webhookSignals.emit('changed');
  return replayed;
}

export async function deleteWebhook(db: Db, viewer: Viewer, id: string) {
  requireAdministrator(viewer);
  const webhook = await findWebhook(db, id);
  await db.calendarWebhook.delete({ where: { id } });
  return webhook;
}

export async function webhookDeliveries(db: Db, webhookId: string, first: number) {
  return db.calendarWebhookDelivery.findMany({ where: { webhookId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: first });
}

/**
 * Queues, for each endpoint that is not paused, the changes after its cursor as one delivery.
 * Says how many endpoints are active and how many deliveries it queued.
 */
export async function queueDeliveries(db: Db): Promise<{ endpoints: number; queued: number }> {
  const webhooks = await db.calendarWebhook.findMany({ where: { paused: false } });
  if (!webhooks.length) return { endpoints: 0, queued: 0 };
  // The registering users in one read, not one per endpoint per round.
  const users = await db.user.findMany({
    where: { id: { in: [...new Set(webhooks.map((w) => w.userId))] } },
    select: { id: true, role: true },
  });
  const roles = new Map(users.map((user) => [user.id, user.role as NonNullable<Viewer>['role']]));
  let queued = 0;
  for (const webhook of webhooks) {
    const role = roles.get(webhook.userId);
    const viewer: Viewer = role ? { userId: webhook.userId, role } : null;
    let page;
    try {
      page = await readChanges(db, { after: webhook.cursor, first: CHANGES_PER_DELIVERY, types: webhookTypes(webhook.types), viewer });
    } catch (error) {
      if (!(error instanceof CalendarError) || error.code !== 'CURSOR_EXPIRED') throw error;
      await db.calendarWebhook.updateMany({
        where: { id: webhook.id, cursor: webhook.cursor },
        data: {
          paused: true,
          lastError: 'Changes after its cursor are no longer kept: replay it from calendarChangeCursor after a full read.',
        },
      });
      continue;
    }
    if (page.cursor === webhook.cursor) continue;
    const id = randomUUID();
    const body = JSON.stringify({ webhookId: webhook.id, deliveryId: id, cursor: page.cursor, changes: page.changes });
    queued += await db.$transaction(async (tx) => {
      const moved = await tx.calendarWebhook.updateMany({
        where: { id: webhook.id, cursor: webhook.cursor },
        data: { cursor: page.cursor },
      });
      // Another process moved it first: it queued these changes.
      if (moved.count !== 1 || !page.changes.length) return 0;
      await tx.calendarWebhookDelivery.create({
        data: { id, webhookId: webhook.id, cursor: page.cursor, changeCount: page.changes.length, body },
      });
      return 1;
    });
  }
  return { endpoints: webhooks.length, queued };
}

/** A notice's event (its body says which); a delivery of changes carries none. */
function deliveryEvent(body: string): string {
  const event = body.startsWith('{"event":') ? (JSON.parse(body) as { event?: unknown }).event : undefined;
  return typeof event === 'string' ? event : 'calendar.changes';
}

/**
 * Tells every active endpoint that a calendar source is failing (X-Almanac-Event:
 * calendar.source_failing): a delivery queued after the endpoint's changes so far, with no changes
 * and the endpoint's cursor, sent and retried as the others are.
 */
export async function notifySourceFailing(db: Db, source: Record<string, unknown>): Promise<void> {
  const webhooks = await db.calendarWebhook.findMany({ where: { paused: false } });
  for (const webhook of webhooks) {
    const id = randomUUID();
    const body = JSON.stringify({
      event: 'calendar.source_failing',
      webhookId: webhook.id,
      deliveryId: id,
      cursor: webhook.cursor,
      changes: [],
      source,
    });
    await db.calendarWebhookDelivery.create({ data: { id, webhookId: webhook.id, cursor: webhook.cursor, changeCount: 0, body } });
  }
  if (webhooks.length) webhookSignals.emit('changed');
}

/** Sends each endpoint's oldest pending delivery when it is due; returns how many were attempted. */
export async function sendDue(db: Db, config: Config, now = new Date()): Promise<number> {
  const pending = await db.calendarWebhookDelivery.findMany({
    where: { status: 'pending', webhook: { paused: false } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { webhook: true },
    take: 200,
  });
  const oldest = new Map<string, (typeof pending)[number]>();
  for (const delivery of pending) if (!oldest.has(delivery.webhookId)) oldest.set(delivery.webhookId, delivery);
  let attempted = 0;
  for (const delivery of oldest.values()) {
    if (delivery.nextAttemptAt > now) continue;
    const claimed = await db.calendarWebhookDelivery.updateMany({
      where: { id: delivery.id, status: 'pending', nextAttemptAt: delivery.nextAttemptAt },
      data: { nextAttemptAt: new Date(now.getTime() + CLAIM_MS) },
    });
    if (claimed.count !== 1) continue;
    attempted++;
    const outcome = await postSigned(config, {
      url: delivery.webhook.url,
      body: delivery.body,
      event: deliveryEvent(delivery.body),
      id: delivery.id,
      secret: delivery.webhook.secret,
    });
    const data = afterAttempt(delivery.attempts + 1, outcome);
    await db.calendarWebhookDelivery.update({ where: { id: delivery.id }, data });
    if (data.status === 'failed')
      await db.calendarWebhook.update({
        where: { id: delivery.webhookId },
        data: { paused: true, lastError: `A delivery failed after every retry (${outcome.error}); resume or replay it.` },
      });
  }
  return attempted;
}

// While it knows of no endpoint, a process looks for one at start, then hourly; one is seen at once
// by the process it was registered, resumed or replayed on, which then delivers for every process
// (each reads the shared log; the cursor's compare-and-set keeps them from sending twice). So an
// idle calendar costs no statement a second.
const IDLE_CHECK_MS = 3_600_000;
/** Registrations, resumes and replays on this process: its loop looks again at once. */
export const webhookSignals = new EventEmitter<{ changed: [] }>();

/** The loop every server process runs: queue the changes, send what is due. */
export function startCalendarWebhooks(deps: { prisma: Prisma; config: Config; logger: Logger }): Rounds {
  let idleSince: number | null = null;
  const look = () => (idleSince = null);
  webhookSignals.on('changed', look);
  const rounds = everyInterval(
    1000,
    async () => {
      if (idleSince !== null && Date.now() - idleSince < IDLE_CHECK_MS) return;
      const active = await queueDeliveries(deps.prisma);
      idleSince = active.endpoints ? null : Date.now();
      if (active.endpoints) await sendDue(deps.prisma, deps.config);
    },
    (error) => deps.logger.warn({ err: error }, 'calendar webhooks: a round failed; retrying'),
    { immediately: true },
  );
  return {
    firstRound: rounds.firstRound,
    async stop() {
      webhookSignals.off('changed', look);
      await rounds.stop();
    },
  };
}
