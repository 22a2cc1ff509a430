// The calendar as an ActivityPub actor, on Fedify (@fedify/fedify): WebFinger, the actor with its
// keys, the outbox and followers collections, NodeInfo, and the inbox, whose HTTP Signatures
// (draft-cavage and RFC 9421) Fedify verifies before any listener runs; an unsigned or mis-signed
// request is answered 401 by Fedify. Everything Fedify fetches (the signer's key, the follower's
// actor) goes through Almanac's URL policy (document-loader.ts); its key–value state is in
// Almanac's database (kv-store.ts). Fedify does not send here: the delivery queue does
// (outbox.ts, delivery.ts), so what is sent survives restarts and is sent once per inbox.
import { createFederation, type Context, type Federation } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { Application, Create, Endpoints, Follow, Image, PUBLIC_COLLECTION, Undo } from '@fedify/fedify/vocab';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Logger } from '../http/logger.js';
import { outboundPolicy } from '../net/url-policy.js';
import { acceptActivity } from './activities.js';
import { guardedDocumentLoader } from './document-loader.js';
import { eventObject, isPublic, loadEvent } from './event-object.js';
import { forgetFollower, recordFollower } from './followers.js';
import { actorKeys, type ActorKeyPair } from './keys.js';
import { PrismaKvStore } from './kv-store.js';
import { federationUrls, PATHS, type FederationUrls } from './urls.js';

export const SOFTWARE_VERSION = '0.1.0';
const OUTBOX_PAGE = 20;

export interface CalendarFederation {
  federation: Federation<void>;
  urls: FederationUrls;
  kv: PrismaKvStore;
  /** The actor's RSA key pair (signs deliveries). */
  signingKey(): Promise<ActorKeyPair>;
}

/** A remote document that cannot be had (down, refused by the URL policy) reads as absent: the
 *  activity is then ignored (202), not failed. */
const lenient = (ctx: Context<void>) => ({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true });

export function buildFederation({ prisma, config, logger }: { prisma: Prisma; config: Config; logger: Logger }): CalendarFederation {
  const urls = federationUrls(config);
  const loader = guardedDocumentLoader(outboundPolicy(config), { 'user-agent': `Almanac/${SOFTWARE_VERSION}` });
  const kv = new PrismaKvStore(prisma);
  const keys = actorKeys(prisma);
  const federation = createFederation<void>({
    kv,
    origin: config.siteUrl,
    documentLoaderFactory: () => loader,
    contextLoaderFactory: () => loader,
    authenticatedDocumentLoaderFactory: () => loader,
  });
  const ours = (identifier: string) => identifier === urls.handle;

  federation
    .setActorDispatcher(PATHS.actor, async (ctx, identifier) => {
      if (!ours(identifier)) return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Application({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: config.siteName,
        summary: `The events of ${config.siteName}. Follow to see each new event, its changes and cancellations.`,
        url: new URL(`${config.siteUrl}/`),
        icon: config.federation.iconUrl ? new Image({ url: new URL(config.federation.iconUrl) }) : null,
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pairs[0]?.cryptographicKey ?? null,
        assertionMethods: pairs.map((pair) => pair.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) =>
      ours(identifier) ? (await keys()).map(({ privateKey, publicKey }) => ({ privateKey, publicKey })) : [],
    );

  // The outbox: Creates of the latest announced events that are still public.
  federation
    .setOutboxDispatcher(PATHS.outbox, async (_ctx, identifier) => {
      if (!ours(identifier)) return null;
      const told = await prisma.federationObject.findMany({
        where: { deleted: false },
        orderBy: { announcedAt: 'desc' },
        take: OUTBOX_PAGE,
      });
      const items = [];
      for (const { eventId, announcedAt } of told) {
        const event = await loadEvent(prisma, eventId);
        if (!event || !isPublic(event)) continue;
        const object = eventObject(event, urls);
        items.push(
          new Create({
            id: new URL(`${urls.eventId(eventId).href}#create`),
            actor: urls.actorId,
            object,
            to: PUBLIC_COLLECTION,
            published: Temporal.Instant.fromEpochMilliseconds(announcedAt.getTime()),
          }),
        );
      }
      return { items };
    })
    .setCounter(async (_ctx, identifier) => (ours(identifier) ? prisma.federationObject.count({ where: { deleted: false } }) : null));

  // Followers: how many, not who (their list is the administrators' to see, through GraphQL).
  federation
    .setFollowersDispatcher(PATHS.followers, async (_ctx, identifier) => (ours(identifier) ? { items: [] } : null))
    .setCounter(async (_ctx, identifier) => (ours(identifier) ? prisma.federationFollower.count() : null));

  federation.setNodeInfoDispatcher('/ap/nodeinfo/2.1', async () => ({
    software: { name: 'almanac', version: SOFTWARE_VERSION },
    protocols: ['activitypub'],
    usage: {
      users: { total: 1, activeMonth: 1, activeHalfyear: 1 },
      localPosts: await prisma.federationObject.count({ where: { deleted: false } }),
      localComments: 0,
    },
    openRegistrations: false,
  }));

  federation
    .setInboxListeners(PATHS.inbox, PATHS.sharedInbox)
    .on(Follow, async (ctx, follow) => {
      // Fedify has checked that the signer is the Follow's actor.
      if (!follow.id || !follow.actorId || !follow.objectId) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== 'actor' || !ours(target.identifier)) return;
      const actor = await follow.getActor(lenient(ctx));
      if (!actor?.id || !actor.inboxId) return;
      await recordFollower(
        prisma,
        {
          actorId: actor.id.href,
          handle: actor.preferredUsername ? `@${String(actor.preferredUsername)}@${actor.id.host}` : actor.id.href,
          inbox: actor.inboxId.href,
          sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
          followId: follow.id.href,
        },
        await acceptActivity(urls, follow),
      );
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(lenient(ctx));
      // Only the follower itself may undo its follow.
      if (object instanceof Follow && undo.actorId && object.actorId?.href === undo.actorId.href)
        await forgetFollower(prisma, undo.actorId.href);
    })
    .onError((_ctx, error) => logger.warn({ err: error }, 'federation: an inbox activity failed'));

  return { federation, urls, kv, signingKey: async () => (await keys())[0]! };
}
