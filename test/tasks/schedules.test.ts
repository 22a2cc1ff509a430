// Task schedules through the task API and GraphQL, with the scripted model and local pages. The
// clock is faked (Date only, ticking on) and moved past each due time by hand; the server looks for
// due schedules every 20 ms (TASK_SCHEDULE_CHECK_MS), so nothing waits for a real minute. Scheduled
// runs' webhooks fire per run, as any run's do.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer, type TestServer } from '../support/server.js';
import {
  clientFor,
  ended,
  eventually,
  FORM_INPUT_TOOL,
  taskText,
  useServersOnOneDatabase,
  useTaskFixtures,
  waitForRun,
} from '../support/tasks.js';

const START = Date.parse('2031-06-10T12:00:30Z');
const minute = (n: number) => new Date(START - 30_000 + n * 60_000);
/** Moves the faked clock to just past the n-th minute after START's. */
const clockTo = (n: number) => vi.setSystemTime(minute(n).getTime() + 1000);

const SCHEDULE_QUERY = `query($id: ID!) { task(id: $id) { status schedule { cron timeZone paused nextRunAt nextRunTimes(count: 3)
  occurrences { dueAt outcome runId reason } } runs { total items { id status } } } }`;

async function scheduleOf(api: TestServer, taskId: string, key = ADMIN_KEY) {
  const answer = await api.graphql(SCHEDULE_QUERY, { id: taskId }, key);
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data.task;
}

/** Waits until the schedule has recorded `count` due times; gives them oldest first. */
async function occurrences(api: TestServer, taskId: string, count: number, key = ADMIN_KEY) {
  let task: any;
  await eventually(async () => (task = await scheduleOf(api, taskId, key)).schedule.occurrences.length >= count, `${count} due times`);
  return [...task.schedule.occurrences].reverse();
}

