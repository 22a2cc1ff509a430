// Calendar sources of kind TEC, through GraphQL and REST only: a The Events Calendar site's listing
// is not complete, so a record missing from it stays here; another Almanac's change log is, so an
// event trashed there leaves here by the source's own schedule. Dates are counted from today.
import { beforeAll, describe, expect, it } from 'vitest';
import { sourcesOf } from '../support/calendar-site.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';
import { eventually } from '../support/tasks.js';
import { startTecSite, type TecSite } from '../support/tec-site.js';

const REST = '/wp-json/tribe/events/v1';

/** A local wall "YYYY-MM-DD HH:00:00" `days` after today. */
function wall(days: number, hour: number): string {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, hour));
  return at.toISOString().slice(0, 13).replace('T', ' ') + ':00:00';
}

/** A The Events Calendar REST event as the site lists it (only what the import reads). */
const tecEvent = (id: number, title: string, days: number) => ({
  id,
  title,
  status: 'publish',
  start_date: wall(days, 18),
  end_date: wall(days, 20),
  timezone: 'UTC',
  all_day: false,
  venue: [],
  organizer: [],
  categories: [],
  tags: [],
});

async function titles(api: TestServer, search: string): Promise<string[]> {
  const from = wall(-2, 0).slice(0, 10);
  const to = wall(60, 0).slice(0, 10);
  const response = await api.request(
    'GET',
    `${REST}/events?start_date=${from}&end_date=${to}&per_page=50&search=${encodeURIComponent(search)}`,
  );
  return (response.json.events as any[]).map((e) => e.title).sort();
}

let site: TecSite;
beforeAll(async () => {
  site = await startTecSite();
  return () => site.close();
});

for (const kind of DATABASE_KINDS) {
  describe(`TEC calendar sources on ${kind}`, () => {
    const almanac = useTestServer(kind);
    const api = useTestServer(kind, async () => ({
      TASK_ALLOWED_HOSTS: `127.0.0.1:${site.port},127.0.0.1:${new URL(almanac.url).port}`,
      SOURCE_MIN_REFRESH_SECONDS: '1',
      SOURCE_CHECK_SECONDS: '1',
    }));
    const { create, runNow } = sourcesOf(api);

    it('keeps an event a The Events Calendar listing no longer shows (missing is not deleted)', async () => {
      site.records = {
        events: [tecEvent(901, 'Listed Concert', 5), tecEvent(902, 'Listed Lecture', 6)],
        venues: [],
        organizers: [],
        categories: [],
        tags: [],
      };
      const created = await create({ kind: 'TEC', address: site.url, trashRemoved: true });
      const first = await runNow(created.id);
      expect(first.lastRun).toMatchObject({ outcome: 'completed', error: '' });
      expect(await titles(api, 'Listed')).toEqual(['Listed Concert', 'Listed Lecture']);
      site.records.events = [tecEvent(901, 'Listed Concert (sold out)', 5)];
      const second = await runNow(created.id);
      expect(second.lastRun.counts.find((c: any) => c.kind === 'event')).toMatchObject({ updated: 1, removed: 0 });
      expect(await titles(api, 'Listed')).toEqual(['Listed Concert (sold out)', 'Listed Lecture']);
    });

    it("follows another Almanac's change log on its schedule: a new, a changed and a trashed event", async () => {
      const write = async (method: string, path: string, body?: unknown) => {
        const answer = await almanac.request(method, `${REST}${path}`, { body, key: almanac.keys.administrator });
        expect(answer.status, answer.text).toBeLessThan(300);
        return answer.json;
      };
      const event = (title: string, days: number) =>
        write('POST', '/events', { title, status: 'publish', start_date: wall(days, 19), end_date: wall(days, 21) });
      const kept = await event('Mirrored Choir', 3);
      const trashed = await event('Mirrored Jam', 4);
      await create({ kind: 'TEC', address: almanac.url, refreshSeconds: 1 });
      await eventually(async () => (await titles(api, 'Mirrored')).length === 2, 'the first run');
      await write('POST', `/events/${kept.id}`, { title: 'Mirrored Choir (new hall)' });
      await write('DELETE', `/events/${trashed.id}`);
      await event('Mirrored Fair', 5);
      await eventually(
        async () => JSON.stringify(await titles(api, 'Mirrored')) === JSON.stringify(['Mirrored Choir (new hall)', 'Mirrored Fair']),
        'the changes to arrive by schedule',
      );
    });
  });
}
