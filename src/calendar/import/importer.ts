// One source's records → Almanac's records, through the calendar's own writes. Remembers which local
// record each remote one became (ImportedRecord), so a second run updates it; a record the site's
// people trashed here stays trashed. A record the writes refuse is counted and reported, and the
// import goes on; anything else (the database, the source) stops the job, which can be resumed.
// A record whose fields are those last written (its fingerprint) is not written again, so a re-run
// of an unchanged source changes nothing here.
import { createHash } from 'node:crypto';
import type { Viewer } from '../../auth/viewer.js';
import type { Config } from '../../config.js';
import type { Prisma } from '../../db/client.js';
import { parseWall, wallAsUtcMillis, wallString, normalizeWall } from '../dates/wall-times.js';
import { CalendarError } from '../errors.js';
import { createEvent, trashEvent, updateEvent, type EventFields } from '../events.js';
import { createLinkedPost, trashLinkedPost, updateLinkedPost } from '../linked-posts.js';
import type { LinkedFields } from '../linked.js';
import type { LinkedType } from '../posts.js';
import { formatRrule } from '../recurrence/index.js';
import { planRecurrence } from '../series.js';
import { CATEGORY_TAXONOMY, createTerm, deleteTerm, TAG_TAXONOMY, updateTerm, type TermInput } from '../terms.js';
import type { CsvItem } from './csv-source.js';
import type { IcalItem } from './ical-source.js';
import {
  carriedPrint,
  editedGroups,
  localPrint,
  parsePrint,
  withoutGroups,
  type Authority,
  type FieldGroup,
  type LocalPrint,
} from './local-edits.js';
import { eventFields, eventRefs, linkedFields, termInput, type TecRecord } from './tec-records.js';
import type { TecCollection, TecSource } from './tec-source.js';

export type RecordKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';
export type Outcome = 'created' | 'updated' | 'unchanged' | 'skipped' | 'kept' | 'removed' | 'failed';

/** How a scheduled source's records are written (a one-shot import: ONE_SHOT). */
export interface ImportPolicy {
  /** What a change at the source does to an event edited here (local-edits.ts). */
  authority: Authority;
  /** Records the source removes or cancels leave here too. */
  removals: boolean;
  /** The status of new events ("": the source's), but a private event's; later runs leave a reviewer's status alone. */
  status: string;
  /** Terms every event gets besides the source's (term ids). */
  categories: number[];
  tags: number[];
  /** Keeps each event's local print after a write, so that later runs see edits made here. */
  trackEdits: boolean;
}

export const ONE_SHOT: ImportPolicy = { authority: 'overwrite', removals: true, status: '', categories: [], tags: [], trackEdits: false };
export type Counts = Partial<Record<RecordKind, Record<Outcome, number>>>;

interface Deps {
  prisma: Prisma;
  config: Config;
  viewer: Viewer;
}

const KIND_OF: Record<TecCollection, RecordKind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
};
const TAXONOMY = { category: CATEGORY_TAXONOMY, tag: TAG_TAXONOMY } as const;
/** Parents of parents… deeper than this is a cycle at the source. */
const MAX_TERM_DEPTH = 20;
/**
 * How long one batch's transaction may run: a page of records, with a parent category fetched from
 * the source now and then (its retries included).
 */
const BATCH_TIMEOUT_MS = 300_000;

interface Write<F> {
  create(fields: F): Promise<number>;
  update(id: number, fields: F): Promise<number>;
}

export class Importer {
  private source: TecSource | null = null;
  /** Remote records already written in this run (embedded copies are not written twice). */
  private done = new Map<string, number | null>();
  /** The job whose full read is listing the source (0: none): listed records are marked seen by it. */
  private listingJob = 0;
  /** Records events link to, already marked seen in this run. */
  private seenLinks = new Set<string>();
  /** Records of the running batch known to have no ImportedRecord ("kind:remoteId"), found with one query. */
  private unlinked = new Set<string>();
  /** In a batch's transaction: a create commits with its ImportedRecord, so it cannot be orphaned. */
  private batched = false;