describe.each(DATABASE_KINDS)('task schedules on %s', (kind) => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: START, shouldAdvanceTime: true });
  });
  afterAll(() => {
    vi.useRealTimers();
  });
  const fx = useTaskFixtures(() => ({ TASK_SCHEDULE_CHECK_MS: '20', TASK_DAILY_TOKENS_PER_KEY: '1000' }));
  const api = useTestServer(kind, fx.env);
  // A webhook receiver: each scheduled run's events arrive as any run's do.
  const received: Array<{ event: string; runId: string }> = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.end('ok');
    });
  });
  let receiverUrl = '';
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('runs a task every minute, skips the due time its previous run is still going at, and shows the next times', async () => {
    fx.llm.define('every-minute', [
      // The first run waits for the caller's answer (still going at the next due time); the second finishes at once.
      (c) =>
        c.seen === 0
          ? { call: 'form_input', args: { heading: 'Price', fields: [{ type: 'text', label: 'Max' }] } }
          : { call: 'done', args: { output: 'second run' } },
      (c) => ({ call: 'done', args: { output: `first run, max ${c.lastToolResult}` } }),
    ]);
    const created = await api.request('POST', '/api/v1/task/create', {
      key: ADMIN_KEY,
      body: {
        task: taskText('every-minute', 'Check the price'),
        startUrl: `${fx.pages.url}/signin`,
        tools: [FORM_INPUT_TOOL],
        schedule: { cron: '* * * * *', timeZone: 'Europe/Paris' },
        webhookUrl: receiverUrl,
      },
    });
    expect(created.status, created.text).toBe(200);
    const taskId = created.json.data.taskId;
    // Scheduled: nothing runs before its first due time.
    const before = await scheduleOf(api, taskId);
    expect(before.runs.total).toBe(0);
    expect(before.schedule).toMatchObject({ cron: '* * * * *', timeZone: 'Europe/Paris', paused: false, occurrences: [] });
    expect(before.schedule.nextRunTimes).toEqual([1, 2, 3].map((n) => minute(n).toISOString()));

    clockTo(1);
    const [first] = await occurrences(api, taskId, 1);
    expect(first).toMatchObject({ dueAt: minute(1).toISOString(), outcome: 'started', reason: null });
    const waiting = await waitForRun(api, taskId, (r) => r.detailedStatus === 'tool_call', { runId: first.runId });
    expect(waiting.status).toBe('running');

    clockTo(2);
    const [, skipped] = await occurrences(api, taskId, 2);
    expect(skipped).toMatchObject({ dueAt: minute(2).toISOString(), outcome: 'skipped', runId: null });
    expect(skipped.reason).toBe(`the run ${first.runId} was still going`);
    // The same record through the task API.
    const rest = await api.request('GET', `/api/v1/task/${taskId}/schedule`, { key: ADMIN_KEY });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.json.data).toMatchObject({
      cron: '* * * * *',
      timeZone: 'Europe/Paris',
      paused: false,
      nextRunAt: minute(3).toISOString(),
    });
    expect(rest.json.data.occurrences.map((o: any) => o.outcome)).toEqual(['skipped', 'started']);

    const answered = await api.request('POST', `/api/v1/task/${taskId}/run/tool-input`, { key: ADMIN_KEY, body: { input: '42' } });
    expect(answered.status, answered.text).toBe(200);
    await waitForRun(api, taskId, ended, { runId: first.runId });

    clockTo(3);
    const [, , second] = await occurrences(api, taskId, 3);
    expect(second).toMatchObject({ dueAt: minute(3).toISOString(), outcome: 'started' });
    await waitForRun(api, taskId, ended, { runId: second.runId });
    const outputs = [];
    for (const runId of [first.runId, second.runId])
      outputs.push((await api.request('GET', `/api/v1/task/${taskId}/run/result?runId=${runId}`, { key: ADMIN_KEY })).json.data);
    expect(outputs.map((r) => [r.status, r.output])).toEqual([
      ['completed', 'first run, max 42'],
      ['completed', 'second run'],
    ]);
    expect((await scheduleOf(api, taskId)).runs.total).toBe(2);
    const events = (runId: string) => received.filter((e) => e.runId === runId).map((e) => e.event);
    await eventually(() => events(first.runId).length === 2 && events(second.runId).length === 1, "both runs' webhooks");
    expect(events(first.runId)).toEqual(['tool_call', 'completed']);
    expect(events(second.runId)).toEqual(['completed']);
  });

  it('pauses and resumes a schedule: no run while paused, runs again once resumed', async () => {
    fx.llm.define('pausable', [{ call: 'done', args: { output: 'ran' } }]);
    const key = api.keys.author;
    const make = async (what: string) => {
      const create = `mutation($input: CreateTaskInput!) { createTask(input: $input) { id schedule { nextRunAt } } }`;
      const input = { task: taskText('pausable', what), schedule: { cron: '*/1 * * * *' } };
      return (await api.graphql(create, { input }, key)).data.createTask;
    };
    clockTo(10);
    const task = await make('Paused one');
    // A second schedule, never paused: its due time shows a round ran past the first's.
    const witness = await make('Witness');
    expect(task.schedule.nextRunAt).toBe(minute(11).toISOString());

    const pause = await api.request('PUT', `/api/v1/task/${task.id}/schedule/pause`, { key });
    expect(pause.status, pause.text).toBe(200);
    expect(pause.json.data).toMatchObject({ paused: true, nextRunAt: null, nextRunTimes: [] });
    clockTo(11);
    await occurrences(api, witness.id, 1, key);
    expect((await scheduleOf(api, task.id, key)).schedule.occurrences).toEqual([]);

    const resumed = await api.graphql(
      `mutation($id: ID!) { resumeTaskSchedule(id: $id) { schedule { paused nextRunAt } } }`,
      { id: task.id },
      key,
    );
    expect(resumed.data.resumeTaskSchedule.schedule).toEqual({ paused: false, nextRunAt: minute(12).toISOString() });
    clockTo(12);
    const [ran] = await occurrences(api, task.id, 1, key);
    expect(ran).toMatchObject({ dueAt: minute(12).toISOString(), outcome: 'started' });
    expect((await waitForRun(api, task.id, ended, { key, runId: ran.runId })).status).toBe('completed');
  });

  it("counts scheduled runs in the key's daily budget: a due time over it is refused, not started", async () => {
    const key = api.keys.editor;
    fx.llm.define('budgeted', [
      { call: 'scroll', args: { direction: 'down' }, tokens: 600 },
      { call: 'scroll', args: { direction: 'up' }, tokens: 600 },
    ]);
    clockTo(20);
    const create = await api.request('POST', '/api/v1/task/create', {
      key,
      body: { task: taskText('budgeted'), startUrl: `${fx.pages.url}/signin`, schedule: { cron: '* * * * *' } },
    });
    const taskId = create.json.data.taskId;
    clockTo(21);
    const [first] = await occurrences(api, taskId, 1, key);
    expect(first.outcome).toBe('started');
    await waitForRun(api, taskId, ended, { key, runId: first.runId });
    const spent = 'TASK_DAILY_TOKENS_PER_KEY reached: the runs of this API key have used 1200 tokens today (UTC), its limit is 1000';
    const result = (await api.request('GET', `/api/v1/task/${taskId}/run/result`, { key })).json.data;
    expect(result).toMatchObject({ status: 'error', error: spent, usage: { tokens: 1200 } });

    clockTo(22);
    const [, refused] = await occurrences(api, taskId, 2, key);
    expect(refused).toMatchObject({ outcome: 'refused', runId: null, reason: `${spent}; new runs start again after 00:00 UTC` });
    expect((await scheduleOf(api, taskId, key)).runs.total).toBe(1);
  });

  it("refuses bad patterns and zones with a 400, and another key's changes as not found", async () => {
    const create = async (schedule: unknown) =>
      api.request('POST', '/api/v1/task/create', { key: ADMIN_KEY, body: { task: 'never runs', schedule } });
    for (const [schedule, error] of [
      [{ cron: '61 * * * *' }, 'schedule.cron is not a valid cron pattern: Invalid value for minute: 61'],
      [{ cron: '* * * * * *' }, 'schedule.cron must have 5 fields (minute hour day-of-month month day-of-week), got "* * * * * *"'],
      [{ cron: '0 0 31 2 *' }, 'schedule.cron never comes round ("0 0 31 2 *")'],
      [
        { cron: '0 8 * * *', timeZone: 'Mars/Olympus' },
        'schedule.timeZone must be an IANA time zone name such as "Europe/Paris" (got "Mars/Olympus")',
      ],
    ] as const) {
      const response = await create(schedule);
      expect(response.status, response.text).toBe(400);
      expect(response.json).toEqual({ success: false, error });
    }
    expect((await create({ timeZone: 'UTC' })).status).toBe(400);
    expect((await create('daily')).status).toBe(400);

    const stranger = api.keys.contributor;
    const taskId = (await create({ cron: '0 8 * * 1-5', timeZone: 'America/New_York' })).json.data.taskId;
    const moved = await api.request('POST', `/api/v1/task/${taskId}/schedule`, { key: ADMIN_KEY, body: { cron: 'nope' } });
    expect(moved.status).toBe(400);
    expect(moved.json.error).toMatch(/^schedule\.cron must have 5 fields/);
    const graphql = await api.graphql(
      `mutation($id: ID!) { setTaskSchedule(id: $id, schedule: {cron: "0 8 * * *", timeZone: "Nowhere/Land"}) { id } }`,
      { id: taskId },
      ADMIN_KEY,
    );
    expect(graphql.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_INPUT',
      params: { 'schedule.timeZone': expect.stringMatching(/IANA/) },
    });

    // Another key's caller: the task does not exist for it, and nothing changes.
    for (const [method, path, body] of [
      ['POST', `/api/v1/task/${taskId}/schedule`, { cron: '* * * * *' }],
      ['PUT', `/api/v1/task/${taskId}/schedule/pause`, undefined],
      ['PUT', `/api/v1/task/${taskId}/schedule/resume`, undefined],
      ['DELETE', `/api/v1/task/${taskId}/schedule`, undefined],
      ['GET', `/api/v1/task/${taskId}/schedule`, undefined],
    ] as const) {
      const response = await api.request(method, path, { key: stranger, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.json).toEqual({ success: false, error: `No task with id "${taskId}".` });
    }
    for (const mutation of ['pauseTaskSchedule(id: $id)', 'setTaskSchedule(id: $id, schedule: null)']) {
      const answer = await api.graphql(`mutation($id: ID!) { ${mutation} { id } }`, { id: taskId }, stranger);
      expect(answer.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    const still = await scheduleOf(api, taskId);
    expect(still.schedule).toMatchObject({ cron: '0 8 * * 1-5', timeZone: 'America/New_York', paused: false });
    expect(still.schedule.nextRunTimes.map((t: string) => new Date(t).getUTCHours())).toEqual([12, 12, 12]);

    // The owner removes it.
    expect((await api.request('DELETE', `/api/v1/task/${taskId}/schedule`, { key: ADMIN_KEY })).json).toEqual({
      success: true,
      data: null,
    });
    expect((await scheduleOf(api, taskId)).schedule).toBeNull();
    const none = await api.request('PUT', `/api/v1/task/${taskId}/schedule/pause`, { key: ADMIN_KEY });
    expect(none.status).toBe(409);
  });
});

