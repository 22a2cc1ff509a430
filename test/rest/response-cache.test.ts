// Read answers are kept (src/rest/response-cache.ts) and must never be stale: a write through the
// API or straight into the database, another caller, or the clock moving on all change the answer.
// Every 200 GET carries a strong ETag; If-None-Match with it answers 304 without a body.
import { describe, expect, it, vi } from 'vitest';
import { daysFromNow, useClockAt } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';

describe.each(DATABASE_KINDS)('kept REST answers on %s', (kind) => {
  useClockAt('2030-03-10T12:00:00Z');
  const api = useTestServer(kind);
  const titles = async (key?: string) => {
    const response = await api.request('GET', `${NS}/events`, { key });
    expect(response.status).toBe(200);
    return (response.json.events as { title: string }[]).map((e) => e.title);
  };
  const create = async (body: Record<string, unknown>) => {
    const response = await api.request('POST', `${NS}/events`, { body, key: api.keys.administrator });
    expect(response.status, response.text).toBe(201);
    return response.json.id as number;
  };

  it('answers If-None-Match with 304, and a changed answer with a new ETag', async () => {
    await create({ title: 'Tagged', start_date: daysFromNow(2), end_date: daysFromNow(2, '12:00:00') });
    const first = await api.request('GET', `${NS}/events`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await api.request('GET', `${NS}/events`, { headers: { 'if-none-match': etag } });
    expect([again.status, again.text]).toEqual([304, '']);
    expect((await api.request('GET', `${NS}/events`, { headers: { 'if-none-match': `"other", ${etag}` } })).status).toBe(304);
    await create({ title: 'Tagged too', start_date: daysFromNow(3), end_date: daysFromNow(3, '12:00:00') });
    const changed = await api.request('GET', `${NS}/events`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.json.events.map((e: { title: string }) => e.title)).toEqual(['Tagged', 'Tagged too']);
    // Errors and writes carry no ETag.
    expect((await api.request('GET', `${NS}/events/999999`)).headers.get('etag')).toBeNull();
  });

  it('never serves an answer kept for another caller, from before a write, or from another day', async () => {
    const id = await create({ title: 'Soon', start_date: daysFromNow(1), end_date: daysFromNow(1, '12:00:00') });
    await create({ title: 'Draft', status: 'draft', start_date: daysFromNow(1, '11:00:00'), end_date: daysFromNow(1, '12:00:00') });
    const anonymous = await titles();
    expect(anonymous).toContain('Soon');
    expect(anonymous).not.toContain('Draft');
    expect(await titles(api.keys.administrator)).toContain('Draft');
    expect(await titles()).toEqual(anonymous);

    // Straight into the database, as another process or tool would: only the triggers know.
    await api.server.db.prisma.event.update({ where: { id }, data: { title: 'Soon (renamed)' } });
    expect(await titles()).toContain('Soon (renamed)');

    // Three days later the event is over: the default window (from yesterday on) leaves it out.
    vi.setSystemTime(Date.now() + 3 * 86_400_000);
    expect(await titles()).not.toContain('Soon (renamed)');
  });
});
