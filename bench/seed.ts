// A bulk loader for benchmarks: a realistic calendar of any size, written straight through the
// database driver in ONE transaction (100,000 events in seconds; a mutation per event takes many
// minutes, Prisma's createMany minutes too). SQLite: better-sqlite3 prepared statements, the
// data-version row triggers dropped for the load and re-created before commit. PostgreSQL: `pg`,
// batched INSERT … SELECT FROM unnest(arrays), triggers (and FK checks) off for the transaction
// (session_replication_role = replica). Either way the calendar's data version moves once, Term.count
// is recomputed (when the column exists), sequences are moved past the ids written, and ANALYZE runs
// (PostgreSQL: VACUUM (ANALYZE)).
//
// The calendar: events spread from a year ago to four years ahead, most published, some drafts,
// private or hidden from listings, every twentieth featured; each has one venue, one or two
// organizers, one category (30, a third of them children) and two tags (of 100). A tenth of them
// are occurrences of recurring series, as src/calendar/series.ts makes them: weekly series without
// an end (open, their horizon moving) and monthly ones of a few occurrences (COUNT), each occurrence
// an Event row with its series, its place in it (recurrenceId) and the slug "<series slug>/<day>".
import '../src/db/node-runtime.js';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { expandOccurrences, formatRrule, parseRrule } from '../src/calendar/recurrence/index.js';
import { horizonOf } from '../src/calendar/series.js';
import { deployMigrations } from '../src/db/migrations.js';
import { databaseKind, sqliteFile } from '../src/db/url.js';

export interface SeedSize {
  events: number;
  venues?: number;
  organizers?: number;
  categories?: number;
  tags?: number;
}

export interface Seeded {
  /** A published event, listed, starting after now. */
  upcomingEventId: number;
  upcomingSlug: string;
  /** Published, listed events starting after now (what the default REST list pages through). */
  upcomingListed: number;
  /** The slug of a category that has published upcoming events. */
  categorySlug: string;
  /** A word of some event titles and descriptions. */
  searchWord: string;
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
  eventIds: number[];
  /** The series (weekly ones first), the first one's slug, and its first listed occurrence after now (0 and '' when none). */
  seriesIds: number[];
  seriesSlug: string;
  upcomingOccurrenceId: number;
  upcomingOccurrenceSlug: string;
  /** Milliseconds spent on migrations, and on the load itself (ANALYZE included). */
  migrateMs: number;
  loadMs: number;
}

type Value = string | number | boolean | null;
type ColumnType = 'int' | 'text' | 'bool';
interface Column {
  type: ColumnType;
  values: Value[];
}
interface Table {
  name: string;
  length: number;
  columns: Record<string, Column>;
}

const CALENDAR_TABLES = ['Post', 'Venue', 'Organizer', 'Term', 'EventSeries', 'Event', 'EventVenue', 'EventOrganizer', 'EventTerm'];
const PG_ARRAY: Record<ColumnType, string> = { int: 'int[]', text: 'text[]', bool: 'boolean[]' };
const PG_BATCH = 20_000; // rows per INSERT … unnest

/** "YYYY-MM-DD HH:MM:SS" of a Date, in UTC. */
const wall = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** A table of `length` rows from one function per column (`i` is the row index). */
function table(name: string, length: number, columns: Record<string, [ColumnType, (i: number) => Value]>): Table {
  const out: Record<string, Column> = {};
  for (const [column, [type, value]] of Object.entries(columns)) out[column] = { type, values: Array.from({ length }, (_, i) => value(i)) };
  return { name, length, columns: out };
}

