// Import jobs: an import from a The Events Calendar site or an iCalendar feed, run page by page with
// its position (cursor), counts and heartbeat in the database, so its progress can be watched from
// any process and a stopped or failed job resumes where it stood. Every record goes through
// Almanac's own writes (validation, slugs, term counts, caches) acting as an administrator, and is
// remembered (ImportedRecord), so a second import of the same source updates instead of duplicating.
// An Almanac source keeps a change log: its first import reads it whole and remembers where its log
// stood (ImportSource); later ones read only the changes since, and a full read again when the
// source no longer keeps them (CURSOR_EXPIRED).
import type { Config } from '../../config.js';
import type { Prisma } from '../../db/client.js';
import { outboundPolicy } from '../../net/url-policy.js';
import type { Viewer } from '../../auth/viewer.js';
import { sourceHeaders } from './source-credentials.js';
import { AlmanacChangeLog, ChangeCursorExpired } from './almanac-source.js';
import { ImportError } from './errors.js';
import { csvItems, type CsvItem } from './csv-source.js';
import { icalItems, readIcal, type IcalItem, type IcalWindow } from './ical-source.js';
import { Importer, ONE_SHOT, type Counts, type ImportPolicy, type RecordKind } from './importer.js';
import type { Authority } from './local-edits.js';
import { TEC_COLLECTIONS, tecBase, TecSource, type TecCollection } from './tec-source.js';

export type ImportKind = 'tec' | 'ical' | 'csv';
export type ImportStatus = 'queued' | 'running' | 'interrupted' | 'failed' | 'completed';

/** A running job whose process has not been heard from for this long was interrupted. */
export const STALE_AFTER_MS = 60_000;
const HEARTBEAT_MS = 10_000;
const MAX_WARNINGS = 100;
/** iCalendar items written in one transaction (a The Events Calendar site's are its pages). */
const ICAL_BATCH = 50;
const EXPIRED =
  "The source's change log no longer holds the changes since the last import (its cursor expired): every record is read again.";
const KIND_OF_COLLECTION: Record<TecCollection, RecordKind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
};

interface Cursor {
  phase?: TecCollection | 'changes';
  page?: number;
  /** Next item of an iCalendar feed. */
  index?: number;
  /** What the source said it holds, per phase, and how many of its records were handled. */
  totals?: Record<string, number>;
  read?: number;
  /** How this run reads the source: every record, or (an Almanac's) the changes since the last run. */
  mode?: 'full' | 'changes';
  /** The source is an Almanac whose change log is at this GraphQL URL ("": it is not). */
  almanac?: string;
  /** Its change-log cursor: where the changes read stand, or where the log ended before the full read. */
  changes?: string;
}

interface Options {
  headers?: Record<string, string>;
  window?: IcalWindow;
  /** A run of a calendar source (sources.ts): its settings (and sealed credentials) are read from it. */
  sourceId?: number;
}

