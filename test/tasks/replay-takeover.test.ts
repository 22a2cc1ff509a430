// Replay's other take-overs, with real Chromium: where the earlier run asked the user (a caller tool),
// where a replayed action fails on today's page, where the earlier run typed a secret this task does
// not have, and where the earlier answer does not fit this task's outputSchema, the model takes over from that step (told what was replayed), and the steps
// record which were replayed.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { textOf } from '../support/fake-llm.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import {
  FORM_INPUT_TOOL,
  createTask,
  ended,
  finishTask,
  runResult,
  runSteps,
  taskText,
  useTaskFixtures,
  waitForRun,
} from '../support/tasks.js';

const STEP_FIELDS = 'action replayed tokens';

describe.each(DATABASE_KINDS)('replay take-overs on %s', (kind) => {
  // A choice no longer offered fails once the action's wait is over: kept short.
  const fx = useTaskFixtures(() => ({ TASK_ACTION_TIMEOUT_MS: '1500', ALMANAC_SECRET_KEY: 'test-secret-key-0123456789' }));
  const api = useTestServer(kind, fx.env);

  /** Runs a task that needs no answer from the user to its end. */
  async function finish({ task, ...extra }: Record<string, unknown>) {
    const done = await finishTask(api, task as string, extra, STEP_FIELDS);
    expect(done.run.status, JSON.stringify(done.result)).toBe('completed');
    return done;
  }

  /** Everything the model was sent in its first request for `task`. */
  const toldFirst = (task: string) =>
    fx.llm
      .requestsOf(task)[0]
      .body.messages.map((m: any) => textOf(m.content))
      .join('\n');

  /** A completed run that books Ada in Lyon. */
  function bookAda() {
    fx.llm.define('book-ada', [
      (c) => ({ call: 'type', args: { element: c.element('name=who'), text: 'Ada' } }),
      (c) => ({ call: 'select', args: { element: c.element('name=city'), option: 'Lyon' } }),
      (c) => ({ call: 'click', args: { element: c.element('button "Book"') } }),
      (c) => ({ call: 'done', args: { output: /Booked .*/.exec(c.page)![0] } }),
    ]);
    return finish({ task: taskText('book-ada', 'Book a table'), startUrl: `${fx.pages.url}/booking?layout=a` });
  }

  it('hands over to the model where a replayed action fails on today’s page', async () => {
    const source = await bookAda();
    fx.llm.define('no-lyon', [
      (c) => ({ call: 'select', args: { element: c.element('name=city'), option: 'Paris' } }),
      (c) => ({ call: 'click', args: { element: c.element('button "Book"') } }),
      (c) => ({ call: 'done', args: { output: /Booked .*/.exec(c.page)![0] } }),
    ]);
    const task = taskText('no-lyon', 'Book a table where you can');
    const replay = await finish({ task, startUrl: `${fx.pages.url}/booking?layout=a&cities=Paris`, replayOf: source.runId });
    expect(replay.result.output).toBe('Booked Ada in Paris');
    expect(replay.steps.map((s) => [s.action, s.replayed])).toEqual([
      ['type', true],
      ['select', true],
      ['select', false],
      ['click', false],
      ['done', false],
    ]);
    expect(replay.steps.filter((s) => s.replayed).map((s) => s.tokens)).toEqual([0, 0]);
    expect(fx.llm.requestsOf(task)).toHaveLength(3);
    const told = toldFirst(task);
    expect(told).toContain('These steps were replayed from an earlier successful run, without you:\n1. type');
    expect(told).toContain(`The replay stopped: step 2 of the earlier run did not work this time: ${replay.steps[1].result}`);
    expect(fx.pages.hits).toContain('/booked?who=Ada&code=&city=Paris');
  });

  it('hands over to the model where the earlier run typed a secret this task does not have', async () => {
    fx.llm.define('book-with-code', [
      (c) => ({ call: 'type', args: { element: c.element('name=who'), text: 'Ada' } }),
      (c) => ({ call: 'type', args: { element: c.element('name=code'), text: '<secret:code>' } }),
      (c) => ({ call: 'click', args: { element: c.element('button "Book"') } }),
      (c) => ({ call: 'done', args: { output: /Booked .*/.exec(c.page)![0] } }),
    ]);
    const startUrl = `${fx.pages.url}/booking?layout=a`;
    const source = await finish({ task: taskText('book-with-code', 'Book a table'), startUrl, secrets: { code: 'first-code' } });
    fx.llm.define('no-code', [{ call: 'done', args: { output: 'No booking code to book with' } }]);
    const task = taskText('no-code', 'Book a table without a code');
    const booked = () => fx.pages.hits.filter((hit) => hit.startsWith('/booked')).length;
    const bookedBefore = booked();
    const replay = await finish({ task, startUrl, replayOf: source.runId });
    expect(replay.result.output).toBe('No booking code to book with');
    expect(replay.steps.map((s) => [s.action, s.replayed])).toEqual([
      ['type', true],
      ['done', false],
    ]);
    expect(toldFirst(task)).toContain(
      'The replay stopped: step 2 of the earlier run typed <secret:code>, which this task has no secret for.',
    );
    // The placeholder's text was never sent to the site as the code: the replay booked nothing.
    expect(booked()).toBe(bookedBefore);
  });

  it('hands the final answer to the model when the earlier one does not fit this task’s outputSchema', async () => {
    const source = await bookAda();
    const booked = (page: string) => /Booked (\w+) in (\w+)/.exec(page)!;
    fx.llm.define('as-object', [(c) => ({ call: 'done', args: { output: { who: booked(c.page)[1], city: booked(c.page)[2] } } })]);
    const task = taskText('as-object', 'Book a table, answer who and where');
    const outputSchema = {
      type: 'object',
      properties: { who: { type: 'string' }, city: { type: 'string' } },
      required: ['who', 'city'],
      additionalProperties: false,
    };
    const replay = await finish({ task, startUrl: `${fx.pages.url}/booking?layout=b`, replayOf: source.runId, outputSchema });
    expect(replay.result.output).toEqual({ who: 'Ada', city: 'Lyon' });
    expect(replay.steps.map((s) => [s.action, s.replayed])).toEqual([
      ['type', true],
      ['select', true],
      ['click', true],
      ['done', true],
      ['done', false],
    ]);
    expect(replay.steps[3].result).toBe('output rejected: (root) must be object');
    expect(fx.llm.requestsOf(task)).toHaveLength(1);
    expect(toldFirst(task)).toContain(
      "The replay stopped: the earlier run's answer does not match this task's outputSchema ((root) must be object).",
    );
  });

  it('hands over to the model where the earlier run asked the user through a caller tool', async () => {
    const ask = { heading: 'Sign in', fields: [{ type: 'text', label: 'Your name' }] };
    /** Creates the task, answers its one question with `name`, and waits for its end. */
    async function answered(body: Record<string, unknown>, name: string) {
      const taskId = await createTask(api, { ...body, tools: [FORM_INPUT_TOOL] });
      const waiting = await waitForRun(api, taskId, (r) => r.detailedStatus === 'tool_call' || ended(r));
      expect(waiting.detailedStatus).toBe('tool_call');
      const input = await api.request('POST', `/api/v1/task/${taskId}/run/tool-input`, {
        key: ADMIN_KEY,
        body: { input: name, toolCallId: waiting.toolCall!.toolCallId },
      });
      expect(input.status).toBe(200);
      expect((await waitForRun(api, taskId, ended)).status).toBe('completed');
      return { result: await runResult(api, taskId), ...(await runSteps(api, taskId, STEP_FIELDS)) };
    }
    fx.llm.define('sign-in', [
      { call: 'navigate', args: { url: `${fx.pages.url}/signin` } },
      { call: 'form_input', args: ask },
      (c) => ({ call: 'type', args: { element: c.element('"Your name"'), text: c.lastToolResult, submit: true } }),
      (c) => ({ call: 'done', args: { output: /Welcome, [^!]+!/.exec(c.page)![0] } }),
    ]);
    const source = await answered({ task: taskText('sign-in', 'Sign in'), startUrl: `${fx.pages.url}/still` }, 'Ada');
    expect(source.result.output).toBe('Welcome, Ada!');

    // The replay's model starts where the earlier run asked: its script skips the navigation.
    fx.llm.define('sign-in-again', [
      { call: 'form_input', args: ask },
      (c) => ({ call: 'type', args: { element: c.element('"Your name"'), text: c.lastToolResult, submit: true } }),
      (c) => ({ call: 'done', args: { output: /Welcome, [^!]+!/.exec(c.page)![0] } }),
    ]);
    const task = taskText('sign-in-again', 'Sign in again');
    const replay = await answered({ task, startUrl: `${fx.pages.url}/still`, replayOf: source.runId }, 'Grace');
    // The person's answer of today, not the one the earlier run was given.
    expect(replay.result.output).toBe('Welcome, Grace!');
    expect(replay.steps.map((s) => [s.action, s.replayed])).toEqual([
      ['navigate', true],
      ['form_input', false],
      ['type', false],
      ['done', false],
    ]);
    expect(fx.llm.requestsOf(task)).toHaveLength(3);
    expect(toldFirst(task)).toContain(
      'The replay stopped: step 2 of the earlier run called form_input, which needs an answer from the user.',
    );
  });
});
