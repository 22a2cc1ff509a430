// Calendar sources in the editor at /manage, in a real browser: an administrator saves a source,
// runs it from its row and sees its last run; a source failing three runs in a row is marked
// failing in the list. The source is a local feed; axe finds no serious violations.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { feed, startCalendarSite, type CalendarSite } from '../support/calendar-site.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';
import { eventually } from '../support/tasks.js';

/** A busy machine runs the browser, the server and the feed together: generous deadlines for conditions. */
const WAIT = { timeout: 60_000 };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let site: CalendarSite;
beforeAll(async () => {
  site = await startCalendarSite();
  site.feeds.set('/editor.ics', feed([{ uid: 'editor-1', title: 'Editor Source Event', day: 2 }]));
  site.feeds.set('/editor-broken.ics', 503);
  return () => site.close();
});

describe.each(DATABASE_KINDS)('calendar sources in the editor (%s)', (kind) => {
  const t = useTestServer(kind, async () => ({
    TASK_ALLOWED_HOSTS: `127.0.0.1:${site.port}`,
    SOURCE_MIN_REFRESH_SECONDS: '1',
    SOURCE_CHECK_SECONDS: '1',
    ALMANAC_SECRET_KEY: 'editor-test-secret-key-0123456789',
  }));
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function sources(): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${t.url}/manage`);
    await page.getByLabel('API key').fill(t.keys.administrator);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await page.getByRole('link', { name: 'Sources' }).click();
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    return { page, problems, close: () => context.close() };
  }

  /** A source's state and last run, through the API. */
  async function state(name: string) {
    const { data } = await t.graphql('{ calendarSources { name state lastRun { outcome } } }', {}, t.keys.administrator);
    return data.calendarSources.find((source: any) => source.name === name);
  }

  /** The list again, read afresh from the API (a reload; the key stays in the tab). */
  async function sourceRow(page: Page, name: string) {
    await page.reload();
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    const row = page.getByRole('listitem').filter({ hasText: name });
    await row.waitFor();
    return row.textContent();
  }

  async function axe(page: Page) {
    await page.evaluate(AXE);
    const result = await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }));
    return result.violations
      .filter((violation: any) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((v: any) => v.id);
  }

  it('saves a source, runs it from its row, and shows its last run', async () => {
    const { page, problems, close } = await sources();
    await page.getByRole('link', { name: 'New source' }).click();
    await page.getByLabel('Name').fill('Partner feed');
    await page.getByLabel('Address').fill(`${site.url}/editor.ics`);
    await page.getByLabel('Refresh every (seconds)').fill('0');
    await page.getByLabel('Request headers').fill('Authorization: Bearer editor-secret');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => `${await page.locator('#form-message').textContent()}${await page.locator('#form-error').textContent()}`, WAIT)
      .toBe('Saved (done).');
    // The credentials are not shown back.
    expect(await page.getByLabel('Request headers').inputValue()).toBe('');
    await page.getByRole('link', { name: 'Back to the list' }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Partner feed' });
    await expect.poll(() => row.textContent(), WAIT).toContain('not run yet');
    await row.getByRole('button', { name: 'Run now Partner feed' }).click();
    // The run was asked for (the list says so) before the list is read again.
    await expect.poll(() => page.locator('#list-status').textContent(), WAIT).toContain('Partner feed: running.');
    // The run is awaited through the API; then the list, read afresh, shows it.
    await eventually(async () => (await state('Partner feed')).lastRun?.outcome === 'completed', 'the run', WAIT.timeout);
    expect(await sourceRow(page, 'Partner feed')).toContain('last run completed');
    expect(await axe(page)).toEqual([]);
    const { data } = await t.graphql('{ calendarSources { name hasCredentials lastRun { outcome } } }', {}, t.keys.administrator);
    expect(data.calendarSources).toEqual([{ name: 'Partner feed', hasCredentials: true, lastRun: { outcome: 'completed' } }]);
    expect(problems).toEqual([]);
    await close();
  });

  it('marks a source failing three runs in a row', async () => {
    const created = await t.graphql(
      'mutation($input: CalendarSourceInput!) { createCalendarSource(input: $input) { id } }',
      { input: { name: 'Broken feed', kind: 'ICAL', address: `${site.url}/editor-broken.ics`, refreshSeconds: 1 } },
      t.keys.administrator,
    );
    expect(created.errors).toBeUndefined();
    const { page, close } = await sources();
    await eventually(async () => (await state('Broken feed')).state === 'FAILING', 'three failed runs', WAIT.timeout);
    expect(await sourceRow(page, 'Broken feed')).toMatch(/failing.*failing: \d failed runs in a row/);
    const row = page.getByRole('listitem').filter({ hasText: 'Broken feed' });
    await row.getByRole('button', { name: 'Pause Broken feed' }).click();
    await expect.poll(() => page.getByRole('listitem').filter({ hasText: 'Broken feed' }).textContent(), WAIT).toContain('paused');
    await close();
  });
});