  constructor(
    private deps: Deps,
    /** The source's identity ("tec:<REST base>", "ical:<URL or file>"). */
    private sourceKey: string,
    readonly counts: Counts,
    readonly warnings: string[],
    private maxWarnings: number,
    private policy: ImportPolicy = ONE_SHOT,
  ) {}

  /**
   * Runs `work` (the records of one page) in one transaction: one commit for the page instead of one
   * per write, which was most of an import's time. Each write inside still runs the calendar's own
   * rules in its own transaction, nested here as a savepoint, so a record the writes refuse leaves
   * nothing behind and the page goes on. Anything else rolls the whole page back, and what this run
   * counted and remembered of it is forgotten too: the job resumes at that page.
   */
  async inOneTransaction(work: () => Promise<void>, records: { kind: RecordKind; remoteId: string }[] = []): Promise<void> {
    const outside = this.deps;
    const before = {
      counts: structuredClone(this.counts),
      warnings: [...this.warnings],
      done: new Map(this.done),
      seenLinks: new Set(this.seenLinks),
    };
    try {
      await outside.prisma.$transaction(
        async (tx) => {
          // Prisma's transaction client nests a write's own $transaction as a savepoint.
          this.deps = { ...outside, prisma: tx as unknown as Prisma };
          this.batched = true;
          await this.findUnlinked(records);
          await work();
        },
        { timeout: BATCH_TIMEOUT_MS },
      );
    } catch (error) {
      for (const kind of Object.keys(this.counts) as RecordKind[]) delete this.counts[kind];
      Object.assign(this.counts, before.counts);
      this.warnings.splice(0, this.warnings.length, ...before.warnings);
      this.done = before.done;
      this.seenLinks = before.seenLinks;
      throw error;
    } finally {
      this.deps = outside;
      this.batched = false;
      this.unlinked.clear();
    }
  }

  /** Which of `records` this source never gave before: one query per kind instead of one per record. */
  private async findUnlinked(records: { kind: RecordKind; remoteId: string }[]) {
    const byKind = new Map<RecordKind, string[]>();
    for (const { kind, remoteId } of records) byKind.set(kind, [...(byKind.get(kind) ?? []), remoteId]);
    for (const [kind, remoteIds] of byKind) {
      const rows = await this.deps.prisma.importedRecord.findMany({
        where: { source: this.sourceKey, kind, remoteId: { in: remoteIds } },
        select: { remoteId: true },
      });
      const linked = new Set(rows.map((row) => row.remoteId));
      for (const remoteId of remoteIds) if (!linked.has(remoteId)) this.unlinked.add(`${kind}:${remoteId}`);
    }
  }

  useSource(source: TecSource) {
    this.source = source;
  }

  /** Marks every record this run lists as seen by `jobId`, for removeUnseen at the end of the full read. */
  markSeenBy(jobId: number) {
    this.listingJob = jobId;
  }

  private count(kind: RecordKind, outcome: Outcome) {
    const forKind = (this.counts[kind] ??= { created: 0, updated: 0, unchanged: 0, skipped: 0, kept: 0, removed: 0, failed: 0 });
    forKind[outcome] ??= 0; // counts saved before this outcome existed
    forKind[outcome]++;
  }

  private warn(message: string) {
    if (this.warnings.length < this.maxWarnings) this.warnings.push(message);
  }

