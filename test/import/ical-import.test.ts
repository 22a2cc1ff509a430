// iCalendar import from files written the way real producers write them (Google Calendar, Outlook,
// The Events Calendar's own export): from the command line (a file) and through GraphQL (a URL).
// Zones are kept (Outlook's Windows names mapped), recurring events kept as series with their
// exceptions, all-day events as whole days; a second run updates; a cancelled occurrence leaves the
// calendar.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';
import { startTecSite } from '../support/tec-site.js';

const run = promisify(execFile);
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const fixturePath = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;
// Serves the feeds over HTTP (the records it also serves are not used here).
const site = await startTecSite();
site.files.set('/outlook.ics', { type: 'text/calendar', body: fixture('outlook.ics') });
site.files.set('/tec-export.ics', { type: 'text/calendar; charset=utf-8', body: fixture('tec-export.ics') });
site.files.set('/not-a-calendar.ics', { type: 'text/html', body: '<html>maintenance</html>' });
const scratch = mkdtempSync(join(tmpdir(), 'almanac-ical-'));
afterAll(async () => {
  await site.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** `npm run import -- …` as a person would run it, against the test server's database. */
async function importCommand(api: TestServer, args: string[]) {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'scripts/import.ts', ...args], {
      env: { ...process.env, DATABASE_URL: api.databaseUrl, SITE_URL: 'http://almanac.test' },
    });
    return { code: 0, stdout, stderr };
  } catch (error: any) {
    return { code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string };
  }
}

async function graphqlImport(api: TestServer, source: string) {
  const started = await api.graphql(`mutation { startImport(kind: ICAL, source: "${source}") { id } }`, {}, api.keys.administrator);
  expect(started.errors).toBeUndefined();
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const { data } = await api.graphql(
      `{ importJob(id: ${started.data.startImport.id}) { status error processed counts { kind created updated removed failed } warnings } }`,
      {},
      api.keys.administrator,
    );
    if (data.importJob.status !== 'RUNNING') return data.importJob;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('import still running');
}

const WINDOW = ['--since', '2027-01-01', '--until', '2027-02-28'];

