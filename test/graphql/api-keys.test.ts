// API key management as clients use it: GraphQL for users and administrators, the command line
// for operators; revocation ends requests and open subscriptions; last use is recorded.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { subscribe } from '../console/helpers.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';

const run = promisify(execFile);
const KEY_FIELDS = 'id userId login prefix label createdAt lastUsedAt revokedAt';
const LIST = `query($userId: Int) { apiKeys(userId: $userId) { ${KEY_FIELDS} } }`;
const CREATE = `mutation($label: String, $userId: Int) { createApiKey(label: $label, userId: $userId) { key apiKey { ${KEY_FIELDS} } } }`;
const ROTATE = `mutation($id: Int!) { rotateApiKey(id: $id) { key apiKey { ${KEY_FIELDS} } } }`;
const REVOKE = `mutation($id: Int!) { revokeApiKey(id: $id) { ${KEY_FIELDS} } }`;
const WHO = '{ tasks { total } }';
const code = (result: { errors?: any[] }) => result.errors?.[0]?.extensions?.code;

describe.each(DATABASE_KINDS)('API keys on %s', (kind) => {
  const api = useTestServer(kind);

  it('a user lists, creates, rotates and revokes their own keys; the secret is shown once; last use is recorded', async () => {
    const own = await api.graphql(LIST, {}, api.keys.author);
    expect(own.errors).toBeUndefined();
    expect(own.data.apiKeys).toHaveLength(1);
    const [first] = own.data.apiKeys;
    expect(first).toMatchObject({ login: 'author', prefix: api.keys.author.slice(0, 8), revokedAt: null });
    // The listing request itself used the key.
    expect(Date.parse(first.lastUsedAt)).toBeGreaterThan(Date.now() - 120_000);
    expect(JSON.stringify(own.data)).not.toContain(api.keys.author);

    const made = await api.graphql(CREATE, { label: 'laptop' }, api.keys.author);
    expect(made.errors).toBeUndefined();
    const laptop = made.data.createApiKey;
    expect(laptop.key).toMatch(/^alm_/);
    expect(laptop.apiKey).toMatchObject({ label: 'laptop', prefix: laptop.key.slice(0, 8), lastUsedAt: null, login: 'author' });
    expect((await api.graphql(WHO, {}, laptop.key)).errors).toBeUndefined();

    const hook = 'https://hooks.example.com/laptop';
    const set = `mutation($id: Int!, $url: String) { setApiKeyWebhookUrl(id: $id, webhookUrl: $url) { id webhookUrl } }`;
    expect((await api.graphql(set, { id: laptop.apiKey.id, url: hook }, api.keys.author)).data.setApiKeyWebhookUrl.webhookUrl).toBe(hook);
    const rotated = await api.graphql(ROTATE, { id: laptop.apiKey.id }, api.keys.author);
    expect(rotated.errors).toBeUndefined();
    expect(rotated.data.rotateApiKey.apiKey.label).toBe('laptop');
    // The new key keeps the default webhook; the revoked one cannot be changed.
    const newId = rotated.data.rotateApiKey.apiKey.id;
    expect((await api.graphql(`query($id: Int) { apiKey(id: $id) { webhookUrl } }`, { id: newId }, api.keys.author)).data.apiKey).toEqual({
      webhookUrl: hook,
    });
    expect(code(await api.graphql(set, { id: laptop.apiKey.id, url: null }, api.keys.author))).toBe('CONFLICT');
    expect((await api.graphql(WHO, {}, laptop.key)).status).toBe(401);
    expect((await api.graphql(WHO, {}, rotated.data.rotateApiKey.key)).errors).toBeUndefined();
    expect(code(await api.graphql(ROTATE, { id: laptop.apiKey.id }, api.keys.author))).toBe('CONFLICT');

    const revoked = await api.graphql(REVOKE, { id: rotated.data.rotateApiKey.apiKey.id }, api.keys.author);
    expect(revoked.data.revokeApiKey.revokedAt).not.toBeNull();
    expect((await api.graphql(WHO, {}, rotated.data.rotateApiKey.key)).status).toBe(401);
    // REST and the task API refuse it as well.
    expect((await api.request('GET', '/wp-json/calendar/events/v1/events', { key: rotated.data.rotateApiKey.key })).status).toBe(401);
    expect((await api.request('GET', '/api/v1/tasks', { key: rotated.data.rotateApiKey.key })).status).toBe(401);
    const listed = (await api.graphql(LIST, {}, api.keys.author)).data.apiKeys;
    // Newest first: the rotated key and the one it replaced (both revoked), then the first one.
    expect(listed.map((k: any) => [k.label, k.revokedAt === null])).toEqual([
      ['laptop', false],
      ['laptop', false],
      ['', true],
    ]);
  });

  it("nobody but an administrator sees or touches another user's keys", async () => {
    const editorKeys = (await api.graphql(LIST, {}, api.keys.editor)).data.apiKeys;
    const editorKeyId = editorKeys[0].id;
    const editorId = editorKeys[0].userId;
    expect(code(await api.graphql(LIST, { userId: editorId }, api.keys.contributor))).toBe('FORBIDDEN');
    expect(code(await api.graphql(CREATE, { userId: editorId }, api.keys.contributor))).toBe('FORBIDDEN');
    expect(code(await api.graphql(REVOKE, { id: editorKeyId }, api.keys.contributor))).toBe('NOT_FOUND');
    expect(code(await api.graphql(ROTATE, { id: editorKeyId }, api.keys.contributor))).toBe('NOT_FOUND');
    expect(code(await api.graphql(LIST, {}))).toBe('UNAUTHENTICATED');
    expect(code(await api.graphql(CREATE, { label: 'x'.repeat(201) }, api.keys.contributor))).toBe('INVALID_INPUT');
    // The editor's key still works.
    expect((await api.graphql(WHO, {}, api.keys.editor)).errors).toBeUndefined();

    const adminView = await api.graphql(LIST, { userId: editorId }, ADMIN_KEY);
    expect(adminView.data.apiKeys.map((k: any) => k.id)).toEqual([editorKeyId]);
    const forEditor = await api.graphql(CREATE, { userId: editorId, label: 'issued by admin' }, ADMIN_KEY);
    expect(forEditor.data.createApiKey.apiKey).toMatchObject({ userId: editorId, login: 'editor' });
    expect(
      (await api.graphql(REVOKE, { id: forEditor.data.createApiKey.apiKey.id }, ADMIN_KEY)).data.revokeApiKey.revokedAt,
    ).not.toBeNull();
  });

  it('revoking a key ends the subscriptions opened with it', async () => {
    const made = (await api.graphql(CREATE, { label: 'watcher' }, api.keys.subscriber)).data.createApiKey;
    const subscription = await subscribe(api.url, 'subscription { tasks { id } }', {}, made.key);
    expect(subscription.status).toBe(200);
    const events: string[] = [];
    const ended = (async () => {
      for await (const { event } of subscription.events) events.push(event);
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await api.graphql(REVOKE, { id: made.apiKey.id }, api.keys.subscriber)).errors).toBeUndefined();
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('the subscription did not end')), 30_000));
    await Promise.race([ended, timeout]);
    expect(events[0]).toBe('next');
    expect(events.at(-1)).toBe('complete');
    subscription.close();
  });
});

