// The URL policy: unit checks of schemes and addresses, then real Chromium refusing denied URLs,
// redirects included, on a server that allows exactly one loopback host (the test pages).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKind, UrlPolicy } from '../../src/net/url-policy.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { createTask, ended, runResult, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';
import { startTestPages, type TestPages } from '../support/test-pages.js';

describe('URL policy', () => {
  const strict = new UrlPolicy({ allowPrivateNetwork: false, allowedHosts: ['127.0.0.1:8080', 'intranet.test'] });

  it.each([
    ['file:///etc/passwd', 'the file: scheme is not allowed (only http and https)'],
    ['chrome://settings', 'the chrome: scheme is not allowed'],
    ['javascript:alert(1)', 'the javascript: scheme is not allowed'],
    ['data:text/html,hi', 'the data: scheme is not allowed'],
    ['ftp://example.org/', 'the ftp: scheme is not allowed'],
    ['http://127.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://127.0.0.1:8081/', '127.0.0.1 is a loopback address'],
    ['http://0x7f.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://[::1]:3000/', '::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/', 'is a loopback address'],
    ['http://localhost:4000/', 'localhost is a loopback address'],
    ['http://app.localhost/', 'app.localhost is a loopback address'],
    ['http://10.0.0.5/', '10.0.0.5 is a private address'],
    ['http://192.168.1.1/', '192.168.1.1 is a private address'],
    ['http://172.20.0.1/', '172.20.0.1 is a private address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
    ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
    ['http://[fd00::1]/', 'fd00::1 is a private address'],
    ['http://0.0.0.0/', '0.0.0.0 is a reserved address'],
    ['not a url', 'is not a valid URL'],
  ])('denies %s', async (url, reason) => {
    const verdict = await strict.check(url);
    expect(verdict.allowed).toBe(false);
    expect(!verdict.allowed && verdict.reason).toContain(reason);
  });

  it('allows public addresses, the configured hosts, and everything private when configured', async () => {
    expect(await strict.check('https://93.184.216.34/')).toEqual({ allowed: true, address: '93.184.216.34' });
    expect(await strict.check('http://127.0.0.1:8080/page')).toEqual({ allowed: true, address: '127.0.0.1' });
    expect((await strict.check('http://intranet.test/')).allowed).toBe(true);
    const open = new UrlPolicy({ allowPrivateNetwork: true, allowedHosts: [] });
    expect((await open.check('http://127.0.0.1:9/')).allowed).toBe(true);
    expect((await open.check('http://[::1]/')).allowed).toBe(true);
    expect((await open.check('file:///etc/passwd')).allowed).toBe(false);
  });

  it('classifies addresses, IPv4-mapped IPv6 included', () => {
    expect(addressKind('8.8.8.8')).toBeNull();
    expect(addressKind('2001:4860:4860::8888')).toBeNull();
    expect(addressKind('::ffff:7f00:1')).toBe('a loopback');
    expect(addressKind('100.64.1.1')).toBe('a shared (carrier-grade NAT)');
    expect(addressKind('224.0.0.1')).toBe('a multicast');
  });
});

describe.each(DATABASE_KINDS)('browser policy on %s', (kind) => {
  let forbidden: TestPages;
  beforeAll(async () => {
    forbidden = await startTestPages();
  });
  afterAll(() => forbidden?.close());
  // Private addresses are denied, except the test pages' own host:port.
  const fx = useTaskFixtures((f) => ({
    TASK_ALLOW_PRIVATE_NETWORK: 'false',
    TASK_ALLOWED_HOSTS: `127.0.0.1:${f.pages.port}`,
    TASK_MAX_CONSECUTIVE_FAILURES: '5',
  }));
  const api = useTestServer(kind, fx.env);

  it('refuses denied URLs (a redirect hop, another loopback port, file:) and tells the agent why', async () => {
    fx.llm.define('denied', [
      { call: 'navigate', args: { url: `${fx.pages.url}/redirect?to=${encodeURIComponent(`http://localhost:${fx.pages.port}/secret`)}` } },
      { call: 'navigate', args: { url: `${forbidden.url}/secret` } },
      { call: 'navigate', args: { url: 'file:///etc/passwd' } },
      { call: 'navigate', args: { url: `${fx.pages.url}/search` } },
      (c) => ({ call: 'done', args: { output: /Title: (.*)/.exec(c.page)![1] } }),
    ]);
    const taskId = await createTask(api, { task: taskText('denied') });
    await waitForRun(api, taskId, ended);
    expect(await runResult(api, taskId)).toMatchObject({ status: 'completed', output: 'Find events' });
    const { data } = await api.graphql(`query($id: ID!) { taskRun(taskId: $id) { steps { action result } } }`, { id: taskId }, ADMIN_KEY);
    const results = data.taskRun.steps.map((s: any) => s.result);
    expect(results[0]).toMatch(/^blocked by policy: localhost is a loopback address/);
    expect(results[1]).toMatch(/^blocked by policy: 127\.0\.0\.1 is a loopback address/);
    expect(results[2]).toBe('blocked by policy: the file: scheme is not allowed (only http and https)');
    expect(results[3]).toMatch(/^opened http:\/\/127\.0\.0\.1:\d+\/search \(HTTP 200\)$/);
    // The redirect's first hop was served; its target and the other server were never reached.
    expect(fx.pages.hits.some((h) => h.startsWith('/redirect'))).toBe(true);
    expect(fx.pages.hits).not.toContain('/secret');
    expect(forbidden.hits).toEqual([]);
  });

  it("does not take a site's own refusal header for the proxy's", async () => {
    fx.llm.define('forged', [
      { call: 'navigate', args: { url: `${fx.pages.url}/claims-blocked` } },
      { call: 'done', args: { output: 'ok' } },
    ]);
    const taskId = await createTask(api, { task: taskText('forged') });
    await waitForRun(api, taskId, ended);
    const { data } = await api.graphql(`query($id: ID!) { taskRun(taskId: $id) { steps { result } } }`, { id: taskId }, ADMIN_KEY);
    expect(data.taskRun.steps[0].result).toMatch(/^opened http:\/\/127\.0\.0\.1:\d+\/claims-blocked \(HTTP 200\)$/);
  });

  it('fails a run whose startUrl is denied', async () => {
    fx.llm.define('never', [{ call: 'done', args: { output: 'should not run' } }]);
    const task = taskText('never');
    const taskId = await createTask(api, { task, startUrl: 'http://169.254.169.254/latest/meta-data' });
    await waitForRun(api, taskId, ended);
    const result = await runResult(api, taskId);
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/^startUrl could not be opened: blocked by policy: 169\.254\.169\.254 is a link-local address/);
    expect(fx.llm.requestsOf(task)).toHaveLength(0);
  });
});
