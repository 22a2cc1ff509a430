// A calendar for the views' tests (test/site/views*.test.ts): events in March 2032 and in 2020, made
// through GraphQL as an administrator. The site's zone is New York.
import { expect } from 'vitest';
import type { TestServer } from './server.js';

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id venue { id } } }`;
export const SITE_ZONE = 'America/New_York';

export async function createEvent(api: TestServer, input: Record<string, unknown>) {
  const result = await api.graphql(CREATE, { input }, api.keys.administrator);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data.createEvent as { id: number; venue: { id: number } | null };
}

/** A calendar: two events on 10 March (one in Tokyo's zone), a three-day all-day festival, a weekly series, a busy day, the past. */
export async function seedCalendar(api: TestServer) {
  for (const name of ['Music', 'Science'])
    expect(
      (
        await api.graphql(
          `mutation($name: String!) { createEventCategory(input: { name: $name }) { id } }`,
          { name },
          api.keys.administrator,
        )
      ).errors,
    ).toBeUndefined();
  const jazz = await createEvent(api, {
    title: 'Jazz Night',
    startDate: '2032-03-10 19:00:00',
    endDate: '2032-03-10 22:00:00',
    categories: ['music'],
    venue: { venue: 'Blue Note' },
  });
  await createEvent(api, {
    title: 'Tokyo Talk',
    startDate: '2032-03-10 20:00:00',
    endDate: '2032-03-10 21:00:00',
    timezone: 'Asia/Tokyo',
    categories: ['science'],
    tags: ['talk'],
  });
  await createEvent(api, { title: 'Festival', allDay: true, startDate: '2032-03-12', endDate: '2032-03-14', categories: ['music'] });
  await createEvent(api, {
    title: 'Weekly Jam',
    startDate: '2032-03-02 18:00:00',
    endDate: '2032-03-02 20:00:00',
    recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' },
  });
  await createEvent(api, { title: 'Conference', startDate: '2032-03-24 09:00:00', endDate: '2032-03-25 17:00:00' });
  await createEvent(api, { title: 'April Fool', startDate: '2032-04-01 12:00:00', endDate: '2032-04-01 13:00:00' });
  for (let i = 0; i < 13; i++) {
    const time = `${String(8 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}:00`;
    await createEvent(api, { title: `Busy ${i + 1}`, startDate: `2032-03-20 ${time}`, endDate: `2032-03-20 ${time}` });
  }
  for (const [title, day] of [
    ['Oldest Fair', '2020-03-01'],
    ['Older Fair', '2020-04-01'],
    ['Old Fair', '2020-05-01'],
  ])
    await createEvent(api, { title, startDate: `${day} 10:00:00`, endDate: `${day} 12:00:00` });
  return { venue: jazz.venue!.id };
}
