// Calendar sources on a schedule, through GraphQL and the REST API only, with a local HTTP server as
// the calendar imported: a source on a short interval picks up a new, a changed and a removed event
// by itself; each update authority meets a local edit; a failing source is backed off and reported
// through a calendar webhook. The feed's dates are counted from today, so that no test depends on
// the day it runs; every wait is for a condition, with a deadline.
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';
import { feed, SOURCE_FIELDS, sourcesOf, startCalendarSite } from '../support/calendar-site.js';
import { eventually } from '../support/tasks.js';

const SECRET_KEY = 'sources-test-secret-key-0123456789';
const TOKEN = 'Bearer feed-token-7f3a9c1e5b';

const site = await startCalendarSite();
afterAll(() => site.close());

for (const kind of DATABASE_KINDS) {
  describe(`calendar sources on ${kind}`, () => {
    const api = useTestServer(kind, {
      TASK_ALLOWED_HOSTS: `127.0.0.1:${site.port}`,
      ALMANAC_SECRET_KEY: SECRET_KEY,
      SOURCE_MIN_REFRESH_SECONDS: '1',
      SOURCE_CHECK_SECONDS: '1',
    });
    const { admin, source, create, runNow } = sourcesOf(api);
    /** The events of the feed's days (any status but trash), by title. */
    const events = async (search: string) => {
      const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      const to = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
      const response = await api.request(
        'GET',
        `/wp-json/tribe/events/v1/events?start_date=${from}&end_date=${to}&per_page=50&status=publish,draft&search=${encodeURIComponent(search)}`,
        { key: api.keys.administrator },
      );
      return ((response.json?.events ?? []) as any[]).sort((a, b) => a.title.localeCompare(b.title));
    };
    const countOf = (view: any, kind = 'event') => view.lastRun.counts.find((c: any) => c.kind === kind);

    it('is for administrators only', async () => {
      const asEditor = await api.graphql('{ calendarSources { id } }', {}, api.keys.editor);
      expect(asEditor.errors?.[0].extensions.code).toBe('FORBIDDEN');
      const anonymous = await api.graphql('{ calendarSources { id } }');
      expect(anonymous.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    });

    it('refuses a second source of one address, and an interval under the minimum', async () => {
      const input = { kind: 'ICAL', address: `${site.url}/twice.ics` };
      await create(input);
      const again = await api.graphql(
        'mutation($input: CalendarSourceInput!) { createCalendarSource(input: $input) { id } }',
        { input },
        api.keys.administrator,
      );
      expect(again.errors?.[0].extensions.code).toBe('CONFLICT');
      const tooOften = await api.graphql(
        'mutation($input: CalendarSourceInput!) { createCalendarSource(input: $input) { id } }',
        { input: { kind: 'ICAL', address: `${site.url}/often.ics`, refreshSeconds: -5 } },
        api.keys.administrator,
      );
      expect(tooOften.errors?.[0].extensions.code).toBe('INVALID_INPUT');
    });

    it('picks up a new, a changed and a removed event on its own schedule; credentials are sent, never shown, sealed at rest', async () => {
      site.feeds.set(
        '/schedule.ics',
        feed([
          { uid: 'sched-a', title: 'Scheduled Alpha', day: 3 },
          { uid: 'sched-b', title: 'Scheduled Beta', day: 4 },
        ]),
      );
      const created = await create({
        name: 'Partner calendar',
        kind: 'ICAL',
        address: `${site.url}/schedule.ics`,
        headers: [`Authorization: ${TOKEN}`],
        refreshSeconds: 1,
      });
      expect(created).toMatchObject({ hasCredentials: true, refreshSeconds: 1, authority: 'OVERWRITE' });
      await eventually(async () => (await events('Scheduled')).length === 2, 'the first run');
      expect(site.requests.find((r) => r.path === '/schedule.ics')?.headers.authorization).toBe(TOKEN);
      const listed = await api.request('POST', '/graphql', {
        body: { query: `{ calendarSources { ${SOURCE_FIELDS} hasCredentials } }` },
        key: api.keys.administrator,
      });
      expect(listed.text).not.toContain('feed-token');
      // At rest: sealed (AES-GCM with ALMANAC_SECRET_KEY), not readable in the database.
      const stored = await api.server.db.prisma.calendarSource.findUniqueOrThrow({ where: { id: created.id } });
      expect(stored.credentials).toMatch(/^v1\./);
      expect(JSON.stringify(stored)).not.toContain('feed-token');

      // The source changes: Alpha is renamed, Beta leaves the feed, Gamma comes. Nobody asks for a run.
      site.feeds.set(
        '/schedule.ics',
        feed([
          { uid: 'sched-a', title: 'Scheduled Alpha (moved indoors)', day: 3 },
          { uid: 'sched-c', title: 'Scheduled Gamma', day: 5 },
        ]),
      );
      await eventually(
        async () =>
          JSON.stringify((await events('Scheduled')).map((e) => e.title)) ===
          JSON.stringify(['Scheduled Alpha (moved indoors)', 'Scheduled Gamma']),
        'the changes to arrive by schedule',
      );
      const status = await source(created.id);
      expect(status.lastRun.outcome).toBe('completed');
      expect(Date.parse(status.nextRunAt)).toBeGreaterThan(Date.parse(status.lastRun.at));

      // Deleted with its events: they go to the trash, and the schedule stops.
      const deleted = await admin(
        `mutation($id: Int!) { deleteCalendarSource(id: $id, trashEvents: true) { trashedEvents source { id } } }`,
        {
          id: created.id,
        },
      );
      expect(deleted.deleteCalendarSource.trashedEvents).toBe(2);
      expect(await events('Scheduled')).toEqual([]);
    });

    it('keeps a removed or cancelled event when told not to trash removals', async () => {
      site.feeds.set(
        '/keep-removed.ics',
        feed([
          { uid: 'kr-1', title: 'Kept Removed One', day: 6 },
          { uid: 'kr-2', title: 'Kept Removed Two', day: 6 },
        ]),
      );
      const created = await create({ kind: 'ICAL', address: `${site.url}/keep-removed.ics`, trashRemoved: false });
      await runNow(created.id);
      site.feeds.set('/keep-removed.ics', feed([{ uid: 'kr-2', title: 'Kept Removed Two', day: 6, cancelled: true }]));
      const after = await runNow(created.id);
      expect(countOf(after).removed).toBe(0);
      expect((await events('Kept Removed')).map((e) => e.title)).toEqual(['Kept Removed One', 'Kept Removed Two']);
    });

    it('applies each update authority to an event edited here', async () => {
      const authorities = { OVERWRITE: 'overwrite', KEEP_LOCAL_EDITS: 'keep', OVERWRITE_UNEDITED: 'unedited' };
      const results: Record<string, any> = {};
      for (const [authority, path] of Object.entries(authorities)) {
        const uid = `authority-${path}`;
        site.feeds.set(`/${path}.ics`, feed([{ uid, title: `Authority ${path} v1`, description: 'First description', day: 7 }]));
        const created = await create({ kind: 'ICAL', address: `${site.url}/${path}.ics`, authority, defaultStatus: 'DRAFT' });
        await runNow(created.id);
        const [event] = await events(`Authority ${path}`);
        expect(event.status).toBe('draft');
        // Edited here: the title. A reviewer publishes it.
        const edit = await api.request('POST', `/wp-json/tribe/events/v1/events/${event.id}`, {
          key: api.keys.administrator,
          body: { title: `Authority ${path} edited here`, status: 'publish' },
        });
        expect(edit.status).toBe(200);
        // The source changes the title and the description.
        site.feeds.set(`/${path}.ics`, feed([{ uid, title: `Authority ${path} v2`, description: 'Second description', day: 7 }]));
        const run = await runNow(created.id);
        const [after] = await events(`Authority ${path}`);
        results[authority] = {
          title: after.title,
          description: after.description.replace(/<\/?p>/g, '').trim(),
          status: after.status,
          counts: countOf(run),
        };
      }
      expect(results.OVERWRITE).toMatchObject({
        title: 'Authority overwrite v2',
        description: 'Second description',
        counts: { updated: 1 },
      });
      expect(results.KEEP_LOCAL_EDITS).toMatchObject({
        title: 'Authority keep edited here',
        description: 'First description',
        counts: { kept: 1 },
      });
      expect(results.OVERWRITE_UNEDITED).toMatchObject({
        title: 'Authority unedited edited here',
        description: 'Second description',
        counts: { updated: 1 },
      });
      // The reviewer's status stands under every authority (the source only chose it for new events).
      for (const result of Object.values(results)) expect(result.status).toBe('publish');
    });

    it('backs off a failing source and reports it through a calendar webhook', async () => {
      const hook = await admin(`mutation($url: String!) { createCalendarWebhook(input: { url: $url }) { id } }`, {
        url: `${site.url}/hook`,
      });
      expect(hook.createCalendarWebhook.id).toBeTruthy();
      site.feeds.set('/broken.ics', 503);
      const created = await create({ name: 'Broken partner', kind: 'ICAL', address: `${site.url}/broken.ics`, refreshSeconds: 1 });
      let failing: any;
      await eventually(async () => (failing = await source(created.id)).state === 'FAILING', 'three failed runs', 90_000);
      expect(failing.lastRun).toMatchObject({ outcome: 'failed' });
      expect(failing.lastRun.error).toContain('503');
      // Each failure in a row doubles the wait: 1 s, 2 s, 4 s…
      expect(Date.parse(failing.nextRunAt) - Date.parse(failing.lastRun.at)).toBe(1000 * 2 ** (failing.failures - 1));
      // This server's webhook (the site receives every engine's).
      const ours = (n: { event: string; body: any }) =>
        n.event === 'calendar.source_failing' && n.body.webhookId === hook.createCalendarWebhook.id;
      await eventually(() => site.notices.some(ours), 'the webhook notice');
      const notice = site.notices.find(ours)!;
      expect(notice.body).toMatchObject({
        event: 'calendar.source_failing',
        changes: [],
        source: { id: created.id, name: 'Broken partner', failures: 3 },
      });
      const paused = await admin(`mutation($id: Int!) { pauseCalendarSource(id: $id) { state nextRunAt } }`, { id: created.id });
      expect(paused.pauseCalendarSource.nextRunAt).toBeNull();
    });
  });
}
