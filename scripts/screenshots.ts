// npm run screenshots   writes the README's pictures (docs/screenshots/) from a real server: a
// temporary SQLite calendar filled with the demo data `npm run seed` writes, its month and list
// views at 1280 and 390 px, and the editor (/manage) signed in with an event open. Run it after a
// change to the pages' look; the pictures are documentation, made only by this script.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { seedCalendar } from '../bench/seed.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { CHROMIUM_FLAGS } from '../src/tasks/browser.js';

const OUT = path.resolve('docs/screenshots');
const ADMIN_KEY = 'screenshots-admin-key-0123456789';

const scratch = await mkdtemp(path.join(tmpdir(), 'almanac-screenshots-'));
const databaseUrl = `file:${path.join(scratch, 'calendar.db')}`;
await seedCalendar(databaseUrl, { events: 1500 });
const server = await startServer(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    ALMANAC_ADMIN_KEY: ADMIN_KEY,
    TASK_WORKERS: '0',
  }),
);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
try {
  await mkdir(OUT, { recursive: true });
  const shots: Array<[string, string, number]> = [
    ['month', '/events/month/', 1280],
    ['month-phone', '/events/month/', 390],
    ['list', '/events/list/', 1280],
  ];
  for (const [name, url, width] of shots) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(server.url + url);
    await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: width < 600 ? false : true });
    await page.close();
  }
  const editor = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await editor.goto(`${server.url}/manage`);
  await editor.getByLabel('API key').fill(ADMIN_KEY);
  await editor.getByRole('button', { name: 'Sign in' }).click();
  await editor.getByRole('link', { name: 'New event' }).click();
  await editor.getByLabel('Title', { exact: true }).fill('Harbour lights walk');
  await editor.getByLabel('Starts').fill('2031-05-10T19:00');
  await editor.getByLabel('Ends').fill('2031-05-10T21:30');
  await editor.getByLabel('Time zone').fill('Europe/Lisbon');
  await editor.getByLabel('Categories').fill('Walks');
  await editor.getByLabel('Existing venue').selectOption('new');
  await editor.getByLabel('New venue: name').fill('Cais do Sodré pier');
  await editor.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await editor.screenshot({ path: path.join(OUT, 'editor.png') });
  console.log(`screenshots: month, month-phone, list and editor written to ${path.relative(process.cwd(), OUT)}/`);
} finally {
  await browser.close();
  await server.close();
  await rm(scratch, { recursive: true, force: true });
}
