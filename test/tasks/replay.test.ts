// Replay with real Chromium: a task created with replayOf repeats a completed run's steps without the
// LLM, finding each element by its locator, so a page whose elements moved (every number changed)
// replays with no LLM call at all, and secrets are typed with the new task's values. Where an element
// is gone, the model takes over from that step, told what was replayed; an earlier answer the page no
// longer shows is written afresh by the model. replayOf must name a
// completed run of the caller's own.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { finishTask, taskText, useTaskFixtures } from '../support/tasks.js';

const STEP_FIELDS = 'index action arguments replayed tokens';

describe.each(DATABASE_KINDS)('replay on %s', (kind) => {
  const fx = useTaskFixtures(() => ({ ALMANAC_SECRET_KEY: 'test-secret-key-0123456789' }));
  const api = useTestServer(kind, fx.env);

  const booking = (layout: string) => `${fx.pages.url}/booking?layout=${layout}`;

  /** Runs a task to its end: its id, run, result and steps. */
  const finish = ({ task, ...extra }: Record<string, unknown>) => finishTask(api, task as string, extra, STEP_FIELDS);

  /** A completed run that books Ada in Lyon on layout a, typing the booking code as a secret. */
  async function sourceRun() {
    fx.llm.define('book', [
      (c) => ({ call: 'type', args: { element: c.element('name=who'), text: 'Ada' } }),
      (c) => ({ call: 'type', args: { element: c.element('name=code'), text: '<secret:code>' } }),
      { call: 'click', args: { element: 99 } }, // a slip the model corrected: replay skips it
      (c) => ({ call: 'select', args: { element: c.element('name=city'), option: 'Lyon' } }),
      (c) => ({ call: 'click', args: { element: c.element('button "Book"') } }),
      (c) => ({ call: 'done', args: { output: /Booked .*/.exec(c.page)![0] } }),
    ]);
    const source = await finish({ task: taskText('book', 'Book a table'), startUrl: booking('a'), secrets: { code: 'first-code' } });
    expect(source.run.status, JSON.stringify(source.result)).toBe('completed');
    return source;
  }

  it('replays a completed run on a reordered page with no LLM call, typing the new task’s secrets', async () => {
    const source = await sourceRun();
    const task = taskText('never-asked', 'Book a table again');
    const replay = await finish({ task, startUrl: booking('b'), replayOf: source.runId, secrets: { code: 'second-code' } });
    expect(replay.run.status, JSON.stringify(replay.result)).toBe('completed');
    expect(fx.llm.requestsOf(task)).toHaveLength(0);
    expect(replay.result.output).toBe('Booked Ada in Lyon');
    // Every element number differs on layout b; the one the source never found is skipped.
    expect(replay.steps.map((s) => [s.action, s.arguments.element ?? null, s.replayed, s.tokens])).toEqual([
      ['type', 6, true, 0],
      ['type', 5, true, 0],
      ['select', 4, true, 0],
      ['click', 3, true, 0],
      ['done', null, true, 0],
    ]);
    expect(replay.steps[1].arguments.text).toBe('<secret:code>');
    // The site got the new task's secret.
    expect(fx.pages.hits).toContain('/booked?who=Ada&code=first-code&city=Lyon');
    expect(fx.pages.hits).toContain('/booked?city=Lyon&code=second-code&who=Ada');
    const task2 = await api.graphql(`query($id: ID!) { task(id: $id) { replayOf } }`, { id: replay.taskId }, ADMIN_KEY);
    expect(task2.data.task.replayOf).toBe(source.runId);
  });

  it('lets the model take over where the page no longer matches, telling it what was replayed', async () => {
    const source = await sourceRun();
    fx.llm.define('take-over', [
      (c) => ({ call: 'click', args: { element: c.element('button "Reserve"') } }),
      (c) => ({ call: 'done', args: { output: /Booked .*/.exec(c.page)![0] } }),
    ]);
    const task = taskText('take-over', 'Book a table once more');
    const replay = await finish({ task, startUrl: booking('c'), replayOf: source.runId, secrets: { code: 'third-code' } });
    expect(replay.run.status, JSON.stringify(replay.result)).toBe('completed');
    expect(replay.result.output).toBe('Booked Ada in Lyon');
    expect(replay.steps.map((s) => [s.action, s.replayed])).toEqual([
      ['type', true],
      ['type', true],
      ['select', true],
      ['click', false],
      ['done', false],
    ]);
    const requests = fx.llm.requestsOf(task);
    expect(requests).toHaveLength(2);
    const told = requests[0].body.messages.map((m: any) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    expect(told).toContain('These steps were replayed from an earlier successful run, without you:\n1. type {"element":1,"text":"Ada"}');
    expect(told).toContain(
      `The replay stopped: step 5 of the earlier run cannot be repeated: the page has no element like the step's (button type=submit "Book")`,
    );
    // Secrets stay placeholders in what the model is told.
    expect(told).not.toContain('third-code');
    expect(told).toContain('<secret:code>');
  });

  it('asks the model for the final answer when the page no longer shows the earlier one', async () => {
    const price = (page: string) => /price: (\d+\.00 EUR)/.exec(page)![1];
    fx.llm.define('quote', [(c) => ({ call: 'done', args: { output: price(c.page) } })]);
    const source = await finish({ task: taskText('quote', 'Get the price'), startUrl: `${fx.pages.url}/quote` });
    expect(source.run.status).toBe('completed');
    const task = taskText('quote', 'Get the price again');
    const replay = await finish({ task, startUrl: `${fx.pages.url}/quote`, replayOf: source.runId });
    expect(replay.run.status, JSON.stringify(replay.result)).toBe('completed');
    // One call, for the answer only; it is today's price, not the earlier one.
    expect(fx.llm.requestsOf(task)).toHaveLength(1);
    expect(Number.parseFloat(replay.result.output)).toBe(Number.parseFloat(source.result.output) + 1);
    expect(replay.steps.map((s) => [s.action, s.replayed])).toEqual([['done', false]]);
    const told = fx.llm.requestsOf(task)[0].body.messages.at(-2).content;
    expect(told).toContain(`every action was replayed; the earlier run's answer, "${source.result.output}", is not all on this page`);
  });

  it('refuses a replayOf that is not a completed run of the caller’s own, and stores nothing', async () => {
    const source = await sourceRun();
    fx.llm.define('give-up', [{ call: 'done', args: { output: 'cannot', success: false } }]);
    const failed = await finish({ task: taskText('give-up') });
    expect(failed.run.status).toBe('error');
    const cases: Array<[string, string, string]> = [
      [ADMIN_KEY, failed.runId, `replayOf names a run that did not complete (status error): only a completed run can be replayed`],
      [api.keys.editor, source.runId, `replayOf names no run of yours: "${source.runId}"`],
      [ADMIN_KEY, 'no-such-run', 'replayOf names no run of yours: "no-such-run"'],
      [ADMIN_KEY, '', 'replayOf must be the id of a run'],
    ];
    for (const [key, replayOf, message] of cases) {
      const before = (await api.request('GET', '/api/v1/tasks', { key })).json.total;
      const response = await api.request('POST', '/api/v1/task/create', { key, body: { task: 'Again', replayOf } });
      expect([response.status, response.json.error]).toEqual([400, message]);
      expect((await api.request('GET', '/api/v1/tasks', { key })).json.total).toBe(before);
    }
  });
});