  /** The local id a remote record became, when that record is still here and not trashed; 0: a create was under way. */
  private async linked(
    kind: RecordKind,
    remoteId: string,
  ): Promise<{ id: number | null; trashed: boolean; fingerprint: string; localPrint: string } | null> {
    if (this.unlinked.has(`${kind}:${remoteId}`)) return null;
    const link = await this.deps.prisma.importedRecord.findUnique({
      where: { source_kind_remoteId: { source: this.sourceKey, kind, remoteId } },
    });
    if (!link) return null;
    if (link.localId === 0) return { id: 0, trashed: false, fingerprint: '', localPrint: '' };
    const { prisma } = this.deps;
    const row =
      kind === 'category' || kind === 'tag'
        ? await prisma.term.findUnique({ where: { id: link.localId }, select: { id: true } }).then((t) => t && { status: 'publish' })
        : // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a delegate picked by record kind: the generated client types each model's apart
          await (prisma[kind] as any).findUnique({ where: { id: link.localId }, select: { status: true } });
    if (!row) return null;
    return { id: link.localId, trashed: row.status === 'trash', fingerprint: link.fingerprint, localPrint: link.localPrint };
  }

  /** `fingerprint`: of the fields written ("" when a write is under way or was not from fields); `print`: the event's local print. */
  private async remember(kind: RecordKind, remoteId: string, localId: number, fingerprint = '', print?: LocalPrint) {
    const key = { source: this.sourceKey, kind, remoteId };
    this.unlinked.delete(`${kind}:${remoteId}`);
    const seen = this.listingJob ? { seenBy: this.listingJob } : {};
    const local = print ? { localPrint: JSON.stringify(print) } : {};
    await this.deps.prisma.importedRecord.upsert({
      where: { source_kind_remoteId: key },
      create: { ...key, localId, fingerprint, ...seen, ...local },
      update: { localId, fingerprint, ...seen, ...local },
    });
  }

  /** A record the listing holds that the source's date window leaves out: not written, and not taken as removed. */
  async outsideWindow(kind: RecordKind, remoteId: string) {
    if (!this.listingJob) return;
    await this.deps.prisma.importedRecord.updateMany({
      where: { source: this.sourceKey, kind, remoteId },
      data: { seenBy: this.listingJob },
    });
  }

  /** A record the listing holds as it was: only its mark as seen is written (during a full read). */
  private async seen(kind: RecordKind, remoteId: string) {
    if (!this.listingJob) return;
    await this.deps.prisma.importedRecord.update({
      where: { source_kind_remoteId: { source: this.sourceKey, kind, remoteId } },
      data: { seenBy: this.listingJob },
    });
  }

  /**
   * Creates or updates the local copy of one remote record; null when it is not imported (trashed
   * here, or refused by the writes). `orphan` finds a copy whose create finished but was not yet
   * remembered when the process stopped.
   */
  private async upsert<F extends object>(
    kind: RecordKind,
    remoteId: string,
    label: string,
    fields: F,
    write: Write<F>,
    orphan?: () => Promise<number | null>,
  ): Promise<number | null> {
    const key = `${kind}:${remoteId}`;
    if (this.done.has(key)) return this.done.get(key)!;
    let link = await this.linked(kind, remoteId);
    if (link?.id === 0) {
      const found = orphan ? await orphan() : null;
      link = found ? { id: found, trashed: false, fingerprint: '', localPrint: '' } : null;
    }
    if (link?.trashed) {
      await this.seen(kind, remoteId);
      this.count(kind, 'skipped');
      this.done.set(key, null);
      return null;
    }
    if (kind === 'event') fields = this.withDefaults(fields as EventFields) as F;
    const print = fingerprint(fields);
    if (link?.id && link.fingerprint === print) {
      await this.seen(kind, remoteId);
      this.count(kind, 'unchanged');
      this.done.set(key, link.id);
      return link.id;
    }
    const update = link?.id && kind === 'event' ? await this.eventUpdate(link.id, link.localPrint, fields as EventFields) : null;
    if (update?.kept) {
      await this.seen(kind, remoteId);
      this.count(kind, 'kept');
      this.done.set(key, link!.id);
      return link!.id;
    }
    let id: number | null = null;
    try {
      id = await this.withImageFallback(update ? (update.fields as F) : fields, label, async (given) => {
        if (link?.id) return write.update(link.id, given);
        if (orphan && !this.batched) await this.remember(kind, remoteId, 0);
        return write.create(given);
      });
      const after = kind === 'event' && this.policy.trackEdits ? await localPrint(this.deps.prisma, id) : null;
      await this.remember(kind, remoteId, id, print, after ? carriedPrint(after, update?.before ?? null, update?.edited ?? []) : undefined);
      this.count(kind, link?.id ? 'updated' : 'created');
    } catch (error) {
      if (!(error instanceof CalendarError)) throw error;
      this.count(kind, 'failed');
      this.warn(`${label}: ${describe(error)}`);
    }
    this.done.set(key, id);
    return id;
  }

