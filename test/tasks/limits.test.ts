// Per-user run limits on the task API: runs in progress at once and runs started per 24 hours, with
// a 429 that says which limit and how to get under it; other users are not affected.
import { describe, expect, it } from 'vitest';
import { ADMIN_KEY, useTestServer } from '../support/server.js';

describe('task run limits', () => {
  // No worker claims the runs (TASK_WORKERS=0), so they stay scheduled: "in progress".
  const api = useTestServer('sqlite', {
    TASK_WORKERS: '0',
    LLM_BASE_URL: 'http://127.0.0.1:9/v1',
    TASK_MAX_ACTIVE_RUNS: '2',
    TASK_MAX_RUNS_PER_DAY: '3',
  });
  const create = (key = ADMIN_KEY) => api.request('POST', '/api/v1/task/create', { key, body: { task: 'Check the weather' } });

  it('refuses a run over the in-progress limit, then over the daily limit, with the limit named', async () => {
    const first = await create();
    expect((await create()).status).toBe(200);
    const third = await create();
    expect(third.status).toBe(429);
    expect(third.json).toEqual({ success: false, error: expect.stringContaining('TASK_MAX_ACTIVE_RUNS=2') });
    expect((await create(api.keys.editor)).status).toBe(200); // another user
    expect((await api.request('PUT', `/api/v1/task/${first.json.data.taskId}/stop`, { key: ADMIN_KEY })).status).toBe(200);
    expect((await create()).status).toBe(200); // one in progress ended: room again (3 started today)
    const stopped = await api.request('GET', '/api/v1/tasks', { key: ADMIN_KEY });
    for (const task of stopped.json.data) await api.request('PUT', `/api/v1/task/${task.id}/stop`, { key: ADMIN_KEY });
    const fourth = await create();
    expect(fourth.status).toBe(429);
    expect(fourth.json.error).toContain('TASK_MAX_RUNS_PER_DAY=3');
    const viaGraphql = await api.graphql('mutation { createTask(input: { task: "x" }) { id } }', {}, ADMIN_KEY);
    expect(viaGraphql.errors?.[0].extensions.code).toBe('RATE_LIMITED');
  });
});