export interface ImportJobView {
  id: number;
  kind: ImportKind;
  source: string;
  status: ImportStatus;
  phase: string;
  /** It reads only the changes since the last import (an Almanac source), not every record. */
  changesOnly: boolean;
  /** The source's records handled so far, and how many it said it holds. */
  processed: number;
  total: number | null;
  counts: Counts;
  warnings: string[];
  error: string;
  userId: number;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

type JobRow = NonNullable<Awaited<ReturnType<Prisma['importJob']['findUnique']>>>;

const parse = <T>(json: string, fallback: T): T => {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

export function jobView(row: JobRow, now = Date.now()): ImportJobView {
  const cursor = parse<Cursor>(row.cursor, {});
  const counts = parse<Counts>(row.counts, {});
  const stale = row.status === 'running' && (!row.heartbeatAt || now - row.heartbeatAt.getTime() > STALE_AFTER_MS);
  const totals = Object.values(cursor.totals ?? {});
  return {
    id: row.id,
    kind: row.kind as ImportKind,
    source: row.source,
    status: stale ? 'interrupted' : (row.status as ImportStatus),
    phase: row.status === 'completed' ? '' : (cursor.phase ?? ''),
    changesOnly: cursor.mode === 'changes',
    processed: cursor.read ?? 0,
    total: totals.length ? totals.reduce((a, b) => a + b, 0) : null,
    counts,
    warnings: parse<string[]>(row.warnings, []),
    error: row.error,
    userId: row.userId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
  };
}

/** Who may import, and see import jobs: administrators. */
export const mayImport = (viewer: Viewer | null): boolean => viewer?.role === 'administrator';

export function assertMayImport(viewer: Viewer | null): void {
  if (!mayImport(viewer)) throw new ImportError('forbidden', 'Only administrators may import.');
}

/** `Name: value` lines → headers (for a source behind authentication). */
export function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = line.slice(0, at).trim();
    if (at < 1 || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(name)) throw new ImportError('invalid', `"${line}" is not a header ("Name: value")`);
    headers[name.toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

export interface NewImport {
  kind: ImportKind;
  source: string;
  headers?: Record<string, string>;
  window?: Partial<IcalWindow>;
}

/** The window from `back` days before today to `ahead` days after (UTC days). */
export function windowAround(now: Date, back: number, ahead: number): IcalWindow {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { start: new Date(day - back * 86_400_000).toISOString(), end: new Date(day + (ahead + 1) * 86_400_000 - 1000).toISOString() };
}

/** The default window of recurring events: from a year ago to two years ahead. */
export function defaultWindow(now = new Date()): IcalWindow {
  const shift = (years: number) => new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate())).toISOString();
  return { start: shift(-1), end: shift(2) };
}

export async function createImportJob(
  prisma: Prisma,
  viewer: Viewer | null,
  input: NewImport,
  options: { allowFiles?: boolean } = {},
): Promise<ImportJobView> {
  assertMayImport(viewer);
  let source = input.source.trim();
  if (input.kind === 'tec') source = tecBase(source);
  else if (!options.allowFiles && !/^(https?|webcals?):\/\//i.test(source))
    throw new ImportError('invalid', `An ${input.kind === 'csv' ? 'CSV' : 'iCalendar'} import needs an http(s) or webcal URL.`);
  const window = { ...defaultWindow(), ...input.window };
  for (const [name, value] of Object.entries(window)) {
    if (Number.isNaN(Date.parse(value))) throw new ImportError('invalid', `window ${name}: "${value}" is not a date`);
    window[name as keyof IcalWindow] = new Date(value).toISOString();
  }
  if (window.start > window.end) throw new ImportError('invalid', 'the window ends before it starts');
  const row = await prisma.importJob.create({
    data: {
      kind: input.kind,
      source,
      userId: viewer!.userId,
      options: JSON.stringify({ headers: input.headers ?? {}, window } satisfies Options),
    },
  });
  return jobView(row);
}

export async function findImportJob(prisma: Prisma, viewer: Viewer | null, id: number): Promise<ImportJobView> {
  assertMayImport(viewer);
  const row = await prisma.importJob.findUnique({ where: { id } });
  if (!row) throw new ImportError('not_found', `No import job ${id}.`);
  return jobView(row);
}

/** The jobs among `ids`, for a caller who may see them (none for anyone else, without a statement). */
export async function findImportJobs(prisma: Prisma, viewer: Viewer | null, ids: number[]): Promise<ImportJobView[]> {
  if (!mayImport(viewer)) return [];
  return (await prisma.importJob.findMany({ where: { id: { in: ids } } })).map((row) => jobView(row));
}

export async function listImportJobs(prisma: Prisma, viewer: Viewer | null, first: number): Promise<ImportJobView[]> {
  assertMayImport(viewer);
  const rows = await prisma.importJob.findMany({ orderBy: { id: 'desc' }, take: Math.min(Math.max(first, 1), 100) });
  return rows.map((row) => jobView(row));
}

/**
 * Takes a job to run it here: a queued or failed one, or a running one whose process stopped
 * heartbeating. A conditional update, so two processes never run one job.
 */
export async function claimImportJob(prisma: Prisma, viewer: Viewer | null, id: number): Promise<ImportJobView> {
  const job = await findImportJob(prisma, viewer, id);
  if (job.status === 'completed')
    throw new ImportError('conflict', `Import job ${id} is complete; start a new import to bring changes over.`);
  const now = new Date();
  const claimed = await prisma.importJob.updateMany({
    where: {
      id,
      OR: [
        { status: { in: ['queued', 'failed', 'interrupted'] } },
        { status: 'running', OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: new Date(now.getTime() - STALE_AFTER_MS) } }] },
      ],
    },
    data: { status: 'running', heartbeatAt: now, error: '', finishedAt: null },
  });
  if (claimed.count === 0) throw new ImportError('conflict', `Import job ${id} is running.`);
  return findImportJob(prisma, viewer, id);
}

export interface RunOptions {
  /** Reads local files (the command line only). */
  allowFiles?: boolean;
  onProgress?: (job: ImportJobView) => void;
  /** Stops between records (the server shutting down); the job stays resumable. */
  signal?: AbortSignal;
  /** Waits between tries of a failed source read. */
  retryDelaysMs?: number[];
}

/** Whether an event from `start` to `end` (local walls "YYYY-MM-DD HH:MM:SS") meets the window, by day. */
function windowFilter(window: IcalWindow): (start: string, end: string) => boolean {
  const first = window.start.slice(0, 10);
  const last = window.end.slice(0, 10);
  return (start, end) => !start || ((end || start).slice(0, 10) >= first && start.slice(0, 10) <= last);
}