describe('task schedules across two processes on one postgresql', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: START, shouldAdvanceTime: true });
  });
  afterAll(() => {
    vi.useRealTimers();
  });
  const fx = useTaskFixtures(() => ({ TASK_SCHEDULE_CHECK_MS: '10' }));
  const servers = useServersOnOneDatabase('postgresql', () => fx.env);

  it('starts each due run once, whichever process claims it', async () => {
    const first = clientFor((await servers.start()).url);
    const second = clientFor((await servers.start()).url);
    fx.llm.define('shared', [{ call: 'done', args: { output: 'once' } }]);
    const graphql = async (api: TestServer, query: string, variables: Record<string, unknown>) =>
      (await api.request('POST', '/graphql', { key: ADMIN_KEY, body: { query, variables } })).json.data;
    const created = await first.request('POST', '/api/v1/task/create', {
      key: ADMIN_KEY,
      body: { task: taskText('shared'), startUrl: `${fx.pages.url}/signin`, schedule: { cron: '* * * * *' } },
    });
    const taskId = created.json.data.taskId;
    const runIds: string[] = [];
    for (const n of [1, 2, 3]) {
      clockTo(n);
      // Asked of either process in turn: both look for due schedules every 10 ms.
      const api = n % 2 ? second : first;
      let seen: any[] = [];
      await eventually(async () => {
        seen = (await graphql(api, SCHEDULE_QUERY, { id: taskId })).task.schedule.occurrences;
        return seen.length === n;
      }, `due time ${n}`);
      expect(seen[0]).toMatchObject({ dueAt: minute(n).toISOString(), outcome: 'started' });
      runIds.push(seen[0].runId);
      await waitForRun(api, taskId, ended, { runId: seen[0].runId });
    }
    const task = (await graphql(first, SCHEDULE_QUERY, { id: taskId })).task;
    expect(task.schedule.occurrences.map((o: any) => o.outcome)).toEqual(['started', 'started', 'started']);
    expect(new Set(runIds).size).toBe(3);
    expect(task.runs.total).toBe(3);
    expect(task.runs.items.map((r: any) => r.status)).toEqual(['completed', 'completed', 'completed']);
  });
});
