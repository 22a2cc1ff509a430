// Calendar sources: calendars an administrator keeps importing on a schedule (a The Events
// Calendar site or another Almanac, an iCalendar URL). A source holds how to read it (address,
// credentials sealed with ALMANAC_SECRET_KEY and never shown back, a date window), how to write what
// it reads (default status and terms, update authority, removals) and when it runs; each run is an
// import job (jobs.ts), started by the schedule (schedule.ts) in whichever process claims it.
import { EventEmitter } from 'node:events';
import type { Viewer } from '../../auth/viewer.js';
import type { Config } from '../../config.js';
import type { Prisma } from '../../db/client.js';
import { outboundPolicy } from '../../net/url-policy.js';
import { trashEvent } from '../events.js';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY } from '../terms.js';
import { ImportError } from './errors.js';
import type { Counts } from './importer.js';
import { assertMayImport, parseHeaders, type ImportKind } from './jobs.js';
import { AUTHORITIES, type Authority } from './local-edits.js';
import { previewCsv, type CsvPreview } from './csv-source.js';
import { readIcal } from './ical-source.js';
import { sealHeaders, sourceHeaders } from './source-credentials.js';
import { tecBase } from './tec-source.js';

/** Failed runs in a row after which a source is failing (and reported). */
export const FAILING_AFTER = 3;
const MAX_WINDOW_DAYS = 3650;
/** The longest wait between the runs of a failing source (unless its own interval is longer). */
const MAX_BACKOFF_MS = 86_400_000;
const DELETE_TIMEOUT_MS = 300_000;

export type SourceState = 'idle' | 'running' | 'paused' | 'failing';
type SourceRow = NonNullable<Awaited<ReturnType<Prisma['calendarSource']['findUnique']>>>;

export interface SourceView {
  id: number;
  name: string;
  kind: ImportKind;
  address: string;
  hasCredentials: boolean;
  refreshSeconds: number;
  windowDaysBack: number;
  windowDaysAhead: number;
  defaultStatus: 'publish' | 'draft';
  categories: number[];
  tags: number[];
  authority: Authority;
  trashRemoved: boolean;
  paused: boolean;
  state: SourceState;
  failures: number;
  nextRunAt: Date | null;
  runningJobId: number | null;
  lastRun: { jobId: number; at: Date; outcome: string; counts: Counts; warnings: string[]; error: string } | null;
}

export interface SourceInput {
  name?: string | null;
  kind?: ImportKind | null;
  address?: string | null;
  /** "Name: value" lines; [] removes the credentials, null/absent keeps them. */
  headers?: string[] | null;
  refreshSeconds?: number | null;
  windowDaysBack?: number | null;
  windowDaysAhead?: number | null;
  defaultStatus?: string | null;
  categories?: number[] | null;
  tags?: number[] | null;
  authority?: string | null;
  trashRemoved?: boolean | null;
}

/** Saves, resumes and run-now requests on this process: its schedule looks at once. */
export const sourceSignals = new EventEmitter<{ due: [] }>();

const parse = <T>(json: string, fallback: T): T => {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

/** The import's identity of a source (ImportedRecord.source), shared with one-shot imports of the same address. */
export const sourceKey = (row: { kind: string; address: string }) => `${row.kind}:${row.address}`;

export function sourceView(row: SourceRow): SourceView {
  const failing = row.failures >= FAILING_AFTER;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as ImportKind,
    address: row.address,
    hasCredentials: row.credentials !== '',
    refreshSeconds: row.refreshSeconds,
    windowDaysBack: row.windowDaysBack,
    windowDaysAhead: row.windowDaysAhead,
    defaultStatus: row.defaultStatus as 'publish' | 'draft',
    categories: parse<number[]>(row.categories, []),
    tags: parse<number[]>(row.tags, []),
    authority: row.authority as Authority,
    trashRemoved: row.trashRemoved,
    paused: row.paused,
    state: row.jobId !== null ? 'running' : row.paused ? 'paused' : failing ? 'failing' : 'idle',
    failures: row.failures,
    nextRunAt: row.nextRunAt,
    runningJobId: row.jobId,
    lastRun:
      row.lastJobId !== null && row.lastRunAt
        ? {
            jobId: row.lastJobId,
            at: row.lastRunAt,
            outcome: row.lastOutcome,
            counts: parse<Counts>(row.lastCounts, {}),
            warnings: parse<string[]>(row.lastWarnings, []),
            error: row.lastError,
          }
        : null,
  };
}