  /** The source's default status and terms on an event's fields. */
  private withDefaults(fields: EventFields): EventFields {
    const { status, categories, tags } = this.policy;
    const merged = { ...fields };
    if (status && fields.status !== 'private') merged.status = status;
    if (categories.length) merged.categories = [...new Set([...((fields.categories as unknown[]) ?? []), ...categories])];
    if (tags.length) merged.tags = [...new Set([...((fields.tags as unknown[]) ?? []), ...tags])];
    return merged;
  }

  /**
   * What an update of an imported event writes under the source's authority: every field, the
   * fields of groups nobody edited here, or nothing (`kept`) when the event was edited here. A
   * status the source set on create is not written again: a reviewer's decision stands.
   */
  private async eventUpdate(
    id: number,
    printJson: string,
    fields: EventFields,
  ): Promise<{ kept: boolean; fields: EventFields; before: LocalPrint | null; edited: FieldGroup[] }> {
    const given = { ...fields };
    if (this.policy.status) delete given.status;
    if (this.policy.authority === 'overwrite') return { kept: false, fields: given, before: null, edited: [] };
    const before = parsePrint(printJson);
    const edited = editedGroups(before, await localPrint(this.deps.prisma, id));
    // A series is retimed as a whole: one whose time was edited here is left as it is.
    const kept = edited.length > 0 && (this.policy.authority === 'keep' || (fields.recurrence != null && edited.includes('time')));
    return { kept, fields: withoutGroups(given, edited), before, edited };
  }

  /** An image the source names but that cannot be reached (moved, private) does not cost the record. */
  private async withImageFallback<F extends object>(fields: F, label: string, write: (fields: F) => Promise<number>): Promise<number> {
    try {
      return await write(fields);
    } catch (error) {
      const params =
        error instanceof CalendarError && error.code === 'INVALID_INPUT'
          ? (error.details.params as Record<string, string> | undefined)
          : undefined;
      const image = (fields as { image?: unknown }).image;
      if (!params?.image || Object.keys(params).length !== 1 || !image) throw error;
      this.warn(`${label}: image ${String(image)} could not be reached; imported without it`);
      return write({ ...fields, image: undefined });
    }
  }

  private writes() {
    const { prisma, config, viewer } = this.deps;
    const context = { prisma, config, viewer };
    const linked = (type: LinkedType): Write<LinkedFields> => ({
      create: async (fields) => (await createLinkedPost(context, type, fields)).id,
      update: (id, fields) => updateLinkedPost(context, type, { id }, fields),
    });
    const term = (kind: 'category' | 'tag'): Write<TermInput> => ({
      create: async (input) => {
        try {
          return await createTerm(context, TAXONOMY[kind], input);
        } catch (error) {
          // The same name at the same level is the same term (one import adopted it before, or the site had it).
          if (!(error instanceof CalendarError) || error.code !== 'TERM_EXISTS') throw error;
          const id = error.details.termId as number;
          await updateTerm(context, TAXONOMY[kind], id, input);
          return id;
        }
      },
      update: (id, input) => updateTerm(context, TAXONOMY[kind], id, input),
    });
    const event: Write<EventFields> = {
      create: (fields) => createEvent(context, fields),
      update: (id, fields) => updateEvent(context, { id }, fields),
    };
    return { linked, term, event };
  }

  // — The Events Calendar —

