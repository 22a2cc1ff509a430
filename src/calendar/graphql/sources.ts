// Calendar sources in GraphQL (administrators): calendars kept imported on a schedule, their
// settings, status, and pause / resume / run now / delete. The rules are in src/calendar/import/sources.ts.
import { builder } from '../../graphql/builder.js';
import { requireViewer, type GraphQLContext } from '../../graphql/context.js';
import {
  createSource,
  deleteSource,
  findSource,
  listSources,
  runSourceNow,
  setSourcePaused,
  updateSource,
  previewCsvSource,
  type SourceInput,
  type SourceView,
} from '../import/sources.js';
import type { CsvPreview } from '../import/csv-source.js';
import { countRows, ImportCount, ImportKind } from './import.js';

const administrator = (ctx: GraphQLContext) => requireViewer(ctx, 'Calendar sources need an administrator API key');
const iso = (date: Date | null) => date?.toISOString() ?? null;

const SourceAuthority = builder.enumType('CalendarSourceAuthority', {
  description: 'What a change at the source does to an imported event that was edited here.',
  values: {
    OVERWRITE: { value: 'overwrite', description: "The source wins: the event takes the source's fields again." },
    KEEP_LOCAL_EDITS: { value: 'keep', description: 'An event edited here is left as it is (counted as kept).' },
    OVERWRITE_UNEDITED: {
      value: 'unedited',
      description:
        "Only the fields nobody edited here take the source's change (title, description, excerpt, times, cost, website, status, image, venue, organizers, terms: each a group).",
    },
  } as const,
});

const SourceState = builder.enumType('CalendarSourceState', {
  description: 'Where a calendar source stands.',
  values: {
    IDLE: { value: 'idle', description: 'Waiting for its next run (or off: refreshSeconds 0).' },
    RUNNING: { value: 'running', description: 'A run is under way (runningJobId).' },
    PAUSED: { value: 'paused', description: 'Paused: it runs only when asked (runCalendarSource).' },
    FAILING: { value: 'failing', description: 'Its last three runs or more failed; it is retried with backoff.' },
  } as const,
});

const SourceStatus = builder.enumType('CalendarSourceDefaultStatus', {
  description: 'The status of the events a source creates.',
  values: {
    PUBLISH: { value: 'publish', description: "The source's own status: published, or private for a private event." },
    DRAFT: { value: 'draft', description: 'Drafts, for review: a later run leaves the status a reviewer gives them.' },
  } as const,
});

const SourceRun = builder.objectRef<NonNullable<SourceView['lastRun']>>('CalendarSourceRun').implement({
  description: "A calendar source's run (an import job).",
  fields: (t) => ({
    jobId: t.exposeInt('jobId', { description: 'The import job (importJob(id)).' }),
    at: t.string({ description: 'When it ended (ISO 8601, UTC).', resolve: (run) => run.at.toISOString() }),
    outcome: t.exposeString('outcome', { description: 'completed or failed.' }),
    counts: t.field({
      type: [ImportCount],
      description: 'Outcomes per kind of record.',
      resolve: (run) => countRows(run.counts),
    }),
    warnings: t.exposeStringList('warnings', { description: 'Records that could not be imported as they were, and why.' }),
    error: t.exposeString('error', { description: 'Why it failed ("" when it completed).' }),
  }),
});

