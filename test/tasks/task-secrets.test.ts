// Secrets in a real run: the agent types <secret:…> and <totp:…> placeholders, the site receives the
// values (and a valid RFC 6238 code), and no stored or sent byte holds them: every table of the
// database, the log, the webhook bodies, the LLM requests, the API answers and the recording.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBase32, totpCode } from '../../src/tasks/secrets.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { capturedLogger } from '../support/logs.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { createTask, dumpDatabase, ended, eventually, runResult, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';

const USER = 'ada-lovelace-7731';
const PASSWORD = 'Pw"\\q7-zebra-91';
const TOTP_KEY = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe.each(DATABASE_KINDS)('task secrets on %s', (kind) => {
  const { logger, lines: logged } = capturedLogger('debug');
  const fx = useTaskFixtures(() => ({ ALMANAC_SECRET_KEY: 'test-secret-key-0123456789' }));
  const api = useTestServer(kind, fx.env, { logger });
  const hooks: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => (hooks.push(body), res.writeHead(204).end()));
  });
  let receiverUrl = '';
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  const storedBytes = async (): Promise<string> => {
    const text = await dumpDatabase(api);
    expect(text).toContain('Task');
    return text;
  };

  it('types the values and TOTP codes, and masks them everywhere', async () => {
    fx.llm.define('secrets', [
      { call: 'navigate', args: { url: `${fx.pages.url}/signin` } },
      (c) => ({ call: 'type', args: { element: c.element('name=name'), text: '<secret:user>', submit: true } }),
      { call: 'navigate', args: { url: `${fx.pages.url}/login` } },
      (c) => ({ call: 'type', args: { element: c.element('name=password'), text: '<secret:password>' } }),
      (c) => ({ call: 'type', args: { element: c.element('name=otp'), text: '<totp:otp>', submit: true } }),
      (c) => ({ call: 'done', args: { output: `${c.page}\n${c.lastToolResult}` }, say: 'Logged in.' }),
    ]);
    const task = taskText('secrets', 'Sign in and log in');
    const taskId = await createTask(api, {
      task,
      webhookUrl: receiverUrl,
      secrets: { user: USER, password: PASSWORD, otp: { totp: TOTP_KEY } },
    });
    const run = await waitForRun(api, taskId, ended);
    const result = await runResult(api, taskId);
    expect(run.status, JSON.stringify(result)).toBe('completed');

    // The site got the real values, and a code valid at the time it was typed (this window or the last).
    expect(fx.pages.hits).toContain(`/welcome?name=${USER}`);
    const post = fx.pages.posts.find((p) => p.path === '/logged-in' && p.form.password === PASSWORD);
    expect(post).toBeDefined();
    const now = Date.now();
    const key = decodeBase32(TOTP_KEY)!;
    const code = post!.form.otp;
    expect([totpCode(key, now), totpCode(key, now - 30_000), totpCode(key, now - 60_000)]).toContain(code);

    // The model was told the names, and saw the placeholders where the page showed the values.
    const sent = fx.llm.requestsOf(task);
    expect(sent[0].body.messages[0].content).toContain('<secret:user>, <secret:password>, <totp:otp> (the current one-time code)');
    expect(sent[2].body.messages.at(-1).content).toContain('Welcome, <secret:user>!');
    expect(result.output).toContain('Logged in with code <totp:otp>');
    expect(result.output).toContain('typed "<totp:otp>" into');

    await eventually(() => hooks.some((h) => h.includes(taskId) && h.includes('"completed"')), 'the completed webhook');
    const steps = await api.graphql(
      `query($id: ID!) { task(id: $id) { id task } taskRun(taskId: $id) { output steps { url title action arguments result reasoning } } }`,
      { id: taskId },
      ADMIN_KEY,
    );
    expect(JSON.stringify(steps.data.taskRun.steps)).toContain('welcome?name=<secret:user>');
    const gif = await api.request('GET', `/api/v1/task/${taskId}/run/gif`, { key: ADMIN_KEY });
    const recording = gif.json.data.url
      ? Buffer.from(await (await fetch(gif.json.data.url.replace('http://almanac.test', api.url))).arrayBuffer())
      : Buffer.alloc(0);

    const everything = [
      await storedBytes(),
      logged.join(''),
      hooks.join('\n'),
      JSON.stringify(sent.map((r) => r.body)),
      JSON.stringify(result),
      JSON.stringify(steps),
      recording.toString('latin1'),
    ];
    expect(logged.length).toBeGreaterThan(0);
    for (const value of [USER, PASSWORD, JSON.stringify(PASSWORD).slice(1, -1), TOTP_KEY, encodeURIComponent(PASSWORD)]) {
      for (const place of everything) expect(place.includes(value), `${value} found`).toBe(false);
    }
    // The code typed appears nowhere but in the page the site showed (masked in what was recorded).
    for (const place of everything.slice(1, 6)) expect(place.includes(code), `code ${code} found`).toBe(false);
  });

  it('refuses bad secrets with 400 in the API shape', async () => {
    const response = await api.request('POST', '/api/v1/task/create', {
      body: { task: 'x', secrets: { otp: { totp: 'not base32!' } } },
      key: ADMIN_KEY,
    });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      success: false,
      error: 'secrets.otp.totp must be a base32 key (A-Z, 2-7) of 10 to 128 bytes, as shown beside a TOTP QR code',
    });
    const notObject = await api.request('POST', '/api/v1/task/create', { body: { task: 'x', secrets: 'pw' }, key: ADMIN_KEY });
    expect(notObject.status).toBe(400);
    expect(notObject.json.error).toBe('secrets must be an object');
  });
});
