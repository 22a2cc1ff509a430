// A remote browser driven over CDP (BROWSER_CDP_URL), as with Browserless, Steel or a grid: here a
// second Chromium started with --remote-debugging-port. CHROMIUM_PATH names nothing, so a run can only
// succeed in the remote one. Its traffic still meets the URL policy, through Almanac's proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCdpChromium, type CdpChromium } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { freePort } from '../support/ports.js';
import { useTestServer } from '../support/server.js';
import { finishTask, taskText, useTaskFixtures } from '../support/tasks.js';
import { startTestPages, type TestPages } from '../support/test-pages.js';

const NO_LOCAL_CHROMIUM = '/nonexistent/chromium';

describe.each(DATABASE_KINDS)('browser agent in a remote browser on %s', (kind) => {
  let remote: CdpChromium;
  let forbidden: TestPages;
  beforeAll(async () => {
    remote = await startCdpChromium();
    forbidden = await startTestPages();
  });
  afterAll(async () => {
    await forbidden?.close();
    await remote?.close();
  });
  const fx = useTaskFixtures((f) => ({
    BROWSER_CDP_URL: remote.url,
    CHROMIUM_PATH: NO_LOCAL_CHROMIUM,
    TASK_ALLOW_PRIVATE_NETWORK: 'false',
    TASK_ALLOWED_HOSTS: `127.0.0.1:${f.pages.port}`,
  }));
  const api = useTestServer(kind, fx.env);

  it('runs the task in the remote browser, and the URL policy holds there', async () => {
    const refused = `http://127.0.0.1:${forbidden.port}/secret`;
    fx.llm.define('remote', [
      { call: 'navigate', args: { url: refused } },
      { call: 'navigate', args: { url: `${fx.pages.url}/search` } },
      (c) => ({ call: 'type', args: { element: c.element('name=city'), text: 'Lyon', submit: true } }),
      (c) => ({ call: 'done', args: { output: c.page } }),
    ]);
    const { run, result, results } = await finishTask(api, taskText('remote', 'Search for Lyon'));
    expect(run.status, JSON.stringify(result)).toBe('completed');
    expect(results[0]).toMatch(/^blocked by policy: 127\.0\.0\.1 is a loopback address/);
    expect(forbidden.hits).toEqual([]);
    expect(results[1]).toBe(`opened ${fx.pages.url}/search (HTTP 200)`);
    expect(result.output).toContain(`URL: ${fx.pages.url}/results?city=Lyon`);
    // The remote browser is still there for its other users: only the run's context was closed.
    expect((await fetch(`${remote.url}/json/version`)).ok).toBe(true);
  });
});

describe('browser agent with a remote browser it cannot use', () => {
  const token = 'cdp-token-not-for-logs';
  let closedPort: number;
  beforeAll(async () => {
    closedPort = await freePort();
  });
  const fx = useTaskFixtures(() => ({
    BROWSER_CDP_URL: `http://127.0.0.1:${closedPort}/?token=${token}`,
    CHROMIUM_PATH: NO_LOCAL_CHROMIUM,
  }));
  const api = useTestServer('sqlite', fx.env);

  it('fails the run naming the browser’s address, never its token', async () => {
    fx.llm.define('unreachable', [{ call: 'done', args: { output: 'never asked' } }]);
    const task = taskText('unreachable');
    const { run, result } = await finishTask(api, task);
    expect(run.status).toBe('error');
    expect(result.error).toMatch(
      new RegExp(`could not connect to the browser at http://127\\.0\\.0\\.1:${closedPort} \\(BROWSER_CDP_URL\\)`),
    );
    expect(JSON.stringify(result)).not.toContain(token);
    expect(fx.llm.requestsOf(task)).toEqual([]);
  });
});

describe('browser agent with a remote browser that cannot reach the proxy', () => {
  let remote: CdpChromium;
  let closedPort: number;
  beforeAll(async () => {
    remote = await startCdpChromium();
    closedPort = await freePort();
  });
  afterAll(() => remote?.close());
  const fx = useTaskFixtures(() => ({
    BROWSER_CDP_URL: remote.url,
    BROWSER_PROXY_URL: `http://127.0.0.1:${closedPort}`,
    CHROMIUM_PATH: NO_LOCAL_CHROMIUM,
  }));
  const api = useTestServer('sqlite', fx.env);

  it('opens nothing and says which setting to check', async () => {
    fx.llm.define('no-proxy', [
      { call: 'navigate', args: { url: `${fx.pages.url}/search` } },
      { call: 'done', args: { output: 'stopped' } },
    ]);
    const { results } = await finishTask(api, taskText('no-proxy'));
    expect(results[0]).toMatch(/^navigate failed: .*ERR_PROXY_CONNECTION_FAILED.*see BROWSER_PROXY_URL\)$/);
    expect(fx.pages.hits).toEqual([]);
  });
});