const CalendarSource = builder.objectRef<SourceView>('CalendarSource').implement({
  description:
    'A calendar imported on a schedule: a The Events Calendar site or another Almanac (TEC), or an iCalendar feed (ICAL). Each run is an import job; a second run updates what the first made. See docs/import.md.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The source id.' }),
    name: t.exposeString('name', { description: 'A name for people.' }),
    kind: t.field({ type: ImportKind, description: 'What it reads.', resolve: (source) => source.kind }),
    address: t.exposeString('address', { description: 'The REST base or iCalendar URL.' }),
    hasCredentials: t.exposeBoolean('hasCredentials', { description: 'Whether request headers are stored for it (they are never shown).' }),
    refreshSeconds: t.exposeInt('refreshSeconds', { description: 'Seconds between runs (0: off, it runs only when asked).' }),
    windowDaysBack: t.exposeInt('windowDaysBack', { description: 'Events ending before this many days before a run are left out.' }),
    windowDaysAhead: t.exposeInt('windowDaysAhead', { description: 'Events starting after this many days after a run are left out.' }),
    defaultStatus: t.field({ type: SourceStatus, description: 'The status of the events it creates.', resolve: (s) => s.defaultStatus }),
    categories: t.exposeIntList('categories', { description: 'Category ids every event it brings gets.' }),
    tags: t.exposeIntList('tags', { description: 'Tag ids every event it brings gets.' }),
    authority: t.field({
      type: SourceAuthority,
      description: 'What a change at the source does to an event edited here.',
      resolve: (s) => s.authority,
    }),
    trashRemoved: t.exposeBoolean('trashRemoved', {
      description:
        'Events the source removes are trashed here: those an iCalendar feed no longer holds or cancels, and those an Almanac source deleted, trashed or unpublished. A The Events Calendar listing never counts as removal (docs/import.md).',
    }),
    paused: t.exposeBoolean('paused', { description: 'Paused: no scheduled runs.' }),
    state: t.field({ type: SourceState, description: 'Where it stands.', resolve: (s) => s.state }),
    failures: t.exposeInt('failures', { description: 'Failed runs in a row.' }),
    nextRunAt: t.string({
      nullable: true,
      description: 'When it runs next (ISO 8601, UTC; null: not scheduled).',
      resolve: (s) => iso(s.nextRunAt),
    }),
    runningJobId: t.exposeInt('runningJobId', { nullable: true, description: 'The import job of the run under way.' }),
    lastRun: t.field({ type: SourceRun, nullable: true, description: 'Its last finished run.', resolve: (s) => s.lastRun }),
  }),
});

const SourceDeletion = builder.objectRef<{ source: SourceView; trashed: number }>('CalendarSourceDeletion').implement({
  description: 'A deleted calendar source.',
  fields: (t) => ({
    source: t.field({ type: CalendarSource, description: 'The source as it was.', resolve: (d) => d.source }),
    trashedEvents: t.exposeInt('trashed', { description: 'Events it brought that were trashed with it.' }),
  }),
});

const CalendarSourceInput = builder.inputType('CalendarSourceInput', {
  description: 'Settings of a calendar source; on update, what is left out stays as it is.',
  fields: (t) => ({
    name: t.string({ description: 'A name for people.' }),
    kind: t.field({ type: ImportKind, description: 'What `address` is (required to create; cannot change).' }),
    address: t.string({
      description: "A site's address or REST base (TEC), or an http(s)/webcal URL (ICAL). Must pass the outbound URL policy.",
    }),
    headers: t.stringList({
      description:
        'Request headers ("Name: value"), e.g. an Authorization. Stored encrypted with ALMANAC_SECRET_KEY and never shown again; [] removes them.',
    }),
    refreshSeconds: t.int({ description: 'Seconds between runs: 0 (off) or at least SOURCE_MIN_REFRESH_SECONDS (default 300).' }),
    windowDaysBack: t.int({ description: 'Leave out events that end more than this many days before a run (default 365).' }),
    windowDaysAhead: t.int({ description: 'Leave out events that start more than this many days after a run (default 730).' }),
    defaultStatus: t.field({ type: SourceStatus, description: 'The status of the events it creates (default PUBLISH).' }),
    categories: t.intList({ description: 'Category ids every event it brings gets.' }),
    tags: t.intList({ description: 'Tag ids every event it brings gets.' }),
    authority: t.field({
      type: SourceAuthority,
      description: 'What a change at the source does to an event edited here (default OVERWRITE).',
    }),
    trashRemoved: t.boolean({ description: 'Trash here the events the source removes (default true; see CalendarSource.trashRemoved).' }),
  }),
});

const CsvColumnMapping = builder.objectRef<CsvPreview['columns'][number]>('CsvColumnMapping').implement({
  description: "A CSV file's column and the The Events Calendar import column it is read as.",
  fields: (t) => ({
    header: t.exposeString('header', { description: "The column's header in the file." }),
    column: t.exposeString('column', {
      nullable: true,
      description: 'The TEC column key it maps to (event_start_date, …); null: not imported.',
    }),
    label: t.exposeString('label', { nullable: true, description: "The TEC column's label (Event Start Date, …)." }),
  }),
});

const CsvRow = builder.objectRef<{ cells: string[] }>('CsvRow').implement({
  description: 'A row of a CSV file.',
  fields: (t) => ({ cells: t.exposeStringList('cells', { description: 'Its cells, in the order of the columns.' }) }),
});

