// The editor's Federation page in a real browser: an administrator sees the handle, the followers
// and the deliveries, and removes a follower; an editor is told the API's refusal.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';

describe('the editor shows the federation', () => {
  const api = useTestServer('sqlite', { SITE_URL: 'https://calendar.example', FEDERATION_HANDLE: 'agenda' });
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  async function open(key: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${api.url}/manage#/federation`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Federation' }).waitFor();
    return page;
  }

  it('lists followers and deliveries, and removes a follower', async () => {
    const prisma = api.server.db.prisma;
    const actorId = 'https://social.example/users/erin';
    await prisma.federationFollower.create({
      data: { actorId, handle: '@erin@social.example', inbox: `${actorId}/inbox`, followId: `${actorId}#follow` },
    });
    await prisma.federationDelivery.create({
      data: {
        id: 'd1',
        activityId: 'https://calendar.example/ap/activities/1',
        activityType: 'Accept',
        inbox: `${actorId}/inbox`,
        body: '{}',
        status: 'failed',
        attempts: 9,
        lastError: 'answered 503',
      },
    });
    const page = await open(ADMIN_KEY);
    await page.getByText('@agenda@calendar.example').waitFor();
    await page.getByRole('heading', { name: 'Followers (1)' }).waitFor();
    await page.getByRole('cell', { name: 'answered 503' }).waitFor();
    await page.getByRole('button', { name: 'Remove @erin@social.example' }).click();
    await page.getByRole('status').filter({ hasText: '@erin@social.example: removed.' }).waitFor();
    await page.getByRole('heading', { name: 'Followers (0)' }).waitFor();
    expect(await prisma.federationFollower.count()).toBe(0);
  });

  it("shows an editor the API's refusal", async () => {
    const page = await open(api.keys.editor);
    await page
      .getByRole('status')
      .filter({ hasText: /administrators/i })
      .waitFor();
  });
});