/** The wait before the next run: the interval, doubled for each failure in a row after the first. */
export function nextDelayMs(refreshSeconds: number, failures: number): number {
  const interval = refreshSeconds * 1000;
  if (failures <= 1) return interval;
  return Math.min(interval * 2 ** (failures - 1), Math.max(interval, MAX_BACKOFF_MS));
}

const invalid = (message: string) => new ImportError('invalid', message);

async function checkedAddress(config: Config, kind: ImportKind, raw: string): Promise<string> {
  let address = raw.trim();
  if (kind === 'tec') address = tecBase(address);
  else if (!/^(https?|webcals?):\/\//i.test(address))
    throw invalid(`An ${kind === 'csv' ? 'CSV' : 'iCalendar'} source needs an http(s) or webcal URL.`);
  const verdict = await outboundPolicy(config).check(address.replace(/^webcal(s?):/i, (_, s: string) => (s ? 'https:' : 'http:')));
  if (!verdict.allowed) throw new ImportError('denied', `${address}: ${verdict.reason}`);
  return address;
}

function days(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_WINDOW_DAYS)
    throw invalid(`${name} must be a whole number of days from 0 to ${MAX_WINDOW_DAYS}`);
  return value;
}

async function termIds(prisma: Prisma, taxonomy: string, name: string, ids: number[]): Promise<string> {
  const unique = [...new Set(ids)];
  const found = await prisma.term.count({ where: { id: { in: unique }, taxonomy } });
  if (found !== unique.length) throw invalid(`${name}: every id must be an existing ${name === 'categories' ? 'category' : 'tag'}`);
  return JSON.stringify(unique);
}

/** The columns an input sets, checked (what it leaves out stays, or takes the default). */
async function columns(deps: { prisma: Prisma; config: Config }, input: SourceInput, kind: ImportKind) {
  const { prisma, config } = deps;
  const data: Record<string, unknown> = {};
  if (input.name != null) data.name = input.name.trim().slice(0, 200);
  if (input.address != null) data.address = await checkedAddress(config, kind, input.address);
  if (input.headers != null) {
    const headers = parseHeaders(input.headers);
    if (Object.keys(headers).length && !config.secretKey)
      throw invalid('credentials need the server to have ALMANAC_SECRET_KEY set (they are stored encrypted with it)');
    data.credentials = Object.keys(headers).length ? sealHeaders(headers, config.secretKey!) : '';
  }
  if (input.refreshSeconds != null) {
    const seconds = input.refreshSeconds;
    const least = config.sources.minRefreshSeconds;
    if (!Number.isInteger(seconds) || (seconds !== 0 && seconds < least) || seconds > 31_536_000)
      throw invalid(`refreshSeconds must be 0 (off) or from ${least} (SOURCE_MIN_REFRESH_SECONDS) to 31536000`);
    data.refreshSeconds = seconds;
  }
  if (input.windowDaysBack != null) data.windowDaysBack = days('windowDaysBack', input.windowDaysBack);
  if (input.windowDaysAhead != null) data.windowDaysAhead = days('windowDaysAhead', input.windowDaysAhead);
  if (input.defaultStatus != null) {
    if (input.defaultStatus !== 'publish' && input.defaultStatus !== 'draft') throw invalid('defaultStatus must be publish or draft');
    data.defaultStatus = input.defaultStatus;
  }
  if (input.categories != null) data.categories = await termIds(prisma, CATEGORY_TAXONOMY, 'categories', input.categories);
  if (input.tags != null) data.tags = await termIds(prisma, TAG_TAXONOMY, 'tags', input.tags);
  if (input.authority != null) {
    if (!(AUTHORITIES as readonly string[]).includes(input.authority)) throw invalid(`authority must be one of ${AUTHORITIES.join(', ')}`);
    data.authority = input.authority;
  }
  if (input.trashRemoved != null) data.trashRemoved = input.trashRemoved;
  return data;
}