// Names that read like a real calendar; a numeral keeps them (and their slugs) unique at any size.
const PLACES = ['Riverside', 'Harbour', 'Old Town', 'Midtown', 'Garden', 'Lakeside', 'Northside', 'Market Square', 'Hilltop', 'Union'];
const SUFFIXES = ['night', 'evening', 'matinee', 'weekend', 'session', 'special', 'showcase'];
const VENUES = [
  'Music Hall',
  'Public Library',
  'Community Centre',
  'Arts Theatre',
  'City Park Pavilion',
  'Brewery Taproom',
  'Gallery',
  'Town Hall',
  'Playhouse',
  'Observatory',
];
const CITIES: Array<[city: string, state: string, zip: string, country: string]> = [
  ['Springfield', 'IL', '62701', 'United States'],
  ['Portland', 'OR', '97205', 'United States'],
  ['Austin', 'TX', '78701', 'United States'],
  ['Toronto', '', 'M5V 2T6', 'Canada'],
  ['Manchester', '', 'M1 1AE', 'United Kingdom'],
];
const ORGANIZERS = [
  'Arts Council',
  'Jazz Society',
  'Friends of the Library',
  'Makers Guild',
  'Film Club',
  'Food Co-op',
  'Historical Society',
  'Running Club',
  'Choir',
  'Science Circle',
];
const CATEGORIES = ['Music', 'Theatre', 'Film', 'Food & Drink', 'Family', 'Sports', 'Talks', 'Workshops', 'Markets', 'Festivals'];
const SUBCATEGORIES = [
  'Jazz',
  'Drama',
  'Documentary',
  'Tasting',
  'Kids',
  'Running',
  'Science',
  'Pottery',
  'Farmers',
  'Folk',
  'Rock',
  'Comedy',
  'Animation',
  'Street Food',
  'Toddlers',
  'Cycling',
  'History',
  'Printmaking',
  'Antiques',
  'Lantern',
];
const TAGS = ['free', 'outdoor', 'all-ages', 'accessible', 'live', 'beginner', 'weekend', 'evening', 'pet-friendly', 'local'];
const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
/** The i-th name from a list, numbered from its second round on ("Music Hall", …, "Music Hall 2"). */
const nth = (list: readonly string[], i: number) =>
  i < list.length ? list[i % list.length] : `${list[i % list.length]} ${Math.floor(i / list.length) + 1}`;
const categoryName = (i: number) => (i < 10 ? nth(CATEGORIES, i) : nth(SUBCATEGORIES, i - 10));

/** A series as src/calendar/series.ts leaves it once expanded: its row and its occurrences' start walls. */
interface SeriesSeed {
  rule: string;
  startLocal: string;
  expandedUntil: string;
  open: boolean;
  walls: string[];
}

const LAST_WALL = '9999-12-31 23:59:59';

/**
 * Series whose occurrences up to the horizon number `count` in all: weekly ones without an end
 * (105 to 131 occurrences each, starting from half a year ago to a year ahead) for about half, then
 * monthly ones of 3 to 24 occurrences (COUNT), starting from a month ago to four years ahead, for
 * the rest (the first series has upcoming occurrences). Each is
 * expanded by the application's rule code to the horizon its expansion at `now` reaches, with the
 * application's default horizon; every event is in UTC, at a time of day like the others'.
 */
function recurringSeries(count: number, now: Date): SeriesSeed[] {
  const config = loadConfig({});
  const today = Math.floor(now.getTime() / 86_400_000) * 86_400_000;
  const list: SeriesSeed[] = [];
  let left = count;
  let weekly = Math.floor(count / 2);
  for (let s = 0; left > 0; s++) {
    const hour = (9 + ((s * 5) % 13)) * 3_600_000 + (s % 2) * 1_800_000;
    const expand = (text: string, startDay: number) => {
      const startLocal = wall(new Date(today + startDay * 86_400_000 + hour));
      const rule = parseRrule(text, 'UTC', false);
      const expandedUntil = horizonOf({ timezone: 'UTC', startLocal }, config, now);
      const limit = config.recurrence.maxOccurrencesPerExpansion;
      const walls = expandOccurrences({ rule, startLocal, timezone: 'UTC', before: expandedUntil, limit });
      if (walls.length >= limit) throw new Error('a seeded series outgrows one expansion');
      const later = expandOccurrences({ rule, startLocal, timezone: 'UTC', from: expandedUntil, before: LAST_WALL, limit: 1 });
      return { rule: formatRrule(rule, 'UTC', false), startLocal, expandedUntil, open: later.length > 0, walls };
    };
    const week = weekly > 0 ? expand('FREQ=WEEKLY', -180 + ((s * 37) % 545)) : null;
    const one =
      week && week.walls.length <= weekly ? week : expand(`FREQ=MONTHLY;COUNT=${Math.min(left, 3 + (s % 22))}`, -30 + ((s * 53) % 1460));
    if (one === week) weekly -= one.walls.length;
    else weekly = 0;
    list.push(one);
    left -= one.walls.length;
  }
  return list;
}

