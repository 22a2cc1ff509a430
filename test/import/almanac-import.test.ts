// Import from another Almanac: the first run reads everything and remembers where the source's
// change log stood; later runs read only the changes since (creations, updates, trashed, unpublished
// and deleted records), which a recording proxy in front of the source shows; when the source has
// pruned those changes, a full read brings the target level again and says so.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneChanges } from '../../src/calendar/changes.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';
import { useTestServer, type TestServer } from '../support/server.js';

const REST = '/wp-json/tribe/events/v1';
const JOB_FIELDS = 'id status changesOnly processed error warnings counts { kind created updated unchanged skipped removed failed }';

async function importFrom(target: TestServer, source: string) {
  const started = await target.graphql(`mutation { startImport(kind: TEC, source: "${source}") { id } }`, {}, target.keys.administrator);
  expect(started.errors).toBeUndefined();
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const { data } = await target.graphql(
      `{ importJob(id: ${started.data.startImport.id}) { ${JOB_FIELDS} } }`,
      {},
      target.keys.administrator,
    );
    if (data.importJob.status !== 'RUNNING') return data.importJob;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import is still running');
}

/** `npm run import -- --from URL` as a person would run it, against the target server's database. */
async function importCommand(target: TestServer, source: string, allowedHost: string) {
  const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/import.ts', '--from', source], {
    env: { ...process.env, DATABASE_URL: target.databaseUrl, SITE_URL: 'http://almanac.test', TASK_ALLOWED_HOSTS: allowedHost },
  });
  return stdout;
}

const countOf = (job: any, kind: string) => job.counts.find((c: any) => c.kind === kind) ?? {};

/** What a visitor sees of a calendar: its events (title, dates, venue, tags) and its tags. */
async function publicView(api: TestServer) {
  const events = await api.request('GET', `${REST}/events?start_date=2030-01-01&end_date=2030-12-31&per_page=50`);
  const tags = await api.request('GET', `${REST}/tags?hide_empty=false&per_page=50`);
  return {
    events: events.json.events
      .map((e: any) => ({
        title: e.title,
        start: e.start_date,
        venue: Array.isArray(e.venue) ? null : e.venue.venue,
        tags: e.tags.map((t: any) => t.name).sort(),
      }))
      .sort((a: any, b: any) => a.start.localeCompare(b.start)),
    tags: tags.json.tags.map((t: any) => t.name).sort(),
  };
}