describe('API keys on the command line', () => {
  const api = useTestServer('sqlite');

  it('lists, creates, rotates and revokes keys; user:create refuses an existing login', async () => {
    const env = { ...process.env, DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' };
    const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', ...args], { env });
    const created = await cli('create', '--login', 'author', '--label', 'deploy bot');
    const key = /API key \(shown once\): (\S+)/.exec(created.stdout)![1];
    expect((await api.graphql(WHO, {}, key)).errors).toBeUndefined();
    const id = Number(created.stdout.split('\t')[0]);
    const listed = await cli('list', '--login', 'author');
    expect(listed.stdout).toContain('deploy bot');
    expect(listed.stdout).not.toContain(key);
    const rotated = await cli('rotate', '--id', String(id));
    const newKey = /API key \(shown once\): (\S+)/.exec(rotated.stdout)![1];
    await cli('revoke', '--id', String(Number(rotated.stdout.split('\t')[0])));
    // Another process revoked them: this server stops accepting them within its cache time (5 s).
    await expect.poll(async () => (await api.graphql(WHO, {}, newKey)).status, { timeout: 15_000, interval: 500 }).toBe(401);
    await expect.poll(async () => (await api.graphql(WHO, {}, key)).status, { timeout: 15_000, interval: 500 }).toBe(401);
    await expect(cli('revoke', '--id', '999999')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No API key with id 999999'),
    });

    const again = run(process.execPath, ['--import', 'tsx', 'scripts/user-create.ts', '--login', 'author', '--role', 'administrator'], {
      env,
    });
    await expect(again).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('user author already exists (role author)') });
    const roles = await api.graphql(LIST, {}, api.keys.author);
    expect(roles.errors).toBeUndefined();
  });
});
