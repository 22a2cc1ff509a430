// Tabs with real Chromium: a page the site opens (target=_blank, window.open) becomes the current tab,
// the observation lists the open tabs, switch_tab and close_tab move between them, and a tab the site
// opens on an address the URL policy refuses is neither loaded nor shown as a page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';
import { finishTask, taskText, useTaskFixtures } from '../support/tasks.js';
import { startTestPages, type TestPages } from '../support/test-pages.js';

describe.each(DATABASE_KINDS)('browser agent with tabs on %s', (kind) => {
  let forbidden: TestPages;
  beforeAll(async () => {
    forbidden = await startTestPages();
  });
  afterAll(async () => {
    await forbidden?.close();
  });
  const fx = useTaskFixtures((f) => ({ TASK_ALLOW_PRIVATE_NETWORK: 'false', TASK_ALLOWED_HOSTS: `127.0.0.1:${f.pages.port}` }));
  const api = useTestServer(kind, fx.env);

  const finish = (task: string) => finishTask(api, task);

  it('follows new tabs, lists them, switches between them and closes them', async () => {
    fx.llm.define('tabs', [
      { call: 'navigate', args: { url: `${fx.pages.url}/tabs` } },
      (c) => ({ call: 'click', args: { element: c.element('"Search in a new tab"') } }),
      (c) => ({ call: 'type', args: { element: c.element('name=city'), text: 'Paris', submit: true } }),
      { call: 'switch_tab', args: { tab: 1 } },
      (c) => ({ call: 'click', args: { element: c.element('button "Open popup"') } }),
      { call: 'close_tab', args: {} },
      { call: 'switch_tab', args: { tab: 7 } },
      (c) => ({ call: 'done', args: { output: c.page } }),
    ]);
    const task = taskText('tabs', 'Use the tabs');
    const { run, result, results } = await finish(task);
    expect(run.status, JSON.stringify(result)).toBe('completed');
    const url = fx.pages.url;
    expect(results).toEqual([
      `opened ${url}/tabs (HTTP 200)`,
      `clicked [1]; now at ${url}/search (in a new tab, now the current one)`,
      'typed "Paris" into [1] and pressed Enter',
      `switched to tab 1: ${url}/tabs`,
      `clicked [2]; now at ${url}/signin (in a new tab, now the current one)`,
      `closed the tab at ${url}/signin; the current tab is at ${url}/results?city=Paris&kind=`,
      'there is no tab 7: 2 tabs are open',
      'finished',
    ]);
    const pages = fx.llm.requestsOf(task).map((r) => r.body.messages.at(-1).content as string);
    // One tab: no list. Then the new tab is the current page, and both are listed.
    expect(pages[1]).not.toContain('Open tabs');
    expect(pages[2]).toContain(`URL: ${url}/search`);
    expect(pages[2]).toContain(
      `Open tabs (switch_tab, close_tab):\nTab 1: ${url}/tabs — "Tabs"\nTab 2 (current): ${url}/search — "Find events"`,
    );
    expect(pages[4]).toContain(`Tab 1 (current): ${url}/tabs — "Tabs"\nTab 2: ${url}/results?city=Paris&kind= — "Results for Paris"`);
    expect(pages[5]).toContain(`Tab 3 (current): ${url}/signin — "Sign in"`);
    expect(result.output).toContain(`URL: ${url}/results?city=Paris&kind=`);
    expect(result.output).toContain(`Tab 2 (current): ${url}/results?city=Paris&kind=`);
    expect(result.output).not.toContain('Tab 3');
  });

  it('refuses a tab the site opens on an address the policy denies, and will not close the last tab', async () => {
    const refused = `http://127.0.0.1:${forbidden.port}/secret`;
    fx.llm.define('refused-tab', [
      { call: 'navigate', args: { url: `${fx.pages.url}/tabs?popup=${encodeURIComponent(refused)}` } },
      (c) => ({ call: 'click', args: { element: c.element('button "Open popup"') } }),
      { call: 'close_tab', args: { tab: 2 } },
      { call: 'close_tab', args: {} },
      (c) => ({ call: 'done', args: { output: c.page } }),
    ]);
    const { run, result, results } = await finish(taskText('refused-tab', 'Open the popup'));
    expect(run.status, JSON.stringify(result)).toBe('completed');
    expect(forbidden.hits).toEqual([]);
    expect(results[1]).toBe(
      'blocked by policy: 127.0.0.1 is a loopback address; Almanac may not reach private-network addresses (set TASK_ALLOW_PRIVATE_NETWORK or TASK_ALLOWED_HOSTS to allow)',
    );
    expect(results[2]).toMatch(/^closed the tab at http:\/\/127\.0\.0\.1:\d+\/secret; the current tab is at .*\/tabs\?popup=/);
    expect(results[3]).toBe('the last open tab cannot be closed');
    expect(result.output).not.toContain('secret content');
  });
});