for (const kind of DATABASE_KINDS) {
  describe(`import from another Almanac on ${kind}`, () => {
    const source = useTestServer(kind);
    let proxy: RecordingProxy;
    beforeAll(async () => {
      proxy = await startRecordingProxy(source.url);
    });
    afterAll(() => proxy?.close());
    const target = useTestServer(kind, async () => ({ TASK_ALLOWED_HOSTS: `127.0.0.1:${proxy.port}` }));

    const write = async (method: string, path: string, body?: unknown) => {
      const answer = await source.request(method, `${REST}${path}`, { body, key: source.keys.administrator });
      expect(answer.status, answer.text).toBeLessThan(300);
      return answer.json;
    };
    const event = (title: string, day: number, extra: Record<string, unknown> = {}) =>
      write('POST', '/events', {
        title,
        status: 'publish',
        start_date: `2030-05-${String(day).padStart(2, '0')} 19:00:00`,
        end_date: `2030-05-${String(day).padStart(2, '0')} 21:00:00`,
        ...extra,
      });
    const ids: Record<string, number> = {};
    const listings = (from: number) => proxy.requests.slice(from).filter((line) => /^GET \/wp-json\/tribe\/events\/v1\/\w+\?/.test(line));

    beforeAll(async () => {
      const hall = await write('POST', '/venues', { venue: 'Riverside Hall', status: 'publish' });
      const folk = await write('POST', '/tags', { name: 'folk' });
      ids.folk = folk.id;
      ids.hall = hall.id;
      for (const [name, day] of [
        ['Jam Night', 1],
        ['Poetry Slam', 2],
        ['Book Fair', 3],
        ['Choir', 4],
      ] as const)
        ids[name] = (await event(name, day, { venue: hall.id, tags: [folk.id] })).id;
    });

    it('reads everything the first time, and remembers where the change log stood', async () => {
      const first = await importFrom(target, proxy.url);
      expect(first).toMatchObject({ status: 'COMPLETED', error: '', changesOnly: false, warnings: [] });
      expect(countOf(first, 'event')).toMatchObject({ created: 4, failed: 0 });
      expect(listings(0).some((line) => line.startsWith(`GET ${REST}/events?`))).toBe(true);
      expect(proxy.requests.some((line) => line.startsWith('POST /graphql') && line.includes('calendarChangeCursor'))).toBe(true);
      expect(await publicView(target)).toEqual(await publicView(source));
    });

    it('then reads only the changes: created, updated, trashed, unpublished and deleted records follow', async () => {
      ids['Open Mic'] = (await event('Open Mic', 5, { venue: ids.hall })).id;
      await write('POST', `/events/${ids['Jam Night']}`, { title: 'Jam Night (moved indoors)' });
      await write('POST', `/venues/${ids.hall}`, { venue: 'Riverside Hall (east wing)' });
      await write('DELETE', `/events/${ids['Poetry Slam']}`);
      await write('POST', `/events/${ids['Book Fair']}`, { status: 'draft' });
      const gone = await source.graphql(`mutation { deleteTag(id: ${ids.folk}) { id } }`, {}, source.keys.administrator);
      expect(gone.errors).toBeUndefined();

      const mark = proxy.requests.length;
      const second = await importFrom(target, proxy.url);
      expect(second).toMatchObject({ status: 'COMPLETED', error: '', changesOnly: true });
      expect(countOf(second, 'event')).toMatchObject({ created: 1, removed: 2, failed: 0 });
      expect(countOf(second, 'tag')).toMatchObject({ removed: 1 });
      expect(listings(mark)).toEqual([]);
      expect(proxy.requests.slice(mark).some((line) => line.startsWith('POST /graphql') && line.includes('calendarChanges'))).toBe(true);
      expect(await publicView(target)).toEqual(await publicView(source));
      // The trashed event is in the target's trash too.
      const trash = await target.request('GET', `${REST}/events?start_date=2030-01-01&end_date=2030-12-31&status=trash`, {
        key: target.keys.administrator,
      });
      expect(trash.json.events.map((e: any) => e.title).sort()).toEqual(['Book Fair', 'Poetry Slam']);
    });

    it('writes nothing when nothing changed', async () => {
      const cursor = (await target.graphql('{ calendarChangeCursor }')).data.calendarChangeCursor;
      const third = await importFrom(target, proxy.url);
      expect(third).toMatchObject({ status: 'COMPLETED', changesOnly: true, processed: 0 });
      const changes = await target.graphql(`{ calendarChanges(after: "${cursor}") { changes { id } } }`, {}, target.keys.administrator);
      expect(changes.data.calendarChanges.changes).toEqual([]);
    });

    it('reads everything again, and says so, when the source no longer keeps the changes since the last run', async () => {
      await write('POST', `/events/${ids['Open Mic']}`, { title: 'Open Mic (sign-up at 6)' });
      await write('DELETE', `/events/${ids.Choir}`);
      expect(await pruneChanges(source.server.db.prisma, '9999-01-01 00:00:00')).toBeGreaterThan(0);

      const mark = proxy.requests.length;
      // From the command line this time: the output says plainly that the whole source is read again.
      const output = await importCommand(target, proxy.url, `127.0.0.1:${proxy.port}`);
      expect(output).toMatch(
        /^ {2}warning: The source's change log no longer holds the changes since the last import \(its cursor expired\): every record is read again\.$/m,
      );
      expect(output).toMatch(/^import \d+ completed: \d+\/\d+ records \(.*event: 1 updated, \d+ unchanged, 1 removed/m);
      expect(listings(mark).some((line) => line.startsWith(`GET ${REST}/events?`))).toBe(true);
      // What the pruned log would have told arrives all the same: the update, and the trashed event (missing from the listing).
      expect(await publicView(target)).toEqual(await publicView(source));

      // The full read took a new cursor: the next run follows the log again.
      await event('Late Show', 6);
      const mark2 = proxy.requests.length;
      const fifth = await importFrom(target, proxy.url);
      expect(fifth).toMatchObject({ status: 'COMPLETED', changesOnly: true, warnings: [] });
      expect(countOf(fifth, 'event')).toMatchObject({ created: 1 });
      expect(listings(mark2)).toEqual([]);
      expect(await publicView(target)).toEqual(await publicView(source));
    });
  });
}
