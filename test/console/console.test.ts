// The task console in a real browser (Debian's Chromium through playwright-core): the page and its
// headers, a refused key, signing in, following a run live, answering a form_input form and seeing
// the result, answering another tool, stopping a run, picking and saving tools, naming tasks, the
// key's default webhook, files to upload, saving a run's downloads, and replayed steps. Screenshots of the main
// states are saved in test-artifacts/console/.
import { readFileSync } from 'node:fs';
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useChromium } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY } from '../support/server.js';
import { createTask, taskText, useTaskFixtures } from '../support/tasks.js';
import { FORM_INPUT_TOOL, useConsoleServers } from './helpers.js';
import { REPORT_CSV } from '../support/test-pages.js';

const ARTIFACTS = 'test-artifacts/console';
/** Polls until the assertion holds; generous, for a machine shared with other test runs. */
const poll = <T>(read: () => T | Promise<T>, timeout = 45_000) => expect.poll(read, { timeout, interval: 50 });

interface ConsolePage {
  page: Page;
  /** Every request the page made (URL and method). */
  requests: Array<{ method: string; url: string }>;
  /** Console errors and uncaught exceptions (a CSP violation would show up here). */
  problems: string[];
  close(): Promise<void>;
}

describe.each(DATABASE_KINDS)('task console on %s', (kind) => {
  // The stop test keeps an LLM call hanging: give it longer than the tests' default LLM timeout.
  const fx = useTaskFixtures(() => ({ LLM_TIMEOUT_MS: '60000', LLM_PRICES: JSON.stringify({ 'fake-model': { input: 1, output: 2 } }) }));
  const servers = useConsoleServers(kind, fx);
  const chromium = useChromium(ARTIFACTS);

  async function openConsole(hash = ''): Promise<ConsolePage> {
    const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(45_000);
    const requests: ConsolePage['requests'] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push({ method: request.method(), url: request.url() }));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${servers.api.url}/console${hash}`);
    return { page, requests, problems, close: () => context.close() };
  }

  async function signIn(page: Page, key: string) {
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/${kind}-${name}.png`, fullPage: true });

  it('serves the page and its assets from Almanac, with content types and cache headers', async () => {
    const page = await fetch(`${servers.api.url}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-encoding')).toBe('gzip');
    const html = await page.text();
    const script = /src="(\/console\/console\.js\?v=\w+)"/.exec(html)?.[1];
    const style = /href="(\/console\/console\.css\?v=\w+)"/.exec(html)?.[1];
    expect(script && style).toBeTruthy();
    expect(html).not.toMatch(/https?:\/\//); // nothing from elsewhere

    const js = await fetch(servers.api.url + script);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toMatch(/from '\.\/api\.js\?v=\w+'/);
    const css = await fetch(servers.api.url + style);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');

    const again = await fetch(servers.api.url + script, { headers: { 'if-none-match': js.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${servers.api.url}/console/nothing.js`)).status).toBe(404);
    expect((await fetch(`${servers.api.url}/console`, { method: 'POST' })).status).toBe(405);
  });

  it('refuses a wrong key with a clear message, and keeps nothing', async () => {
    const { page, problems, close } = await openConsole();
    try {
      await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('api-key');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await poll(() => page.getByRole('alert').first().textContent()).toBe('Enter your API key.');
      await signIn(page, 'alm_this-is-not-a-key');
      const alert = page.locator('#signin-error');
      await poll(() => alert.textContent()).toMatch(/^That API key was refused/);
      expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#workspace').isHidden()).toBe(true);
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      // The keyboard focus is visible.
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() => [document.activeElement?.textContent, getComputedStyle(document.activeElement!).outlineWidth]),
      ).toEqual(['Sign in', '3px']);
      await shot(page, 'signin-refused');
      expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('signs in, follows a run live, takes the answer to its form_input form, and shows the result', async () => {
    const ask = {
      heading: 'Book a table',
      description: 'Tell me who is coming and when.',
      fields: [
        { type: 'text', label: 'Your name' },
        { type: 'email', label: 'Email' },
        { type: 'number', label: 'Guests' },
        { type: 'date', label: 'Date' },
        { type: 'select', label: 'Seating', options: ['Inside', 'Terrace'] },
        { type: 'checkbox', label: 'Newsletter' },
        { type: 'textarea', label: 'Notes' },
      ],
    };
    fx.llm.define('console-form', [
      { call: 'navigate', args: { url: `${fx.pages.url}/signin` } },
      { call: 'wait', args: { seconds: 1 } },
      { call: 'form_input', args: ask },
      (c) => ({
        call: 'type',
        args: { element: c.element('"Your name"'), text: JSON.parse(c.lastToolResult!)['Your name'], submit: true },
      }),
      (c) => ({
        call: 'done',
        args: {
          output: /Welcome, [^!]+!/.exec(c.page)?.[0] ?? 'no greeting',
          dataTable: [
            { Guest: 'Ada Lovelace', Seats: 4 },
            { Guest: 'Charles Babbage', Seats: 4 },
          ],
        },
      }),
    ]);
    const { page, requests, problems, close } = await openConsole();
    try {
      await signIn(page, ADMIN_KEY);
      await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('tasks-title');
      expect(await page.evaluate(() => sessionStorage.getItem('almanac.console.apiKey'))).toBe(ADMIN_KEY);
      await shot(page, 'signed-in');

      // A task created now appears in the list by itself (the page holds a subscription open).
      const task = taskText('console-form', 'Book a table for four at the test site');
      const taskId = await createTask(servers.client, { task, tools: [FORM_INPUT_TOOL] });
      const link = page.getByRole('link', { name: /Book a table for four/ });
      await link.click();
      expect(page.url()).toContain(`#/task/${taskId}`);
      // Record what the live region says, as it says it.
      await page.evaluate(() => {
        const live = document.getElementById('run-live')!;
        const said: string[] = ((window as any).said = [live.textContent ?? '']);
        new MutationObserver(() => said.push(live.textContent ?? '')).observe(live, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });

      const form = page.getByRole('form', { name: 'Book a table' });
      await form.waitFor();
      await poll(() => page.locator('#run-badge').textContent()).toBe('Waiting for your input');
      expect(await form.getByText('Tell me who is coming and when.').isVisible()).toBe(true);
      // One control per field, of the field's type, each with its bound label.
      const control = (label: string) => form.getByLabel(label, { exact: true });
      expect(await control('Your name').getAttribute('type')).toBe('text');
      expect(await control('Email').getAttribute('type')).toBe('email');
      expect(await control('Guests').getAttribute('type')).toBe('number');
      expect(await control('Date').getAttribute('type')).toBe('date');
      expect(await control('Newsletter').getAttribute('type')).toBe('checkbox');
      expect(await control('Seating').evaluate((e) => e.tagName)).toBe('SELECT');
      expect(await control('Notes').evaluate((e) => e.tagName)).toBe('TEXTAREA');
      await poll(() => page.locator('.step').count()).toBeGreaterThanOrEqual(3);
      // Every visible control has a label; every image a text alternative; the tab says what happens.
      const unlabelled = await page.$$eval('input, select, textarea, button', (controls) =>
        controls
          .filter((c) => (c as HTMLElement).offsetParent && !(c as HTMLInputElement).labels?.length && !c.textContent?.trim())
          .map((c) => c.outerHTML),
      );
      expect(unlabelled).toEqual([]);
      expect(await page.$$eval('img', (images) => images.filter((i) => !i.alt).length)).toBe(0);
      expect(await page.title()).toMatch(/^Waiting for your input · Book a table for four/);
      await shot(page, 'run-waiting-for-form');

      await control('Your name').fill('Ada Lovelace');
      await control('Email').fill('ada@example.org');
      await control('Guests').fill('4');
      await control('Date').fill('2026-12-05');
      await control('Seating').selectOption('Terrace');
      await control('Notes').fill('Window seat, please');
      // The keyboard is enough: Space ticks the box, Enter in a field submits.
      await control('Newsletter').focus();
      await page.keyboard.press('Space');
      await control('Email').focus();
      await page.keyboard.press('Enter');

      await poll(() => page.locator('#run-badge').textContent(), 90_000).toBe('Completed');
      const result = page.getByRole('region', { name: 'Result' });
      await poll(() => result.locator('.output').textContent()).toBe('Welcome, Ada Lovelace!');
      const table = result.getByRole('table', { name: /Data table: 2 rows/ });
      expect(await table.locator('thead th').allTextContents()).toEqual(['Guest', 'Seats']);
      expect(await table.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['Ada Lovelace', '4']);
      expect(await page.locator('#stop-run').isHidden()).toBe(true);
      // The form went away with the wait; the focus moved on to the result rather than being lost.
      expect(await page.locator('#tool-call').isHidden()).toBe(true);
      await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('result-title');

      // The answer went to the agent as a JSON object keyed by label.
      const resumed = fx.llm.requestsOf(task).at(-1)!.body.messages;
      const answer = JSON.parse(resumed.find((m: any) => m.role === 'tool' && m.content.startsWith('{')).content);
      expect(answer).toEqual({
        'Your name': 'Ada Lovelace',
        Email: 'ada@example.org',
        Guests: 4,
        Date: '2026-12-05',
        Seating: 'Terrace',
        Newsletter: true,
        Notes: 'Window seat, please',
      });

      // Every step, with its screenshot served by Almanac (the API's URLs name SITE_URL; the page uses its own origin).
      const steps = page.locator('.step');
      await poll(() => steps.count()).toBe(5);
      expect(await steps.locator('h4').allTextContents()).toEqual([
        'Step 1: navigate',
        'Step 2: wait',
        'Step 3: form_input',
        'Step 4: type',
        'Step 5: done',
      ]);
      expect(await steps.nth(2).locator('.answer').textContent()).toContain('"Your name":"Ada Lovelace"');
      const image = steps.nth(1).locator('img');
      await image.scrollIntoViewIfNeeded();
      await poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
      await shot(page, 'run-completed');

      // The live region told the story as it happened.
      const said: string[] = await page.evaluate(() => (window as any).said);
      const waiting = said.findIndex((s) => s.startsWith('Waiting for your input'));
      expect(waiting, said.join('\n')).toBeGreaterThan(0);
      expect(
        said.slice(0, waiting).some((s) => /^(Acting|Thinking|Queued|Starting the browser)/.test(s)),
        said.join('\n'),
      ).toBe(true);
      expect(said.at(-1)).toMatch(/^Completed/);

      // Live without polling: a handful of requests for the whole story, all to Almanac.
      const graphql = requests.filter((r) => r.url.endsWith('/graphql'));
      expect(graphql.length, JSON.stringify(graphql)).toBeLessThanOrEqual(6);
      expect(
        requests.every((r) => r.url.startsWith(servers.api.url) || r.url.startsWith('data:')),
        JSON.stringify(requests),
      ).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 240_000);

  it('creates a task from the console, runs it again, shows its recording and data downloads, and fits a 390 px screen', async () => {
    fx.llm.define('console-new', [
      (c) => ({
        call: 'done',
        args: {
          output: c.page.includes('/signin') ? 'Started at the sign-in page' : `Started elsewhere: ${c.page.slice(0, 200)}`,
          dataTable: [
            { Guest: 'Ada Lovelace', Note: 'Says "hello", twice' },
            { Guest: '=HYPERLINK("http://example.com")', Note: 'formula-looking' },
          ],
        },
        tokens: 321,
      }),
    ]);
    const { page, problems, close } = await openConsole();
    try {
      await signIn(page, ADMIN_KEY);
      await page.getByRole('link', { name: 'New task' }).click();
      const form = page.getByRole('form', { name: 'New task' });
      await form.waitFor();
      await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-task-title');
      // Mistakes are named beside their field, and the focus goes to the first one.
      await form.getByRole('button', { name: 'Create and run' }).click();
      await poll(() => page.locator('#new-task-text-error').textContent()).toBe('Say what the agent should do.');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('new-task-text');
      expect(await form.getByLabel('What should the agent do?').getAttribute('aria-invalid')).toBe('true');
      const text = taskText('console-new', 'Collect the guest list');
      await form.getByLabel('What should the agent do?').fill(text);
      await form.getByLabel(/Start page/).fill('not a url');
      await form.getByLabel(/Step budget/).fill('0');
      await form.getByLabel(/Token budget/).fill('-3');
      await form.getByRole('button', { name: 'Create and run' }).click();
      await poll(() => page.locator('#new-task-url-error').textContent()).toMatch(/http:\/\/ or https:\/\//);
      expect(await page.locator('#new-task-steps-error').textContent()).toMatch(/1 to 500/);
      expect(await page.locator('#new-task-tokens-error').textContent()).toBe('Give a whole number from 1 to 1,000,000,000.');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('new-task-url');
      await shot(page, 'new-task-errors');
      await form.getByLabel(/Start page/).fill(`${fx.pages.url}/signin`);
      await form.getByLabel(/Step budget/).fill('5');
      await form.getByLabel(/Token budget/).fill('5000');
      await form.getByLabel(/Cost budget/).fill('0.01');
      // The keyboard is enough: Enter on the button submits.
      await form.getByRole('button', { name: 'Create and run' }).focus();
      await page.keyboard.press('Enter');

      // The new task opens, runs at once and appears in the list.
      await poll(() => page.url()).toMatch(/#\/task\/[\w-]+$/);
      const taskId = /#\/task\/([\w-]+)$/.exec(page.url())![1];
      await poll(() => page.getByRole('link', { name: /Collect the guest list/ }).count()).toBe(1);
      await poll(() => page.locator('#run-badge').textContent(), 90_000).toBe('Completed');
      const result = page.getByRole('region', { name: 'Result' });
      expect(await result.locator('.output').textContent()).toBe('Started at the sign-in page');
      // What the run cost: its steps, the tokens the LLM reported (320 prompt, 1 completion) and their
      // price at LLM_PRICES ($1 and $2 per million).
      expect(await page.locator('#run-steps').textContent()).toBe('1');
      expect(await page.locator('#run-tokens').textContent()).toBe('321 of 5,000');
      expect(await page.locator('#run-cost').textContent()).toBe('$0.000322 of $0.01');
      const firstRequest = fx.llm.requestsOf(text)[0].body;
      expect(firstRequest.tools.map((tool: any) => tool.function.name)).toContain('form_input');

      // The data table downloads as CSV (quoted, formulas neutralised) and JSON.
      const download = async (name: string) => {
        const [file] = await Promise.all([page.waitForEvent('download'), result.getByRole('link', { name }).click()]);
        return [file.suggestedFilename(), readFileSync((await file.path())!, 'utf8')];
      };
      const [csvName, csv] = await download('Download CSV');
      expect(csvName).toMatch(/^run-[\w-]+\.csv$/);
      expect(csv).toBe('Guest,Note\r\nAda Lovelace,"Says ""hello"", twice"\r\n"\'=HYPERLINK(""http://example.com"")",formula-looking\r\n');
      const [, json] = await download('Download JSON');
      expect(JSON.parse(json)).toEqual([
        { Guest: 'Ada Lovelace', Note: 'Says "hello", twice' },
        { Guest: '=HYPERLINK("http://example.com")', Note: 'formula-looking' },
      ]);
      // The recording plays inline, served by Almanac.
      const recording = result.locator('.recording img');
      await recording.scrollIntoViewIfNeeded();
      await poll(() => recording.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await recording.getAttribute('alt')).toMatch(/^Recording of the run/);
      await shot(page, 'new-task-completed');

      // Run again: a second run of the same task, opened and followed live.
      const firstRun = await page.locator('#run-id').textContent();
      await page.getByRole('button', { name: 'Run again' }).click();
      await poll(() => page.locator('#run-list li').count()).toBe(2);
      await poll(() => page.locator('#run-id').textContent()).not.toBe(firstRun);
      expect(page.url()).toContain(`#/task/${taskId}/run/`);
      await poll(() => page.locator('#run-badge').textContent(), 90_000).toBe('Completed');
      expect(fx.llm.requestsOf(text).length).toBe(2);

      // A phone-sized screen: nothing wider than the screen, the heading wraps.
      await page.setViewportSize({ width: 390, height: 844 });
      await poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(page, 'narrow-390');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 240_000);

  it('lists the files a run downloaded and saves one with the key', async () => {
    fx.llm.define('console-download', [
      { call: 'navigate', args: { url: `${fx.pages.url}/files` } },
      (c) => ({ call: 'click', args: { element: c.element('"Download the report"') } }),
      { call: 'done', args: { output: 'Got the report' } },
    ]);
    const taskId = await createTask(servers.client, { task: taskText('console-download', 'Fetch the report') });
    const { page, problems, close } = await openConsole(`#/task/${taskId}`);
    try {
      await signIn(page, ADMIN_KEY);
      await poll(() => page.locator('#run-badge').textContent(), 90_000).toBe('Completed');
      const files = page.getByRole('region', { name: 'Result' }).locator('.run-files li');
      await poll(() => files.textContent()).toBe(`report.csv (${REPORT_CSV.length} bytes) Save`);
      const [file] = await Promise.all([page.waitForEvent('download'), files.getByRole('button', { name: 'Save' }).click()]);
      expect(file.suggestedFilename()).toBe('report.csv');
      expect(readFileSync((await file.path())!, 'utf8')).toBe(REPORT_CSV);
      await poll(() => files.getByRole('button').textContent()).toBe('Saved');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it('marks the steps a run replayed from an earlier one', async () => {
    fx.llm.define('console-source', [
      (c) => ({ call: 'type', args: { element: c.element('name=who'), text: 'Ada' } }),
      { call: 'done', args: { output: 'Booking' } }, // on the page still: replayed as it is
    ]);
    const startUrl = `${fx.pages.url}/booking`;
    const sourceTask = await createTask(servers.client, { task: taskText('console-source', 'Type a name'), startUrl });
    await poll(
      async () => (await servers.client.request('GET', `/api/v1/task/${sourceTask}/run/status`, { key: ADMIN_KEY })).json.data.status,
      60_000,
    ).toBe('completed');
    const runs = await servers.client.request('GET', `/api/v1/task/${sourceTask}/runs`, { key: ADMIN_KEY });
    const replayTask = await createTask(servers.client, {
      task: taskText('console-unused', 'Type it again'),
      startUrl,
      replayOf: runs.json.data[0].id,
    });
    const { page, problems, close } = await openConsole(`#/task/${replayTask}`);
    try {
      await signIn(page, ADMIN_KEY);
      await poll(() => page.locator('#run-badge').textContent(), 60_000).toBe('Completed');
      await poll(() => page.locator('#steps article h4').allTextContents()).toEqual(['Step 1: type replayed', 'Step 2: done replayed']);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it('creates a task with files to upload, which the agent puts into the page', async () => {
    fx.llm.define('console-upload', [
      { call: 'navigate', args: { url: `${fx.pages.url}/upload` } },
      (c) => ({ call: 'upload_file', args: { file: 'cv.txt', element: c.element('input type=file') } }),
      (c) => ({ call: 'done', args: { output: c.page } }),
    ]);
    const { page, problems, close } = await openConsole();
    try {
      await signIn(page, ADMIN_KEY);
      await page.getByRole('link', { name: 'New task' }).click();
      const form = page.getByRole('form', { name: 'New task' });
      await form.getByLabel('What should the agent do?').fill(taskText('console-upload', 'Send my CV'));
      const picker = form.getByLabel(/Files the agent may upload/);
      const file = (name: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`the file ${name}`) });
      await picker.setInputFiles(Array.from({ length: 11 }, (_, i) => file(`f${i}.txt`)));
      await form.getByRole('button', { name: 'Create and run' }).click();
      await poll(() => page.locator('#new-task-files-error').textContent()).toBe('Choose at most 10 files.');
      await picker.setInputFiles([file('cv.txt')]);
      await form.getByRole('button', { name: 'Create and run' }).click();
      await poll(() => page.locator('#run-badge').textContent(), 90_000).toBe('Completed');
      expect(await page.locator('#result .output').textContent()).toContain('CV: cv.txt, 15 bytes, text/plain: the file cv.txt');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it("picks and saves tool definitions, names and renames a task, and sets the key's default webhook, by keyboard", async () => {
    fx.llm.define('console-tools', [{ call: 'done', args: { output: 'Orders checked' } }]);
    const key = servers.otherKey;
    const api = (query: string, variables: Record<string, unknown> = {}, as = key) =>
      servers.client
        .request('POST', '/graphql', { key: as, body: { query, variables } })
        .then((r) => r.json as { data: any; errors?: any[] });
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    const { page, problems, close } = await openConsole('#/new');
    try {
      await signIn(page, key);
      const form = page.getByRole('form', { name: 'New task' });
      await form.waitFor();
      const tools = page.getByRole('group', { name: 'Tools the agent may call' });
      // The server's built-in form_input is offered, ticked.
      const formInput = tools.getByRole('checkbox', { name: /form_input \(built in\)/ });
      await poll(() => formInput.count()).toBe(1);
      expect(await formInput.isChecked()).toBe(true);
      expect(await tools.getByRole('listitem').allTextContents()).toEqual(['form_input (built in) — Ask the user for information']);

      // Save a new definition, by keyboard: open the disclosure, type, press the button.
      await page.locator('#save-tool summary').focus();
      await page.keyboard.press('Enter');
      const json = page.getByLabel('Tool definition (JSON)');
      await json.waitFor();
      const saveTool = page.getByRole('button', { name: 'Save tool' });
      await json.fill('{"type": "function", ');
      await saveTool.focus();
      await page.keyboard.press('Enter');
      await poll(() => page.locator('#new-tool-json-error').textContent()).toMatch(/^This is not valid JSON: /);
      await poll(focused).toBe('new-tool-json');
      expect(await json.getAttribute('aria-invalid')).toBe('true');
      // The server's rule, as create applies it to tools.
      await json.fill('{"type": "function", "function": {"name": "click"}}');
      await saveTool.focus();
      await page.keyboard.press('Enter');
      await poll(() => page.locator('#new-tool-json-error').textContent()).toBe(
        'tool.function.name must not be the name of a built-in browser action ("click")',
      );
      const lookup = {
        type: 'function',
        function: {
          name: 'lookup_order',
          description: 'Look an order up by its number',
          parameters: { type: 'object', properties: { number: { type: 'string' } } },
        },
      };
      await json.fill(JSON.stringify(lookup, null, 2));
      await saveTool.focus();
      await page.keyboard.press('Enter');
      const lookupBox = tools.getByRole('checkbox', { name: /lookup_order — Look an order up/ });
      await poll(() => lookupBox.count()).toBe(1);
      await poll(() => page.locator('#tools-status').textContent()).toBe('Saved "lookup_order"; it is ticked for this task.');
      expect(await lookupBox.isChecked()).toBe(true);
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe(
        (await lookupBox.getAttribute('value')) ?? 'none',
      );
      expect(await json.inputValue()).toBe('');
      expect(await page.locator('#new-tool-json-error').textContent()).toBe('');
      // Stored for this user only.
      expect((await api('{ savedTools { name } }')).data.savedTools.map((t: any) => t.name)).toEqual(['form_input', 'lookup_order']);
      expect((await api('{ savedTools { name } }', {}, ADMIN_KEY)).data.savedTools.map((t: any) => t.name)).toEqual(['form_input']);
      // Only one's own definitions have a Delete button; deleting one takes it off the list.
      await json.fill(JSON.stringify({ type: 'function', function: { name: 'scratch' } }));
      await saveTool.focus();
      await page.keyboard.press('Enter');
      const scratch = tools.getByRole('checkbox', { name: /^scratch/ });
      await poll(() => scratch.count()).toBe(1);
      expect(await tools.getByRole('button', { name: /^Delete/ }).count()).toBe(2);
      await tools.getByRole('button', { name: 'Delete scratch' }).focus();
      await page.keyboard.press('Enter');
      await poll(() => page.locator('#tools-status').textContent()).toBe('Deleted "scratch". Tasks created with it keep their copy.');
      expect(await scratch.count()).toBe(0);
      await poll(focused).toBe('tool-choice-0');
      expect((await api('{ savedTools { name } }')).data.savedTools.map((t: any) => t.name)).toEqual(['form_input', 'lookup_order']);
      expect(await lookupBox.isChecked()).toBe(true);
      await shot(page, 'new-task-tools');

      // Untick form_input with the space bar; name the task; Enter in a field creates it.
      await formInput.focus();
      await page.keyboard.press('Space');
      expect(await formInput.isChecked()).toBe(false);
      const text = taskText('console-tools', 'Check the orders of this week');
      await form.getByLabel('What should the agent do?').fill(text);
      await form.getByLabel(/^Name/).fill('Weekly orders');
      await form.getByLabel(/^Name/).focus();
      await page.keyboard.press('Enter');
      await poll(() => page.url()).toMatch(/#\/task\/[\w-]+$/);
      const taskId = /#\/task\/([\w-]+)$/.exec(page.url())![1];
      await poll(() => page.locator('#run-title').textContent()).toBe('Weekly orders');
      expect(await page.locator('#task-text').textContent()).toBe(text);
      await poll(() => page.getByRole('link', { name: /^Weekly orders/ }).count()).toBe(1);
      await poll(() => page.locator('#run-badge').textContent(), 90_000).toBe('Completed');
      expect(fx.llm.requestsOf(text)[0].body.tools.map((tool: any) => tool.function.name)).toContain('lookup_order');
      expect(fx.llm.requestsOf(text)[0].body.tools.map((tool: any) => tool.function.name)).not.toContain('form_input');
      expect((await api('query ($id: ID!) { task(id: $id) { tools } }', { id: taskId })).data.task.tools).toEqual([lookup]);

      // Rename by keyboard: too long is refused beside the field, Escape cancels, Enter saves.
      const rename = page.getByRole('button', { name: 'Rename' });
      await rename.focus();
      await page.keyboard.press('Enter');
      const nameInput = page.getByLabel('Task name');
      await poll(focused).toBe('rename-input');
      expect(await nameInput.inputValue()).toBe('Weekly orders');
      await nameInput.fill('n'.repeat(121));
      await page.keyboard.press('Enter');
      await poll(() => page.locator('#rename-error').textContent()).toBe('name must be at most 120 characters (got 121)');
      expect(await nameInput.getAttribute('aria-invalid')).toBe('true');
      await poll(focused).toBe('rename-input');
      await page.keyboard.press('Escape');
      await poll(focused).toBe('rename-task');
      expect(await page.locator('#rename-form').isHidden()).toBe(true);
      expect(await page.locator('#run-title').textContent()).toBe('Weekly orders');
      await page.keyboard.press('Enter');
      await poll(focused).toBe('rename-input');
      await nameInput.fill('Orders, checked');
      await shot(page, 'rename');
      await page.keyboard.press('Enter');
      await poll(() => page.locator('#run-title').textContent()).toBe('Orders, checked');
      await poll(focused).toBe('run-title');
      await poll(() => page.getByRole('link', { name: /^Orders, checked/ }).count()).toBe(1);
      expect((await api('query ($id: ID!) { task(id: $id) { name } }', { id: taskId })).data.task.name).toBe('Orders, checked');
      // Renamed elsewhere (another client): the list and the heading follow, live.
      await api('mutation ($id: ID!) { renameTask(id: $id, name: "") { id } }', { id: taskId });
      await poll(() => page.locator('#run-title').textContent()).toBe(text);
      await poll(() => page.getByRole('link', { name: /^Check the orders of this week/ }).count()).toBe(1);
      expect(await page.locator('#task-text').isHidden()).toBe(true);

      // The key's default webhook.
      await page.getByRole('link', { name: 'Key settings' }).focus();
      await page.keyboard.press('Enter');
      const settings = page.getByRole('form', { name: 'Key settings' });
      await settings.waitFor();
      await poll(focused).toBe('key-settings-title');
      const hook = settings.getByLabel(/Default webhook URL/);
      await poll(() => page.locator('#key-settings-which').textContent()).toMatch(/^The API key you signed in with: alm_/);
      expect(await hook.inputValue()).toBe('');
      await hook.fill('ftp://example.com/hook');
      await page.keyboard.press('Enter');
      await poll(() => page.locator('#key-webhook-url-error').textContent()).toMatch(/http:\/\/ or https:\/\//);
      await poll(focused).toBe('key-webhook-url');
      await hook.fill('https://hooks.example.com/almanac');
      await page.keyboard.press('Enter');
      await poll(() => page.locator('#key-settings-message').textContent()).toBe(
        'Saved. New tasks of this key without a webhook of their own send their events to https://hooks.example.com/almanac.',
      );
      expect((await api('{ apiKey { webhookUrl } }')).data.apiKey.webhookUrl).toBe('https://hooks.example.com/almanac');
      await shot(page, 'key-settings');
      await page.reload();
      await poll(() => hook.inputValue()).toBe('https://hooks.example.com/almanac');
      await hook.fill('');
      await page.keyboard.press('Enter');
      await poll(() => page.locator('#key-settings-message').textContent()).toBe('Saved. This key has no default webhook.');
      expect((await api('{ apiKey { webhookUrl } }')).data.apiKey.webhookUrl).toBe(null);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 240_000);

  it("shows any other tool's name and arguments with a text answer; stops a run; the session survives a reload", async () => {
    const seatTool = {
      type: 'function',
      function: {
        name: 'pick_seat',
        description: 'Ask which seat to take',
        parameters: { type: 'object', properties: { row: { type: 'integer' }, seats: { type: 'array', items: { type: 'string' } } } },
      },
    };
    fx.llm.define('console-seat', [
      { call: 'pick_seat', args: { row: 12, seats: ['A', 'B'] } },
      (c) => ({ call: 'done', args: { output: `Seat chosen: ${c.lastToolResult}` } }),
    ]);
    fx.llm.define('console-hang', [{ hang: true }]);
    const seatTask = await createTask(servers.client, { task: taskText('console-seat', 'Choose a seat'), tools: [seatTool] });
    const hangTask = await createTask(servers.client, { task: taskText('console-hang', 'Think forever') });

    const { page, problems, close } = await openConsole(`#/task/${seatTask}`);
    try {
      await signIn(page, ADMIN_KEY);
      const form = page.getByRole('form', { name: 'The agent calls pick_seat' });
      await form.waitFor();
      expect(JSON.parse((await form.locator('pre').textContent())!)).toEqual({ row: 12, seats: ['A', 'B'] });
      await form.getByLabel('Your answer').fill('12A');
      await form.getByRole('button', { name: 'Send answer' }).click();
      await poll(() => page.locator('#run-badge').textContent(), 30_000).toBe('Completed');
      expect(await page.locator('#result .output').textContent()).toBe('Seat chosen: 12A');

      // Another task, by its link in the list; stop its run.
      await page.getByRole('link', { name: /Think forever/ }).click();
      await poll(() => page.locator('#run-badge').textContent()).toBe('Thinking');
      const stop = page.getByRole('button', { name: 'Stop run' });
      await stop.focus();
      await page.keyboard.press('Enter');
      await poll(() => page.locator('#run-badge').textContent()).toBe('Stopped');
      expect(await page.locator('#result .run-error').textContent()).toBe('Error: stopped');
      await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('result-title');
      await poll(() => page.getByRole('link', { name: /Think forever/ }).textContent()).toContain('Stopped');
      await shot(page, 'run-stopped');

      // The key lives in the tab's session: a reload keeps it, signing out forgets it.
      await page.reload();
      await poll(() => page.locator('#run-badge').textContent()).toBe('Stopped');
      expect(page.url()).toContain(`#/task/${hangTask}`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect(await page.getByLabel('API key').isVisible()).toBe(true);
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 240_000);
});