/** When a source with these settings runs next, from now: a fresh or resumed source at once. */
const firstRun = (refreshSeconds: number, paused: boolean) => (refreshSeconds > 0 && !paused ? new Date() : null);

async function findRow(prisma: Prisma, id: number): Promise<SourceRow> {
  const row = await prisma.calendarSource.findUnique({ where: { id } });
  if (!row) throw new ImportError('not_found', `No calendar source ${id}.`);
  return row;
}

async function unique<T>(write: () => Promise<T>, address: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw new ImportError('conflict', `A source already reads ${address}.`);
    throw error;
  }
}

export async function createSource(
  deps: { prisma: Prisma; config: Config },
  viewer: Viewer | null,
  input: SourceInput,
): Promise<SourceView> {
  assertMayImport(viewer);
  const kind = input.kind;
  if (kind !== 'tec' && kind !== 'ical' && kind !== 'csv') throw invalid('kind must be TEC, ICAL or CSV');
  if (!input.address?.trim()) throw invalid('address is required');
  const data = await columns(deps, input, kind);
  const refreshSeconds = (data.refreshSeconds as number | undefined) ?? 0;
  const row = await unique(
    () =>
      deps.prisma.calendarSource.create({
        data: { ...data, kind, address: data.address as string, userId: viewer!.userId, nextRunAt: firstRun(refreshSeconds, false) },
      }),
    data.address as string,
  );
  sourceSignals.emit('due');
  return sourceView(row);
}

export async function updateSource(
  deps: { prisma: Prisma; config: Config },
  viewer: Viewer | null,
  id: number,
  input: SourceInput,
): Promise<SourceView> {
  assertMayImport(viewer);
  const row = await findRow(deps.prisma, id);
  if (input.kind != null && input.kind !== row.kind) throw invalid("a source's kind cannot change: make a new source");
  const data = await columns(deps, input, row.kind as ImportKind);
  if (data.address !== undefined && data.address !== row.address && row.jobId !== null)
    throw new ImportError('conflict', 'A run is under way: change the address when it ends.');
  // A new interval counts from now (the last run's time would make a shortened one due at once).
  if (data.refreshSeconds !== undefined && data.refreshSeconds !== row.refreshSeconds) {
    const seconds = data.refreshSeconds as number;
    data.nextRunAt = seconds > 0 && !row.paused ? new Date(Date.now() + seconds * 1000) : null;
  }
  const updated = await unique(() => deps.prisma.calendarSource.update({ where: { id }, data }), String(data.address ?? row.address));
  sourceSignals.emit('due');
  return sourceView(updated);
}

/** Pausing stops future runs (one under way ends normally); resuming runs it at once and clears its failures. */
export async function setSourcePaused(prisma: Prisma, viewer: Viewer | null, id: number, paused: boolean): Promise<SourceView> {
  assertMayImport(viewer);
  const row = await findRow(prisma, id);
  const updated = await prisma.calendarSource.update({
    where: { id },
    data: paused ? { paused, nextRunAt: null } : { paused, failures: 0, nextRunAt: firstRun(row.refreshSeconds, false) },
  });
  if (!paused) sourceSignals.emit('due');
  return sourceView(updated);
}

