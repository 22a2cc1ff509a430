// List totals are kept per data version (src/calendar/list-totals.ts): any committed write to a
// calendar table — through the API, or straight into the database as another process or tool
// would — must show in the next answer.
import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

describe.each(DATABASE_KINDS)('list totals on %s', (kind) => {
  const api = useTestServer(kind);
  const totals = async () => {
    const result = await api.graphql(`{ events { total } eventsConnection { totalCount } venues { total } }`, {}, api.keys.administrator);
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    return [result.data.events.total, result.data.eventsConnection.totalCount, result.data.venues.total];
  };

  it('follow writes made through the API and straight into the database', async () => {
    expect(await totals()).toEqual([0, 0, 0]);
    const created = await api.graphql(
      'mutation($i: CreateEventInput!) { createEvent(input: $i) { id } }',
      { i: { title: 'Counted', startDate: daysFromNow(3), endDate: daysFromNow(3, '12:00:00'), venue: { venue: 'Counted Hall' } } },
      api.keys.administrator,
    );
    expect(created.errors).toBeUndefined();
    expect(await totals()).toEqual([1, 1, 1]);

    // Another writer: no Almanac code runs, only the database's own triggers.
    const prisma = api.server.db.prisma;
    const id = created.data.createEvent.id;
    await prisma.event.update({ where: { id }, data: { status: 'draft' } });
    expect(await totals()).toEqual([1, 1, 1]); // the administrator sees drafts too
    await prisma.event.update({ where: { id }, data: { hideFromListings: true } });
    expect(await totals()).toEqual([0, 0, 1]);
    await prisma.event.update({
      where: { id },
      data: { hideFromListings: false, startLocal: daysFromNow(-30), endLocal: daysFromNow(-30) },
    });
    expect(await totals()).toEqual([0, 0, 1]);
    await prisma.event.update({ where: { id }, data: { startLocal: daysFromNow(5), endLocal: daysFromNow(5) } });
    await prisma.venue.updateMany({ data: { status: 'trash' } });
    expect(await totals()).toEqual([1, 1, 0]);
  });
});
