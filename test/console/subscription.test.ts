// GraphQL subscriptions over server-sent events, as an API client uses them: a run executed by
// another server on the same database streams its progress, tool call and result to the server the
// client is connected to; ownership; invalid keys; the watch ends when the client disconnects.
import { describe, expect, it } from 'vitest';
import { activeTaskSubscriptions } from '../../src/tasks/graphql/subscriptions.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY } from '../support/server.js';
import { createTask, eventually, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';
import { collect, FORM_INPUT_TOOL, subscribe, useConsoleServers } from './helpers.js';

const RUN_SUBSCRIPTION = `subscription Run($taskId: ID!, $runId: ID) {
  taskRun(taskId: $taskId, runId: $runId) {
    id status detailedStatus liveStatus error output dataTable
    toolCall { id name parameters }
    steps { index action screenshotUrl }
  }
}`;

describe.each(DATABASE_KINDS)('task subscriptions over SSE on %s', (kind) => {
  const fx = useTaskFixtures();
  const servers = useConsoleServers(kind, fx);

  it('answers a subscription asked for in a format it cannot stream (multipart/mixed) with 406, naming server-sent events', async () => {
    const response = await fetch(`${servers.api.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json',
        'x-api-key': ADMIN_KEY,
      },
      body: JSON.stringify({ query: 'subscription { tasks { id } }' }),
    });
    expect(response.status).toBe(406);
    expect(response.headers.get('accept')).toContain('text/event-stream');
  });

  it('streams a run as it goes (on PostgreSQL, executed by another server): progress, the tool call, the input, the result; then completes', async () => {
    const ask = { heading: 'Sign in', description: 'Who are you?', fields: [{ type: 'text', label: 'Your name' }] };
    fx.llm.define('sub-form', [
      { call: 'navigate', args: { url: `${fx.pages.url}/signin` } },
      { call: 'form_input', args: ask },
      (c) => ({
        call: 'type',
        args: { element: c.element('"Your name"'), text: JSON.parse(c.lastToolResult!)['Your name'], submit: true },
      }),
      (c) => ({ call: 'done', args: { output: /Welcome, [^!]+!/.exec(c.page)?.[0] ?? 'no greeting', dataTable: [{ name: 'Ada' }] } }),
    ]);
    const taskId = await createTask(servers.client, { task: taskText('sub-form'), tools: [FORM_INPUT_TOOL] });
    const subscription = await subscribe(servers.api.url, RUN_SUBSCRIPTION, { taskId }, ADMIN_KEY);
    expect(subscription.status).toBe(200);
    expect(subscription.contentType).toMatch(/^text\/event-stream/);

    let answered = false;
    const { payloads, completed } = await collect(subscription, async (payload) => {
      expect(payload.errors).toBeUndefined();
      const run = payload.data.taskRun;
      if (run.detailedStatus === 'tool_call' && !answered) {
        answered = true;
        expect(run.toolCall).toMatchObject({ name: 'form_input', parameters: ask });
        const response = await servers.client.request('POST', `/api/v1/task/${taskId}/run/tool-input`, {
          key: ADMIN_KEY,
          body: { input: JSON.stringify({ 'Your name': 'Ada' }), toolCallId: run.toolCall.id },
        });
        expect(response.status, response.text).toBe(200);
      }
    });
    expect(completed).toBe(true);
    const runs = payloads.map((p) => p.data.taskRun);
    const last = runs.at(-1);
    expect(last.error, 'the run failed').toBeNull();
    expect(last).toMatchObject({
      status: 'completed',
      detailedStatus: 'completed',
      error: null,
      output: 'Welcome, Ada!',
      dataTable: [{ name: 'Ada' }],
      toolCall: null,
    });
    expect(last.steps.map((s: any) => s.action)).toEqual(['navigate', 'form_input', 'type', 'done']);
    expect(last.steps[0].screenshotUrl).toMatch(/\/run\/step\/1\.png\?runId=.*&token=/);
    const statuses = runs.map((r) => r.detailedStatus);
    expect(statuses).toContain('tool_call');
    expect(statuses.indexOf('tool_call')).toBeLessThan(statuses.indexOf('completed'));
    // Sent only on change, and steps only grow. (A step saved between the read of the run and the
    // read of its steps shows one payload early; the next then repeats it: at most once here.)
    let repeats = 0;
    for (let i = 1; i < runs.length; i++) {
      if (JSON.stringify(runs[i]) === JSON.stringify(runs[i - 1])) repeats++;
      expect(runs[i].steps.length).toBeGreaterThanOrEqual(runs[i - 1].steps.length);
    }
    expect(repeats).toBeLessThanOrEqual(1);
    await eventually(() => activeTaskSubscriptions() === 0, 'the finished subscription to stop watching', 5000);
  }, 60_000);

  it("sends a finished run once and completes; another key's run is NOT_FOUND; a bad key is 401; no key is UNAUTHENTICATED", async () => {
    fx.llm.define('sub-quick', [{ call: 'done', args: { output: 'quick' } }]);
    const taskId = await createTask(servers.client, { task: taskText('sub-quick') });
    await waitForRun(servers.client, taskId, (r) => r.status === 'completed');

    const finished = await collect(await subscribe(servers.api.url, RUN_SUBSCRIPTION, { taskId }, ADMIN_KEY), () => undefined);
    expect(finished.completed).toBe(true);
    expect(finished.payloads).toHaveLength(1);
    expect(finished.payloads[0].data.taskRun).toMatchObject({ status: 'completed', output: 'quick' });

    const foreign = await collect(await subscribe(servers.api.url, RUN_SUBSCRIPTION, { taskId }, servers.otherKey), () => undefined);
    expect(foreign.completed).toBe(true);
    expect(foreign.payloads).toHaveLength(1);
    expect(foreign.payloads[0].data ?? null).toBeNull();
    expect(foreign.payloads[0].errors[0].extensions.code).toBe('NOT_FOUND');

    const anonymous = await collect(await subscribe(servers.api.url, RUN_SUBSCRIPTION, { taskId }), () => undefined);
    expect(anonymous.payloads[0].errors[0].extensions.code).toBe('UNAUTHENTICATED');

    const wrongKey = await subscribe(servers.api.url, RUN_SUBSCRIPTION, { taskId }, 'alm_not-a-key');
    expect(wrongKey.status).toBe(401);
    expect(JSON.parse(wrongKey.text!).errors[0].message).toBe('Invalid API key.');
  });

  it('stops watching the database when the client disconnects', async () => {
    fx.llm.define('sub-hang', [{ hang: true }]);
    const task = taskText('sub-hang');
    const taskId = await createTask(servers.client, { task });
    await waitForRun(servers.client, taskId, (r) => r.detailedStatus === 'thinking');
    const subscription = await subscribe(servers.api.url, RUN_SUBSCRIPTION, { taskId }, ADMIN_KEY);
    const first = await subscription.events.next();
    expect(JSON.parse(first.value!.data).data.taskRun.detailedStatus).toBe('thinking');
    expect(activeTaskSubscriptions()).toBe(1);
    subscription.close();
    await eventually(() => activeTaskSubscriptions() === 0, 'the subscription to stop after the client left', 5000);
    expect((await servers.client.request('PUT', `/api/v1/task/${taskId}/run/stop`, { key: ADMIN_KEY })).status).toBe(200);
  });

  it("streams the caller's task list, again when a task is created; never another key's tasks", async () => {
    const subscription = await subscribe(
      servers.api.url,
      `subscription { tasks(limit: 5) { id readableName latestRun { status } } }`,
      {},
      servers.otherKey,
    );
    const seen: any[][] = [];
    let created: string | undefined;
    await collect(
      subscription,
      async (payload) => {
        expect(payload.errors).toBeUndefined();
        seen.push(payload.data.tasks);
        if (seen.length === 1) {
          created = await createTask(servers.client, { task: 'Task of the other user [scenario:none]' }, servers.otherKey);
          return;
        }
        return payload.data.tasks.some((t: any) => t.id === created) ? false : undefined;
      },
      10_000,
    );
    subscription.close();
    expect(seen[0]).toEqual([]);
    expect(seen.at(-1)!.map((t) => t.id)).toEqual([created]);
    expect(seen.at(-1)![0].readableName).toBe('Task of the other user [scenario:none]');
    await eventually(() => activeTaskSubscriptions() === 0, 'the list subscription to stop', 5000);
  });
});
