// Budgets: a task's maxTokens and maxCostUsd (priced by LLM_PRICES) and an API key's tokens per UTC
// day. A run that reaches one ends failed naming the limit and the use; it never starts an LLM call
// once a budget is spent, and a call that goes over is not carried out. The use is in the result,
// in GraphQL, and a key whose day is spent gets a 429 for new runs. Bad input is a 400.
import { describe, expect, it } from 'vitest';
import { useClockAt } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer, type TestServer } from '../support/server.js';
import { createTask, ended, runResult, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';

// USD per 1M tokens; the fake LLM reports a reply of N tokens as N - 1 prompt tokens and 1 completion token.
const PRICES = JSON.stringify({ 'fake-model': { input: 1, output: 2 } });
const DAILY_TOKENS = 1000;
/** An amount of USD, to a billionth (sums of floating-point prices). */
const usd = (amount: number) => expect.closeTo(amount, 9);

const RUN_QUERY = `query($id: ID!) {
  task(id: $id) { maxTokens maxCostUsd }
  taskRun(taskId: $id) { detailedStatus tokensUsed costUsd steps { action result tokens costUsd } }
}`;

async function runOf(api: TestServer, taskId: string, key = ADMIN_KEY) {
  await waitForRun(api, taskId, ended, { key });
  const answer = await api.graphql(RUN_QUERY, { id: taskId }, key);
  return { ...answer.data, result: await runResult(api, taskId, key) };
}

describe.each(DATABASE_KINDS)('run budgets on %s', (kind) => {
  // A fixed midday: the key's day cannot end during the suite.
  useClockAt('2031-06-10T12:00:00Z');
  const fx = useTaskFixtures(() => ({ LLM_PRICES: PRICES, TASK_DAILY_TOKENS_PER_KEY: String(DAILY_TOKENS) }));
  const api = useTestServer(kind, fx.env);
  const startUrl = () => `${fx.pages.url}/signin`;

  it('ends a run that reached maxTokens before its next LLM call, and reports the use', async () => {
    fx.llm.define('tokens-reached', [
      { call: 'scroll', args: { direction: 'down' }, tokens: 300 },
      { call: 'scroll', args: { direction: 'up' }, tokens: 300 },
      { call: 'done', args: { output: 'never asked' }, tokens: 300 },
    ]);
    const task = taskText('tokens-reached');
    const taskId = await createTask(api, { task, startUrl: startUrl(), maxTokens: 600 });
    const { task: settings, taskRun, result } = await runOf(api, taskId);
    const error = 'maxTokens reached: the run has used 600 tokens, its maxTokens is 600';
    expect(result).toMatchObject({ status: 'error', error, usage: { tokens: 600, costUsd: usd(0.000602) } });
    expect(settings).toEqual({ maxTokens: 600, maxCostUsd: null });
    expect(taskRun.detailedStatus).toBe('failed');
    // Both calls within the budget were carried out; the third was never made.
    expect(taskRun.steps.map((s: any) => [s.action, s.tokens, s.costUsd])).toEqual([
      ['scroll', 300, usd(0.000301)],
      ['scroll', 300, usd(0.000301)],
    ]);
    expect(taskRun.steps.every((s: any) => !s.result.startsWith('not executed'))).toBe(true);
    expect(fx.llm.requestsOf(task)).toHaveLength(2);
    expect(taskRun).toMatchObject({ tokensUsed: 600, costUsd: usd(0.000602) });
  });

  it('does not carry out the call that went over maxCostUsd', async () => {
    fx.llm.define('cost-over', [
      { call: 'scroll', args: { direction: 'down' }, tokens: 200 },
      { call: 'done', args: { output: 'too dear' }, tokens: 999 },
    ]);
    const task = taskText('cost-over');
    const taskId = await createTask(api, { task, startUrl: startUrl(), maxCostUsd: 0.001 });
    const { task: settings, taskRun, result } = await runOf(api, taskId);
    const error = 'maxCostUsd reached: the run has cost $0.001201 (1199 tokens of fake-model at its LLM_PRICES), its maxCostUsd is $0.001';
    expect(result).toMatchObject({ status: 'error', error, output: null, usage: { tokens: 1199, costUsd: usd(0.001201) } });
    expect(settings).toEqual({ maxTokens: null, maxCostUsd: 0.001 });
    expect(taskRun.steps.map((s: any) => [s.action, s.result])).toEqual([
      ['scroll', expect.not.stringMatching(/^not executed/)],
      ['done', `not executed: ${error}`],
    ]);
  });

  it("counts a key's runs over the UTC day: the run that goes over fails, the key's next task is refused", async () => {
    const key = api.keys.editor;
    fx.llm.define('daily', [
      { call: 'scroll', args: { direction: 'down' }, tokens: 600 },
      { call: 'scroll', args: { direction: 'up' }, tokens: 600 },
    ]);
    const taskId = await createTask(api, { task: taskText('daily'), startUrl: startUrl() }, key);
    const { taskRun, result } = await runOf(api, taskId, key);
    const error = 'TASK_DAILY_TOKENS_PER_KEY reached: the runs of this API key have used 1200 tokens today (UTC), its limit is 1000';
    expect(result).toMatchObject({ status: 'error', error, usage: { tokens: 1200 } });
    expect(taskRun.steps.map((s: any) => s.result)).toEqual([expect.not.stringMatching(/^not executed/), `not executed: ${error}`]);

    const refused = await api.request('POST', '/api/v1/task/create', { body: { task: taskText('daily') }, key });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json).toEqual({ success: false, error: `${error}; new runs start again after 00:00 UTC` });
    const rerun = await api.graphql(`mutation($id: ID!) { rerunTask(id: $id) { id } }`, { id: taskId }, key);
    expect(rerun.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    // Another key's day is its own.
    fx.llm.define('other-key', [{ call: 'done', args: { output: 'fine' }, tokens: 10 }]);
    const other = await createTask(api, { task: taskText('other-key') }, api.keys.author);
    expect((await runOf(api, other, api.keys.author)).result).toMatchObject({ status: 'completed', usage: { tokens: 10 } });
  });

  it('refuses bad budgets with a 400 in the API envelope', async () => {
    for (const [body, error] of [
      [{ maxTokens: -5 }, 'maxTokens must be an integer from 1 to 1000000000'],
      [{ maxTokens: 0 }, 'maxTokens must be an integer from 1 to 1000000000'],
      [{ maxTokens: 2.5 }, 'maxTokens must be an integer'],
      [{ maxTokens: '100' }, 'maxTokens must be an integer'],
      [{ maxCostUsd: -0.5 }, 'maxCostUsd must be a number greater than 0 and at most 1000000'],
      [{ maxCostUsd: 0 }, 'maxCostUsd must be a number greater than 0 and at most 1000000'],
      [{ maxCostUsd: 'cheap' }, 'maxCostUsd must be a number'],
      [{ maxCostUsd: 2_000_000 }, 'maxCostUsd must be a number greater than 0 and at most 1000000'],
    ] as const) {
      const response = await api.request('POST', '/api/v1/task/create', { body: { task: 'x', ...body }, key: ADMIN_KEY });
      expect(response.status, response.text).toBe(400);
      expect(response.json).toEqual({ success: false, error });
    }
    const graphql = await api.graphql(`mutation { createTask(input: {task: "x", maxCostUsd: -1}) { id } }`, {}, ADMIN_KEY);
    expect(graphql.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_INPUT',
      params: { maxCostUsd: 'maxCostUsd must be a number greater than 0 and at most 1000000' },
    });
  });
});

describe.each(DATABASE_KINDS)('budgets without a price for the model on %s', (kind) => {
  const fx = useTaskFixtures(() => ({ LLM_PRICES: JSON.stringify({ 'another-model': { input: 1, output: 1 } }) }));
  const api = useTestServer(kind, fx.env);

  it('refuses maxCostUsd with a 400 naming the model, and reports the cost as unknown', async () => {
    const response = await api.request('POST', '/api/v1/task/create', { body: { task: 'x', maxCostUsd: 1 }, key: ADMIN_KEY });
    expect(response.status, response.text).toBe(400);
    expect(response.json).toEqual({
      success: false,
      error:
        'maxCostUsd needs the price of the model "fake-model" in LLM_PRICES (USD per 1M input and output tokens), which this server does not have',
    });
    fx.llm.define('unpriced', [{ call: 'done', args: { output: 'ok' }, tokens: 50 }]);
    const taskId = await createTask(api, { task: taskText('unpriced'), maxTokens: 1000 });
    const { taskRun, result } = await runOf(api, taskId);
    expect(result).toMatchObject({ status: 'completed', usage: { tokens: 50, costUsd: null } });
    expect(taskRun.steps.map((s: any) => s.costUsd)).toEqual([null]);
  });
});
