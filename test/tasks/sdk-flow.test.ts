// Browserable's JavaScript SDK against Almanac, call for call. The client below makes the HTTP
// requests the SDK's methods make (obaid/browserable, sdk/browserable-js/src/index.ts at 205d93b7,
// types in src/types.ts at 5217f9a5): an axios instance on `${baseURL}` = …/api/v1 with the headers
// x-api-key and Content-Type: application/json, params without undefined values, PUTs with a null
// body, and waitForRun polling run/status until "completed" or "error", then reading run/result.
// Each answer is checked for the fields, and the types, the SDK's types declare. The SDK is not a
// dependency: its requests are what is tested.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { taskText, useTaskFixtures } from '../support/tasks.js';

type Params = Record<string, string | number | undefined>;

/** The SDK's requests, made with fetch as its axios instance makes them. */
function browserableClient(baseURL: string, apiKey: string) {
  const headers = { 'x-api-key': apiKey, 'Content-Type': 'application/json' };
  const url = (path: string, params: Params = {}) => {
    const query = Object.entries(params).filter(([, v]) => v !== undefined);
    return `${baseURL}${path}${query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)]))}` : ''}`;
  };
  const send = async (method: string, path: string, { params, body }: { params?: Params; body?: unknown } = {}) => {
    const response = await fetch(url(path, params), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    // axios rejects a status outside 2xx; the SDK's callers see that as an exception.
    if (response.status < 200 || response.status > 299) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    return response.json();
  };
  const client = {
    createTask: (options: { task: string; agents?: string[]; triggers?: string[] }) => send('POST', '/task/create', { body: options }),
    listTasks: (options?: { page?: number; limit?: number }) => send('GET', '/tasks', { params: options }),
    listTaskRuns: (taskId: string, options?: { page?: number; limit?: number }) => send('GET', `/task/${taskId}/runs`, { params: options }),
    getTaskRunStatus: (taskId: string, runId?: string) => send('GET', `/task/${taskId}/run/status`, { params: { runId } }),
    getTaskRunResult: (taskId: string, runId?: string) => send('GET', `/task/${taskId}/run/result`, { params: { runId } }),
    stopTaskRun: (taskId: string, runId?: string) => send('PUT', `/task/${taskId}/run/stop`, { params: { runId } }),
    stopTask: (taskId: string) => send('PUT', `/task/${taskId}/stop`),
    check: () => send('GET', '/check'),
    getTaskRunGifStatus: (taskId: string, runId?: string) => send('GET', `/task/${taskId}/run/gif`, { params: { runId } }),
    /** waitForRun as the SDK writes it: status until completed or error (onStatusChange each time), then the result. */
    async waitForRun(taskId: string, runId?: string, { pollInterval = 1000, timeout = 300_000, onStatusChange = (_: any) => {} } = {}) {
      const start = Date.now();
      for (;;) {
        const statusResult = await client.getTaskRunStatus(taskId, runId);
        if (!statusResult.success) throw new Error(`Failed to get task status: ${statusResult.error}`);
        if (statusResult.data) onStatusChange(statusResult.data);
        const status = statusResult.data?.status;
        if (status === 'completed' || status === 'error') return client.getTaskRunResult(taskId, runId);
        if (Date.now() - start > timeout) throw new Error('Timeout waiting for task completion');
        await new Promise((resolve) => setTimeout(resolve, pollInterval));
      }
    },
  };
  return client;
}

const RUN_STATUSES = ['scheduled', 'running', 'completed', 'error'];

describe.each(DATABASE_KINDS)("Browserable's SDK flow on %s", (kind) => {
  const fx = useTaskFixtures();
  const api = useTestServer(kind, fx.env);

  it('checks the key, creates a task, lists it and its runs, waits for the run and reads its result and recording', async () => {
    const sdk = browserableClient(`${api.url}/api/v1`, ADMIN_KEY);
    fx.llm.define('sdk', [
      { call: 'navigate', args: { url: `${fx.pages.url}/results?city=Lyon` } },
      { call: 'extract', args: { selector: '#events' } },
      { call: 'done', args: { output: 'Three events in Lyon' } },
    ]);
    expect(await sdk.check()).toEqual({ success: true, data: 'ok' });

    // The SDK's create options: task, and agents/triggers, which Almanac does not use and ignores.
    const created = await sdk.createTask({ task: taskText('sdk', 'List the events in Lyon'), agents: ['BROWSER_AGENT'], triggers: [] });
    expect(created.success).toBe(true);
    expect(typeof created.data.taskId).toBe('string');
    const { taskId } = created.data;

    const tasks = await sdk.listTasks({ page: 1, limit: 10 });
    expect(tasks).toMatchObject({ success: true, page: 1, limit: 10 });
    expect(typeof tasks.total).toBe('number');
    expect(tasks.data).toContainEqual({ id: taskId, status: 'active', readable_name: expect.any(String) });

    const runs = await sdk.listTaskRuns(taskId);
    expect(runs.success).toBe(true);
    expect(runs.data).toHaveLength(1);
    expect(runs.data[0]).toEqual({ id: expect.any(String), created_at: expect.any(String) });
    expect(Number.isNaN(Date.parse(runs.data[0].created_at))).toBe(false);

    const seen: any[] = [];
    const result = await sdk.waitForRun(taskId, undefined, { pollInterval: 100, timeout: 60_000, onStatusChange: (s) => seen.push(s) });
    for (const status of seen) expect(RUN_STATUSES).toContain(status.status);
    expect(seen.at(-1).status).toBe('completed');
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ status: 'completed', error: null, output: 'Three events in Lyon' });
    expect(result.data.dataTable).toEqual([
      { Event: 'Jazz Night', City: 'Lyon', Date: '2026-12-05' },
      { Event: 'Organ Recital', City: 'Lyon', Date: '2026-12-12' },
      { Event: 'Print Fair', City: 'Lyon', Date: '2026-12-10' },
    ]);
    // The same run by its id.
    expect((await sdk.getTaskRunResult(taskId, runs.data[0].id)).data.output).toBe('Three events in Lyon');

    const gif = await sdk.getTaskRunGifStatus(taskId);
    expect(gif).toMatchObject({ success: true, data: { status: 'completed', url: expect.stringMatching(/^http/), error: null } });
  });

  it('stops a run and a task as the SDK asks, with a PUT and no body', async () => {
    const sdk = browserableClient(`${api.url}/api/v1`, ADMIN_KEY);
    fx.llm.define('sdk-hang', [{ hang: true }]);
    const { data } = await sdk.createTask({ task: taskText('sdk-hang', 'Think for ever') });
    expect(await sdk.stopTaskRun(data.taskId)).toEqual({ success: true, data: null });
    const result = await sdk.waitForRun(data.taskId, undefined, { pollInterval: 100, timeout: 30_000 });
    expect(result.data).toMatchObject({ status: 'error', error: 'stopped' });
    expect(await sdk.stopTask(data.taskId)).toEqual({ success: true, data: null });
    const tasks = await sdk.listTasks();
    expect(tasks.data.find((t: any) => t.id === data.taskId).status).toBe('inactive');
  });
});