/** The rows to write, given the first free post and term ids. */
function calendar(size: SeedSize, firstPost: number, firstTerm: number, firstSeries: number, now: Date) {
  const venues = size.venues ?? Math.max(25, Math.round(size.events / 200));
  const organizers = size.organizers ?? Math.max(15, Math.round(size.events / 300));
  const categories = size.categories ?? 30;
  const tags = size.tags ?? 100;
  const n = size.events;

  const venueIds = Array.from({ length: venues }, (_, i) => firstPost + i);
  const organizerIds = Array.from({ length: organizers }, (_, i) => firstPost + venues + i);
  const eventIds = Array.from({ length: n }, (_, i) => firstPost + venues + organizers + i);
  const categoryIds = Array.from({ length: categories }, (_, i) => firstTerm + i);
  const tagIds = Array.from({ length: tags }, (_, i) => firstTerm + categories + i);

  // The last tenth of the events are the series' occurrences, each series' in a row: `template[i]`
  // is the index of the event whose fields (and links) occurrence i has, its series' first, as
  // occurrences copy theirs from the series'.
  const series = recurringSeries(Math.floor(n / 10), now);
  const singles = n - series.reduce((sum, one) => sum + one.walls.length, 0);
  const seriesIds = series.map((_, k) => firstSeries + k);
  const template = Array.from({ length: n }, (_, i) => i);
  const occurrence: Array<{ series: number; wall: string } | undefined> = new Array(n);
  const seriesFirst: number[] = [];
  let next = singles;
  series.forEach((one, k) => {
    const first = next;
    seriesFirst.push(first);
    for (const at of one.walls) {
      template[next] = first;
      occurrence[next++] = { series: k, wall: at };
    }
  });

  const published = wall(new Date(now.getTime() - 30 * 86_400_000));
  const post = (title: (i: number) => string, slug: (i: number) => string): Record<string, [ColumnType, (i: number) => Value]> => ({
    title: ['text', title],
    slug: ['text', slug],
    status: ['text', () => 'publish'],
    date: ['text', () => published],
    dateUtc: ['text', () => published],
    modified: ['text', () => published],
    modifiedUtc: ['text', () => published],
    authorId: ['int', () => 1],
  });

  // Single events spread over five years, starting a year ago: about 50 a day at 100,000.
  const span = 5 * 365 * 86_400_000;
  const start0 = now.getTime() - 365 * 86_400_000;
  const words = ['jazz', 'market', 'lecture', 'workshop', 'concert', 'festival', 'reading', 'tour', 'fair', 'meetup'];
  // Each on its day at a plausible hour: 09:00 to 21:30, on the hour or the half hour.
  const day0 = Math.floor(start0 / 86_400_000) * 86_400_000;
  const starts = eventIds.map((_, i) => {
    const at = occurrence[i]?.wall;
    if (at) return new Date(`${at.replace(' ', 'T')}Z`);
    return new Date(
      day0 + Math.floor(((i / singles) * span) / 86_400_000) * 86_400_000 + (9 * 60 + ((i * 7) % 13) * 60 + (i % 2) * 30) * 60_000,
    );
  });
  const startWall = starts.map(wall);
  const endWall = starts.map((s) => wall(new Date(s.getTime() + 3 * 3_600_000)));
  // Occurrences are published and listed, as their series' first event.
  const status = (i: number) => (occurrence[i] ? 'publish' : i % 50 === 7 ? 'draft' : i % 97 === 3 ? 'private' : 'publish');
  const hidden = (i: number) => !occurrence[i] && i % 200 === 11;
  const word = (i: number) => words[template[i] % words.length];
  const eventTitle = (i: number) => `${PLACES[template[i] % PLACES.length]} ${word(i)} ${SUFFIXES[template[i] % SUFFIXES.length]}`;
  // A series' slug is its first event's; its occurrences' "<series slug>/<YYYY-MM-DD>" (one a day).
  const singleSlug = (i: number) => `${slugify(eventTitle(i))}-${i}`;
  const seriesSlug = (k: number) => singleSlug(seriesFirst[k]);
  const eventSlug = (i: number) => {
    const one = occurrence[i];
    return one ? `${seriesSlug(one.series)}/${one.wall.slice(0, 10)}` : singleSlug(i);
  };

  const organizerLinks: Array<[number, number, number]> = []; // event, organizer, position
  const termLinks: Array<[number, number]> = []; // event, term
  eventIds.forEach((eventId, e) => {
    const i = template[e];
    organizerLinks.push([eventId, organizerIds[i % organizers], 0]);
    if (i % 3 === 0 && organizers > 1) organizerLinks.push([eventId, organizerIds[(i + 1) % organizers], 1]);
    termLinks.push([eventId, categoryIds[i % categories]]);
    const tagA = tagIds[i % tags];
    const tagB = tagIds[(i + 37) % tags];
    termLinks.push([eventId, tagA]);
    if (tagB !== tagA) termLinks.push([eventId, tagB]);
  });

  const postIds = [...venueIds, ...organizerIds, ...eventIds];
  const tables: Table[] = [
    table('Post', postIds.length, {
      id: ['int', (i) => postIds[i]],
      type: ['text', (i) => (i < venues ? 'venue' : i < venues + organizers ? 'organizer' : 'event')],
    }),
    table('Venue', venues, {
      id: ['int', (i) => venueIds[i]],
      ...post(
        (i) => nth(VENUES, i),
        (i) => slugify(nth(VENUES, i)),
      ),
      address: ['text', (i) => `${100 + i} ${PLACES[i % PLACES.length]} Street`],
      city: ['text', (i) => CITIES[i % CITIES.length][0]],
      state: ['text', (i) => CITIES[i % CITIES.length][1]],
      zip: ['text', (i) => CITIES[i % CITIES.length][2]],
      country: ['text', (i) => CITIES[i % CITIES.length][3]],
    }),
    table('Organizer', organizers, {
      id: ['int', (i) => organizerIds[i]],
      ...post(
        (i) => nth(ORGANIZERS, i),
        (i) => slugify(nth(ORGANIZERS, i)),
      ),
      email: ['text', (i) => `${slugify(nth(ORGANIZERS, i))}@example.com`],
      phone: ['text', () => '555-0100'],
    }),
    table('Term', categories + tags, {
      id: ['int', (i) => (i < categories ? categoryIds[i] : tagIds[i - categories])],
      taxonomy: ['text', (i) => (i < categories ? 'tribe_events_cat' : 'post_tag')],
      name: ['text', (i) => (i < categories ? categoryName(i) : nth(TAGS, i - categories))],
      slug: ['text', (i) => slugify(i < categories ? categoryName(i) : nth(TAGS, i - categories))],
      // Categories 10 and up are children of the first ten.
      parentId: ['int', (i) => (i < categories && i >= 10 ? categoryIds[i % 10] : null)],
    }),
    table('EventSeries', series.length, {
      id: ['int', (k) => seriesIds[k]],
      rule: ['text', (k) => series[k].rule],
      timezone: ['text', () => 'UTC'],
      allDay: ['bool', () => false],
      startLocal: ['text', (k) => series[k].startLocal],
      duration: ['int', () => 3 * 3600],
      slug: ['text', seriesSlug],
      expandedUntil: ['text', (k) => series[k].expandedUntil],
      open: ['bool', (k) => series[k].open],
    }),
    table('Event', n, {
      id: ['int', (i) => eventIds[i]],
      ...post(eventTitle, eventSlug),
      status: ['text', status],
      content: [
        'text',
        (i) =>
          `<p>An evening of ${word(i)} in the ${PLACES[template[i] % PLACES.length].toLowerCase()} quarter: doors open half an hour before the start, seats are first come, first served.</p>`,
      ],
      excerpt: ['text', (i) => `A ${word(i)} ${SUFFIXES[template[i] % SUFFIXES.length]}`],
      timezone: ['text', () => 'UTC'],
      timezoneAbbr: ['text', () => 'UTC'],
      startLocal: ['text', (i) => startWall[i]],
      endLocal: ['text', (i) => endWall[i]],
      startUtc: ['text', (i) => startWall[i]],
      endUtc: ['text', (i) => endWall[i]],
      cost: ['text', (i) => JSON.stringify([String((template[i] % 5) * 10)])],
      currencySymbol: ['text', () => '$'],
      currencyPosition: ['text', () => 'prefix'],
      hideFromListings: ['bool', hidden],
      featured: ['bool', (i) => template[i] % 20 === 0],
      seriesId: ['int', (i) => (occurrence[i] ? seriesIds[occurrence[i]!.series] : null)],
      recurrenceId: ['text', (i) => occurrence[i]?.wall ?? null],
      detached: ['bool', () => false],
    }),
    table('EventVenue', n, {
      eventId: ['int', (i) => eventIds[i]],
      venueId: ['int', (i) => venueIds[i % venues]],
    }),
    table('EventOrganizer', organizerLinks.length, {
      eventId: ['int', (i) => organizerLinks[i][0]],
      organizerId: ['int', (i) => organizerLinks[i][1]],
      position: ['int', (i) => organizerLinks[i][2]],
    }),
    table('EventTerm', termLinks.length, {
      eventId: ['int', (i) => termLinks[i][0]],
      termId: ['int', (i) => termLinks[i][1]],
    }),
  ];

  const nowWall = wall(now);
  const listed = (i: number) => status(i) === 'publish' && !hidden(i) && startWall[i] > nowWall;
  const upcoming = eventIds.findIndex((_, i) => listed(i));
  if (upcoming < 0) throw new Error('the calendar has no upcoming event: seed more events');
  const upcomingOccurrence = eventIds.findIndex((_, i) => occurrence[i]?.series === 0 && listed(i));
  const upcomingListed = eventIds.reduce((count, _, i) => count + (listed(i) ? 1 : 0), 0);
  const seeded = {
    upcomingEventId: eventIds[upcoming],
    upcomingSlug: eventSlug(upcoming),
    upcomingListed,
    categorySlug: slugify(categoryName(template[upcoming] % categories)),
    searchWord: 'jazz',
    venueIds,
    organizerIds,
    categoryIds,
    tagIds,
    eventIds,
    seriesIds,
    seriesSlug: series.length ? seriesSlug(0) : '',
    upcomingOccurrenceId: upcomingOccurrence < 0 ? 0 : eventIds[upcomingOccurrence],
    upcomingOccurrenceSlug: upcomingOccurrence < 0 ? '' : eventSlug(upcomingOccurrence),
  };
  return { tables, seeded };
}

