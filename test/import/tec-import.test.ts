// Import from a site running The Events Calendar, through GraphQL as an administrator would: every
// record of the original's recorded answers comes over with its slugs, dates, zones, costs, links and
// category tree; a second run updates instead of duplicating; a broken source stops the job, which
// resumes where it stood; the outbound URL policy applies to the source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';
import { sharedFileAvailable } from '../support/shared.js';
import { GOLDEN_DIR, startTecSite, type TecRecord, type TecSite } from '../support/tec-site.js';

const JOB_FIELDS =
  'id status phase changesOnly processed total error warnings counts { kind created updated unchanged skipped removed failed }';
const haveGolden = sharedFileAvailable(GOLDEN_DIR + 'INDEX.tsv', "The original's recorded conversation");
const site: TecSite | null = haveGolden ? await startTecSite() : null;
afterAll(() => site?.close());

/** Starts an import and waits (polling importJob, as a client watching it would) until it stops running. */
async function importAndWait(api: TestServer, args: string) {
  const started = await api.graphql(`mutation { startImport(${args}) { ${JOB_FIELDS} } }`, {}, api.keys.administrator);
  expect(started.errors).toBeUndefined();
  return waitForJob(api, started.data.startImport.id);
}

async function waitForJob(api: TestServer, id: number) {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    const { data } = await api.graphql(`{ importJob(id: ${id}) { ${JOB_FIELDS} } }`, {}, api.keys.administrator);
    if (data.importJob.status !== 'RUNNING') return data.importJob;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`import job ${id} still running`);
}

const countOf = (job: any, kind: string) => job.counts.find((c: any) => c.kind === kind) ?? {};