/** Runs a claimed job to its end (completed, or failed with the error kept); resolves with its view. */
export async function runImportJob(deps: { prisma: Prisma; config: Config }, id: number, options: RunOptions = {}): Promise<ImportJobView> {
  const { prisma } = deps;
  const row = await prisma.importJob.findUniqueOrThrow({ where: { id } });
  const cursor = parse<Cursor>(row.cursor, {});
  const settings = parse<Options>(row.options, {});
  const viewer: Viewer = { userId: row.userId, login: 'import', role: 'administrator' };
  const sourceKey = `${row.kind}:${row.source}`;
  const scheduled = settings.sourceId ? await prisma.calendarSource.findUnique({ where: { id: settings.sourceId } }) : null;
  const policy: ImportPolicy = scheduled
    ? {
        authority: scheduled.authority as Authority,
        removals: scheduled.trashRemoved,
        // Publish: the source's own status (a private event stays private); draft: every new event, for review.
        status: scheduled.defaultStatus === 'draft' ? 'draft' : '',
        categories: parse<number[]>(scheduled.categories, []),
        tags: parse<number[]>(scheduled.tags, []),
        trackEdits: true,
      }
    : ONE_SHOT;
  const importer = new Importer(
    { ...deps, viewer },
    sourceKey,
    parse<Counts>(row.counts, {}),
    parse<string[]>(row.warnings, []),
    MAX_WARNINGS,
    policy,
  );
  const save = async (data: Record<string, unknown> = {}) => {
    const saved = await prisma.importJob.update({
      where: { id },
      data: {
        cursor: JSON.stringify(cursor),
        counts: JSON.stringify(importer.counts),
        warnings: JSON.stringify(importer.warnings),
        heartbeatAt: new Date(),
        ...data,
      },
    });
    options.onProgress?.(jobView(saved));
  };
  const heartbeat = setInterval(
    () => void prisma.importJob.update({ where: { id }, data: { heartbeatAt: new Date() } }).catch(() => {}),
    HEARTBEAT_MS,
  );
  heartbeat.unref();
  const stopped = () => options.signal?.aborted === true;
  const interrupted = async () => {
    await save({ status: 'interrupted', error: 'The process running the import stopped; resume it.' });
    return jobView(await prisma.importJob.findUniqueOrThrow({ where: { id } }));
  };
  try {
    if (settings.sourceId) {
      if (!scheduled) throw new ImportError('not_found', 'Its calendar source was deleted.');
      // Read now, never stored in the job: the source keeps them sealed.
      settings.headers = sourceHeaders(scheduled, deps.config);
      settings.window = windowAround(row.createdAt, scheduled.windowDaysBack, scheduled.windowDaysAhead);
    }
    const inWindow = scheduled ? windowFilter(settings.window!) : () => true;
    const policy = outboundPolicy(deps.config);
    if (row.kind === 'tec') {
      const sourceOptions = { headers: settings.headers, retryDelaysMs: options.retryDelaysMs };
      const source = new TecSource(policy, row.source, sourceOptions);
      importer.useSource(source);
      if (cursor.mode === undefined) {
        // Where the source's log ends is taken before anything is read: nothing written during the read is missed.
        const found = await AlmanacChangeLog.find(policy, row.source, sourceOptions);
        const known = found && (await prisma.importSource.findUnique({ where: { source: sourceKey } }));
        Object.assign(
          cursor,
          known?.changeCursor
            ? { mode: 'changes', almanac: found!.log.url, changes: known.changeCursor }
            : { mode: 'full', almanac: found?.log.url ?? '', changes: found?.head ?? '' },
        );
        await save();
      }
      const log = cursor.almanac ? new AlmanacChangeLog(policy, cursor.almanac, sourceOptions) : null;
      if (cursor.mode === 'changes') {
        Object.assign(cursor, { phase: 'changes' });
        for (let more = true; more;) {
          let page;
          try {
            page = await log!.page(cursor.changes!);
          } catch (error) {
            if (!(error instanceof ChangeCursorExpired)) throw error;
            importer.warnings.unshift(EXPIRED);
            Object.assign(cursor, { mode: 'full', phase: undefined, page: undefined, changes: await log!.head() });
            await save();
            break;
          }
          for (const change of page.changes) {
            if (stopped()) return await interrupted();
            // The record as the source shows it now (later changes in the log agree with it).
            const record = change.removed ? null : await source.recordIfShown(change.collection, change.id);
            if (record && (change.collection !== 'events' || inWindow(String(record.start_date ?? ''), String(record.end_date ?? ''))))
              await importer.tecRecord(change.collection, record);
            else if (record)
              continue; // outside the window: neither written nor removed
            else await importer.removeRemote(KIND_OF_COLLECTION[change.collection], String(change.id));
          }
          cursor.read = (cursor.read ?? 0) + page.changes.length;
          cursor.changes = page.cursor;
          more = page.hasMore;
          await save();
        }
      }
      if (cursor.mode === 'full') {
        // An Almanac lists all its reader may see: what it no longer lists was removed there.
        if (log) importer.markSeenBy(id);
        for (const phase of TEC_COLLECTIONS.slice(TEC_COLLECTIONS.indexOf((cursor.phase as TecCollection) ?? 'categories'))) {
          if (cursor.phase !== phase) Object.assign(cursor, { phase, page: 1 });
          for (;;) {
            const page = await source.page(phase, cursor.page ?? 1);
            cursor.totals = { ...cursor.totals, [phase]: page.total };
            let stoppedAt = -1;
            await importer.inOneTransaction(
              async () => {
                for (const [index, record] of page.items.entries()) {
                  if (stopped()) return void (stoppedAt = index);
                  if (phase !== 'events' || inWindow(String(record.start_date ?? ''), String(record.end_date ?? '')))
                    await importer.tecRecord(phase, record);
                  else await importer.outsideWindow('event', String(record.id));
                }
              },
              page.items.map((record) => ({ kind: KIND_OF_COLLECTION[phase], remoteId: String(record.id) })),
            );
            // The records before the stop are written; the page is read again on resume (they are then unchanged).
            if (stoppedAt >= 0) return await interrupted();
            cursor.page = (cursor.page ?? 1) + 1;
            cursor.read = (cursor.read ?? 0) + page.items.length;
            await save();
            if (!page.items.length || cursor.page > page.totalPages) break;
          }
        }
        if (log) await importer.removeUnseen(id);
      }
    } else {
      const csv = row.kind === 'csv';
      // A CSV file is read as a feed is (the same policy, limits and errors), asked for as CSV.
      const text = await readIcal(row.source, policy, {
        allowFiles: options.allowFiles === true,
        headers: csv ? { accept: 'text/csv, text/plain;q=0.5', ...settings.headers } : settings.headers,
        signal: options.signal,
      });
      const all: (IcalItem | CsvItem)[] = csv ? csvItems(text) : icalItems(text, settings.window ?? defaultWindow());
      // A series' occurrences are already the window's; a single event outside it is left out (a CSV
      // row's dates only when written as ISO dates: others are read by the event writes).
      const items = all.filter((item) =>
        'line' in item
          ? !/^\d{4}-\d\d-\d\d/.test(item.fields.startDate!) || inWindow(item.fields.startDate!, item.fields.endDate!)
          : item.fields.recurrence != null || item.occurrenceOf || inWindow(item.fields.startDate!, item.fields.endDate!),
      );
      Object.assign(cursor, { phase: 'events', totals: { events: items.length } });
      for (let next = cursor.index ?? 0; next < items.length;) {
        const end = Math.min(next + ICAL_BATCH, items.length);
        let stoppedAt = -1;
        await importer.inOneTransaction(
          async () => {
            for (let index = next; index < end; index++) {
              if (stopped()) return void (stoppedAt = index);
              const item = items[index];
              await ('line' in item ? importer.csvRow(item) : importer.icalItem(item));
            }
          },
          items.slice(next, end).map((item) => ({ kind: 'event' as const, remoteId: item.remoteId })),
        );
        next = stoppedAt >= 0 ? stoppedAt : end;
        cursor.index = cursor.read = next;
        if (stoppedAt >= 0) return await interrupted();
        await save();
      }
      // A feed lists every event it holds: one gone from it was removed at the source.
      // (Not a CSV file: its rows are known by name and start, so a renamed row would look removed.)
      if (scheduled && !csv) await importer.inOneTransaction(() => importer.removeMissingEvents(new Set(all.map((item) => item.remoteId))));
    }
    const now = new Date();
    const known = { changeCursor: cursor.changes ?? '', lastRunAt: now, ...(cursor.mode === 'changes' ? {} : { lastFullReadAt: now }) };
    await prisma.importSource.upsert({ where: { source: sourceKey }, create: { source: sourceKey, ...known }, update: known });
    // A finished import needs no credentials any more: they are not kept.
    await save({ status: 'completed', finishedAt: now, options: JSON.stringify({ ...settings, headers: {} }) });
  } catch (error) {
    // Stopped while reading the source (the process shutting down): resumable, not failed.
    if (stopped()) return await interrupted();
    const message = error instanceof ImportError ? error.message : `internal error: ${(error as Error).message}`;
    await save({ status: 'failed', error: message, finishedAt: new Date() }).catch(() => {});
  } finally {
    clearInterval(heartbeat);
  }
  return jobView(await prisma.importJob.findUniqueOrThrow({ where: { id } }));
}
