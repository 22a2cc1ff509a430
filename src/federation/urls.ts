// Where the calendar's ActivityPub documents live. One actor (the calendar), named by the
// FEDERATION_HANDLE setting; its identifier in paths is that name. Fedify's dispatchers are
// registered on these same templates (federation.ts), so the ids here and its routes agree.
import type { Config } from '../config.js';

export const PATHS = {
  actor: '/ap/actors/{identifier}',
  inbox: '/ap/actors/{identifier}/inbox',
  outbox: '/ap/actors/{identifier}/outbox',
  followers: '/ap/actors/{identifier}/followers',
  sharedInbox: '/ap/inbox',
  event: '/ap/events/{id}',
} as const;

export interface FederationUrls {
  siteUrl: string;
  handle: string;
  host: string;
  actorId: URL;
  inbox: URL;
  followersId: URL;
  keyId: URL;
  eventId(id: number): URL;
}

export function federationUrls(config: Pick<Config, 'siteUrl' | 'federation'>): FederationUrls {
  const { siteUrl } = config;
  const handle = config.federation.handle;
  const at = (path: string) => new URL(`${siteUrl}${path.replace('{identifier}', encodeURIComponent(handle))}`);
  const actorId = at(PATHS.actor);
  return {
    siteUrl,
    handle,
    host: new URL(siteUrl).host,
    actorId,
    inbox: at(PATHS.inbox),
    followersId: at(PATHS.followers),
    // Fedify names the first key pair's key `#main-key`, as Mastodon does.
    keyId: new URL(`${actorId.href}#main-key`),
    eventId: (id: number) => at(PATHS.event.replace('{id}', String(id))),
  };
}
