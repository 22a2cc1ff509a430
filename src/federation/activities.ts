// The activities the calendar sends, built with Fedify's vocabulary: Create and Update carry the
// whole Event, Delete a Tombstone at the event's object id, Accept answers a Follow. Each is
// addressed to the public and the calendar's followers, as Mastodon expects of a public post.
import { randomUUID } from 'node:crypto';
import { Temporal } from '@js-temporal/polyfill';
import { Accept, Create, Delete, Follow, PUBLIC_COLLECTION, Tombstone, Update } from '@fedify/fedify/vocab';
import { EXTENSION_CONTEXT, eventDocument, type FederatedEventRow } from './event-object.js';
import type { FederationUrls } from './urls.js';

export type EventActivityType = 'Create' | 'Update' | 'Delete';

const activityId = (urls: FederationUrls) => new URL(`${urls.siteUrl}/ap/activities/${randomUUID()}`);

/** The JSON of a Create or Update of `event`, or a Delete of event `eventId` (row absent). */
export async function eventActivity(
  type: EventActivityType,
  urls: FederationUrls,
  eventId: number,
  event?: FederatedEventRow,
): Promise<{ id: string; body: string }> {
  const id = activityId(urls);
  const common = { id, actor: urls.actorId, to: PUBLIC_COLLECTION, cc: urls.followersId, published: Temporal.Now.instant() };
  if (type === 'Delete' || !event) {
    const tombstone = new Tombstone({ id: urls.eventId(eventId), deleted: Temporal.Now.instant() });
    const json = (await new Delete({ ...common, object: tombstone }).toJsonLd({ format: 'compact' })) as Record<string, unknown>;
    return { id: id.href, body: JSON.stringify(json) };
  }
  const Activity = type === 'Create' ? Create : Update;
  const json = (await new Activity({ ...common, object: null }).toJsonLd({ format: 'compact' })) as Record<string, unknown>;
  // The Event in its own extended shape (event-object.ts), embedded whole, under one context.
  const { '@context': eventContext, ...object } = await eventDocument(event, urls);
  return { id: id.href, body: JSON.stringify({ ...json, '@context': mergeContexts(json['@context'], eventContext), object }) };
}

function mergeContexts(...contexts: unknown[]): unknown[] {
  const all: unknown[] = [];
  for (const context of contexts)
    for (const entry of Array.isArray(context) ? context : [context]) if (!all.includes(entry)) all.push(entry);
  if (!all.includes(EXTENSION_CONTEXT)) all.push(EXTENSION_CONTEXT);
  return all;
}

/** The Accept of a Follow, sent back to the follower. */
export async function acceptActivity(urls: FederationUrls, follow: Follow): Promise<{ id: string; body: string }> {
  const id = activityId(urls);
  const accept = new Accept({ id, actor: urls.actorId, object: follow, to: follow.actorId });
  return { id: id.href, body: JSON.stringify(await accept.toJsonLd({ format: 'compact' })) };
}
