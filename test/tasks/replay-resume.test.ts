// A replay interrupted by a server's shutdown after it had acted on the page is not carried on blindly
// when the next server resumes the run: the reopened page has lost what was typed on it, so the model
// takes over there (told what was replayed) rather than submit an emptied form.
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY } from '../support/server.js';
import {
  clientFor,
  createTask,
  ended,
  eventually,
  runResult,
  taskText,
  useServersOnOneDatabase,
  useTaskFixtures,
  waitForRun,
} from '../support/tasks.js';

describe.each(DATABASE_KINDS)('replay resumed on %s', (kind) => {
  const fx = useTaskFixtures();
  const servers = useServersOnOneDatabase(kind, () => fx.env);
  const start = servers.start;

  const stepsOf = (server: RunningServer, taskId: string) =>
    server.db.prisma.taskStep.findMany({ where: { run: { taskId } }, orderBy: { index: 'asc' } });

  it('hands over to the model when a run resumes after replayed steps', async () => {
    // A wait in the middle: the replay is still running when the server shuts down.
    fx.llm.define('book-slowly', [
      (c) => ({ call: 'type', args: { element: c.element('name=who'), text: 'Ada' } }),
      { call: 'wait', args: { seconds: 4 } },
      (c) => ({ call: 'click', args: { element: c.element('button "Book"') } }),
      (c) => ({ call: 'done', args: { output: /Booked .*/.exec(c.page)![0] } }),
    ]);
    const startUrl = `${fx.pages.url}/booking?layout=a`;
    const first = await start();
    let api = clientFor(first.url);
    const sourceTask = await createTask(api, { task: taskText('book-slowly', 'Book a table'), startUrl });
    expect((await waitForRun(api, sourceTask, ended)).status, JSON.stringify(await runResult(api, sourceTask))).toBe('completed');
    const runs = await api.request('GET', `/api/v1/task/${sourceTask}/runs`, { key: ADMIN_KEY });

    const task = taskText('resumed', 'Book a table again');
    const taskId = await createTask(api, { task, startUrl: `${fx.pages.url}/booking?layout=b`, replayOf: runs.json.data[0].id });
    await eventually(async () => (await stepsOf(first, taskId)).length === 1, 'the first replayed step');
    await first.close();

    // The page reopens empty: the model takes over there, told what was replayed, and types again.
    fx.llm.define('resumed', [
      (c) => ({ call: 'type', args: { element: c.element('name=who'), text: 'Ada' } }),
      (c) => ({ call: 'click', args: { element: c.element('button "Book"') } }),
      (c) => ({ call: 'done', args: { output: /Booked .*/.exec(c.page)![0] } }),
    ]);
    const second = await start();
    api = clientFor(second.url);
    expect((await waitForRun(api, taskId, ended)).status, JSON.stringify(await runResult(api, taskId))).toBe('completed');
    expect((await runResult(api, taskId)).output).toBe('Booked Ada in Paris');
    const steps = await stepsOf(second, taskId);
    expect(steps.map((s) => [s.index, s.action, s.replayed])).toEqual([
      [1, 'type', true],
      [2, 'type', false],
      [3, 'click', false],
      [4, 'done', false],
    ]);
    const run = await second.db.prisma.taskRun.findFirstOrThrow({ where: { taskId } });
    expect(run.attempts).toBe(2);
    const told = fx.llm
      .requestsOf(task)[0]
      .body.messages.map((m: any) => m.content)
      .join('\n');
    expect(told).toContain('These steps were replayed from an earlier successful run, without you:\n1. type');
    expect(told).toContain('The replay stopped: the run was interrupted and its page reopened');
    // The form the reload emptied was never sent.
    expect(fx.pages.hits).not.toContain('/booked?city=Paris&code=&who=');
    expect(fx.pages.hits).toContain('/booked?city=Paris&code=&who=Ada');
  });
});
