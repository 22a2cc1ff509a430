// Task names over GraphQL and REST: a task is listed under its opening words until its owner names
// it (at creation or with renameTask); the name is bounded, and only the owner may change it.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { createTask } from '../support/tasks.js';

const RENAME = `mutation ($id: ID!, $name: String) { renameTask(id: $id, name: $name) { id name readableName } }`;
const TASK = `query ($id: ID!) { task(id: $id) { name readableName } }`;

describe.each(DATABASE_KINDS)('task names on %s', (kind) => {
  const api = useTestServer(kind);
  const listed = async (key: string) =>
    (await api.request('GET', '/api/v1/tasks?limit=30', { key })).json.data as Array<{ id: string; readable_name: string }>;

  it('names a task by its opening words until its owner renames it; a blank name gives them back', async () => {
    const key = api.keys.author;
    const id = await createTask(api, { task: '  Find the cheapest train\nfrom Lyon to Paris tomorrow' }, key);
    expect((await api.graphql(TASK, { id }, key)).data.task).toEqual({ name: null, readableName: 'Find the cheapest train' });

    const renamed = await api.graphql(RENAME, { id, name: '  Train   to Paris  ' }, key);
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data.renameTask).toEqual({ id, name: 'Train to Paris', readableName: 'Train to Paris' });
    expect((await listed(key)).find((t) => t.id === id)?.readable_name).toBe('Train to Paris');

    const cleared = await api.graphql(RENAME, { id, name: '   ' }, key);
    expect(cleared.data.renameTask).toEqual({ id, name: null, readableName: 'Find the cheapest train' });
    expect((await api.graphql(RENAME, { id, name: 'Again' }, key)).data.renameTask.name).toBe('Again');
    expect((await api.graphql(RENAME, { id, name: null }, key)).data.renameTask.name).toBe(null);
  });

  it('takes a name at creation, over REST and GraphQL', async () => {
    const id = await createTask(api, { task: 'Check the weather', name: 'Weather' }, api.keys.editor);
    expect((await listed(api.keys.editor)).find((t) => t.id === id)?.readable_name).toBe('Weather');
    const viaGraphql = await api.graphql(
      `mutation { createTask(input: { task: "Read the news", name: "News" }) { name readableName } }`,
      {},
      api.keys.editor,
    );
    expect(viaGraphql.data.createTask).toEqual({ name: 'News', readableName: 'News' });
    const tooLong = await api.request('POST', '/api/v1/task/create', { key: api.keys.editor, body: { task: 'x', name: 'n'.repeat(121) } });
    expect(tooLong).toMatchObject({ status: 400, json: { success: false, error: 'name must be at most 120 characters (got 121)' } });
    const notText = await api.request('POST', '/api/v1/task/create', { key: api.keys.editor, body: { task: 'x', name: 5 } });
    expect(notText.status).toBe(400);
  });

  it('refuses a name over 120 characters, saying so, and keeps the old one', async () => {
    const key = api.keys.contributor;
    const id = await createTask(api, { task: 'Book a room', name: 'Room' }, key);
    const { errors } = await api.graphql(RENAME, { id, name: 'n'.repeat(121) }, key);
    expect(errors?.[0]).toMatchObject({
      message: 'name must be at most 120 characters (got 121)',
      extensions: { code: 'INVALID_INPUT', params: { name: 'name must be at most 120 characters (got 121)' } },
    });
    expect((await api.graphql(RENAME, { id, name: 'n'.repeat(120) }, key)).data.renameTask.name).toHaveLength(120);
  });

  it('does not let anyone else rename a task, administrators included', async () => {
    const id = await createTask(api, { task: 'My private task' }, api.keys.subscriber);
    for (const key of [api.keys.author, ADMIN_KEY]) {
      const { errors } = await api.graphql(RENAME, { id, name: 'Taken over' }, key);
      expect(errors?.[0]).toMatchObject({ message: `No task with id "${id}".`, extensions: { code: 'NOT_FOUND' } });
    }
    expect((await api.graphql(RENAME, { id, name: 'x' })).errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await api.graphql(TASK, { id }, api.keys.subscriber)).data.task).toEqual({ name: null, readableName: 'My private task' });
  });
});
