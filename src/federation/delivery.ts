// Sends the queued activities (outbox.ts), signed. Each inbox gets its oldest pending activity
// first, so a follower never sees an Update before its Create. A delivery is claimed by a
// compare-and-set on its row (as the calendar webhooks claim theirs), so with several processes
// on one database each activity reaches each inbox once; a process that dies mid-POST leaves
// its claim to expire and another sends it again (at least once, never lost).
//
// Signatures: draft-cavage HTTP Signatures with the actor's RSA key (what Mastodon and most of the
// fediverse verify), made by Fedify's signRequest; the request itself goes through Almanac's URL
// policy (src/net/guarded-request.ts), never to a private address unless allowed.
//
// Failures: retried on the webhooks' schedule (src/net/signed-post.ts, 2 s … 12 h); while an inbox
// fails, its other activities wait with it; after the last retry the delivery is `failed`, logged
// and shown to administrators (GraphQL `federation.deliveries`), and the inbox's pending ones fail
// with it instead of being retried forever.
import { signRequest } from '@fedify/fedify/sig';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Logger } from '../http/logger.js';
import { guardedRequest } from '../net/guarded-request.js';
import { afterAttempt } from '../net/signed-post.js';
import { outboundPolicy } from '../net/url-policy.js';
import type { ActorKeyPair } from './keys.js';
import type { FederationUrls } from './urls.js';

/** A claimed delivery is tried again after this long if its process died mid-POST. */
const CLAIM_MS = 60_000;
const USER_AGENT = 'Almanac (ActivityPub; +https://github.com/fedify-dev/fedify)';

/** POSTs one activity, signed; the inbox's status, and an error unless it answered 2xx. */
export async function postActivity(
  config: Config,
  urls: FederationUrls,
  key: ActorKeyPair,
  inbox: string,
  body: string,
): Promise<{ status: number | null; error: string }> {
  try {
    const unsigned = new Request(inbox, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json', 'user-agent': USER_AGENT },
      body,
    });
    const signed = await signRequest(unsigned, key.privateKey, urls.keyId, { spec: 'draft-cavage-http-signatures-12' });
    const headers: Record<string, string> = {};
    signed.headers.forEach((value, name) => {
      if (name !== 'content-length') headers[name] = value;
    });
    const response = await guardedRequest(outboundPolicy(config), inbox, {
      method: 'POST',
      body,
      headers,
      timeoutMs: 15_000,
      maxBytes: 64 * 1024,
    });
    return { status: response.status, error: response.status >= 200 && response.status < 300 ? '' : `answered ${response.status}` };
  } catch (failure) {
    return { status: null, error: (failure as Error).message };
  }
}

/** Sends each inbox's oldest pending activity when it is due; how many were attempted. */
export async function sendDue(
  prisma: Prisma,
  deps: { config: Config; urls: FederationUrls; key: () => Promise<ActorKeyPair>; logger: Logger },
  now = new Date(),
): Promise<number> {
  const pending = await prisma.federationDelivery.findMany({
    where: { status: 'pending' },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: 500,
  });
  const oldest = new Map<string, (typeof pending)[number]>();
  for (const delivery of pending) if (!oldest.has(delivery.inbox)) oldest.set(delivery.inbox, delivery);
  const due = [...oldest.values()].filter((delivery) => delivery.nextAttemptAt <= now);
  if (!due.length) return 0;
  const key = await deps.key();
  let attempted = 0;
  await Promise.all(
    due.map(async (delivery) => {
      const claimed = await prisma.federationDelivery.updateMany({
        where: { id: delivery.id, status: 'pending', nextAttemptAt: delivery.nextAttemptAt },
        data: { nextAttemptAt: new Date(now.getTime() + CLAIM_MS) },
      });
      if (claimed.count !== 1) return;
      attempted++;
      const outcome = await postActivity(deps.config, deps.urls, key, delivery.inbox, delivery.body);
      const data = afterAttempt(delivery.attempts + 1, outcome, now);
      await prisma.federationDelivery.update({ where: { id: delivery.id }, data });
      if (data.status === 'failed') {
        // The inbox kept failing through every retry: give up on what else waits for it, and say so.
        const dropped = await prisma.federationDelivery.updateMany({
          where: { inbox: delivery.inbox, status: 'pending' },
          data: { status: 'failed', lastError: `not sent: the inbox failed every retry (${outcome.error.slice(0, 200)})` },
        });
        deps.logger.warn(
          { inbox: delivery.inbox, error: outcome.error, dropped: dropped.count },
          'federation: an inbox failed every retry',
        );
      }
    }),
  );
  return attempted;
}
