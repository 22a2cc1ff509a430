// Calendar-wide tools: the site's date and time, the change feed, and imports (administrators).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { siteNow } from '../site-time.js';
import { defined, defineTool, runAs, type McpDeps } from '../tool-kit.js';

const IMPORT_FIELDS =
  'id kind source status phase processed total error warnings createdAt finishedAt counts { kind created updated unchanged skipped failed removed }';

const importOutput = z.object({
  id: z.number().int(),
  kind: z.string(),
  source: z.string(),
  status: z.string(),
  phase: z.string(),
  processed: z.number().int(),
  total: z.number().int().nullable(),
  error: z.string(),
  warnings: z.array(z.string()),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  counts: z.array(
    z.object({
      kind: z.string(),
      created: z.number().int(),
      updated: z.number().int(),
      unchanged: z.number().int(),
      skipped: z.number().int(),
      failed: z.number().int(),
      removed: z.number().int(),
    }),
  ),
});

const importLine = (job: z.infer<typeof importOutput>) =>
  `Import #${job.id} of ${job.source} (${job.kind}): ${job.status}${job.phase ? `, ${job.phase}` : ''}, ${job.processed}${job.total === null ? '' : `/${job.total}`} read${job.error ? `; ${job.error}` : ''}`;

export function registerCalendarTools(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'current_datetime',
    {
      title: 'Current date and time',
      description:
        "Now, in the site's time zone: call it before turning relative dates (tomorrow, next Tuesday) into the dates event tools take.",
      input: {},
      output: {
        timezone: z.string().describe("The site's time zone."),
        local: z.string().describe('Site-local "YYYY-MM-DD HH:MM:SS", the form event tools take.'),
        date: z.string(),
        weekday: z.string(),
        iso: z.string().describe('ISO 8601 with the offset.'),
        utc: z.string(),
        utcOffset: z.string(),
      },
      kind: 'read',
    },
    async () => {
      const now = siteNow(deps.siteTimezone);
      return { summary: `${now.weekday} ${now.local} (${now.timezone}, UTC${now.utcOffset})`, data: { ...now } };
    },
  );

  defineTool(
    server,
    deps,
    'calendar_changes',
    {
      title: 'Calendar changes',
      description:
        'Changes to events, venues, organizers, categories and tags after a cursor, in commit order, as the caller may see them. Without a cursor: where the log ends now (keep it, and ask again later with it).',
      input: {
        after: z.string().optional().describe('A cursor from a previous answer; omitted: answers the current end of the log, no changes.'),
        types: z
          .array(z.enum(['EVENT', 'VENUE', 'ORGANIZER', 'EVENT_CATEGORY', 'TAG']))
          .optional()
          .describe('Only these kinds of record (default: all).'),
        first: z.number().int().min(1).max(100).default(50).describe('How many changes to read (1–100).'),
      },
      output: {
        changes: z.array(
          z.object({
            type: z.string(),
            id: z.number().int(),
            kind: z.string().describe('CREATED, UPDATED, TRASHED, DELETED…'),
            fields: z.array(z.string()),
            removed: z.boolean(),
            atUtc: z.string(),
          }),
        ),
        cursor: z.string().describe('Pass as `after` to read on.'),
        hasMore: z.boolean(),
      },
      kind: 'read',
    },
    async ({ after, types, first }, { viewer }) => {
      if (after === undefined) {
        const data = await runAs(deps, viewer, 'query { calendarChangeCursor }', {});
        return {
          summary: `The change log ends at cursor "${data.calendarChangeCursor}": pass it as \`after\` later to read what changed since.`,
          data: { changes: [], cursor: data.calendarChangeCursor, hasMore: false },
        };
      }
      const data = await runAs(
        deps,
        viewer,
        `query($after: String, $types: [CalendarRecordType!], $first: Int) { calendarChanges(after: $after, types: $types, first: $first) {
          cursor hasMore changes { type id kind fields removed atUtc } } }`,
        defined({ after, types, first }),
      );
      const page = data.calendarChanges;
      const lines = page.changes.map(
        (c: { type: string; id: number; kind: string; fields: string[] }) =>
          `${c.kind} ${c.type} #${c.id}${c.fields.length ? ` (${c.fields.join(', ')})` : ''}`,
      );
      return {
        summary: `${page.changes.length} change(s)${page.hasMore ? ', more follow' : ''}; next cursor "${page.cursor}".\n${lines.join('\n')}`,
        data: page,
      };
    },
  );

  defineTool(
    server,
    deps,
    'start_import',
    {
      title: 'Start an import',
      description:
        'Imports events, venues, organizers and terms from a site running The Events Calendar (or another Almanac), or from an iCalendar feed, in the background (administrators only). Watch it with get_import.',
      input: {
        kind: z
          .enum(['TEC', 'ICAL'])
          .describe('TEC: a WordPress site with The Events Calendar, or an Almanac; ICAL: an iCalendar feed URL.'),
        source: z.string().describe("The site's address or REST base (TEC), or an http(s)/webcal URL (ICAL)."),
        windowStart: z.string().optional().describe('ICAL: occurrences of recurring events from this date (default: a year ago).'),
        windowEnd: z.string().optional().describe('ICAL: … until this date (default: two years ahead).'),
      },
      output: { job: importOutput },
      kind: 'write',
    },
    async (args, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `mutation($kind: ImportKind!, $source: String!, $windowStart: String, $windowEnd: String) {
          startImport(kind: $kind, source: $source, windowStart: $windowStart, windowEnd: $windowEnd) { ${IMPORT_FIELDS} } }`,
        defined(args),
      );
      const job = data.startImport;
      return { summary: `${importLine(job)}. Follow it with get_import {"id": ${job.id}}.`, data: { job } };
    },
  );

  defineTool(
    server,
    deps,
    'get_import',
    {
      title: 'Get an import',
      description: 'Where an import stands: its phase, progress, counts and warnings (administrators only).',
      input: { id: z.number().int().describe('The import job id (start_import names it).') },
      output: { job: importOutput },
      kind: 'read',
    },
    async ({ id }, { viewer }) => {
      const data = await runAs(deps, viewer, `query($id: Int!) { importJob(id: $id) { ${IMPORT_FIELDS} } }`, { id });
      return { summary: importLine(data.importJob), data: { job: data.importJob } };
    },
  );
}
