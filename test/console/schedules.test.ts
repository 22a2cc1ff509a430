// The console's schedule panel in a real browser: a scheduled task's page shows its pattern and next
// run times; the owner sets, pauses and resumes the schedule there, and a bad pattern is shown as
// the API words it. What the page did is read back through GraphQL.
import { describe, expect, it } from 'vitest';
import { useChromium } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY } from '../support/server.js';
import { createTask, useTaskFixtures } from '../support/tasks.js';
import { useConsoleServers } from './helpers.js';

describe.each(DATABASE_KINDS)('console schedules on %s', (kind) => {
  const fx = useTaskFixtures();
  const servers = useConsoleServers(kind, fx);
  const chromium = useChromium('test-artifacts/console');

  it('shows, sets, pauses and resumes a task schedule', async () => {
    const taskId = await createTask(servers.client, { task: 'Check the price', schedule: { cron: '0 8 * * 1-5', timeZone: 'Asia/Tokyo' } });
    const context = await chromium.browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(45_000);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${servers.api.url}/console#/task/${taskId}`);
    await page.getByLabel('API key').fill(ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect
      .poll(() => page.locator('#schedule-state').textContent(), { timeout: 45_000 })
      .toContain('0 8 * * 1-5 (Asia/Tokyo) — active');
    await expect.poll(() => page.locator('#schedule-next li').count()).toBe(5);
    const schedule = async () =>
      (
        await servers.client.request('POST', '/graphql', {
          key: ADMIN_KEY,
          body: { query: `query($id: ID!) { task(id: $id) { schedule { cron timeZone paused } } }`, variables: { id: taskId } },
        })
      ).json.data.task.schedule;

    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.locator('#schedule-state').textContent()).toContain('paused');
    expect(await page.getByText('None while paused.').isVisible()).toBe(true);
    expect(await schedule()).toMatchObject({ paused: true });
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(async () => (await schedule()).paused).toBe(false);

    await page.getByLabel(/Cron pattern/).fill('99 * * * *');
    await page.getByRole('button', { name: 'Change schedule' }).click();
    await expect
      .poll(() => page.locator('.schedule-error').textContent())
      .toBe('schedule.cron is not a valid cron pattern: Invalid value for minute: 99');
    await page.getByLabel(/Cron pattern/).fill('30 6 * * *');
    await page.getByLabel('Time zone').fill('UTC');
    await page.getByRole('button', { name: 'Change schedule' }).click();
    await expect.poll(schedule).toEqual({ cron: '30 6 * * *', timeZone: 'UTC', paused: false });
    await page.screenshot({ path: `test-artifacts/console/${kind}-schedule.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