  async tecRecord(collection: TecCollection, record: TecRecord): Promise<number | null> {
    const kind = KIND_OF[collection];
    if (kind === 'category' || kind === 'tag') return this.tecTerm(kind, record, 0);
    if (kind === 'venue' || kind === 'organizer') return this.tecLinked(kind, record);
    return this.tecEvent(record);
  }

  private async tecTerm(kind: 'category' | 'tag', record: TecRecord, depth: number): Promise<number | null> {
    let parent: number | null = null;
    const parentId = Number(record.parent) || 0;
    if (kind === 'category' && parentId > 0 && depth < MAX_TERM_DEPTH) {
      parent = this.done.get(`category:${parentId}`) ?? (await this.linked('category', String(parentId)))?.id ?? null;
      // A parent listed on a later page (or not at all): fetch and import it first.
      if (!parent && this.source) parent = await this.tecTerm('category', await this.source.record('categories', parentId), depth + 1);
    }
    return this.upsert(kind, String(record.id), `${kind} "${record.name}"`, termInput(record, parent), this.writes().term(kind));
  }

  private tecLinked(type: LinkedType, record: TecRecord): Promise<number | null> {
    return this.upsert(type, String(record.id), `${type} "${record[type]}"`, linkedFields(type, record), this.writes().linked(type));
  }

  /** A record an event embeds: the one already imported, else this copy. */
  private async embedded(kind: RecordKind, record: TecRecord, write: () => Promise<number | null>): Promise<number | null> {
    const key = `${kind}:${record.id}`;
    if (this.done.has(key)) return this.done.get(key)!;
    const link = await this.linked(kind, String(record.id));
    if (!link?.id) return write();
    // Listed or not, a record an event links to is still at the source (marked once a run).
    if (!link.trashed && !this.seenLinks.has(key)) {
      this.seenLinks.add(key);
      await this.seen(kind, String(record.id));
    }
    return link.trashed ? null : link.id;
  }

  private async tecEvent(record: TecRecord): Promise<number | null> {
    const refs = eventRefs(record);
    const ids = async (kind: RecordKind, list: TecRecord[], write: (r: TecRecord) => Promise<number | null>) => {
      const found: number[] = [];
      for (const item of list) {
        const id = await this.embedded(kind, item, () => write(item));
        if (id !== null) found.push(id);
      }
      return found;
    };
    const links = {
      venue: refs.venue ? await this.embedded('venue', refs.venue, () => this.tecLinked('venue', refs.venue!)) : null,
      organizers: await ids('organizer', refs.organizers, (r) => this.tecLinked('organizer', r)),
      categories: await ids('category', refs.categories, (r) => this.tecTerm('category', r, 0)),
      tags: await ids('tag', refs.tags, (r) => this.tecTerm('tag', r, 0)),
    };
    const fields = eventFields(record, links);
    return this.upsert('event', String(record.id), `event "${fields.title}"`, fields, this.writes().event, () => this.orphanEvent(fields));
  }

  private async orphanEvent(fields: EventFields): Promise<number | null> {
    const found = await this.deps.prisma.event.findFirst({
      where: { title: fields.title, startLocal: fields.startDate, status: { not: 'trash' } },
      orderBy: { id: 'desc' },
      select: { id: true },
    });
    return found?.id ?? null;
  }

  /**
   * The source no longer shows a record (deleted, trashed, unpublished there): its copy here leaves
   * (events, venues and organizers to the trash, terms deleted) and is forgotten, so that the record
   * coming back at the source comes back here as a new copy. A copy already trashed here is left be.
   */
  async removeRemote(kind: RecordKind, remoteId: string): Promise<void> {
    if (!this.policy.removals) return;
    const link = await this.linked(kind, remoteId);
    const context = { ...this.deps };
    try {
      if (link?.id && !link.trashed) {
        // A series the source removed leaves whole.
        const series =
          kind === 'event' && (await context.prisma.event.findUnique({ where: { id: link.id }, select: { seriesId: true } }))?.seriesId;
        if (kind === 'event') await trashEvent(context, { id: link.id }, series != null ? 'ALL' : 'THIS');
        else if (kind === 'venue' || kind === 'organizer') await trashLinkedPost(context, kind, { id: link.id });
        else await deleteTerm(context, TAXONOMY[kind], link.id);
        this.count(kind, 'removed');
      }
    } catch (error) {
      if (!(error instanceof CalendarError)) throw error;
      this.count(kind, 'failed');
      this.warn(`${kind} ${remoteId}: could not be removed: ${describe(error)}`);
      return;
    }
    await this.deps.prisma.importedRecord.deleteMany({ where: { source: this.sourceKey, kind, remoteId } });
    // Restored later in the same run, it is imported again.
    this.done.delete(`${kind}:${remoteId}`);
  }

