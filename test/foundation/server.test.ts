import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

async function seed(prisma: any) {
  const now = daysFromNow(0, '00:00:00');
  const post = async (type: string) => (await prisma.post.create({ data: { type } })).id as number;
  const common = (title: string, slug: string) => ({ title, slug, date: now, dateUtc: now, modified: now, modifiedUtc: now });
  const hallId = await post('venue');
  await prisma.venue.create({ data: { id: hallId, ...common('Main Hall', 'main-hall'), city: 'Springfield' } });
  const ids: number[] = [];
  for (const [title, start] of [
    ['Jazz Night', daysFromNow(10, '19:00:00')],
    ['Art Fair', daysFromNow(15)],
  ]) {
    const id = await post('event');
    ids.push(id);
    await prisma.event.create({
      data: {
        id,
        ...common(title, title.toLowerCase().replace(' ', '-')),
        startLocal: start,
        endLocal: start,
        startUtc: start,
        endUtc: start,
        timezone: 'UTC',
        venues: { create: { venueId: hallId } },
      },
    });
  }
  const draftId = await post('event');
  await prisma.event.create({
    data: {
      id: draftId,
      ...common('Secret draft', 'secret-draft'),
      status: 'draft',
      startLocal: daysFromNow(1),
      endLocal: daysFromNow(1),
      startUtc: daysFromNow(1),
      endUtc: daysFromNow(1),
    },
  });
  return { hallId, ids };
}

describe.each(DATABASE_KINDS)('foundation on %s', (kind) => {
  const api = useTestServer(kind);

  it('answers /healthz with the database reachable', async () => {
    const response = await api.request('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ status: 'ok', database: kind });
  });

  it('serves GraphiQL from Almanac itself, with no CDN assets', async () => {
    const response = await api.request('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.text).toContain('GraphiQL');
    expect(response.text).not.toMatch(/https?:\/\/(unpkg\.com|cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com)/);
  });

  it("answers a nested query: events → venue → the venue's events", async () => {
    const { ids } = await seed(api.server.db.prisma);
    const result = await api.graphql(`{ events { total totalPages items { id title venue { name events { title } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.events.total).toBe(2);
    expect(result.data.events.items.map((e: any) => e.id)).toEqual(ids);
    expect(result.data.events.items[0].venue).toEqual({ name: 'Main Hall', events: [{ title: 'Jazz Night' }, { title: 'Art Fair' }] });
  });

  it('shows drafts only to callers who may read them', async () => {
    const anonymous = await api.graphql(`{ events { items { title } } }`);
    expect(anonymous.data.events.items.map((e: any) => e.title)).not.toContain('Secret draft');
    const editor = await api.graphql(`{ events { items { title } } }`, {}, api.keys.editor);
    expect(editor.data.events.items.map((e: any) => e.title)).toContain('Secret draft');
  });

  it('refuses an unknown API key with 401', async () => {
    const result = await api.graphql(`{ events { total } }`, {}, 'not-a-key');
    expect(result.status).toBe(401);
    expect(result.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('pages lists with page/perPage and caps perPage at 50', async () => {
    const result = await api.graphql(`{ events(page: { page: 2, perPage: 1 }) { page perPage total totalPages items { title } } }`);
    expect(result.data.events).toEqual({ page: 2, perPage: 1, total: 2, totalPages: 2, items: [{ title: 'Art Fair' }] });
    const capped = await api.graphql(`{ events(page: { perPage: 500 }) { perPage } }`);
    expect(capped.data.events.perPage).toBe(50);
  });

  it('bounds query depth', async () => {
    const deep = `{ events { items { venue { events { venue { events { venue { events { venue { events { venue { events { venue { events { title } } } } } } } } } } } } } } }`;
    const result = await api.graphql(deep);
    expect(result.errors?.[0].message).toMatch(/depth/i);
  });
});
