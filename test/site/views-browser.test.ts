// The calendar views in a real browser (Debian's Chromium) on SQLite and PostgreSQL: a visitor
// moves between months and days and searches with plain links and forms (the pages run no script),
// every view passes axe-core with no serious or critical violation at 1280 and 390 px, nothing
// overflows a phone's width, and the month grid becomes a list of days there. Screenshots of each
// view at both widths go to test-artifacts/views/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../support/browser.js';
import { seedCalendar, SITE_ZONE } from '../support/calendar.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const ARTIFACTS = 'test-artifacts/views';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWS = {
  month: '/events/month/2032-03/',
  day: '/events/2032-03-10/',
  list: '/events/list/?tribe-bar-date=2032-03-01',
  past: '/events/list/?eventDisplay=past',
  'category-month': '/events/category/music/month/2032-03/',
  'search-day': '/events/2032-03-10/?tribe-bar-search=Tokyo',
};
const WIDTHS = [
  ['1280', { width: 1280, height: 900 }],
  ['390', { width: 390, height: 844 }],
] as const;

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** axe-core's serious and critical violations on the page (its source evaluated through the driver, which the page's CSP does not govern). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe.run());
  return (result as AxeResult).violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')})`);
}
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe.each(DATABASE_KINDS)('calendar views in a browser (%s)', (kind) => {
  const api = useTestServer(kind, { POSTS_PER_PAGE: '4', SITE_TIMEZONE: SITE_ZONE, SITE_NAME: 'Views' });
  const chromium = useChromium(ARTIFACTS);
  beforeAll(async () => {
    await seedCalendar(api);
  });

  // One test a width: each loads and checks every view, which takes a while on a busy machine.
  it.each(WIDTHS)('every view passes axe-core and fits the screen at %s px', async (width, viewport) => {
    const page = await chromium.browser.newPage({ viewport });
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/.test(message.text())) blocked.push(message.text());
    });
    for (const [name, url] of Object.entries(VIEWS)) {
      const response = await page.goto(`${api.url}${url}`);
      expect(response?.status(), url).toBe(200);
      expect(await seriousViolations(page), `${url} at ${width}px`).toEqual([]);
      expect(await overflows(page), `${url} at ${width}px`).toBe(false);
      await page.screenshot({ path: `${ARTIFACTS}/${kind}-${name}-${width}.png`, fullPage: true });
    }
    // The pages load nothing the CSP refuses (their stylesheet is Almanac's own).
    expect(blocked).toEqual([]);
    await page.close();
  });

  it('a visitor steps through months and days, opens a busy day from "+1 more", and searches, with links and forms only', async () => {
    const page = await chromium.browser.newPage({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    await page.goto(`${api.url}/events/month/2032-03/`);
    await page.getByRole('link', { name: 'April 2032 ›' }).first().click();
    await expect.poll(() => page.url()).toBe(`${api.url}/events/month/2032-04/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('April 2032');
    await page.getByRole('link', { name: '‹ March 2032' }).first().click();
    await page.getByRole('link', { name: /\+1 more/ }).click();
    await expect.poll(() => page.url()).toBe(`${api.url}/events/2032-03-20/`);
    expect(await page.locator('ol.events > li').count()).toBe(13);
    await page.getByRole('link', { name: 'Next day ›' }).first().click();
    await expect.poll(() => page.url()).toBe(`${api.url}/events/2032-03-21/`);
    expect(await page.locator('.empty').textContent()).toBe('No events on this day.');

    // The search bar: a keyword and a date, as the original's tribe-bar-* arguments.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Month' }).click();
    await page.getByLabel('Keyword').fill('Tokyo');
    await page.getByLabel('Date').fill('2032-03-10');
    await page.getByRole('button', { name: 'Find events' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/events/month/');
    const params = new URL(page.url()).searchParams;
    expect(params.get('tribe-bar-search')).toBe('Tokyo');
    expect(params.get('tribe-bar-date')).toBe('2032-03-10');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('March 2032');
    expect(await page.locator('.month-grid li').allTextContents()).toEqual(['20:00 JST Tokyo Talk']);
    // The filter stays when the visitor moves on, and a category narrows it further.
    await page.getByRole('link', { name: 'April 2032 ›' }).first().click();
    expect(new URL(page.url()).searchParams.get('tribe-bar-search')).toBe('Tokyo');
    await page.goto(`${api.url}/events/month/2032-03/`);
    await page.getByLabel('Category').selectOption('music');
    await page.getByRole('button', { name: 'Find events' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tribe_events_cat')).toBe('music');
    expect(await page.locator('.month-grid td:not(.other) li').allTextContents()).toEqual([
      '19:00 EST Jazz Night',
      'All day Festival',
      'All day Festival',
      'All day Festival',
    ]);
    await page.close();
  });

  it('on a phone the month is a list of the days with events, each under its full date', async () => {
    const page = await chromium.browser.newPage({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    await page.goto(`${api.url}/events/month/2032-03/`);
    expect(await page.locator('.month-grid thead').isVisible()).toBe(false);
    expect(await page.locator('.month-grid td.empty').first().isVisible()).toBe(false);
    const day = page.getByRole('link', { name: 'Wednesday 10 March 2032' });
    expect(await day.isVisible()).toBe(true);
    const box = (await page.locator('.month-grid td', { has: day }).boundingBox())!;
    // One day per row, across the screen.
    expect(box.width).toBeGreaterThan(300);
    await day.click();
    await expect.poll(() => page.url()).toBe(`${api.url}/events/2032-03-10/`);
    await page.close();
  });
});