  /**
   * After a complete read of an iCalendar feed: the events it gave before that it no longer holds
   * leave (`present`: every UID in the feed, window or not). Occurrences expanded from a series
   * ("UID#start") are left: they fall out of the window rather than out of the feed.
   */
  async removeMissingEvents(present: Set<string>): Promise<void> {
    const links = await this.deps.prisma.importedRecord.findMany({
      where: { source: this.sourceKey, kind: 'event' },
      select: { remoteId: true },
    });
    for (const { remoteId } of links) if (!remoteId.includes('#') && !present.has(remoteId)) await this.removeRemote('event', remoteId);
  }

  /** After a complete full read: the records this source gave before that the listing no longer holds leave. */
  async removeUnseen(jobId: number): Promise<void> {
    const gone = await this.deps.prisma.importedRecord.findMany({
      where: { source: this.sourceKey, seenBy: { not: jobId } },
      select: { kind: true, remoteId: true },
    });
    for (const link of gone) await this.removeRemote(link.kind as RecordKind, link.remoteId);
  }

  // — CSV (The Events Calendar's columns) —

  /** One row: its venue and organizers by name (an organizer may be given by its id here), then the event. */
  async csvRow(item: CsvItem): Promise<number | null> {
    const write = this.writes().linked;
    const venue = item.venue ? await this.upsert('venue', item.venue, `venue "${item.venue}"`, { name: item.venue }, write('venue')) : null;
    const organizers: number[] = [];
    for (const name of item.organizers) {
      const id = /^\d+$/.test(name)
        ? Number(name)
        : await this.upsert('organizer', name, `organizer "${name}"`, { name }, write('organizer'));
      if (id) organizers.push(id);
    }
    const fields: EventFields = { ...item.fields, venue: venue ?? '', organizer: organizers };
    const label = `event "${fields.title}" (line ${item.line})`;
    return this.upsert('event', item.remoteId, label, fields, this.writes().event, () => this.orphanEvent(fields));
  }

  // — iCalendar —

  async icalItem(item: IcalItem): Promise<number | null> {
    if (item.occurrenceOf) return this.icalOccurrence(item, item.occurrenceOf);
    const series = item.fields.recurrence != null;
    if (series) await this.keepSeriesLink(item.remoteId);
    if (item.cancelled) {
      const link = await this.linked('event', item.remoteId);
      if (link?.id && !link.trashed && this.policy.removals) {
        // A cancelled series leaves the calendar whole.
        await trashEvent(this.deps, { id: link.id }, series ? 'ALL' : 'THIS');
        this.count('event', 'removed');
      } else this.count('event', 'skipped');
      return null;
    }
    const fields = await this.icalFields(item);
    const write = series ? this.seriesWrite(item.remoteId) : this.writes().event;
    return this.upsert('event', item.remoteId, `event "${fields.title}" (${item.remoteId})`, fields, write, () => this.orphanEvent(fields));
  }