const CsvPreviewRef = builder.objectRef<CsvPreview>('CsvPreview').implement({
  description: 'The first rows of a CSV file and how its columns are read, before it is imported.',
  fields: (t) => ({
    columns: t.field({ type: [CsvColumnMapping], description: 'Each column of the header, in order.', resolve: (p) => p.columns }),
    rows: t.field({
      type: [CsvRow],
      description: 'The first five rows after the header, as the file has them.',
      resolve: (p) => p.rows.map((cells) => ({ cells })),
    }),
    total: t.exposeInt('total', { description: 'Rows after the header.' }),
  }),
});

builder.queryFields((t) => ({
  calendarSourcePreview: t.field({
    type: CsvPreviewRef,
    description:
      "A CSV file's column mapping and first rows: a saved CSV source's (`id`), or the file at `address`. Administrators only. Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, INVALID_INPUT (the file cannot be read).",
    args: {
      id: t.arg.int({ description: 'A saved CSV source.' }),
      address: t.arg.string({ description: "The file's http(s) URL (when no id)." }),
      headers: t.arg.stringList({ description: 'Request headers for it ("Name: value"), when no id.' }),
    },
    resolve: (_root, args, ctx) => previewCsvSource(ctx, administrator(ctx), args),
  }),
  calendarSources: t.field({
    type: [CalendarSource],
    description: 'Calendar sources with their status. Administrators only. Errors: UNAUTHENTICATED, FORBIDDEN.',
    resolve: (_root, _args, ctx) => listSources(ctx.prisma, administrator(ctx)),
  }),
  calendarSource: t.field({
    type: CalendarSource,
    description: 'One calendar source. Administrators only. Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND.',
    args: { id: t.arg.int({ required: true, description: 'The source id.' }) },
    resolve: (_root, args, ctx) => findSource(ctx.prisma, administrator(ctx), args.id),
  }),
}));

builder.mutationFields((t) => ({
  createCalendarSource: t.field({
    type: CalendarSource,
    description:
      'Saves a calendar source; with a refresh interval it runs at once, then on its schedule. Administrators only. Errors: UNAUTHENTICATED, FORBIDDEN, INVALID_INPUT, CONFLICT (a source already reads that address).',
    args: { input: t.arg({ type: CalendarSourceInput, required: true, description: 'Its settings (kind and address required).' }) },
    resolve: (_root, args, ctx) => createSource(ctx, administrator(ctx), args.input as SourceInput),
  }),
  updateCalendarSource: t.field({
    type: CalendarSource,
    description:
      "Changes a source's settings; a new interval counts from now. Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, INVALID_INPUT, CONFLICT.",
    args: {
      id: t.arg.int({ required: true, description: 'The source id.' }),
      input: t.arg({ type: CalendarSourceInput, required: true, description: 'The settings to change.' }),
    },
    resolve: (_root, args, ctx) => updateSource(ctx, administrator(ctx), args.id, args.input as SourceInput),
  }),
  pauseCalendarSource: t.field({
    type: CalendarSource,
    description: 'Stops its scheduled runs (a run under way ends normally). Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND.',
    args: { id: t.arg.int({ required: true, description: 'The source id.' }) },
    resolve: (_root, args, ctx) => setSourcePaused(ctx.prisma, administrator(ctx), args.id, true),
  }),
  resumeCalendarSource: t.field({
    type: CalendarSource,
    description: 'Resumes its schedule (running at once) and clears its failures. Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND.',
    args: { id: t.arg.int({ required: true, description: 'The source id.' }) },
    resolve: (_root, args, ctx) => setSourcePaused(ctx.prisma, administrator(ctx), args.id, false),
  }),
  runCalendarSource: t.field({
    type: CalendarSource,
    description:
      'Runs it now (paused or off alike), in whichever process claims it first. Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT (a run is under way).',
    args: { id: t.arg.int({ required: true, description: 'The source id.' }) },
    resolve: (_root, args, ctx) => runSourceNow(ctx.prisma, administrator(ctx), args.id),
  }),
  deleteCalendarSource: t.field({
    type: SourceDeletion,
    description:
      'Deletes a source and what Almanac remembers of its records; with trashEvents, the events it brought go to the trash in the same transaction. Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT (a run is under way).',
    args: {
      id: t.arg.int({ required: true, description: 'The source id.' }),
      trashEvents: t.arg.boolean({
        defaultValue: false,
        description: 'Trash the events it brought (default: they stay, as local events).',
      }),
    },
    resolve: (_root, args, ctx) => deleteSource(ctx, administrator(ctx), args.id, args.trashEvents ?? false),
  }),
}));