// What the write paths keep current: term counts, and the calendar's data version. The counts are
// grouped once (a materialized CTE) rather than counted per term: without fresh statistics
// PostgreSQL would scan Event once per term.
const TERM_COUNT = `WITH "published" AS MATERIALIZED (
  SELECT "EventTerm"."termId" AS "termId", COUNT(*) AS "n" FROM "EventTerm" JOIN "Event" ON "Event"."id" = "EventTerm"."eventId"
  WHERE "Event"."status" = 'publish' GROUP BY "EventTerm"."termId")
UPDATE "Term" SET "count" = COALESCE((SELECT "published"."n" FROM "published" WHERE "published"."termId" = "Term"."id"), 0)`;
const BUMP_VERSION = `UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'`;

function seedSqlite(url: string, size: SeedSize, now: Date) {
  const db = new Database(sqliteFile(url));
  try {
    db.pragma('journal_mode = WAL'); // what the server uses; persists in the file
    db.pragma('synchronous = OFF'); // this connection only: a benchmark database is disposable
    db.pragma('cache_size = -262144'); // 256 MB, so index pages stay in memory during the load
    db.pragma('foreign_keys = OFF'); // the rows written are consistent by construction
    const hasColumn = (t: string, c: string) =>
      (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(t) as Array<{ name: string }>).some((r) => r.name === c);
    const hasTable = (t: string) => Boolean(db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(t));
    const firstFree = (t: string) =>
      (
        db
          .prepare(
            `SELECT MAX(COALESCE((SELECT MAX("id") FROM "${t}"), 0), COALESCE((SELECT "seq" FROM "sqlite_sequence" WHERE "name" = ?), 0)) + 1 AS id`,
          )
          .get(t) as { id: number }
      ).id;
    const { tables, seeded } = calendar(size, firstFree('Post'), firstFree('Term'), firstFree('EventSeries'), now);

    db.transaction(() => {
      // The data-version triggers would fire once per row: off for the load, back before commit.
      const triggers = db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (${CALENDAR_TABLES.map(() => '?').join(',')})`)
        .all(...CALENDAR_TABLES) as Array<{ name: string; sql: string }>;
      for (const trigger of triggers) db.exec(`DROP TRIGGER "${trigger.name}"`);
      for (const t of tables) {
        const names = Object.keys(t.columns);
        const columns = names.map((name) => t.columns[name].values);
        const insert = db.prepare(
          `INSERT INTO "${t.name}" (${names.map((c) => `"${c}"`).join(',')}) VALUES (${names.map(() => '?').join(',')})`,
        );
        const row: Value[] = new Array(names.length);
        for (let i = 0; i < t.length; i++) {
          for (let c = 0; c < columns.length; c++) {
            const v = columns[c][i];
            row[c] = typeof v === 'boolean' ? (v ? 1 : 0) : v; // SQLite booleans are 0/1
          }
          insert.run(row);
        }
      }
      if (hasColumn('Term', 'count')) db.exec(TERM_COUNT);
      for (const trigger of triggers) db.exec(trigger.sql);
      // The search index's triggers were off too: index the events in one pass.
      if (hasTable('EventSearch')) db.exec(`INSERT INTO "EventSearch" ("EventSearch") VALUES ('rebuild')`);
      if (hasTable('DataVersion')) db.exec(BUMP_VERSION);
    })();
    db.exec('ANALYZE');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return seeded;
  } finally {
    db.close();
  }
}

async function seedPostgres(url: string, size: SeedSize, now: Date) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columnsOf = async (t: string) =>
      new Set(
        (
          await client.query<{ column_name: string }>(
            `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
            [t],
          )
        ).rows.map((r) => r.column_name),
      );
    const firstFree = async (t: string) =>
      Number(
        (
          await client.query<{ id: string }>(
            `SELECT GREATEST(COALESCE((SELECT MAX("id") FROM "${t}"), 0), COALESCE(pg_sequence_last_value(pg_get_serial_sequence($1, 'id')::regclass), 0)) + 1 AS id`,
            [`"${t}"`],
          )
        ).rows[0].id,
      );
    const { tables, seeded } = calendar(size, await firstFree('Post'), await firstFree('Term'), await firstFree('EventSeries'), now);
    const termCount = (await columnsOf('Term')).has('count');
    const dataVersion = (await columnsOf('DataVersion')).size > 0;

    await client.query('BEGIN');
    try {
      // No per-row triggers (data version, foreign keys) for the load; the version moves once below.
      await client.query('SET LOCAL session_replication_role = replica');
      for (const t of tables) {
        const names = Object.keys(t.columns);
        const sql = `INSERT INTO "${t.name}" (${names.map((c) => `"${c}"`).join(',')}) SELECT * FROM unnest(${names.map((c, k) => `$${k + 1}::${PG_ARRAY[t.columns[c].type]}`).join(',')})`;
        for (let i = 0; i < t.length; i += PG_BATCH) {
          await client.query(
            sql,
            names.map((c) => t.columns[c].values.slice(i, i + PG_BATCH)),
          );
        }
      }
      if (termCount) await client.query(TERM_COUNT);
      if (dataVersion) await client.query(BUMP_VERSION);
      // Explicit ids leave the sequences behind: move them past what was written.
      for (const t of ['Post', 'Term', 'EventSeries']) {
        await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT MAX("id") FROM "${t}"))`, [`"${t}"`]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    // VACUUM as well: a calendar that has served a while has been vacuumed (autovacuum) and its
    // rows' visibility is known; right after a bulk load the first readers would set every row's
    // hint bits, and autovacuum would run during the measurement.
    await client.query('VACUUM (ANALYZE)');
    return seeded;
  } finally {
    await client.end();
  }
}

/** Migrates the database at `url` (file: or postgresql://), then adds a calendar of `size.events` events. */
export async function seedCalendar(url: string, size: SeedSize): Promise<Seeded> {
  const kind = databaseKind(url);
  if (!kind) throw new Error('the database URL must be file:<path> or postgresql://…');
  let t0 = Date.now();
  await deployMigrations(url);
  const migrateMs = Date.now() - t0;
  t0 = Date.now();
  const now = new Date();
  const seeded = kind === 'sqlite' ? seedSqlite(url, size, now) : await seedPostgres(url, size, now);
  return { ...seeded, migrateMs, loadMs: Date.now() - t0 };
}
