// A CSV file in The Events Calendar's import columns as a calendar source, through GraphQL and REST
// only: its preview shows how each column is read and the first rows; on its schedule it brings the
// rows in (with venues, organizers, categories and tags by name) and later changes to them. The
// rows' dates are counted from today.
import { afterAll, describe, expect, it } from 'vitest';
import { sourcesOf, startCalendarSite } from '../support/calendar-site.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';
import { eventually } from '../support/tasks.js';

const day = (days: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
};

function csv(cost: string): string {
  return [
    'Event Name,Event Description,Event Start Date,Event Start Time,Event End Date,Event End Time,All Day Event,Event Venue Name,Event Organizer Name(s) or ID(s),Event Cost,Event Category,Event Tags,Internal Notes',
    `CSV Quartet,"Strings, and a ""surprise""\nencore",${day(8)},19:30,${day(8)},21:00,FALSE,Old Chapel,Lena Ortiz,${cost},"Music, Concerts",strings,call Bob`,
    `CSV Book Market,,${day(9)},,${day(9)},,TRUE,Town Square,,,Markets,,`,
  ].join('\r\n');
}

const site = await startCalendarSite();
afterAll(() => site.close());

for (const kind of DATABASE_KINDS) {
  describe(`CSV calendar sources on ${kind}`, () => {
    const api = useTestServer(kind, {
      TASK_ALLOWED_HOSTS: `127.0.0.1:${site.port}`,
      SOURCE_MIN_REFRESH_SECONDS: '1',
      SOURCE_CHECK_SECONDS: '1',
    });
    const { admin, create } = sourcesOf(api);
    const events = async () => {
      const response = await api.request(
        'GET',
        `/wp-json/tribe/events/v1/events?start_date=${day(-1)}&end_date=${day(30)}&per_page=50&search=CSV`,
      );
      return (response.json.events as any[]).sort((a, b) => a.title.localeCompare(b.title));
    };

    it('previews the columns and first rows, then imports the rows and their changes on schedule', async () => {
      site.feeds.set(`/${kind}.csv`, csv('15'));
      const address = `${site.url}/${kind}.csv`;
      const preview = await admin(
        `query($address: String!) { calendarSourcePreview(address: $address) { total columns { header column label } rows { cells } } }`,
        { address },
      );
      const { columns, rows, total } = preview.calendarSourcePreview;
      expect(total).toBe(2);
      expect(columns[2]).toEqual({ header: 'Event Start Date', column: 'event_start_date', label: 'Event Start Date' });
      expect(columns.at(-1)).toEqual({ header: 'Internal Notes', column: null, label: null });
      expect(rows[0].cells[1]).toBe('Strings, and a "surprise"\nencore');

      await create({ kind: 'CSV', address, refreshSeconds: 1 });
      await eventually(async () => (await events()).length === 2, 'the rows to be imported');
      const [market, quartet] = await events();
      expect(quartet).toMatchObject({
        start_date: `${day(8)} 19:30:00`,
        end_date: `${day(8)} 21:00:00`,
        venue: { venue: 'Old Chapel' },
        organizer: [{ organizer: 'Lena Ortiz' }],
      });
      expect(quartet.description).toContain('surprise');
      expect(quartet.categories.map((c: any) => c.name).sort()).toEqual(['Concerts', 'Music']);
      expect(quartet.tags.map((t: any) => t.name)).toEqual(['strings']);
      expect(market).toMatchObject({ all_day: true, venue: { venue: 'Town Square' } });

      site.feeds.set(`/${kind}.csv`, csv('20'));
      await eventually(async () => (await events())[1].cost.includes('20'), 'the changed cost to arrive by schedule');
      expect((await events()).length).toBe(2);
    });
  });
}
