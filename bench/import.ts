// Import speed (`npm run bench -- --import N`): a site running The Events Calendar (test/support/tec-site.ts,
// serving generated records) and an iCalendar file, each of N events, imported into an empty calendar
// as `npm run import` does (createImportJob, claimImportJob, runImportJob). Reports the records the
// job handled per second (events, venues, organizers, categories and tags it listed).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimImportJob, createImportJob, runImportJob } from '../src/calendar/import/jobs.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { deployMigrations } from '../src/db/migrations.js';
import { startTecSite, type TecRecord } from '../test/support/tec-site.js';

export interface ImportRow {
  source: 'TEC site' | 'iCalendar file';
  events: number;
  records: number;
  seconds: number;
  status: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The i-th event's wall start: one every 7 hours from 2026-01-05 09:00, two hours long. */
function wallTimes(i: number) {
  const start = new Date(Date.UTC(2026, 0, 5, 9) + i * 7 * 3_600_000);
  const end = new Date(start.getTime() + 2 * 3_600_000);
  const wall = (d: Date) =>
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`;
  return { start: wall(start), end: wall(end), startDate: start, endDate: end };
}

/** A The Events Calendar site of `events` events, with a venue and organizer for every 20 events, 20 categories (some nested) and 50 tags. */
export function tecRecords(events: number): Record<'events' | 'venues' | 'organizers' | 'categories' | 'tags', TecRecord[]> {
  const linked = Math.max(1, Math.ceil(events / 20));
  const venues = Array.from({ length: linked }, (_, i) => ({
    id: 100_000 + i,
    venue: `Hall ${i + 1}`,
    slug: `hall-${i + 1}`,
    status: 'publish',
    date_utc: '2025-06-01 10:00:00',
    description: `<p>Hall ${i + 1}, by the river.</p>`,
    address: `${i + 1} River Road`,
    city: 'Lyon',
    country: 'France',
    zip: '69001',
    image: false,
  }));
  const organizers = Array.from({ length: linked }, (_, i) => ({
    id: 200_000 + i,
    organizer: `Society ${i + 1}`,
    slug: `society-${i + 1}`,
    status: 'publish',
    date_utc: '2025-06-01 10:00:00',
    email: `society${i + 1}@example.org`,
    phone: '+33 4 00 00 00 00',
    image: false,
  }));
  const categories = Array.from({ length: 20 }, (_, i) => ({
    id: 300 + i,
    name: `Category ${i + 1}`,
    slug: `category-${i + 1}`,
    description: '',
    parent: i >= 5 ? 300 + (i % 5) : 0,
  }));
  const tags = Array.from({ length: 50 }, (_, i) => ({ id: 400 + i, name: `Tag ${i + 1}`, slug: `tag-${i + 1}`, description: '' }));
  const list = Array.from({ length: events }, (_, i) => {
    const { start, end } = wallTimes(i);
    return {
      id: 1_000_000 + i,
      title: `Concert number ${i + 1}`,
      slug: `concert-number-${i + 1}`,
      status: 'publish',
      date_utc: '2025-06-01 10:00:00',
      description: `<p>The ${i + 1}th concert of the season.</p>`,
      excerpt: '',
      url: `https://site.example/event/concert-number-${i + 1}/`,
      start_date: start,
      end_date: end,
      timezone: 'Europe/Paris',
      all_day: false,
      cost: i % 3 ? `${10 + (i % 30)} €` : '',
      website: '',
      show_map: true,
      show_map_link: true,
      hide_from_listings: false,
      sticky: false,
      featured: i % 10 === 0,
      image: false,
      venue: venues[i % linked],
      organizer: [organizers[i % linked]],
      categories: [categories[i % 20]],
      tags: [tags[i % 50], tags[(i + 7) % 50]],
    };
  });
  return { events: list, venues, organizers, categories, tags };
}

/** An iCalendar file of `events` single events, with a LOCATION and an ORGANIZER for every 20. */
export function icalText(events: number): string {
  const linked = Math.max(1, Math.ceil(events / 20));
  const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Almanac//bench//EN'];
  for (let i = 0; i < events; i++) {
    const { startDate, endDate } = wallTimes(i);
    lines.push(
      'BEGIN:VEVENT',
      `UID:bench-${i}@almanac.test`,
      'DTSTAMP:20250601T100000Z',
      `DTSTART:${stamp(startDate)}`,
      `DTEND:${stamp(endDate)}`,
      `SUMMARY:Lecture number ${i + 1}`,
      `DESCRIPTION:The ${i + 1}th lecture of the season.`,
      `LOCATION:Room ${(i % linked) + 1}`,
      `ORGANIZER;CN=Faculty ${(i % linked) + 1}:mailto:faculty${(i % linked) + 1}@example.org`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

/**
 * Imports each source into an empty calendar at the URL `freshDatabase` gives (it makes a new database
 * each call); `dir` holds the iCalendar file.
 */
export async function benchImport(events: number, dir: string, freshDatabase: (name: string) => string): Promise<ImportRow[]> {
  const site = await startTecSite();
  site.records = tecRecords(events);
  const file = join(dir, 'bench-import.ics');
  writeFileSync(file, icalText(events));
  const rows: ImportRow[] = [];
  try {
    for (const [source, kind, from] of [
      ['TEC site', 'tec', site.url],
      ['iCalendar file', 'ical', file],
    ] as const) {
      const url = freshDatabase(kind);
      await deployMigrations(url);
      const config = loadConfig({ ...process.env, DATABASE_URL: url, TASK_ALLOWED_HOSTS: `127.0.0.1:${site.port}` });
      const db = await openDatabase(url);
      try {
        const viewer = { userId: 0, login: 'import', role: 'administrator' as const };
        const made = await createImportJob(db.prisma, viewer, { kind, source: from }, { allowFiles: true });
        await claimImportJob(db.prisma, viewer, made.id);
        const started = performance.now();
        const done = await runImportJob({ prisma: db.prisma, config }, made.id, { allowFiles: true });
        const seconds = (performance.now() - started) / 1000;
        if (done.status !== 'completed') throw new Error(`${source} import ${done.status}: ${done.error}`);
        const failed = Object.values(done.counts).reduce((sum, c) => sum + (c.failed ?? 0), 0);
        if (failed) throw new Error(`${source} import: ${failed} records failed: ${done.warnings.slice(0, 3).join('; ')}`);
        rows.push({ source, events, records: done.processed, seconds, status: done.status });
        console.log(
          `import from a ${source}: ${done.processed} records in ${seconds.toFixed(1)} s, ${(done.processed / seconds).toFixed(0)} records/s`,
        );
      } finally {
        await db.close();
      }
    }
  } finally {
    await site.close();
  }
  return rows;
}