  /** The item's fields with its LOCATION and ORGANIZER as venue and organizer (imported first). */
  private async icalFields(item: IcalItem): Promise<EventFields> {
    const write = this.writes().linked;
    const venue = item.location
      ? await this.upsert('venue', item.location, `venue "${item.location}"`, { name: item.location }, write('venue'))
      : null;
    const organizer = item.organizer
      ? await this.upsert(
          'organizer',
          item.organizer.email || item.organizer.name,
          `organizer "${item.organizer.name}"`,
          { name: item.organizer.name, email: item.organizer.email },
          write('organizer'),
        )
      : null;
    return { ...item.fields, venue: venue ?? '', organizer: organizer ? [organizer] : [] };
  }

  /**
   * A series is remembered by the occurrence its create returned. Trashed here alone, that one does
   * not stand for the series: the link moves to an occurrence still there.
   */
  private async keepSeriesLink(remoteId: string) {
    const { prisma } = this.deps;
    const link = await prisma.importedRecord.findUnique({
      where: { source_kind_remoteId: { source: this.sourceKey, kind: 'event', remoteId } },
    });
    if (!link?.localId) return;
    const row = await prisma.event.findUnique({ where: { id: link.localId }, select: { status: true, seriesId: true } });
    if (row?.status !== 'trash' || row.seriesId === null) return;
    const other = await prisma.event.findFirst({
      where: { seriesId: row.seriesId, status: { not: 'trash' } },
      orderBy: [{ startLocal: 'asc' }, { id: 'asc' }],
      select: { id: true },
    });
    if (other) await this.remember('event', remoteId, other.id);
  }

  /** Creates a series (its first occurrence's id stands for it), or updates the whole series. */
  private seriesWrite(uid: string): Write<EventFields> {
    const { prisma, config, viewer } = this.deps;
    const context = { prisma, config, viewer };
    return {
      create: async (fields) => {
        await this.dropExpandedCopies(uid);
        return createEvent(context, fields);
      },
      update: async (id, fields) => {
        const event = await prisma.event.findUnique({ where: { id }, select: { seriesId: true } });
        // No longer a series here (ended): it becomes one again.
        if (event?.seriesId == null) return updateEvent(context, { id }, fields);
        const series = await prisma.eventSeries.findUniqueOrThrow({ where: { id: event.seriesId } });
        // The change goes through an occurrence that is not an exception, to every such occurrence.
        const target = await prisma.event.findFirst({
          where: { seriesId: series.id, detached: false, status: { not: 'trash' } },
          orderBy: [{ startLocal: 'asc' }, { id: 'asc' }],
        });
        if (!target) return id;
        const { startDate, endDate, timezone, allDay, recurrence, ...shared } = fields;
        const update: EventFields = { ...shared };
        // An unchanged status is left out: a status change renames every occurrence.
        if (update.status === target.status) delete update.status;
        const zone = timezone || config.siteTimezone;
        const wholeDay = allDay === true;
        const start = String(startDate);
        const duration = Math.max(0, secondsBetween(start, String(endDate)));
        const retimed =
          start !== series.startLocal || zone !== series.timezone || wholeDay !== series.allDay || duration !== series.duration;
        if (retimed) {
          // The target moves as the series' first start does.
          const targetStart = plusSeconds(target.recurrenceId ?? target.startLocal, secondsBetween(series.startLocal, start));
          Object.assign(update, { startDate: targetStart, endDate: plusSeconds(targetStart, duration), timezone: zone, allDay: wholeDay });
        }
        const plan = planRecurrence(recurrence!, zone, wholeDay, start);
        const sameRule =
          formatRrule(plan.rule, zone, wholeDay) === series.rule &&
          JSON.stringify(plan.exdates) === series.exdates &&
          JSON.stringify(plan.rdates) === series.rdates;
        if (!sameRule) update.recurrence = recurrence;
        await updateEvent(context, { id: target.id }, update, 'ALL');
        return id;
      },
    };
  }

