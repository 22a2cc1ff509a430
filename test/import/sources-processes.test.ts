// Calendar sources with several server processes on one PostgreSQL: a run a stopping process leaves
// half done is resumed by another (the same import job, finished once), and a source on a short
// interval runs once per due time however many processes look for it. Servers are started by hand
// on one database (another "process" each); everything is asked through GraphQL and REST.
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { feed, SOURCE_FIELDS, startCalendarSite } from '../support/calendar-site.js';
import { ADMIN_KEY } from '../support/server.js';
import { clientFor, eventually, useServersOnOneDatabase } from '../support/tasks.js';

const site = await startCalendarSite();
afterAll(() => site.close());

describe('calendar sources across processes on one postgresql', () => {
  const servers = useServersOnOneDatabase('postgresql', () => ({
    TASK_ALLOWED_HOSTS: `127.0.0.1:${site.port}`,
    SOURCE_MIN_REFRESH_SECONDS: '1',
    SOURCE_CHECK_SECONDS: '1',
  }));
  const graphql = async (server: RunningServer, query: string, variables: Record<string, unknown> = {}) => {
    const response = await clientFor(server.url).request('POST', '/graphql', { body: { query, variables }, key: ADMIN_KEY });
    expect(response.json.errors, JSON.stringify(response.json.errors)).toBeUndefined();
    return response.json.data;
  };
  const source = async (server: RunningServer, id: number) =>
    (await graphql(server, `query($id: Int!) { calendarSource(id: $id) { ${SOURCE_FIELDS} } }`, { id })).calendarSource;
  const titles = async (server: RunningServer, search: string) => {
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const response = await clientFor(server.url).request(
      'GET',
      `/wp-json/tribe/events/v1/events?start_date=${from}&end_date=${to}&per_page=50&search=${encodeURIComponent(search)}`,
    );
    return (response.json.events as any[]).map((e) => e.title).sort();
  };
  let second: RunningServer;

  it('resumes the run of a process that stopped mid-run in another process', async () => {
    site.feeds.set(
      '/slow.ics',
      feed([
        { uid: 'slow-1', title: 'Slow Source One', day: 2 },
        { uid: 'slow-2', title: 'Slow Source Two', day: 3 },
      ]),
    );
    site.holdNext.add('/slow.ics');
    const first = await servers.start();
    const created = (
      await graphql(first, `mutation($input: CalendarSourceInput!) { createCalendarSource(input: $input) { id } }`, {
        input: { kind: 'ICAL', address: `${site.url}/slow.ics` },
      })
    ).createCalendarSource;
    await graphql(first, `mutation($id: Int!) { runCalendarSource(id: $id) { id } }`, { id: created.id });
    // The first process is reading the source, which does not answer.
    await eventually(() => site.requests.some((r) => r.path === '/slow.ics'), 'the first read of the source');
    const { runningJobId } = await source(first, created.id);
    expect(runningJobId).toBeGreaterThan(0);
    second = await servers.start();
    await first.close();
    const job = await graphql(second, `query($id: Int!) { importJob(id: $id) { status } }`, { id: runningJobId });
    expect(['INTERRUPTED', 'RUNNING', 'COMPLETED']).toContain(job.importJob.status);
    let after: any;
    await eventually(
      async () => (after = await source(second, created.id)).lastRun !== null,
      'the run to be finished by the second process',
    );
    expect(after.lastRun).toMatchObject({ jobId: runningJobId, outcome: 'completed' });
    expect(await titles(second, 'Slow Source')).toEqual(['Slow Source One', 'Slow Source Two']);
  });

  it('runs a due source once per due time, whichever of two processes claims it', async () => {
    const third = await servers.start();
    site.feeds.set('/shared.ics', feed([{ uid: 'shared-1', title: 'Shared Source Event', day: 4 }]));
    const created = (
      await graphql(second, `mutation($input: CalendarSourceInput!) { createCalendarSource(input: $input) { id } }`, {
        input: { kind: 'ICAL', address: `${site.url}/shared.ics`, refreshSeconds: 1 },
      })
    ).createCalendarSource;
    const jobs = new Set<number>();
    await eventually(async () => {
      const view = await source(jobs.size % 2 ? second : third, created.id);
      if (view.lastRun) jobs.add(view.lastRun.jobId);
      return jobs.size >= 4;
    }, 'four scheduled runs');
    await graphql(third, `mutation($id: Int!) { pauseCalendarSource(id: $id) { id } }`, { id: created.id });
    await eventually(async () => (await source(second, created.id)).state === 'PAUSED', 'the last run to end');
    const all = (await graphql(second, `{ importJobs(first: 100) { id source status createdAt finishedAt } }`)).importJobs.filter(
      (job: any) => job.source === `${site.url}/shared.ics`,
    );
    // One read of the source per run, one run at a time, each completed.
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(site.requests.filter((r) => r.path === '/shared.ics').length).toBe(all.length);
    const byStart = [...all].sort((a: any, b: any) => a.id - b.id);
    for (const [index, job] of byStart.entries()) {
      expect(job.status).toBe('COMPLETED');
      if (index > 0) expect(Date.parse(job.createdAt)).toBeGreaterThanOrEqual(Date.parse(byStart[index - 1].finishedAt));
    }
    expect(await titles(third, 'Shared Source')).toEqual(['Shared Source Event']);
  });
});