for (const kind of DATABASE_KINDS) {
  describe.runIf(haveGolden)(`import from a The Events Calendar site on ${kind}`, () => {
    const api = useTestServer(kind, { TASK_ALLOWED_HOSTS: `127.0.0.1:${site?.port}` });
    const records = site?.records as Record<string, TecRecord[]>;
    const admin = (path: string) => api.request('GET', `/wp-json/tribe/events/v1${path}`, { key: api.keys.administrator });
    let first: any;
    beforeAll(async () => {
      first = await importAndWait(api, `kind: TEC, source: "${site!.url}/"`);
    });

    it('copies every record, reading the site page by page', async () => {
      expect(first.status).toBe('COMPLETED');
      expect(first.error).toBe('');
      expect(countOf(first, 'event')).toMatchObject({ created: records.events.length, failed: 0 });
      expect(countOf(first, 'category').created).toBe(records.categories.length);
      expect(countOf(first, 'tag').created).toBe(records.tags.length);
      expect(first.processed).toBe(first.total);
      // 35 events at 50 a page: one page; the site's own address got the namespace appended.
      expect(site!.requests).toContain(
        '/wp-json/tribe/events/v1/events?start_date=1900-01-01+00%3A00%3A00&end_date=2200-12-31+23%3A59%3A59&per_page=50&page=1',
      );
    });

    it('keeps slugs, statuses, dates, zones, costs, texts and links', async () => {
      const list = await admin('/events?start_date=1900-01-01&end_date=2200-12-31&status=publish,future,draft,pending,private&per_page=50');
      expect(list.json.events).toHaveLength(records.events.length);
      const local = new Map<string, any>(list.json.events.map((e: any) => [`${e.title} ${e.start_date}`, e]));
      for (const source of records.events) {
        const event = local.get(`${source.title} ${source.start_date}`);
        expect(event, source.title).toBeDefined();
        // A draft without a slug gets one when it is published, here as there.
        if (source.slug) expect(event.slug).toBe(source.slug);
        expect(event).toMatchObject({
          title: source.title,
          status: source.status,
          start_date: source.start_date,
          end_date: source.end_date,
          utc_start_date: source.utc_start_date,
          timezone: source.timezone,
          all_day: source.all_day,
          cost: source.cost,
          featured: source.featured,
        });
        if (!source.date_utc.startsWith('0000')) expect(event.date_utc).toBe(source.date_utc);
        expect(event.description.replace(/\s+/g, ' ')).toBe(source.description.replace(/\s+/g, ' '));
        expect(Array.isArray(event.venue) ? null : event.venue.venue).toBe(Array.isArray(source.venue) ? null : source.venue.venue);
        expect(event.organizer.map((o: any) => o.organizer).sort()).toEqual(source.organizer.map((o: any) => o.organizer).sort());
        expect(event.categories.map((c: any) => c.slug).sort()).toEqual(source.categories.map((c: any) => c.slug).sort());
        expect(event.tags.map((t: any) => t.slug).sort()).toEqual(source.tags.map((t: any) => t.slug).sort());
      }
    });

    it('rebuilds the category tree and decodes names', async () => {
      const { json } = await admin('/categories?hide_empty=false&per_page=50');
      const byName = new Map<string, any>(json.categories.map((c: any) => [c.name, c]));
      for (const source of records.categories) {
        // Both answers are the REST layer's: names are entity-encoded alike ("Sports &amp; Games").
        const local = byName.get(source.name)!;
        expect(local, source.name).toBeDefined();
        expect(local.slug).toBe(source.slug);
        const parent = records.categories.find((c) => c.id === source.parent);
        expect(local.parent).toBe(parent ? byName.get(parent.name).id : 0);
      }
    });

    it('writes nothing on a second run when nothing changed, and updates what did', async () => {
      const before = await admin('/events?start_date=1900-01-01&end_date=2200-12-31&status=publish,future,draft,pending,private');
      const cursor = (await api.graphql('{ calendarChangeCursor }', {}, api.keys.administrator)).data.calendarChangeCursor;
      const second = await importAndWait(api, `kind: TEC, source: "${site!.url}/wp-json/tribe/events/v1"`);
      expect(second.status).toBe('COMPLETED');
      // A The Events Calendar site offers no change log: every record is read, and compared.
      expect(second.changesOnly).toBe(false);
      expect(countOf(second, 'event')).toMatchObject({ created: 0, updated: 0, unchanged: records.events.length });
      expect(countOf(second, 'venue').created ?? 0).toBe(0);
      const changes = async () =>
        (await api.graphql(`{ calendarChanges(after: "${cursor}", first: 500) { changes { type id } } }`, {}, api.keys.administrator)).data
          .calendarChanges.changes;
      expect(await changes()).toEqual([]);
      const after = await admin('/events?start_date=1900-01-01&end_date=2200-12-31&status=publish,future,draft,pending,private');
      expect(after.headers.get('x-tec-total')).toBe(before.headers.get('x-tec-total'));

      const edited = records.events[0]!;
      const title = edited.title;
      edited.title = `${title} (moved indoors)`;
      try {
        const third = await importAndWait(api, `kind: TEC, source: "${site!.url}"`);
        expect(countOf(third, 'event')).toMatchObject({ created: 0, updated: 1, unchanged: records.events.length - 1 });
        expect(await changes()).toEqual([{ type: 'EVENT', id: expect.any(Number) }]);
      } finally {
        edited.title = title;
      }
      const back = await importAndWait(api, `kind: TEC, source: "${site!.url}"`);
      expect(countOf(back, 'event')).toMatchObject({ created: 0, updated: 1 });
    });

    it('stops at a broken page and resumes there, without reading the done pages again', async () => {
      site!.breakAt = { collection: 'tags', page: 1 };
      const broken = await importAndWait(api, `kind: TEC, source: "${site!.url}"`);
      expect(broken.status).toBe('FAILED');
      expect(broken.error).toContain('The site is being repaired.');
      expect(broken.phase).toBe('tags');
      site!.breakAt = null;
      const mark = site!.requests.length;
      const resumed = await api.graphql(`mutation { resumeImport(id: ${broken.id}) { status } }`, {}, api.keys.administrator);
      expect(resumed.data.resumeImport.status).toBe('RUNNING');
      const done = await waitForJob(api, broken.id);
      expect(done.status).toBe('COMPLETED');
      const read = site!.requests.slice(mark);
      expect(read.some((path) => path.startsWith('/wp-json/tribe/events/v1/categories?'))).toBe(false);
      expect(read.some((path) => path.startsWith('/wp-json/tribe/events/v1/tags?'))).toBe(true);
      expect(countOf(done, 'event').created + countOf(done, 'event').updated).toBe(0);
      const again = await api.graphql(`mutation { resumeImport(id: ${broken.id}) { status } }`, {}, api.keys.administrator);
      expect(again.errors?.[0].extensions.code).toBe('CONFLICT');
    });

    it('is for administrators only, and obeys the outbound URL policy', async () => {
      const editor = await api.graphql(`mutation { startImport(kind: TEC, source: "${site!.url}") { id } }`, {}, api.keys.editor);
      expect(editor.errors?.[0].extensions.code).toBe('FORBIDDEN');
      const anonymous = await api.graphql(`{ importJobs { id } }`);
      expect(anonymous.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
      const bad = await api.graphql(`mutation { startImport(kind: TEC, source: "not a url") { id } }`, {}, api.keys.administrator);
      expect(bad.errors?.[0].extensions.code).toBe('INVALID_INPUT');
      // localhost is the same site, but only 127.0.0.1:<port> is allowed.
      const denied = await importAndWait(api, `kind: TEC, source: "http://localhost:${site!.port}"`);
      expect(denied.status).toBe('FAILED');
      expect(denied.error).toMatch(/loopback address/);
    });
  });
}
