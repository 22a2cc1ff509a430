// A recurring event as a visitor meets it, in a real browser (Debian's Chromium): an occurrence's
// page says how the event repeats and links the other dates, and its calendar file holds the series.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useChromium } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const ARTIFACTS = 'test-artifacts/site';
const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id url series { id } } }`;

describe.each(DATABASE_KINDS)('a recurring event in a browser (%s)', (kind) => {
  const api = useTestServer(kind, { SITE_NAME: 'Paris Jazz' });
  const chromium = useChromium(ARTIFACTS);

  it('a series made through GraphQL: its occurrence page, the next date, and the calendar file', async () => {
    const created = await api.graphql(
      CREATE,
      {
        input: {
          title: 'Tuesday Jam',
          startDate: '2032-10-05 19:00:00',
          endDate: '2032-10-05 22:00:00',
          timezone: 'Europe/Paris',
          recurrence: { rrule: 'FREQ=WEEKLY;COUNT=5' },
        },
      },
      api.keys.administrator,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createEvent.url).toBe('http://almanac.test/event/tuesday-jam/2032-10-05/');

    const context = await chromium.browser.newContext({ acceptDownloads: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${api.url}/event/tuesday-jam/2032-10-12/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Tuesday Jam');
    expect(await page.locator('.repeats').textContent()).toBe('Repeats: Weekly on Tuesday, 5 times');
    // Across the change to winter time (31 October 2032) the jam stays at 19:00.
    const dates = await page.locator('.occurrences a').allTextContents();
    expect(dates).toHaveLength(5);
    for (const date of dates) expect(date).toMatch(/19:00 – 22:00/);
    expect(dates.map((date) => date.split(' ').pop())).toEqual(['CEST', 'CEST', 'CEST', 'CEST', 'CET']);
    expect(await page.locator('.occurrences a[aria-current="page"]').getAttribute('href')).toBe('/event/tuesday-jam/2032-10-12/');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/${kind}-occurrence.png`, fullPage: true });

    // The calendar file of the page: one series, as calendar clients import it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /iCalendar file/ }).click()]);
    const ics = readFileSync((await download.path())!, 'utf8');
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(ics).toMatch(/RRULE:FREQ=WEEKLY;COUNT=5/);
    expect(ics).toMatch(/DTSTART;TZID=Europe\/Paris:20321005T190000/);
    await context.close();
  });
});
