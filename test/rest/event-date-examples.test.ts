// The worked examples of spec §6.1 (a UTC site): which events the list's date filters keep, asked
// through the REST list (the filters run in SQL, so this is where their meaning lives).
import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

interface Ev {
  name: string;
  start: string;
  end: string;
}

const utcWall = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
const ts = (d: Date) => String(Math.floor(d.getTime() / 1000));

const NEW_YEAR: Ev[] = [
  { name: 'Dec 30–Jan 1', start: '2017-12-30 10:00:00', end: '2018-01-01 12:00:00' },
  { name: 'Dec 31 17:00', start: '2017-12-31 17:00:00', end: '2017-12-31 19:00:00' },
  { name: 'Jan 1 16:00', start: '2018-01-01 16:00:00', end: '2018-01-01 16:30:00' },
  { name: 'Jan 1 20:00', start: '2018-01-01 20:00:00', end: '2018-01-01 20:30:00' },
  { name: 'Jan 2 10:00', start: '2018-01-02 10:00:00', end: '2018-01-02 11:00:00' },
  { name: 'Jan 10 23:00', start: '2018-01-10 23:00:00', end: '2018-01-10 23:30:00' },
  { name: 'Jan 11 00:00', start: '2018-01-11 00:00:00', end: '2018-01-11 01:00:00' },
];

describe.each(DATABASE_KINDS)('worked examples of the date filters (spec §6.1) on %s', (kind) => {
  const api = useTestServer(kind);
  // Whole seconds, as start_date timestamps and stored walls have.
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const shift = (ms: number) => new Date(now.getTime() + ms);
  /** Ten weekly two-hour events, the first a week from now. */
  const WEEKLY: Ev[] = Array.from({ length: 10 }, (_, k) => ({
    name: `+${k + 1}w`,
    start: utcWall(shift((k + 1) * WEEK)),
    end: utcWall(shift((k + 1) * WEEK + 2 * HOUR)),
  }));

  beforeAll(async () => {
    for (const [tag, events] of [
      ['weekly', WEEKLY],
      ['newyear', NEW_YEAR],
    ] as const) {
      for (const event of events) {
        const body = { title: `${event.name} ${tag}`, start_date: event.start, end_date: event.end };
        const response = await api.request('POST', `${NS}/events`, { key: api.keys.administrator, body });
        expect(response.status, response.text).toBe(201);
      }
    }
  });

  /** The names of the events tagged `tag` that the list keeps, in the list's order (by start). */
  async function kept(tag: 'weekly' | 'newyear', query: Record<string, string>) {
    const params = new URLSearchParams({ search: tag, per_page: '50', ...query });
    const response = await api.request('GET', `${NS}/events?${params}`);
    expect(response.status, response.text).toBe(200);
    return response.json.events.map((event: { title: string }) => event.title.replace(` ${tag}`, ''));
  }

  it('start_date = timestamp of now + 5 weeks keeps the event starting exactly then (6 events)', async () => {
    expect(await kept('weekly', { start_date: ts(shift(5 * WEEK)) })).toEqual(['+5w', '+6w', '+7w', '+8w', '+9w', '+10w']);
  });

  it('end_date = now + 5 weeks + 2 hours keeps the events ending by then (5 events)', async () => {
    expect(await kept('weekly', { end_date: ts(shift(5 * WEEK + 2 * HOUR)) })).toEqual(['+1w', '+2w', '+3w', '+4w', '+5w']);
  });

  it('start_date = now + 10 days & end_date = now + 30 days (3 events)', async () => {
    expect(await kept('weekly', { start_date: utcWall(shift(10 * DAY)), end_date: utcWall(shift(30 * DAY)) })).toEqual([
      '+2w',
      '+3w',
      '+4w',
    ]);
  });

  it('start_date=2018-01-01 15:00:00 & end_date=2018-01-01 18:00:00: whole days → both Jan 1 events', async () => {
    const window = { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' };
    expect(await kept('newyear', window)).toEqual(['Jan 1 16:00', 'Jan 1 20:00']);
    // … with strict_dates=true, the exact times → only the 16:00 one.
    expect(await kept('newyear', { ...window, strict_dates: 'true' })).toEqual(['Jan 1 16:00']);
  });

  it('ends_after=2017-12-31 & starts_before=2018-01-02 → everything overlapping Jan 1–2', async () => {
    expect(await kept('newyear', { ends_after: '2017-12-31', starts_before: '2018-01-02' })).toEqual([
      'Dec 30–Jan 1',
      'Jan 1 16:00',
      'Jan 1 20:00',
      'Jan 2 10:00',
    ]);
  });

  it('starts_after=2018-01-10 means starting on Jan 11 or later', async () => {
    expect(await kept('newyear', { starts_after: '2018-01-10' })).toEqual(['Jan 11 00:00']);
  });
});
