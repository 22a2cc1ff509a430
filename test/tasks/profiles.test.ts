// Browser profiles in real runs: a task that signs in saves its session to the named profile, the
// next task naming it starts signed in (cookie and local storage), a task without it does not; the
// profile is listed (never its contents), stored sealed, private to its user, and deleted on request.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { createTask, dumpDatabase, ended, runResult, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';
import { sessionTokens } from '../support/test-pages.js';

const LIST = `query { browserProfiles { name cookies origins bytes createdAt updatedAt } }`;
const DELETE = `mutation ($name: String!) { deleteBrowserProfile(name: $name) { name cookies } }`;

describe.each(DATABASE_KINDS)('browser profiles on %s', (kind) => {
  const fx = useTaskFixtures(() => ({ ALMANAC_SECRET_KEY: 'test-secret-key-0123456789' }));
  const api = useTestServer(kind, fx.env);

  const defineScenarios = () => {
    fx.llm.define('profile-sign-in', [
      { call: 'navigate', args: { url: `${fx.pages.url}/account` } },
      (c) => ({ call: 'type', args: { element: c.element('name=user'), text: 'Ada', submit: true } }),
      (c) => ({ call: 'done', args: { output: c.page } }),
    ]);
    fx.llm.define('profile-look', [
      { call: 'navigate', args: { url: `${fx.pages.url}/account` } },
      (c) => ({ call: 'done', args: { output: c.page } }),
    ]);
  };

  const run = async (scenario: string, body: Record<string, unknown> = {}, key = ADMIN_KEY) => {
    const taskId = await createTask(api, { task: taskText(scenario, 'Use the account page'), ...body }, key);
    const status = await waitForRun(api, taskId, ended, { key });
    const result = await runResult(api, taskId, key);
    expect(status.status, JSON.stringify(result)).toBe('completed');
    return { taskId, output: String(result.output) };
  };

  it('keeps a login from one task to the next, sealed, and forgets it when deleted', async () => {
    defineScenarios();
    const signedIn = await run('profile-sign-in', { profile: 'shop' });
    expect(signedIn.output).toContain('Welcome Ada');

    const { data } = await api.graphql(LIST, {}, ADMIN_KEY);
    expect(data.browserProfiles).toHaveLength(1);
    expect(data.browserProfiles[0]).toMatchObject({ name: 'shop', cookies: 1, origins: 1 });
    expect(data.browserProfiles[0].bytes).toBeGreaterThan(0);

    // The next task naming the profile starts signed in, with the site's local storage.
    const again = await run('profile-look', { profile: 'shop' });
    expect(again.output).toContain('Signed in as Ada');
    expect(again.output).toContain('Note: kept for Ada');
    const task = await api.graphql(`query ($id: ID!) { task(id: $id) { profile } }`, { id: again.taskId }, ADMIN_KEY);
    expect(task.data.task.profile).toBe('shop');

    // Without it, a fresh browser.
    const fresh = await run('profile-look');
    expect(fresh.output).toContain('Not signed in');

    // The session token is nowhere in the database in clear (profile and run state are sealed).
    const tokens = sessionTokens();
    expect(tokens.length).toBeGreaterThan(0);
    const stored = await dumpDatabase(api);
    expect(/"name":"shop","state":"v1\./.test(stored), 'the sealed profile row').toBe(true);
    for (const token of tokens) expect(stored.includes(token), `${token} stored in clear`).toBe(false);

    // Another user sees no profile of this one's, and cannot delete it.
    const other = await api.graphql(LIST, {}, api.keys.subscriber);
    expect(other.data.browserProfiles).toEqual([]);
    const otherDelete = await api.graphql(DELETE, { name: 'shop' }, api.keys.subscriber);
    expect(otherDelete.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    // ... and a task of theirs naming it gets a profile of their own, not this one.
    defineScenarios();
    const theirs = await run('profile-look', { profile: 'shop' }, api.keys.subscriber);
    expect(theirs.output).toContain('Not signed in');

    const deleted = await api.graphql(DELETE, { name: 'shop' }, ADMIN_KEY);
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteBrowserProfile).toEqual({ name: 'shop', cookies: 1 });
    const afterDelete = await run('profile-look', { profile: 'shop' });
    expect(afterDelete.output).toContain('Not signed in');
  });

  it('refuses a bad profile name in the API shape', async () => {
    const response = await api.request('POST', '/api/v1/task/create', { body: { task: 'x', profile: 'my shop' }, key: ADMIN_KEY });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ success: false, error: 'profile must match ^[A-Za-z0-9_.-]{1,64}$' });
    const notString = await api.graphql(`mutation { createTask(input: {task: "x", profile: ""}) { id } }`, {}, ADMIN_KEY);
    expect(notString.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
    const missing = await api.graphql(DELETE, { name: 'never-made' }, ADMIN_KEY);
    expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(missing.errors?.[0].message).toBe('No browser profile named "never-made".');
  });
});

describe('browser profiles without ALMANAC_SECRET_KEY', () => {
  const fx = useTaskFixtures();
  const api = useTestServer('sqlite', fx.env);

  it('are refused at create: they could not be stored encrypted', async () => {
    const response = await api.request('POST', '/api/v1/task/create', { body: { task: 'x', profile: 'shop' }, key: ADMIN_KEY });
    expect(response.status).toBe(400);
    expect(response.json.error).toBe('browser profiles need the server to have ALMANAC_SECRET_KEY set (they are stored encrypted with it)');
  });
});
