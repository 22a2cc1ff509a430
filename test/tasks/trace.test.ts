// Each run keeps a Playwright trace: a real run in Chromium, driven by the scripted model, leaves a
// zip that the owner downloads (by key, or by the token of its traceUrl) and that holds the trace
// viewer's files with the run's actions, snapshots and network. Runs of tasks with secrets keep none.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { createTask, ended, finishTask, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';
import { unzip } from '../support/zip.js';

const PASSWORD = 'tr0ub4dor&3-horse';

/** The trace's events (JSON lines of its .trace files). */
const eventsOf = (files: Map<string, Buffer>) =>
  [...files]
    .filter(([name]) => name.endsWith('.trace'))
    .flatMap(([, bytes]) => bytes.toString('utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { type: string; method?: string; apiName?: string; params?: Record<string, unknown> });

describe.each(DATABASE_KINDS)('run traces on %s', (kind) => {
  const fx = useTaskFixtures(() => ({ ALMANAC_SECRET_KEY: 'test-secret-key-0123456789' }));
  const api = useTestServer(kind, fx.env);

  it("keeps a valid trace zip of the run's actions, served to its owner only", async () => {
    fx.llm.define('traced', [
      { call: 'navigate', args: { url: `${fx.pages.url}/signin` } },
      (c) => ({ call: 'type', args: { element: c.element('name=name'), text: 'Ada Lovelace', submit: true } }),
      { call: 'done', args: { output: 'signed in' } },
    ]);
    const { taskId, runId, run, result } = await finishTask(api, taskText('traced', 'Sign in'));
    expect(run.status, JSON.stringify(result)).toBe('completed');

    const got = await api.request('GET', `/api/v1/task/${taskId}/run/trace?runId=${runId}`, { key: ADMIN_KEY });
    expect(got.status, got.text.slice(0, 200)).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/zip');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="trace-${runId}.zip"; filename*=UTF-8''trace-${runId}.zip`);
    // The text of the response is lossy for bytes: fetch them again as bytes through the traceUrl.
    const { traceUrl } = (
      await api.graphql(
        `query($id: ID!, $run: ID) { taskRun(taskId: $id, runId: $run) { traceUrl } }`,
        { id: taskId, run: runId },
        ADMIN_KEY,
      )
    ).data.taskRun;
    const url = new URL(traceUrl);
    expect(url.pathname).toBe(`/api/v1/task/${taskId}/run/trace`);
    const response = await fetch(api.url + url.pathname + url.search);
    expect(response.status).toBe(200);
    const files = await unzip(Buffer.from(await response.arrayBuffer()));

    // What the trace viewer reads: the actions, the network log, and resources (snapshots, screenshots).
    const names = [...files.keys()];
    expect(names.some((n) => n.endsWith('.trace'))).toBe(true);
    expect(names.some((n) => n.endsWith('.network'))).toBe(true);
    expect(names.some((n) => n.startsWith('resources/'))).toBe(true);
    const events = eventsOf(files);
    const contextOptions = events.find((e) => e.type === 'context-options');
    expect(contextOptions).toBeDefined();
    // The browser's credentials for the policy proxy are the server's, not the trace reader's.
    expect(JSON.stringify(contextOptions)).not.toContain('"password"');
    const actions = events.filter((e) => e.type === 'before').map((e) => e.method);
    expect(actions).toContain('goto');
    expect(actions.some((m) => m === 'fill' || m === 'type' || m === 'pressSequentially')).toBe(true);
    expect(events.some((e) => e.type === 'frame-snapshot')).toBe(true);
    expect(events.some((e) => e.type === 'screencast-frame')).toBe(true);
    const network = [...files]
      .filter(([n]) => n.endsWith('.network'))
      .map(([, b]) => b.toString('utf8'))
      .join('\n');
    expect(network).toContain(`${fx.pages.url}/welcome?name=Ada`);

    // Another user's key finds no such run; no key and no token is a 401; a wrong token a 404.
    const other = await api.request('GET', `/api/v1/task/${taskId}/run/trace?runId=${runId}`, { key: api.keys.editor });
    expect([other.status, other.json.error]).toEqual([404, 'No such task or run.']);
    expect((await api.request('GET', `/api/v1/task/${taskId}/run/trace?runId=${runId}`)).status).toBe(401);
    const forged = await fetch(api.url + url.pathname + url.search.replace(/token=[^&]+/, 'token=nope'));
    expect(forged.status).toBe(404);
  });

  it('keeps no trace for a task with secrets, and says why', async () => {
    fx.llm.define('traced-secret', [
      { call: 'navigate', args: { url: `${fx.pages.url}/login` } },
      (c) => ({ call: 'type', args: { element: c.element('name=password'), text: '<secret:password>', submit: true } }),
      { call: 'done', args: { output: 'logged in' } },
    ]);
    const taskId = await createTask(api, { task: taskText('traced-secret', 'Log in'), secrets: { password: PASSWORD } });
    const run = await waitForRun(api, taskId, ended);
    expect(run.status).toBe('completed');
    expect(fx.pages.posts.some((p) => p.form.password === PASSWORD)).toBe(true);

    const got = await api.request('GET', `/api/v1/task/${taskId}/run/trace`, { key: ADMIN_KEY });
    expect([got.status, got.json.error]).toEqual([
      404,
      'Runs of tasks with secrets keep no trace: a trace would hold the typed values in clear.',
    ]);
    expect(got.text).not.toContain(PASSWORD);
    const { taskRun } = (await api.graphql(`query($id: ID!) { taskRun(taskId: $id) { traceUrl } }`, { id: taskId }, ADMIN_KEY)).data;
    expect(taskRun.traceUrl).toBeNull();
  });
});