  /**
   * Before a series is made from a source's recurring event, the single events an earlier import
   * expanded it into ("<UID>#<occurrence>") leave: the series replaces them.
   */
  private async dropExpandedCopies(uid: string) {
    const { prisma } = this.deps;
    const links = await prisma.importedRecord.findMany({
      where: { source: this.sourceKey, kind: 'event', remoteId: { startsWith: `${uid}#` } },
    });
    for (const link of links) {
      const row = link.localId
        ? await prisma.event.findUnique({ where: { id: link.localId }, select: { status: true, seriesId: true } })
        : null;
      if (row?.seriesId != null) continue;
      if (row && row.status !== 'trash') {
        await trashEvent(this.deps, { id: link.localId });
        this.count('event', 'removed');
      }
      await prisma.importedRecord.delete({
        where: { source_kind_remoteId: { source: link.source, kind: link.kind, remoteId: link.remoteId } },
      });
    }
  }

  /**
   * An occurrence of a series changed alone at the source (a VEVENT with a RECURRENCE-ID): the
   * occurrence at that start is updated alone, or trashed alone when cancelled. One trashed here
   * stays trashed; one the series does not have (yet: beyond the horizon) is skipped.
   */
  private async icalOccurrence(item: IcalItem, of: NonNullable<IcalItem['occurrenceOf']>): Promise<number | null> {
    const { prisma, config, viewer } = this.deps;
    const key = `event:${item.remoteId}`;
    if (this.done.has(key)) return this.done.get(key)!;
    this.done.set(key, null);
    const label = `event "${item.fields.title}" (${item.remoteId})`;
    const master = await prisma.importedRecord.findUnique({
      where: { source_kind_remoteId: { source: this.sourceKey, kind: 'event', remoteId: of.uid } },
    });
    const seriesId = master?.localId
      ? (await prisma.event.findUnique({ where: { id: master.localId }, select: { seriesId: true } }))?.seriesId
      : null;
    const occurrence =
      seriesId != null
        ? await prisma.event.findFirst({ where: { seriesId, recurrenceId: of.recurrenceId }, select: { id: true, status: true } })
        : null;
    if (!occurrence || occurrence.status === 'trash' || (item.cancelled && !this.policy.removals)) {
      if (!occurrence && !item.cancelled)
        this.warn(`${label}: its series has no occurrence starting ${of.recurrenceId} (yet); not imported`);
      this.count('event', 'skipped');
      return null;
    }
    try {
      let print = '';
      if (item.cancelled) {
        await trashEvent(this.deps, { id: occurrence.id }, 'THIS');
        this.count('event', 'removed');
      } else {
        const fields = await this.icalFields(item);
        print = fingerprint(fields);
        const link = await this.linked('event', item.remoteId);
        if (link?.id === occurrence.id && link.fingerprint === print) {
          this.count('event', 'unchanged');
          this.done.set(key, occurrence.id);
          return occurrence.id;
        }
        await this.withImageFallback(fields, label, (given) =>
          updateEvent({ prisma, config, viewer }, { id: occurrence.id }, given, 'THIS'),
        );
        this.count('event', 'updated');
      }
      await this.remember('event', item.remoteId, occurrence.id, print);
    } catch (error) {
      if (!(error instanceof CalendarError)) throw error;
      this.count('event', 'failed');
      this.warn(`${label}: ${describe(error)}`);
      return null;
    }
    if (item.cancelled) return null;
    this.done.set(key, occurrence.id);
    return occurrence.id;
  }
}

const secondsBetween = (from: string, to: string) =>
  Math.round((wallAsUtcMillis(parseWall(to.replace('T', ' '))!) - wallAsUtcMillis(parseWall(from.replace('T', ' '))!)) / 1000);

function plusSeconds(wall: string, seconds: number): string {
  const w = parseWall(wall)!;
  return wallString(normalizeWall({ ...w, s: w.s + seconds }));
}

/** What the fields a record was last written with were, in short. */
function fingerprint(fields: object): string {
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url');
}

function describe(error: CalendarError): string {
  const params = error.details.params as Record<string, string> | undefined;
  return params
    ? `${error.message} (${Object.entries(params)
        .map(([name, reason]) => `${name}: ${reason}`)
        .join('; ')})`
    : error.message;
}