/** Makes the source due now (paused or off as it may be); CONFLICT while a run is under way. */
export async function runSourceNow(prisma: Prisma, viewer: Viewer | null, id: number): Promise<SourceView> {
  assertMayImport(viewer);
  await findRow(prisma, id);
  const { count } = await prisma.calendarSource.updateMany({ where: { id, jobId: null }, data: { nextRunAt: new Date() } });
  if (count !== 1) throw new ImportError('conflict', `Calendar source ${id} is running.`);
  sourceSignals.emit('due');
  return sourceView(await findRow(prisma, id));
}

export async function findSource(prisma: Prisma, viewer: Viewer | null, id: number): Promise<SourceView> {
  assertMayImport(viewer);
  return sourceView(await findRow(prisma, id));
}

export async function listSources(prisma: Prisma, viewer: Viewer | null): Promise<SourceView[]> {
  assertMayImport(viewer);
  return (await prisma.calendarSource.findMany({ orderBy: { id: 'asc' } })).map(sourceView);
}

/**
 * A CSV file's column mapping and first rows, before it is imported: a saved CSV source's (with its
 * credentials), or a file at `address` (with `headers`).
 */
export async function previewCsvSource(
  deps: { prisma: Prisma; config: Config },
  viewer: Viewer | null,
  input: { id?: number | null; address?: string | null; headers?: string[] | null },
): Promise<CsvPreview> {
  assertMayImport(viewer);
  let address: string;
  let headers: Record<string, string>;
  if (input.id != null) {
    const row = await findRow(deps.prisma, input.id);
    if (row.kind !== 'csv') throw invalid(`Calendar source ${input.id} is not a CSV file.`);
    ({ address } = row);
    headers = sourceHeaders(row, deps.config);
  } else {
    if (!input.address?.trim()) throw invalid('address (or id) is required');
    address = await checkedAddress(deps.config, 'csv', input.address);
    headers = parseHeaders(input.headers ?? []);
  }
  const text = await readIcal(address, outboundPolicy(deps.config), {
    allowFiles: false,
    headers: { accept: 'text/csv, text/plain;q=0.5', ...headers },
  });
  return previewCsv(text);
}

/**
 * Deletes the source; with `trashEvents`, the events it brought leave too (to the trash), in one
 * transaction with the delete. Either way what this Almanac remembers of its records goes, so a
 * new source of the same address starts afresh. CONFLICT while a run is under way.
 */
export async function deleteSource(
  deps: { prisma: Prisma; config: Config },
  viewer: Viewer | null,
  id: number,
  trashEvents: boolean,
): Promise<{ source: SourceView; trashed: number }> {
  assertMayImport(viewer);
  const row = await findRow(deps.prisma, id);
  if (row.jobId !== null) throw new ImportError('conflict', `Calendar source ${id} is running: delete it when the run ends.`);
  const key = sourceKey(row);
  let trashed = 0;
  await deps.prisma.$transaction(
    async (tx) => {
      const prisma = tx as unknown as Prisma;
      const { count } = await prisma.calendarSource.deleteMany({ where: { id, jobId: null } });
      if (count !== 1) throw new ImportError('conflict', `Calendar source ${id} started a run: delete it when the run ends.`);
      if (trashEvents) {
        const links = await prisma.importedRecord.findMany({ where: { source: key, kind: 'event' }, select: { localId: true } });
        const context = { prisma, config: deps.config, viewer: { userId: row.userId, login: 'import', role: 'administrator' as const } };
        for (const { localId } of links) {
          const event = await prisma.event.findUnique({ where: { id: localId }, select: { status: true, seriesId: true } });
          if (!event || event.status === 'trash') continue;
          await trashEvent(context, { id: localId }, event.seriesId != null ? 'ALL' : 'THIS');
          trashed++;
        }
      }
      await prisma.importedRecord.deleteMany({ where: { source: key } });
      await prisma.importSource.deleteMany({ where: { source: key } });
    },
    { timeout: DELETE_TIMEOUT_MS },
  );
  return { source: sourceView(row), trashed };
}
