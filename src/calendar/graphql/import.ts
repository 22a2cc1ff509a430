// Imports in GraphQL (administrators): start one from a The Events Calendar site or an iCalendar
// URL, watch its progress (importJob), resume one that stopped.
import { builder } from '../../graphql/builder.js';
import { requireViewer, type GraphQLContext } from '../../graphql/context.js';
import { translateDomainErrors, type ErrorCode } from '../../graphql/errors.js';
import { intId, NodeInterface, nodeIdField, nodeSource } from '../../graphql/node.js';
import { runImportInBackground } from '../import/background.js';
import { ImportError, type ImportErrorCode } from '../import/errors.js';
import type { Counts } from '../import/importer.js';
import {
  claimImportJob,
  createImportJob,
  findImportJob,
  findImportJobs,
  listImportJobs,
  parseHeaders,
  type ImportJobView,
} from '../import/jobs.js';

const CODES: Record<ImportErrorCode, ErrorCode> = {
  invalid: 'INVALID_INPUT',
  not_found: 'NOT_FOUND',
  forbidden: 'FORBIDDEN',
  conflict: 'CONFLICT',
  denied: 'INVALID_INPUT',
  source_unavailable: 'INVALID_INPUT',
  source_invalid: 'INVALID_INPUT',
};

translateDomainErrors(ImportError, (error) => ({
  code: CODES[error.code],
  extensions: error.code === 'invalid' || error.code === 'denied' ? { params: { source: error.message } } : {},
}));

/** Imports need a key (which one may import is the domain's rule). */
const importer = (ctx: GraphQLContext) => requireViewer(ctx, 'Importing needs an administrator API key');

export const ImportKind = builder.enumType('ImportKind', {
  description: 'What an import reads.',
  values: {
    TEC: {
      value: 'tec',
      description: 'A site running The Events Calendar, or another Almanac, through its REST API (/wp-json/tribe/events/v1).',
    },
    ICAL: { value: 'ical', description: 'An iCalendar (RFC 5545) feed.' },
    CSV: {
      value: 'csv',
      description:
        "A CSV file of events in The Events Calendar's CSV import columns (Event Name, Event Start Date, …), at an http(s) URL; see calendarSourcePreview.",
    },
  } as const,
});

const ImportStatus = builder.enumType('ImportStatus', {
  description: 'Where an import job stands.',
  values: {
    QUEUED: { value: 'queued', description: 'Made, not started yet.' },
    RUNNING: { value: 'running', description: 'A process is importing (its heartbeat is recent).' },
    INTERRUPTED: { value: 'interrupted', description: 'The process running it stopped; resumeImport continues it.' },
    FAILED: { value: 'failed', description: 'Stopped by an error (see `error`); resumeImport continues it.' },
    COMPLETED: { value: 'completed', description: 'Every record of the source was read.' },
  } as const,
});

export const ImportCount = builder
  .objectRef<{
    kind: string;
    created: number;
    updated: number;
    unchanged?: number;
    skipped: number;
    kept?: number;
    removed: number;
    failed: number;
  }>('ImportCount')
  .implement({
    description: 'What happened to the records of one kind.',
    fields: (t) => ({
      kind: t.exposeString('kind', { description: 'event, venue, organizer, category or tag.' }),
      created: t.exposeInt('created', { description: 'New records made here.' }),
      updated: t.exposeInt('updated', { description: 'Records imported before, updated.' }),
      unchanged: t.int({
        description: 'Records as they were at the last import: not written again.',
        resolve: (count) => count.unchanged ?? 0,
      }),
      skipped: t.exposeInt('skipped', { description: 'Records left alone: trashed here since an earlier import.' }),
      kept: t.int({
        description:
          "Events changed at the source but edited here, left as they are by their calendar source's update authority (KEEP_LOCAL_EDITS).",
        resolve: (count) => count.kept ?? 0,
      }),
      removed: t.exposeInt('removed', {
        description:
          'Records removed here because the source removed them: iCalendar STATUS:CANCELLED, or an Almanac source deleted, trashed or unpublished them.',
      }),
      failed: t.exposeInt('failed', { description: "Records Almanac's rules refused (see warnings)." }),
    }),
  });

/** Outcomes per kind, a row each. */
export const countRows = (counts: Counts) => Object.entries(counts).map(([kind, outcomes]) => ({ kind, ...outcomes }));

