// A CSV file of events in The Events Calendar's CSV import columns (its free importer's, and so what
// TEC users have at hand): the header row names the columns, by their label ("Event Start Date")
// or their key ("event_start_date"); unknown columns are left out, and the preview says so. Dates
// and times are read as the calendar's writes read them (so "2031-05-10", "May 10, 2031" and
// "7:30 pm" all do). A row is keyed by its name and start, as TEC's importer matches a re-import.
import type { EventFields } from '../events.js';
import { ImportError } from './errors.js';

/** TEC's event columns (Tribe__Events__Importer__Column_Mapper): key → label. */
export const CSV_COLUMNS = {
  event_name: 'Event Name',
  event_description: 'Event Description',
  event_excerpt: 'Event Excerpt',
  event_start_date: 'Event Start Date',
  event_start_time: 'Event Start Time',
  event_end_date: 'Event End Date',
  event_end_time: 'Event End Time',
  event_timezone: 'Event Time Zone',
  event_all_day: 'All Day Event',
  event_hide: 'Hide Event From Event Listings',
  event_sticky: 'Event Sticky in Month View',
  feature_event: 'Feature Event',
  event_venue_name: 'Event Venue Name',
  event_organizer_name: 'Event Organizer Name(s) or ID(s)',
  event_show_map_link: 'Event Show Map Link',
  event_show_map: 'Event Show Map',
  event_cost: 'Event Cost',
  event_category: 'Event Category',
  event_tags: 'Event Tags',
  event_website: 'Event Website',
  featured_image: 'Event Featured Image',
} as const;
export type CsvColumn = keyof typeof CSV_COLUMNS;

const BY_NAME = new Map<string, CsvColumn>(
  (Object.entries(CSV_COLUMNS) as [CsvColumn, string][]).flatMap(([key, label]) => [
    [key, key],
    [label.toLowerCase(), key],
  ]),
);
// Older TEC versions' label.
BY_NAME.set('event organizer name', 'event_organizer_name');

export interface CsvItem {
  remoteId: string;
  /** 1-based line of the row in the file (after its header), for warnings. */
  line: number;
  fields: EventFields;
  venue: string;
  organizers: string[];
}

/** RFC 4180 rows: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows.filter((cells) => cells.some((cell) => cell.trim() !== ''));
}

/** Each header's column (null: not one of TEC's, left out). */
export function csvMapping(header: string[]): (CsvColumn | null)[] {
  return header.map((name) => BY_NAME.get(name.trim().toLowerCase()) ?? null);
}

const truthy = (value: string | undefined) => /^(1|yes|true|on)$/i.test((value ?? '').trim());
const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The file's rows as events; a file without TEC's name and start date columns is refused whole. */
export function csvItems(text: string): CsvItem[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new ImportError('source_invalid', 'the CSV file is empty');
  const mapping = csvMapping(header);
  for (const needed of ['event_name', 'event_start_date'] as const)
    if (!mapping.includes(needed)) throw new ImportError('source_invalid', `the CSV file has no "${CSV_COLUMNS[needed]}" column`);
  return rows.map((cells, index) => {
    const get = (column: CsvColumn) => {
      const at = mapping.indexOf(column);
      return at < 0 ? undefined : (cells[at] ?? '').trim();
    };
    const allDay = truthy(get('event_all_day'));
    const startDate = get('event_start_date')!;
    const endDate = get('event_end_date') || startDate;
    const at = (date: string, time: string | undefined, fallback: string) => `${date} ${allDay ? fallback : time || fallback}`.trim();
    const title = get('event_name') ?? '';
    const start = at(startDate, get('event_start_time'), '00:00:00');
    const fields: EventFields = {
      title,
      description: get('event_description') || undefined,
      excerpt: get('event_excerpt') || undefined,
      startDate: start,
      endDate: at(endDate, get('event_end_time'), allDay ? '23:59:59' : get('event_start_time') || '00:00:00'),
      timezone: get('event_timezone') || undefined,
      allDay,
      hideFromListings: truthy(get('event_hide')),
      sticky: truthy(get('event_sticky')),
      featured: truthy(get('feature_event')),
      showMapLink: get('event_show_map_link') === undefined ? undefined : truthy(get('event_show_map_link')),
      showMap: get('event_show_map') === undefined ? undefined : truthy(get('event_show_map')),
      cost: get('event_cost') ?? '',
      categories: list(get('event_category')),
      tags: list(get('event_tags')),
      website: get('event_website') ?? '',
      image: get('featured_image') || undefined,
    };
    return {
      remoteId: `${title}|${start}`,
      line: index + 2,
      fields,
      venue: get('event_venue_name') ?? '',
      organizers: list(get('event_organizer_name')),
    };
  });
}

export interface CsvPreview {
  columns: { header: string; column: CsvColumn | null; label: string | null }[];
  rows: string[][];
  /** Rows after the header. */
  total: number;
}

/** The header's mapping and the first rows, as the file has them. */
export function previewCsv(text: string, first = 5): CsvPreview {
  const [header = [], ...rows] = parseCsv(text);
  const mapping = csvMapping(header);
  return {
    columns: header.map((name, index) => ({
      header: name,
      column: mapping[index],
      label: mapping[index] ? CSV_COLUMNS[mapping[index]] : null,
    })),
    rows: rows.slice(0, first),
    total: rows.length,
  };
}
