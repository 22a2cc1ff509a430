// The calendar editor at /manage in a real browser (Debian's Chromium through playwright-core), on
// each database: an operator creates an event with a new venue inline and publishes it (then it is
// in GraphQL, REST and on its public page, and a visitor finds it in the month view, by the search
// bar and in the view's feed: a new operator's path), edits, trashes and restores it; a contributor's
// "publish" is answered at the status field; a failed save keeps what was typed; axe finds no
// serious violations; an event can be created by keyboard alone.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useChromium } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

/** A save takes a moment on a busy machine (a series is expanded). */
const WAIT = { timeout: 15_000 };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe.each(DATABASE_KINDS)('calendar editor (%s)', (kind) => {
  const t = useTestServer(kind);
  const chromium = useChromium();

  async function open(key: string): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
    // bypassCSP only so that the test can inject axe; the page itself runs under the strict CSP.
    const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await page.goto(`${t.url}/manage`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    return { page, problems, close: () => context.close() };
  }

  async function axe(page: Page) {
    await page.evaluate(AXE);
    const result = await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }));
    return result.violations
      .filter((violation: any) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation: any) => `${violation.id}: ${violation.nodes.map((node: any) => node.target.join(' ')).join(', ')}`);
  }

  it('serves the page under the strict CSP with its assets from Almanac', async () => {
    const response = await t.request('GET', '/manage');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.text).toMatch(/src="\/manage\/manage\.js\?v=\w+"/);
    expect((await t.request('GET', '/manage/sections.js')).status).toBe(200);
    expect((await t.request('GET', '/manage/nope.js')).status).toBe(404);
  });

  it('lets an administrator create an event with a new venue, publish, edit, trash and restore it', async () => {
    const { page, problems, close } = await open(t.keys.administrator);
    expect(await axe(page)).toEqual([]);
    await page.getByRole('link', { name: 'New event' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Harbour lights walk');
    await page.getByLabel('Starts').fill('2031-05-10T19:00');
    await page.getByLabel('Ends').fill('2031-05-10T21:30');
    await page.getByLabel('Time zone').fill('Europe/Lisbon');
    await page.getByLabel('Categories').fill('Walks');
    await page.getByLabel('Tags').fill('night, outdoors');
    await page.getByLabel('Cost').fill('5€');
    await page.getByLabel('Existing venue').selectOption('new');
    await page.getByLabel('New venue: name').fill('Cais do Sodré pier');
    await page.getByLabel('New venue: city').fill('Lisbon');
    await page.getByLabel('Status').selectOption('publish');
    await page.getByLabel('Frequency').selectOption('WEEKLY');
    await page.getByLabel('Number of occurrences').fill('3');
    await page.getByLabel('SA', { exact: true }).check();
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.locator('#form-message').textContent(), WAIT).toBe('Saved (publish).');
    const id = Number(new URL(page.url()).hash.split('/')[2]);
    expect(id).toBeGreaterThan(0);

    const { data } = await t.graphql(
      `query($id: Int!) { event(id: $id) { title status timezone startDate venue { name city } categories { name } tags { name } series { rrule } url } }`,
      { id },
    );
    expect(data.event).toMatchObject({
      title: 'Harbour lights walk',
      status: 'PUBLISH',
      timezone: 'Europe/Lisbon',
      startDate: '2031-05-10 19:00:00',
      venue: { name: 'Cais do Sodré pier', city: 'Lisbon' },
      categories: [{ name: 'Walks' }],
    });
    expect(data.event.tags.map((tag: any) => tag.name).sort()).toEqual(['night', 'outdoors']);
    expect(data.event.series.rrule).toMatch(/FREQ=WEEKLY/);
    expect(data.event.series.rrule).toMatch(/COUNT=3/);
    const rest = await t.request('GET', `/wp-json/tribe/events/v1/events/${id}`);
    expect(rest.json.title).toBe('Harbour lights walk');
    const publicPage = await t.request('GET', new URL(data.event.url).pathname);
    expect(publicPage.status).toBe(200);
    expect(publicPage.text).toContain('Harbour lights walk');

    // A visitor finds it in the month view, by the search bar, and in the view's feed.
    const visitor = await chromium.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await visitor.goto(`${t.url}/events/month/2031-05/`);
    expect(await visitor.getByRole('link', { name: 'Harbour lights walk' }).count()).toBe(3); // the three Saturdays
    await visitor.goto(`${t.url}/events/month/2031-04/`);
    await visitor.getByLabel('Keyword').fill('harbour');
    await visitor.getByLabel('Date').fill('2031-05-01');
    await visitor.getByRole('button', { name: 'Find events' }).click();
    await visitor.waitForURL(/tribe-bar-search=harbour/);
    expect(await visitor.getByRole('link', { name: 'Harbour lights walk' }).count()).toBe(3);
    const feedUrl = await visitor
      .getByRole('link', { name: /Subscribe/ })
      .first()
      .getAttribute('href');
    const feed = await t.request('GET', new URL(feedUrl!, t.url).pathname + new URL(feedUrl!, t.url).search);
    expect(feed.headers.get('content-type')).toMatch(/text\/calendar/);
    expect(feed.text).toContain('SUMMARY:Harbour lights walk');
    await visitor.close();

    // The saved form shows the record as the API has it; an edit is saved.
    await expect.poll(async () => page.getByLabel('Existing venue').inputValue(), WAIT).not.toBe('new');
    await page.getByLabel('Title', { exact: true }).fill('Harbour lights night walk');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.locator('#form-message').textContent(), WAIT).toBe('Saved (publish).');
    expect((await t.graphql(`query($id: Int!) { event(id: $id) { title } }`, { id })).data.event.title).toBe('Harbour lights night walk');
    // Canceled, but kept: the event says so, with the reason.
    await page.getByLabel('Canceled or postponed').selectOption('CANCELED');
    await page.getByLabel('Why', { exact: true }).fill('The pier is closed for repairs.');
    await page.getByRole('button', { name: 'Save' }).click();
    // The saved record back in the form before the next step leaves it, as a person would wait.
    await expect.poll(async () => page.locator('#form-message').textContent(), WAIT).toBe('Saved (publish).');
    await expect
      .poll(async () => (await t.graphql(`query($id: Int!) { event(id: $id) { eventStatus eventStatusReason } }`, { id })).data.event, WAIT)
      .toEqual({ eventStatus: 'CANCELED', eventStatusReason: 'The pier is closed for repairs.' });

    // Trash from the list, then restore from the trash.
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Harbour');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Trash Harbour lights night walk' }).first().click();
    await expect.poll(async () => page.locator('#list-status').textContent(), WAIT).toMatch(/moved to the trash/);
    expect((await t.graphql(`query($id: Int!) { event(id: $id) { id } }`, { id })).errors?.[0].extensions.code).toBe('TRASHED');
    await page.getByLabel('In the trash').check();
    await page.getByRole('button', { name: 'Restore Harbour lights night walk' }).first().click();
    await expect.poll(async () => page.locator('#list-status').textContent(), WAIT).toMatch(/restored/);
    expect((await t.graphql(`query($id: Int!) { event(id: $id) { status } }`, { id })).data.event.status).toBe('PUBLISH');
    expect(problems).toEqual([]);
    await close();
  });

  it("answers a contributor's publish at the status field, and keeps what was typed when a save fails", async () => {
    const { page, close } = await open(t.keys.contributor);
    await page.getByRole('link', { name: 'New event' }).click();
    // The API refuses an end it cannot read: the error is shown at that field and nothing typed is lost.
    await page.getByLabel('Title', { exact: true }).fill('Choir rehearsal');
    await page.getByLabel('Description').fill('Bring the new scores.');
    await page.getByLabel('Starts').fill('2031-06-01T18:00');
    await page.getByLabel('Time zone').fill('Not/AZone');
    await page.getByLabel('Status').selectOption('publish');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.locator('#f-timezone-error').textContent(), WAIT).not.toBe('');
    await expect.poll(async () => page.locator('#f-timezone').getAttribute('aria-invalid'), WAIT).toBe('true');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Choir rehearsal');
    expect(await page.getByLabel('Description').inputValue()).toBe('Bring the new scores.');
    expect(await page.getByLabel('Starts').inputValue()).toBe('2031-06-01T18:00');
    // A reload keeps it too (sessionStorage) until it is saved.
    await page.reload();
    await page.getByRole('heading', { name: 'New event' }).waitFor();
    await expect.poll(async () => page.getByLabel('Title', { exact: true }).inputValue(), WAIT).toBe('Choir rehearsal');

    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Ends').fill('2031-06-01T20:00');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => page.locator('#f-status-error').textContent(), WAIT)
      .toMatch(/Saved as (pending|draft).*may not make it publish/);
    const id = Number(new URL(page.url()).hash.split('/')[2]);
    const { data } = await t.graphql(`query($id: Int!) { event(id: $id) { title status } }`, { id }, t.keys.administrator);
    expect(data.event.title).toBe('Choir rehearsal');
    expect(['PENDING', 'DRAFT']).toContain(data.event.status);
    await close();
  });

  it('links several organizers (picked from any page by search, created inline, removed) and pages through lists keeping the search', async () => {
    for (let i = 1; i <= 25; i++) {
      const name = `Guide ${String(i).padStart(2, '0')}`;
      const created = await t.graphql(
        `mutation($input: CreateOrganizerInput!) { createOrganizer(input: $input) { id } }`,
        {
          input: { name, status: 'publish' },
        },
        t.keys.administrator,
      );
      expect(created.errors, name).toBeUndefined();
    }
    const { page, problems, close } = await open(t.keys.editor);
    // The organizers' list: 20 a page, the search kept on the next page.
    await page.getByRole('link', { name: 'Organizers' }).click();
    // The events list has a search box too: type only once the organizers' list is the one shown
    // (under load, typing into the events' box searched events, and the organizers came unfiltered).
    await expect.poll(async () => page.locator('#view-title').textContent(), WAIT).toBe('Organizers');
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Guide');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(async () => page.locator('#list-status').textContent(), WAIT).toBe('25 organizers, page 1 of 2.');
    expect(await page.locator('.records li').count()).toBe(20);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(async () => page.locator('#list-status').textContent(), WAIT).toBe('25 organizers, page 2 of 2.');
    expect(await page.locator('.records li a').allTextContents()).toEqual(['Guide 05', 'Guide 04', 'Guide 03', 'Guide 02', 'Guide 01']); // newest first
    expect(await page.getByRole('searchbox', { name: 'Search', exact: true }).inputValue()).toBe('Guide');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(async () => page.locator('#list-status').textContent(), WAIT).toBe('25 organizers, page 1 of 2.');

    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('link', { name: 'New event' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Guided tour');
    await page.getByLabel('Starts').fill('2031-07-04T10:00');
    await page.getByLabel('Ends').fill('2031-07-04T12:00');
    await page.getByLabel('Status').selectOption('publish');
    // Any organizer can be reached by the picker's search, whatever page of the list it is on.
    for (const name of ['Guide 23', 'Guide 07']) {
      await page.getByLabel('Search organizers').fill(name);
      await page.getByLabel('Search organizers').press('Enter');
      await expect.poll(async () => page.locator('#organizer-found').textContent(), WAIT).toBe('1 found.');
      await page.getByLabel('Existing organizer').selectOption({ label: name });
      await page.getByRole('button', { name: 'Add organizer' }).click();
    }
    // A new organizer without a name is refused at once; with one it joins the list.
    await page.getByRole('button', { name: 'Add new organizer' }).click();
    expect(await page.locator('#f-organizer-error').textContent()).toBe('A new organizer needs a name.');
    await page.getByLabel('New organizer: name').fill('Pop-up crew');
    await page.getByLabel('New organizer: email').fill('crew@example.org');
    await page.getByRole('button', { name: 'Add new organizer' }).click();
    expect(await page.locator('#organizer-list li span').allTextContents()).toEqual(['Guide 23', 'Guide 07', 'Pop-up crew (new)']);
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.locator('#form-message').textContent(), WAIT).toBe('Saved (publish).');
    const id = Number(new URL(page.url()).hash.split('/')[2]);
    const organizers = async () =>
      (await t.graphql(`query($id: Int!) { event(id: $id) { organizers { name email } } }`, { id }, t.keys.administrator)).data.event
        .organizers;
    expect(await organizers()).toEqual([
      { name: 'Guide 23', email: '' },
      { name: 'Guide 07', email: '' },
      { name: 'Pop-up crew', email: 'crew@example.org' },
    ]);
    // The saved form lists them as the API has them; one removed by keyboard is unlinked on save.
    await expect
      .poll(async () => page.locator('#organizer-list li span').allTextContents(), WAIT)
      .toEqual(['Guide 23', 'Guide 07', 'Pop-up crew']);
    await page.getByRole('button', { name: 'Remove Guide 07' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove Pop-up crew');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await organizers()).map((organizer: any) => organizer.name), WAIT).toEqual(['Guide 23', 'Pop-up crew']);
    expect(problems).toEqual([]);
    await close();
  });

  it("shows a contributor only the buttons the API's rights allow, and a refused action's error next to its button", async () => {
    const create = async (title: string, key: string) => {
      const input = { title, startDate: '2031-08-01 10:00:00', endDate: '2031-08-01 11:00:00', status: 'draft' };
      const { data, errors } = await t.graphql(`mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`, { input }, key);
      expect(errors).toBeUndefined();
      return data.createEvent.id as number;
    };
    const others = await create('Rights check: the editor’s', t.keys.editor);
    await t.graphql(`mutation($id: Int!) { updateEvent(id: $id, input: { status: "publish" }) { id } }`, { id: others }, t.keys.editor);
    const own = await create('Rights check: mine', t.keys.contributor);
    const { page, problems, close } = await open(t.keys.contributor);
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Rights check');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(async () => page.locator('#list-status').textContent(), WAIT).toBe('2 events.');
    expect(await page.getByRole('button', { name: 'Trash Rights check: the editor’s' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Trash Rights check: mine' }).count()).toBe(1);
    expect(await axe(page)).toEqual([]);

    // Its own draft's form: saved, but never published by this key.
    await page.getByRole('link', { name: 'Rights check: mine' }).click();
    await page.getByRole('heading', { name: 'Edit event' }).waitFor();
    await expect.poll(async () => page.locator('#f-status option[value="publish"]').isDisabled(), WAIT).toBe(true);
    expect(await page.getByRole('button', { name: 'Save' }).isEnabled()).toBe(true);

    // The editor publishes it meanwhile: the contributor may no longer trash it, and the API says so there.
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Rights check');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Trash Rights check: mine' }).waitFor();
    const published = await t.graphql(
      `mutation($id: Int!) { updateEvent(id: $id, input: { status: "publish" }) { status } }`,
      { id: own },
      t.keys.editor,
    );
    expect(published.data.updateEvent.status).toBe('PUBLISH');
    await page.getByRole('button', { name: 'Trash Rights check: mine' }).click();
    await expect.poll(async () => page.locator(`#row-${own}-error`).textContent(), WAIT).toMatch(/\S/);
    const { errors } = await t.graphql(`mutation($id: Int!) { deleteEvent(id: $id) { id } }`, { id: own }, t.keys.contributor);
    expect(await page.locator(`#row-${own}-error`).textContent()).toBe(errors![0].message);
    expect((await t.graphql(`query($id: Int!) { event(id: $id) { status } }`, { id: own })).data.event.status).toBe('PUBLISH');
    // Reloaded, the list offers no Trash for it any more, and its form no Save.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(async () => page.getByRole('button', { name: 'Trash Rights check: mine' }).count(), WAIT).toBe(0);
    await page.getByRole('link', { name: 'Rights check: mine' }).click();
    await expect.poll(async () => page.locator('#form-message').textContent(), WAIT).toBe('Your key may read this but not change it.');
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(problems.filter((problem) => !/status of 4\d\d|Failed to load resource/.test(problem))).toEqual([]);
    await close();
  });

  it('sets, edits and clears a recurrence with its exceptions, the API’s errors at the field they name', async () => {
    const { page, problems, close } = await open(t.keys.editor);
    await page.getByRole('link', { name: 'New event' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Saturday market');
    await page.getByLabel('Starts').fill('2031-09-06T08:00');
    await page.getByLabel('Ends').fill('2031-09-06T13:00');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    // The rule's parts wait for a frequency.
    expect(await page.getByLabel('Dates left out').isDisabled()).toBe(true);
    await page.getByLabel('Frequency').selectOption('WEEKLY');
    await page.getByLabel('Number of occurrences').fill('4');
    await page.getByLabel('SA', { exact: true }).check();
    await page.getByLabel('Dates left out').focus();
    await page.keyboard.type('2031-09-13');
    await page.getByLabel('Dates added').focus();
    await page.keyboard.type('2031-09-17 09:00:00');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.locator('#form-message').textContent(), WAIT).toMatch(/^Saved/);
    const id = Number(new URL(page.url()).hash.split('/')[2]);
    const series = async () =>
      (await t.graphql(`query($id: Int!) { event(id: $id) { series { rrule exdates rdates } } }`, { id }, t.keys.administrator)).data.event
        .series;
    const saved = await series();
    expect(saved.rrule).toMatch(/FREQ=WEEKLY/);
    expect(saved.rrule).toMatch(/COUNT=4/);
    expect(saved.exdates).toEqual(['2031-09-13 08:00:00']);
    expect(saved.rdates).toEqual(['2031-09-17 09:00:00']);

    // The saved form shows them; a date the API cannot read is answered at its own field, the rest kept.
    await expect.poll(async () => page.getByLabel('Dates left out').inputValue(), WAIT).toBe('2031-09-13 08:00:00');
    await page.getByLabel('Dates left out').fill('2031-09-13 08:00:00\nsoon');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.locator('#f-exdates-error').textContent(), WAIT).toMatch(/"soon" is not a date/);
    expect(await page.locator('#f-exdates').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#f-recurrence-error').textContent()).toBe('');
    expect(await page.getByLabel('Dates added').inputValue()).toBe('2031-09-17 09:00:00');
    expect((await series()).exdates).toEqual(['2031-09-13 08:00:00']);
    // Edited: no date left out, every other Saturday.
    await page.getByLabel('Dates left out').fill('');
    await page.getByLabel('Every n-th period').fill('2');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await series()).exdates, WAIT).toEqual([]);
    expect((await series()).rrule).toMatch(/INTERVAL=2/);
    expect((await series()).rdates).toEqual(['2031-09-17 09:00:00']);
    // Cleared: the event no longer repeats.
    await expect.poll(async () => page.locator('#form-message').textContent(), WAIT).toMatch(/^Saved/);
    await page.getByLabel('Frequency').selectOption('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.locator('#form-message').textContent(), WAIT).toMatch(/^Saved/);
    expect(await series()).toBeNull();
    await expect.poll(async () => page.getByLabel('Frequency').inputValue(), WAIT).toBe('');
    expect(await page.getByLabel('Dates added').inputValue()).toBe('');
    expect(problems).toEqual([]);
    await close();
  });

  it('creates an event by keyboard alone', async () => {
    const { page, close } = await open(t.keys.editor);
    const press = async (key: string, times = 1) => {
      for (let i = 0; i < times; i++) await page.keyboard.press(key);
    };
    await page.locator('#list-search').focus();
    // From the list's search back to the "New event" link.
    await press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('New event');
    await press('Enter');
    await page.getByRole('heading', { name: 'New event' }).waitFor();
    await press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-title');
    await page.keyboard.type('Keyboard meetup');
    await press('Tab'); // status
    // Tab moves from a date-time field's date to its time.
    await press('Tab');
    await page.keyboard.type('06012031');
    await press('Tab');
    await page.keyboard.type('1000AM');
    // Tab walks out of the date-time field's last part to the next field.
    for (let i = 0; i < 4 && (await page.evaluate(() => document.activeElement?.id)) !== 'f-endDate'; i++) await press('Tab');
    await page.keyboard.type('06012031');
    await press('Tab');
    await page.keyboard.type('1100AM');
    expect(await page.getByLabel('Starts').inputValue()).toBe('2031-06-01T10:00');
    expect(await page.getByLabel('Ends').inputValue()).toBe('2031-06-01T11:00');
    // Enter saves once Save is enabled: it waits (aria-busy) for the pickers, which under load in a
    // full run came in after the typing, and an Enter before that submits nothing.
    await expect.poll(async () => page.locator('form[aria-busy]').count(), WAIT).toBe(0);
    await press('Enter');
    await expect.poll(async () => page.locator('#form-message').textContent(), WAIT).toMatch(/^Saved/);
    const id = Number(new URL(page.url()).hash.split('/')[2]);
    const { data } = await t.graphql(`query($id: Int!) { event(id: $id) { title startDate endDate } }`, { id }, t.keys.editor);
    expect(data.event).toEqual({ title: 'Keyboard meetup', startDate: '2031-06-01 10:00:00', endDate: '2031-06-01 11:00:00' });
    expect(await axe(page)).toEqual([]);
    await close();
  });
});