const ImportJob = builder.objectRef<ImportJobView>('ImportJob').implement({
  description: 'An import and its progress.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The job id.' }),
    nodeId: nodeIdField(t, 'ImportJob'),
    kind: t.field({ type: ImportKind, description: 'What it reads.', resolve: (job) => job.kind }),
    source: t.exposeString('source', { description: 'The REST base or iCalendar URL it reads.' }),
    status: t.field({ type: ImportStatus, description: 'Where it stands.', resolve: (job) => job.status }),
    phase: t.exposeString('phase', {
      description: 'What it is reading now (events, venues, organizers, categories, tags, or an Almanac source\'s changes; "" when done).',
    }),
    changesOnly: t.exposeBoolean('changesOnly', {
      description:
        "It reads only what changed since the last import of this source, from the source's change log (an Almanac source); false: every record.",
    }),
    processed: t.exposeInt('processed', {
      description: "The source's records read so far (an iCalendar feed's: its events and expanded occurrences).",
    }),
    total: t.exposeInt('total', {
      nullable: true,
      description: 'Records the source said it holds, for the kinds read so far (null before the first page).',
    }),
    counts: t.field({
      type: [ImportCount],
      description: 'Outcomes per kind of record.',
      resolve: (job) => countRows(job.counts),
    }),
    warnings: t.exposeStringList('warnings', { description: 'Records that could not be imported as they were, and why (at most 100).' }),
    error: t.exposeString('error', { description: 'Why it stopped, when it failed or was interrupted ("" otherwise).' }),
    createdAt: t.string({ description: 'When it was started (ISO 8601, UTC).', resolve: (job) => job.createdAt.toISOString() }),
    updatedAt: t.string({ description: 'Its last progress (ISO 8601, UTC).', resolve: (job) => job.updatedAt.toISOString() }),
    finishedAt: t.string({
      nullable: true,
      description: 'When it completed or failed (ISO 8601, UTC).',
      resolve: (job) => job.finishedAt?.toISOString() ?? null,
    }),
  }),
});

// node(nodeId): import jobs, to those importJob answers (administrators).
nodeSource({
  typeName: 'ImportJob',
  ref: ImportJob,
  parseId: intId,
  load: (ctx, ids) => findImportJobs(ctx.prisma, ctx.viewer, ids as number[]),
});

builder.queryFields((t) => ({
  importJob: t.field({
    type: ImportJob,
    description: 'One import job: poll it to watch an import. Administrators only. Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND.',
    args: { id: t.arg.int({ required: true, description: 'The job id.' }) },
    resolve: (_root, args, ctx) => findImportJob(ctx.prisma, importer(ctx), args.id),
  }),
  importJobs: t.field({
    type: [ImportJob],
    description: 'Import jobs, newest first. Administrators only.',
    args: { first: t.arg.int({ defaultValue: 20, description: 'How many (1–100).' }) },
    resolve: (_root, args, ctx) => listImportJobs(ctx.prisma, importer(ctx), args.first ?? 20),
  }),
}));

builder.mutationFields((t) => ({
  startImport: t.field({
    type: ImportJob,
    description:
      'Starts an import in the background and answers at once; watch it with importJob. A second import of the same source updates what the first made and leaves unchanged records unwritten; from another Almanac (a TEC source whose /graphql answers calendarChangeCursor) it reads only the changes since the last import. ' +
      'The source must pass the outbound URL policy. Administrators only. Errors: UNAUTHENTICATED, FORBIDDEN, INVALID_INPUT.',
    args: {
      kind: t.arg({ type: ImportKind, required: true, description: 'What `source` is.' }),
      source: t.arg.string({ required: true, description: "A site's address or its REST base (TEC), or an http(s)/webcal URL (ICAL)." }),
      headers: t.arg.stringList({
        description: 'Request headers for the source ("Name: value"), e.g. an Authorization for drafts. Never shown again.',
      }),
      windowStart: t.arg.string({ description: 'ICAL: occurrences of recurring events from this date (default: a year ago).' }),
      windowEnd: t.arg.string({ description: 'ICAL: … until this date (default: two years ahead).' }),
    },
    resolve: async (_root, args, ctx) => {
      const window = { ...(args.windowStart ? { start: args.windowStart } : {}), ...(args.windowEnd ? { end: args.windowEnd } : {}) };
      const job = await createImportJob(ctx.prisma, importer(ctx), {
        kind: args.kind,
        source: args.source,
        headers: parseHeaders(args.headers ?? []),
        window,
      });
      const claimed = await claimImportJob(ctx.prisma, ctx.viewer, job.id);
      runImportInBackground(ctx, job.id);
      return claimed;
    },
  }),
  resumeImport: t.field({
    type: ImportJob,
    description:
      'Continues a failed or interrupted import where it stopped. Administrators only. Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT (running or complete).',
    args: { id: t.arg.int({ required: true, description: 'The job id.' }) },
    resolve: async (_root, args, ctx) => {
      const claimed = await claimImportJob(ctx.prisma, importer(ctx), args.id);
      runImportInBackground(ctx, args.id);
      return claimed;
    },
  }),
}));
