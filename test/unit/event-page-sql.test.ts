// The event list's page read raw (selectSql over Prisma's `where`) answers exactly the rows Prisma
// answers for the same list, on both engines: every filter the list builds, pages past the first,
// and the shapes the compiler declines (which Prisma then reads).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCalendar, type Seeded } from '../../bench/seed.js';
import type { Viewer } from '../../src/auth/viewer.js';
import { eventListQuery, eventPageRows, type EventFilter } from '../../src/calendar/event-filters.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { EVENT_TABLE } from '../../src/db/tables.js';
import { countSql, selectSql } from '../../src/db/where-sql.js';
import { DATABASE_KINDS, createTestDatabase, type TestDatabase } from '../support/databases.js';

const ADMIN: Viewer = { userId: 1, role: 'administrator' } as Viewer;

describe.each(DATABASE_KINDS)('event pages read raw on %s', (kind) => {
  let database: TestDatabase;
  let db: Database;
  let seeded: Seeded;
  const config = loadConfig({ DATABASE_URL: 'file:unused.db', LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    seeded = await seedCalendar(database.url, { events: 400 });
    db = await openDatabase(database.url);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const context = () => ({ prisma: db.prisma, readRows: db.readRows, dbKind: db.kind });

  async function compare(filter: EventFilter, viewer: Viewer | null = null) {
    const list = await eventListQuery(db.prisma, filter, { viewer, config, dbKind: db.kind });
    expect(selectSql(db.kind, EVENT_TABLE, { ...list, skip: 0, take: 1 }), JSON.stringify(list.where)).not.toBeNull();
    // The list's total, counted raw, is Prisma's count.
    const counted = countSql(db.kind, EVENT_TABLE, list.where)!;
    const [{ total }] = await db.readRows<{ total: number | bigint }>(counted.sql, counted.args);
    expect(Number(total), JSON.stringify(filter)).toBe(await db.prisma.event.count({ where: list.where as any }));
    const pages = [];
    for (const page of [
      { skip: 0, take: 50 },
      { skip: 7, take: 13 },
      { skip: 10_000, take: 50 },
    ]) {
      const raw = await eventPageRows(context(), list, page);
      const prisma = await db.prisma.event.findMany({ where: list.where as any, orderBy: list.orderBy, ...page });
      expect(raw, `${JSON.stringify(filter)} ${JSON.stringify(page)}`).toEqual(prisma);
      pages.push(raw.length);
    }
    return pages[0];
  }

  it('answers the rows Prisma answers, for every filter of the list', async () => {
    const [venue, organizer] = [seeded.venueIds[3], seeded.organizerIds[2]];
    const filters: EventFilter[] = [
      {},
      { startDate: '2000-01-01', endDate: '2100-01-01' },
      { startsAfter: 'yesterday', endsBefore: '+1 year', strictDates: true },
      { search: seeded.searchWord },
      { search: seeded.searchWord.toUpperCase() + ' session' },
      { search: `-${seeded.searchWord}` },
      { search: '"fair session"' },
      { search: 'a%b_c' },
      { search: '-% -_ -\\' },
      { categories: [seeded.categorySlug] },
      { tags: [String(seeded.tagIds[5]), String(seeded.tagIds[6])] },
      { venue: [venue] },
      { organizer: [organizer] },
      { featured: true },
      { featured: false, startDate: '2000-01-01' },
      { include: seeded.eventIds.slice(0, 30) },
    ];
    const sizes = [];
    for (const filter of filters) sizes.push(await compare(filter));
    // The filters are not vacuous: most of them find events.
    expect(sizes.filter((n) => n > 0).length).toBeGreaterThan(filters.length / 2);
    await compare({ status: ['publish', 'draft', 'private'], startDate: '2000-01-01' }, ADMIN);
    await compare({}, ADMIN);
  });

  it('leaves what it does not compile to Prisma', async () => {
    const page = { skip: 0, take: 5, orderBy: [{ id: 'asc' as const }] };
    expect(selectSql(db.kind, EVENT_TABLE, { ...page, where: { title: { startsWith: 'A' } } })).toBeNull();
    expect(selectSql(db.kind, EVENT_TABLE, { ...page, where: { venues: { every: { venueId: 1 } } } })).toBeNull();
    expect(selectSql(db.kind, EVENT_TABLE, { ...page, where: { nosuchcolumn: 1 } })).toBeNull();
    expect(selectSql(db.kind, EVENT_TABLE, { ...page, where: {}, orderBy: [{ nosuchcolumn: 'asc' }] })).toBeNull();
    expect(selectSql(db.kind, EVENT_TABLE, { ...page, where: {}, skip: 2 ** 60 })).toBeNull();
    // A selection that loads relations with the rows goes to Prisma, which loads them.
    const list = { where: { id: { in: seeded.eventIds.slice(0, 2) } }, orderBy: [{ id: 'asc' as const }] };
    const withTerms = await eventPageRows(context(), list, { skip: 0, take: 2 }, { include: { terms: true } });
    expect(withTerms.map((row: any) => Array.isArray(row.terms))).toEqual([true, true]);
  });

  it('matches nothing for an empty list, as Prisma does', async () => {
    for (const where of [{ id: { in: [] } }, { OR: [] }, { AND: [{ id: { in: [] } }] }, { NOT: { OR: [] } }]) {
      const list = { where, orderBy: [{ id: 'asc' as const }] };
      const page = { skip: 0, take: 5 };
      expect(await eventPageRows(context(), list, page)).toEqual(
        await db.prisma.event.findMany({ where: where as any, ...page, orderBy: list.orderBy }),
      );
    }
  });
});