for (const kind of DATABASE_KINDS) {
  describe(`iCalendar import on ${kind}`, () => {
    const api = useTestServer(kind, { TASK_ALLOWED_HOSTS: `127.0.0.1:${site.port}` });
    const events = async (query = '', endDate = '2032-12-31') =>
      (
        await api.request(
          'GET',
          `/wp-json/tribe/events/v1/events?start_date=2020-01-01&end_date=${endDate}&per_page=50&status=publish,private${query}`,
          { key: api.keys.administrator },
        )
      ).json.events as any[];

    it('imports a Google Calendar export from the command line: zones, recurrences with exceptions, all-day events', async () => {
      const result = await importCommand(api, ['--ical', fixturePath('google.ics'), ...WINDOW]);
      expect(result.code, result.stderr).toBe(0);
      // The weekly session is one series (its master and its one changed occurrence): 4 records.
      expect(result.stdout).toMatch(/import \d+ completed: 4\/4 records/);
      const all = await events();
      const jams = (await events('', '2027-02-28')).filter((e) => e.title.startsWith('Weekly Jam Session'));
      // Tuesdays from Jan 5 to Feb 23, without Jan 19 (EXDATE); Jan 12 moved to 20:00 (RECURRENCE-ID).
      expect(jams.map((e) => e.start_date)).toEqual([
        '2027-01-05 19:00:00',
        '2027-01-12 20:00:00',
        '2027-01-26 19:00:00',
        '2027-02-02 19:00:00',
        '2027-02-09 19:00:00',
        '2027-02-16 19:00:00',
        '2027-02-23 19:00:00',
      ]);
      expect(jams[1].title).toBe('Weekly Jam Session (late start)');
      expect(jams[0]).toMatchObject({
        timezone: 'America/New_York',
        utc_start_date: '2027-01-06 00:00:00',
        venue: { venue: 'Riverside Hall, 12 River Rd, Springfield, MA 01103, USA' },
      });
      const fair = all.find((e) => e.title === 'Spring Book Fair');
      expect(fair).toMatchObject({ all_day: true, start_date: '2027-03-01 00:00:00', end_date: '2027-03-02 23:59:59' });
      // A UTC time lands in the calendar's zone (X-WR-TIMEZONE).
      const talk = all.find((e) => e.title === 'Author Talk');
      expect(talk).toMatchObject({
        start_date: '2027-04-10 12:00:00',
        timezone: 'America/New_York',
        utc_start_date: '2027-04-10 16:00:00',
      });
      expect(talk.organizer[0]).toMatchObject({ organizer: 'Jane Reader' });
    });

    it('updates on a second run, and takes a cancelled occurrence out of the calendar', async () => {
      const before = (await events()).length;
      const again = await importCommand(api, ['--ical', fixturePath('google.ics'), ...WINDOW]);
      expect(again.stdout).toMatch(/event: 4 unchanged/);
      expect((await events()).length).toBe(before);
      // The organizer cancels the Feb 2 session: Google keeps it as a cancelled exception.
      const cancelled = fixture('google.ics').replace(
        'END:VCALENDAR',
        [
          'BEGIN:VEVENT',
          'DTSTART;TZID=America/New_York:20270202T190000',
          'DTEND;TZID=America/New_York:20270202T210000',
          'UID:7kq1s3l8b0v2m9r4t6y5u1i3o2@google.com',
          'RECURRENCE-ID;TZID=America/New_York:20270202T190000',
          'STATUS:CANCELLED',
          'SUMMARY:Weekly Jam Session',
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n'),
      );
      // A feed is known by its path or URL: this copy is a source of its own, imported, then changed.
      const file = join(scratch, `google-${kind}.ics`);
      writeFileSync(file, fixture('google.ics'));
      expect((await importCommand(api, ['--ical', file, ...WINDOW])).code).toBe(0);
      const count = (await events('', '2027-02-28')).length;
      writeFileSync(file, cancelled);
      const third = await importCommand(api, ['--ical', file, ...WINDOW]);
      expect(third.stdout).toMatch(/1 removed/);
      const after = await events('', '2027-02-28');
      expect(after.length).toBe(count - 1);
    });

    it('imports an Outlook export over HTTP through GraphQL: Windows zone names, private events, organizers', async () => {
      const job = await graphqlImport(api, `webcal://127.0.0.1:${site.port}/outlook.ics`);
      expect(job).toMatchObject({ status: 'COMPLETED', error: '', warnings: [] });
      const planning = (await events()).find((e) => e.title === 'Quartalsplanung');
      expect(planning).toMatchObject({
        timezone: 'Europe/Berlin',
        start_date: '2027-03-15 10:00:00',
        utc_start_date: '2027-03-15 09:00:00',
        status: 'publish',
      });
      expect(planning.description).toContain('Agenda to follow.');
      expect(planning.organizer[0]).toMatchObject({ organizer: 'Max Mustermann', email: 'max@example.de' });
      const privateOne = (await events()).find((e) => e.title === 'Arzttermin');
      expect(privateOne.status).toBe('private');
      const anonymous = await api.request('GET', '/wp-json/tribe/events/v1/events?start_date=2027-03-20&end_date=2027-03-21');
      expect(anonymous.json.events.map((e: any) => e.title)).not.toContain('Arzttermin');
    });

    it("imports The Events Calendar's own export: categories by name, venue, organizer, all-day", async () => {
      const job = await graphqlImport(api, `http://127.0.0.1:${site.port}/tec-export.ics`);
      expect(job.status).toBe('COMPLETED');
      const jazz = (await events('&search=Jazz')).find((e) => e.title === 'Jazz Night');
      expect(jazz).toMatchObject({
        start_date: '2031-03-10 18:00:00',
        timezone: 'UTC',
        venue: { venue: 'Blue Note Hall, 1 Main St, Springfield, MA, 01101, United States' },
      });
      expect(jazz.categories.map((c: any) => c.name).sort()).toEqual(['Jazz', 'Music']);
      expect(jazz.organizer[0].organizer).toBe('Jazz Society');
      const picnic = (await events('&search=Picnic')).find((e) => e.title === 'Riverside Picnic');
      expect(picnic).toMatchObject({ all_day: true, start_date: '2031-05-01 00:00:00', end_date: '2031-05-01 23:59:59' });
    });

    it('reports what is not a calendar, and reads no server files through GraphQL', async () => {
      const job = await graphqlImport(api, `http://127.0.0.1:${site.port}/not-a-calendar.ics`);
      expect(job.status).toBe('FAILED');
      expect(job.error).toMatch(/not an iCalendar file/);
      const file = await api.graphql(`mutation { startImport(kind: ICAL, source: "/etc/passwd") { id } }`, {}, api.keys.administrator);
      expect(file.errors?.[0].extensions.code).toBe('INVALID_INPUT');
      const missing = await importCommand(api, ['--ical', join(scratch, 'missing.ics')]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/cannot read/);
    });
  });
}
