// Following the calendar from a fediverse peer written without Fedify (peer.ts): WebFinger, the
// actor, Follow → Accept, and Create / Update / Delete of an event, each signature checked with
// Misskey's implementation; the Event's fields; the inbox's refusals.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { freePort } from '../support/ports.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { clientFor, useServersOnOneDatabase } from '../support/tasks.js';
import { activityOf, startPeer, type Peer } from './peer.js';

const NS = '/wp-json/tribe/events/v1';
const AP = { accept: 'application/activity+json' };

describe.each(DATABASE_KINDS)('federation on %s', (kind) => {
  let peer: Peer;
  let site = '';
  beforeAll(async () => {
    peer = await startPeer();
  });
  afterAll(async () => peer?.close());
  const api = useTestServer(kind, async () => {
    const port = await freePort();
    site = `http://127.0.0.1:${port}`;
    return {
      PORT: String(port),
      SITE_URL: site,
      SITE_NAME: 'Riverside Events',
      FEDERATION_ICON_URL: `${site}/icon.png`,
      // The peer listens on loopback: the URL policy lets Almanac reach it, and nothing else there.
      TASK_ALLOWED_HOSTS: peer.host,
    };
  });
  let actor: any;
  let inbox = '';

  it('resolves the calendar by WebFinger and serves its actor and NodeInfo', async () => {
    const host = new URL(site).host;
    const finger = await api.request('GET', `/.well-known/webfinger?resource=${encodeURIComponent(`acct:events@${host}`)}`);
    expect(finger.status).toBe(200);
    const self = finger.json.links.find((link: any) => link.rel === 'self');
    expect(self.type).toBe('application/activity+json');
    const response = await api.request('GET', new URL(self.href).pathname, { headers: AP });
    expect(response.status).toBe(200);
    actor = response.json;
    expect(actor).toMatchObject({ id: self.href, preferredUsername: 'events', name: 'Riverside Events', url: `${site}/` });
    expect(actor.summary).toContain('Riverside Events');
    expect(actor.icon.url).toBe(`${site}/icon.png`);
    for (const field of ['inbox', 'outbox', 'followers']) expect(actor[field]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ap\//);
    expect(actor.publicKey.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(JSON.stringify(actor)).not.toMatch(/PRIVATE/);
    inbox = actor.inbox;

    const links = await api.request('GET', '/.well-known/nodeinfo');
    const href = links.json.links[0].href as string;
    const nodeinfo = await api.request('GET', new URL(href).pathname);
    expect(nodeinfo.json.software.name).toBe('almanac');
    expect(nodeinfo.json.protocols).toEqual(['activitypub']);
  });

  it('keeps the same keys across requests (made once, stored)', async () => {
    const again = await api.request('GET', new URL(actor.id).pathname, { headers: AP });
    expect(again.json.publicKey.publicKeyPem).toBe(actor.publicKey.publicKeyPem);
  });

  it('accepts a Follow with a signed Accept', async () => {
    const follow = activityOf(peer, 'Follow', actor.id);
    const response = await peer.post(inbox, follow);
    expect(response.status).toBe(202);
    const accept = await peer.waitFor((r) => r.activity?.type === 'Accept');
    expect(accept.path).toBe('/users/alice/inbox');
    expect(accept.verified).toBe(true);
    expect(accept.signatureKeyId).toBe(actor.publicKey.id);
    expect(accept.activity.actor).toBe(actor.id);
    expect(accept.activity.object.id ?? accept.activity.object).toBe(follow.id);
    const followers = await api.graphql(`{ federation { handle followers { count items { actorId handle inbox } } } }`, {}, ADMIN_KEY);
    expect(followers.data.federation.followers.count).toBe(1);
    expect(followers.data.federation.followers.items[0]).toMatchObject({ actorId: peer.actorId, handle: `@alice@${peer.host}` });
  });

  let eventId = 0;
  it('sends Create when an event is published, with every field, signed, to the shared inbox', async () => {
    const venue = await api.request('POST', `${NS}/venues`, {
      key: ADMIN_KEY,
      body: { venue: 'Old Pier', address: '1 Quay Street', city: 'Marseille', zip: '13002', country: 'France' },
    });
    expect(venue.status).toBe(201);
    const venueId = venue.json.id;
    // Coordinates come from imports and geocoding, not from the REST API's writes.
    await api.server.db.prisma.venue.update({ where: { id: venueId }, data: { geoLat: 43.2951, geoLng: 5.3625 } });
    const created = await api.request('POST', `${NS}/events`, {
      key: ADMIN_KEY,
      body: {
        title: 'Harbour lights walk',
        description: '<p>A walk along the <strong>harbour</strong>.</p><script>alert(1)</script>',
        excerpt: 'An evening walk by the water.',
        start_date: daysFromNow(5, '19:30:00'),
        end_date: daysFromNow(5, '21:00:00'),
        timezone: 'Europe/Paris',
        venue: { id: venueId },
        categories: ['Walks'],
        tags: ['night life'],
        image: `${peer.url}/banner.png`,
      },
    });
    expect(created.status).toBe(201);
    eventId = created.json.id;
    const create = await peer.waitFor((r) => r.activity?.type === 'Create');
    expect(create.verified).toBe(true);
    expect(create.path).toBe('/inbox'); // the peer's shared inbox
    const event = create.activity.object;
    expect(event).toMatchObject({ type: 'Event', id: `${site}/ap/events/${eventId}`, name: 'Harbour lights walk', attributedTo: actor.id });
    expect(event.content).toContain('<strong>harbour</strong>');
    expect(event.content).not.toContain('<script');
    expect(event.summary).toBe('An evening walk by the water.');
    expect(event.timezone).toBe('Europe/Paris');
    expect(event.url).toBe(created.json.url);
    expect(event.location).toMatchObject({ type: 'Place', name: 'Old Pier', latitude: 43.2951, longitude: 5.3625 });
    expect(event.location.address).toMatchObject({
      type: 'PostalAddress',
      streetAddress: '1 Quay Street',
      addressLocality: 'Marseille',
      postalCode: '13002',
      addressCountry: 'France',
    });
    const tags = (Array.isArray(event.tag) ? event.tag : [event.tag]).map((t: any) => [t.type, t.name]);
    expect(tags).toEqual(
      expect.arrayContaining([
        ['Hashtag', '#Walks'],
        ['Hashtag', '#nightlife'],
      ]),
    );
    expect(event.attachment).toMatchObject({ type: 'Document', mediaType: 'image/png', url: `${peer.url}/banner.png` });
    expect(event.status).toBe('CONFIRMED');
    expect(event.published).toBeTruthy();
    expect(event.updated).toBeTruthy();
    // Its times, in its zone, are the REST API's.
    const local = (iso: string) => DateTime.fromISO(iso).setZone(event.timezone).toFormat('yyyy-MM-dd HH:mm:ss');
    expect(local(event.startTime)).toBe(created.json.start_date);
    expect(local(event.endTime)).toBe(created.json.end_date);
    // The event's page and its object id answer ActivityPub clients with the same Event.
    const page = await api.request('GET', new URL(created.json.url).pathname, { headers: AP });
    expect(page.headers.get('content-type')).toMatch(/application\/activity\+json/);
    expect(page.json).toMatchObject({ id: event.id, type: 'Event', name: event.name, startTime: event.startTime });
    const byId = await api.request('GET', new URL(event.id).pathname, {
      headers: { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' },
    });
    expect(byId.json.id).toBe(event.id);
  });

  it('sends Update on a change and Delete with a Tombstone on trash', async () => {
    const changed = await api.request('POST', `${NS}/events/${eventId}`, {
      key: ADMIN_KEY,
      body: { title: 'Harbour lights walk (new route)' },
    });
    expect(changed.status).toBe(200);
    const update = await peer.waitFor((r) => r.activity?.type === 'Update');
    expect(update.verified).toBe(true);
    expect(update.activity.object.name).toBe('Harbour lights walk (new route)');
    // A change to its venue alone changes the Event's place: Update too.
    const venueId = changed.json.venue.id;
    expect((await api.request('POST', `${NS}/venues/${venueId}`, { key: ADMIN_KEY, body: { city: 'Aix-en-Provence' } })).status).toBe(200);
    const moved = await peer.waitFor(
      (r) => r.activity?.type === 'Update' && r.activity.object.location?.address?.addressLocality === 'Aix-en-Provence',
    );
    expect(moved.verified).toBe(true);
    // Canceled but kept: an Update whose Event says so (ical:status, and the summary Mastodon shows).
    const canceled = await api.graphql(
      `mutation($id: Int!, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { eventStatus } }`,
      { id: eventId, input: { eventStatus: 'CANCELED', eventStatusReason: 'Storm warning.' } },
      ADMIN_KEY,
    );
    expect(canceled.data.updateEvent.eventStatus).toBe('CANCELED');
    const cancellation = await peer.waitFor((r) => r.activity?.type === 'Update' && r.activity.object.status === 'CANCELLED');
    expect(cancellation.verified).toBe(true);
    expect(cancellation.activity.object).toMatchObject({ id: `${site}/ap/events/${eventId}`, type: 'Event' });
    expect(cancellation.activity.object.summary).toBe('Canceled. Storm warning. An evening walk by the water.');
    // The @context names ical:status, so a JSON-LD reader finds the term where Mobilizon puts it.
    const context = JSON.stringify(cancellation.activity['@context'] ?? cancellation.activity.object['@context']);
    expect(context).toContain('http://www.w3.org/2002/12/cal/ical#');
    await api.graphql(
      `mutation($id: Int!, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { eventStatus } }`,
      { id: eventId, input: { eventStatus: 'POSTPONED' } },
      ADMIN_KEY,
    );
    const postponed = await peer.waitFor((r) => r.activity?.type === 'Update' && r.activity.object.status === 'TENTATIVE');
    expect(postponed.verified).toBe(true);
    const trashed = await api.request('DELETE', `${NS}/events/${eventId}`, { key: ADMIN_KEY });
    expect(trashed.status).toBe(200);
    const removal = await peer.waitFor((r) => r.activity?.type === 'Delete');
    expect(removal.verified).toBe(true);
    expect(removal.activity.object).toMatchObject({ type: 'Tombstone', id: `${site}/ap/events/${eventId}` });
    const creates = peer.received.filter((r) => r.activity?.type === 'Create');
    expect(creates).toHaveLength(1);
  });

  it('never federates drafts, private or password-protected events', async () => {
    const hidden: number[] = [];
    for (const status of ['draft', 'private']) {
      const made = await api.request('POST', `${NS}/events`, {
        key: ADMIN_KEY,
        body: { title: `Hidden ${status}`, start_date: daysFromNow(3), end_date: daysFromNow(3, '11:00:00'), status },
      });
      expect(made.status).toBe(201);
      hidden.push(made.json.id);
    }
    // The REST API takes no password (as the original's); GraphQL does.
    const locked = await api.graphql(
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`,
      { input: { title: 'Hidden protected', password: 'secret', startDate: daysFromNow(3), endDate: daysFromNow(3, '11:00:00') } },
      ADMIN_KEY,
    );
    hidden.push(Number(locked.data.createEvent.id));
    for (const id of hidden) expect([id, (await api.request('GET', `/ap/events/${id}`, { headers: AP })).status]).toEqual([id, 404]);
    // A public one after them: once it arrives, the hidden ones (queued before it) would have too.
    await api.request('POST', `${NS}/events`, {
      key: ADMIN_KEY,
      body: { title: 'Open day', start_date: daysFromNow(4), end_date: daysFromNow(4, '11:00:00') },
    });
    await peer.waitFor((r) => r.activity?.type === 'Create' && r.activity.object.name === 'Open day');
    expect(peer.received.filter((r) => /Hidden/.test(r.body))).toEqual([]);
  });

  it('refuses unsigned, wrongly signed and oversized requests, and keys on private addresses', async () => {
    const follow = () => activityOf(peer, 'Follow', actor.id);
    expect((await peer.post(inbox, follow(), { sign: 'none' })).status).toBe(401);
    expect((await peer.post(inbox, follow(), { sign: 'wrong' })).status).toBe(401);
    const big = JSON.stringify({ ...follow(), padding: 'x'.repeat(300 * 1024) });
    expect((await peer.post(inbox, follow(), { body: big })).status).toBe(413);
    // A key at a loopback address the policy does not allow (not the peer's host:port): never fetched.
    const privateKeyId = `http://127.0.0.1:1/users/mallory#main-key`;
    const mallory = { ...follow(), actor: 'http://127.0.0.1:1/users/mallory' };
    expect((await peer.post(inbox, mallory, { keyId: privateKeyId })).status).toBe(401);
    // Signed by a key its actor does not own (alice signs for carol).
    const carol = { ...follow(), actor: `${peer.url}/users/carol` };
    expect((await peer.post(inbox, carol)).status).toBe(401);
    // An activity of a type the calendar does not handle: accepted and ignored, never a 5xx.
    const like = activityOf(peer, 'Like', actor.id);
    const liked = await peer.post(inbox, like);
    expect(liked.status).toBeLessThan(500);
    expect(liked.status).toBeGreaterThanOrEqual(200);
  });

  it('verifies RFC 9421 signatures too', async () => {
    const like = activityOf(peer, 'Like', actor.id);
    expect((await peer.post(inbox, like, { sign: 'rfc9421' })).status).toBe(202);
    expect((await peer.post(inbox, activityOf(peer, 'Like', actor.id), { sign: 'rfc9421-wrong' })).status).toBe(401);
  });

  it('lists deliveries for administrators only, and removes a follower on Undo', async () => {
    const deliveries = await api.graphql(`{ federation { deliveries(first: 10) { activityType inbox status attempts } } }`, {}, ADMIN_KEY);
    expect(deliveries.data.federation.deliveries.map((d: any) => d.activityType)).toEqual(
      expect.arrayContaining(['Accept', 'Create', 'Update', 'Delete']),
    );
    const denied = await api.graphql(`{ federation { handle } }`, {}, api.keys.editor);
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const undo = activityOf(peer, 'Undo', activityOf(peer, 'Follow', actor.id));
    expect((await peer.post(inbox, undo)).status).toBe(202);
    const after = await api.graphql(`{ federation { followers { count } } }`, {}, ADMIN_KEY);
    expect(after.data.federation.followers.count).toBe(0);
  });
});

describe.each(DATABASE_KINDS)('the federation paths are rate-limited per address, over all processes, on %s', (kind) => {
  // A small budget, counted in the database: two processes on it share it.
  const servers = useServersOnOneDatabase(kind, () => ({ SITE_URL: 'http://calendar.test', FEDERATION_REQUESTS_PER_MINUTE: '10' }));

  it('answers 429 with Retry-After once the address is past the budget of a minute', async () => {
    const [one, two] = [clientFor((await servers.start()).url), clientFor((await servers.start()).url)];
    // Six requests to each process: twelve from one address, past the ten of a minute only when
    // counted together. A round that spans the turn of a minute proves nothing: it is run again on
    // the next one.
    for (let round = 0; round < 3; round++) {
      const minute = Math.floor(Date.now() / 60_000);
      const answers = [];
      for (let i = 0; i < 6; i++)
        answers.push(await one.request('GET', '/.well-known/nodeinfo'), await two.request('GET', '/.well-known/nodeinfo'));
      if (Math.floor(Date.now() / 60_000) !== minute) {
        // Start the next round on a fresh minute, with nothing counted in it yet.
        await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 100));
        continue;
      }
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status !== 429 && status !== 200)).toEqual([]);
      expect(statuses.slice(0, 10)).not.toContain(429);
      expect(statuses.slice(10)).toEqual([429, 429]);
      const retryAfter = Number(answers[10]!.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      return;
    }
    throw new Error('every round spanned the turn of a minute');
  });
});

describe('odd requests to the federation are answered, never with a 5xx', () => {
  const api = useTestServer('sqlite', { SITE_URL: 'http://calendar.test' });

  it.each([
    ['GET', '/ap/events/999999999999'],
    ['GET', '/ap/events/0'],
    ['GET', '/ap/actors/%ZZ'],
    ['GET', '/ap/actors/nobody'],
    ['GET', '/ap/actors/events/outbox?cursor=%ZZ'],
    ['GET', '/.well-known/webfinger'],
    ['GET', '/.well-known/webfinger?resource=%ZZ'],
    ['GET', '/.well-known/webfinger?resource=acct:nobody@calendar.test'],
    ['GET', '/event/%E0%A4%A/'],
    ['DELETE', '/ap/inbox'],
    ['POST', '/ap/inbox'],
    ['POST', '/ap/actors/events/inbox'],
  ])('%s %s', async (method, path) => {
    const headers = { accept: 'application/activity+json', 'content-type': 'application/activity+json' };
    const answer = await api.request(method, path, { headers, ...(method === 'POST' ? { body: '{"type":' } : {}) });
    // A cursor the outbox does not know is ignored (200); everything else here is refused (4xx).
    expect(answer.status).toBeGreaterThanOrEqual(path.includes('cursor') ? 200 : 400);
    expect(answer.status).toBeLessThan(500);
  });
});
