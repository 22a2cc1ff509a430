// The MCP server through the SDK's own Client, over both transports (Streamable HTTP at /mcp, and
// the stdio bin that proxies it), on both engines: the tools and their schemas, a weekly series
// found through search_events, update/trash/restore, a contributor's refused trash, a browser task
// run to its output with progress notifications, and a caller tool answered through MCP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { capturedLogger } from '../support/logs.js';
import { connectMcpClient, MCP_TRANSPORTS } from '../support/mcp.js';
import { useTestServer } from '../support/server.js';
import { FORM_INPUT_TOOL, taskText, useTaskFixtures } from '../support/tasks.js';

/** A tool's result, failing the test on a tool error. */
async function call(client: Client, name: string, args: Record<string, unknown>, onprogress?: (p: Progress) => void) {
  const result = (await client.callTool({ name, arguments: args }, undefined, { onprogress, timeout: 120_000 })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as any;
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

/** The day the suite started, in UTC (the test server's site zone): dates are relative to it, never fixed,
 *  and one suite run uses one day even across midnight. */
const TODAY = DateTime.utc().startOf('day');
/** A wall time `days` after TODAY, at `time`. */
const daysAhead = (days: number, time = '18:00:00') => `${TODAY.plus({ days }).toFormat('yyyy-LL-dd')} ${time}`;

describe.each(DATABASE_KINDS)('MCP on %s', (kind) => {
  const { logger, lines: logged } = capturedLogger();
  const fx = useTaskFixtures(() => ({ ALMANAC_SECRET_KEY: 'test-secret-key-0123456789' }));
  const api = useTestServer(kind, fx.env, { logger });

  describe.each(MCP_TRANSPORTS)('over %s', (transport) => {
    let admin: Client;
    let contributor: Client;
    beforeAll(async () => {
      admin = await connectMcpClient(api.url, transport, api.keys.administrator);
      contributor = await connectMcpClient(api.url, transport, api.keys.contributor);
    });
    afterAll(async () => {
      await admin?.close();
      await contributor?.close();
    });

    it('lists the tools, each with valid JSON Schemas, descriptions and hints', async () => {
      const { tools } = await admin.listTools();
      const names = tools.map((tool) => tool.name);
      for (const name of [
        'search_events',
        'get_event',
        'create_event',
        'update_event',
        'delete_event',
        'restore_event',
        'list_venues',
        'create_organizer',
        'delete_category',
        'update_tag',
        'calendar_changes',
        'current_datetime',
        'start_import',
        'create_browser_task',
        'get_task_run',
        'answer_tool_call',
        'stop_task_run',
        'list_tasks',
      ])
        expect(names).toContain(name);
      for (const tool of tools) {
        for (const schema of [tool.inputSchema, tool.outputSchema]) {
          expect(schema, tool.name).toBeDefined();
          const ajv = String(schema!.$schema ?? '').includes('2020-12') ? new Ajv2020({ strict: false }) : new Ajv({ strict: false });
          expect(() => ajv.compile(schema!), tool.name).not.toThrow();
        }
        expect(tool.description, tool.name).toBeTruthy();
        for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {}))
          expect((schema as { description?: string }).description, `${tool.name}.${field}`).toBeTruthy();
      }
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      expect(byName.search_events.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(byName.delete_event.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(byName.create_event.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    });

    it('creates a weekly series and finds its occurrences with search_events', async () => {
      const start = daysAhead(10);
      const { event } = await call(admin, 'create_event', {
        title: `Weekly choir (${transport})`,
        startDate: start,
        endDate: start.replace('18:00:00', '20:00:00'),
        venue: { name: `Chapel ${transport}`, city: 'Lyon' },
        organizers: [{ name: 'Choir society' }],
        recurrence: { rule: { frequency: 'WEEKLY', count: 4 } },
      });
      expect(event.series).not.toBeNull();
      expect(event.venue).toMatchObject({ name: `Chapel ${transport}`, city: 'Lyon' });
      const found = await call(admin, 'search_events', {
        series: [event.series.id],
        startDate: daysAhead(9).slice(0, 10),
        endDate: daysAhead(60).slice(0, 10),
        first: 2,
      });
      expect(found.total).toBe(4);
      expect(found.events.map((e: any) => e.startDate)).toEqual([start, daysAhead(17)]);
      const rest = await call(admin, 'search_events', {
        series: [event.series.id],
        startDate: daysAhead(9).slice(0, 10),
        cursor: found.nextCursor,
      });
      expect(rest.events.map((e: any) => e.startDate)).toEqual([daysAhead(24), daysAhead(31)]);
      expect(rest.nextCursor).toBeNull();
      const got = await call(admin, 'get_event', { id: event.id });
      expect(got.seriesRule.rrule).toMatch(/FREQ=WEEKLY/);
      expect(got.seriesRule.nextOccurrences).toHaveLength(4);
      expect(got.event.organizers.map((o: any) => o.name)).toEqual(['Choir society']);
    });

    it('updates an event, moves it to the trash and restores it', async () => {
      const start = daysAhead(5, '09:00:00');
      const { event } = await call(admin, 'create_event', { title: 'Draft title', startDate: start, endDate: start.replace('09', '10') });
      const updated = await call(admin, 'update_event', {
        id: event.id,
        title: 'Final title',
        featured: true,
        eventStatus: 'CANCELED',
        eventStatusReason: 'The hall is flooded.',
      });
      expect(updated.event).toMatchObject({
        id: event.id,
        title: 'Final title',
        featured: true,
        eventStatus: 'CANCELED',
        eventStatusReason: 'The hall is flooded.',
      });

      const trashed = (await admin.callTool({ name: 'delete_event', arguments: { id: event.id } })) as CallToolResult;
      expect(trashed.isError).toBeFalsy();
      expect(textOf(trashed)).toContain('restore_event');
      expect((trashed.structuredContent as any).event.status).toBe('trash');
      const gone = (await admin.callTool({ name: 'get_event', arguments: { id: event.id } })) as CallToolResult;
      expect(gone.isError).toBe(true);
      expect(textOf(gone)).toContain('TRASHED');

      const restored = await call(admin, 'restore_event', { id: event.id });
      expect(restored.event).toMatchObject({ id: event.id, title: 'Final title', status: 'publish' });
      const again = (await admin.callTool({ name: 'restore_event', arguments: { id: event.id } })) as CallToolResult;
      expect(again.isError).toBe(true);
    });

    it("refuses a contributor's trash of an administrator's event as a tool error, and changes nothing", async () => {
      const start = daysAhead(3);
      const { event } = await call(admin, 'create_event', { title: 'Board meeting', startDate: start, endDate: start });
      const refused = (await contributor.callTool({ name: 'delete_event', arguments: { id: event.id } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/FORBIDDEN/);
      const still = await call(admin, 'get_event', { id: event.id });
      expect(still.event).toMatchObject({ title: 'Board meeting', status: 'publish' });
    });

    it('answers bad input as a tool error naming the field, and writes nothing', async () => {
      const before = await call(admin, 'search_events', { search: 'Nameless', startDate: daysAhead(0).slice(0, 10) });
      const missing = (await admin.callTool({
        name: 'create_event',
        arguments: { title: 'Nameless', startDate: daysAhead(2) },
      })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/endDate/);
      const invalid = (await admin.callTool({
        name: 'create_event',
        arguments: {
          title: 'Nameless',
          startDate: daysAhead(2),
          endDate: daysAhead(2),
          timezone: 'Not/AZone',
          venue: { name: 'Nowhere hall' },
        },
      })) as CallToolResult;
      expect(invalid.isError).toBe(true);
      expect(textOf(invalid)).toMatch(/INVALID_INPUT[\s\S]*timezone/);
      const after = await call(admin, 'search_events', { search: 'Nameless', startDate: daysAhead(0).slice(0, 10) });
      expect(after.total).toBe(before.total);
      const venues = await call(admin, 'list_venues', { search: 'Nowhere' });
      expect(venues.total).toBe(0);
    });

    it('manages venues, organizers, categories and tags, each under its own rights', async () => {
      const venue = await call(admin, 'create_venue', { name: `Hall ${transport}`, city: 'Nantes' });
      const moved = await call(admin, 'update_venue', { id: venue.venue.id, city: 'Rennes' });
      expect(moved.venue).toMatchObject({ name: `Hall ${transport}`, city: 'Rennes', status: 'publish' });
      expect((await call(admin, 'list_venues', { search: `Hall ${transport}` })).venues.map((v: any) => v.id)).toEqual([venue.venue.id]);
      const organizer = await call(contributor, 'create_organizer', { name: `Ensemble ${transport}`, email: 'ensemble@example.org' });
      expect(organizer.organizer.email).toBe('ensemble@example.org');
      expect((await call(admin, 'get_organizer', { id: organizer.organizer.id })).organizer.name).toBe(`Ensemble ${transport}`);
      expect((await call(admin, 'delete_venue', { id: venue.venue.id })).venue.status).toBe('trash');

      const category = await call(admin, 'create_category', { name: `Concerts ${transport}` });
      const child = await call(admin, 'create_category', { name: `Choirs ${transport}`, parent: String(category.category.id) });
      expect(child.category.parentId).toBe(category.category.id);
      expect((await call(admin, 'list_categories', { search: `Choirs ${transport}` })).total).toBe(1);
      const tag = await call(admin, 'create_tag', { name: `outdoor-${transport}` });
      expect((await call(admin, 'update_tag', { id: tag.tag.id, description: 'Under the sky' })).tag.description).toBe('Under the sky');
      // Contributors may not write terms (GraphQL's rule, unchanged).
      const refused = (await contributor.callTool({ name: 'create_tag', arguments: { name: `sneaky-${transport}` } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/FORBIDDEN/);
      expect((await call(admin, 'list_tags', { search: `sneaky-${transport}` })).total).toBe(0);
      expect((await call(admin, 'delete_tag', { id: tag.tag.id })).tag.name).toBe(`outdoor-${transport}`);
      const gone = (await admin.callTool({ name: 'get_tag', arguments: { id: tag.tag.id } })) as CallToolResult;
      expect(gone.isError).toBe(true);
    });

    it('changes a series from one occurrence on (scope FOLLOWING)', async () => {
      const start = daysAhead(12, '19:00:00');
      const { event } = await call(admin, 'create_event', {
        title: `Rehearsal ${transport}`,
        startDate: start,
        endDate: start.replace('19:00:00', '21:00:00'),
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' },
      });
      const window = { series: [event.series.id], startDate: daysAhead(11).slice(0, 10), endDate: daysAhead(60).slice(0, 10) };
      const occurrences = (await call(admin, 'search_events', window)).events;
      expect(occurrences).toHaveLength(4);
      await call(admin, 'update_event', { id: occurrences[2].id, scope: 'FOLLOWING', title: `Dress rehearsal ${transport}` });
      const titles = (
        await call(admin, 'search_events', { search: transport, startDate: window.startDate, endDate: window.endDate })
      ).events
        .filter((e: any) => /rehearsal/i.test(e.title))
        .map((e: any) => e.title);
      expect(titles).toEqual([
        `Rehearsal ${transport}`,
        `Rehearsal ${transport}`,
        `Dress rehearsal ${transport}`,
        `Dress rehearsal ${transport}`,
      ]);
    });

    it('follows the change feed from a cursor, and keeps imports to administrators', async () => {
      const { cursor } = await call(admin, 'calendar_changes', {});
      const start = daysAhead(6);
      const { event } = await call(admin, 'create_event', { title: `Changed ${transport}`, startDate: start, endDate: start });
      const changes = await call(admin, 'calendar_changes', { after: cursor, types: ['EVENT'] });
      expect(changes.changes).toEqual([expect.objectContaining({ type: 'EVENT', id: event.id, kind: 'CREATED', removed: false })]);
      const refused = (await contributor.callTool({
        name: 'start_import',
        arguments: { kind: 'ICAL', source: 'https://calendar.example.org/feed.ics' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/FORBIDDEN/);
    });

    it('cuts long descriptions with a note', async () => {
      const start = daysAhead(8);
      const description = 'A very long programme note. '.repeat(200);
      const { event } = await call(admin, 'create_event', { title: 'Long notes', startDate: start, endDate: start, description });
      const got = await call(admin, 'get_event', { id: event.id });
      expect(got.event.description.length).toBeLessThan(2100);
      expect(got.event.description).toMatch(/… \[cut: \d+ more characters\]$/);
    });

    it('tells the date in the site time zone', async () => {
      const now = await call(admin, 'current_datetime', {});
      expect(now.timezone).toBe('UTC');
      expect(Math.abs(Date.parse(now.iso) - Date.now())).toBeLessThan(60_000);
    });

    it('runs a browser task to its output, with progress notifications', async () => {
      fx.llm.define('mcp-run', [
        { call: 'navigate', args: { url: `${fx.pages.url}/still` } },
        { call: 'done', args: { output: 'all done' } },
      ]);
      const progress: Progress[] = [];
      const created = await call(admin, 'create_browser_task', { task: taskText('mcp-run'), wait: true, waitSeconds: 90 }, (p) =>
        progress.push(p),
      );
      expect(created.run).toMatchObject({ status: 'completed', output: 'all done', waitingFor: null });
      // What happened until the end, step by step; the end itself is the result.
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
      for (const p of progress) expect(p.message).toMatch(/is (scheduled|running)/);
      const run = await call(admin, 'get_task_run', { taskId: created.taskId });
      expect(run.run).toMatchObject({ id: created.run.id, status: 'completed', output: 'all done', stepCount: 2 });
      const listed = await call(admin, 'list_tasks', {});
      expect(listed.tasks.map((t: any) => t.id)).toContain(created.taskId);
      // Another user's run is not theirs to read.
      const foreign = (await contributor.callTool({ name: 'get_task_run', arguments: { taskId: created.taskId } })) as CallToolResult;
      expect(foreign.isError).toBe(true);
    });

    it('pauses for a caller tool, says what it asks, and continues with answer_tool_call', async () => {
      const ask = { heading: 'Who?', fields: [{ type: 'text', label: 'Your name' }] };
      fx.llm.define('mcp-ask', [
        { call: 'form_input', args: ask },
        (c) => ({ call: 'done', args: { output: `Hello ${c.lastToolResult}` } }),
      ]);
      const created = await call(admin, 'create_browser_task', { task: taskText('mcp-ask'), tools: [FORM_INPUT_TOOL], wait: true });
      expect(created.run.waitingFor).toMatchObject({ tool: 'form_input', parameters: ask });
      const answered = await call(admin, 'answer_tool_call', {
        taskId: created.taskId,
        toolCallId: created.run.waitingFor.toolCallId,
        input: 'Ada',
        wait: true,
      });
      expect(answered.run).toMatchObject({ status: 'completed', output: 'Hello Ada' });
    });

    it('stops a run that waits for a person', async () => {
      fx.llm.define('mcp-stop', [{ call: 'form_input', args: { heading: 'Anything?' } }]);
      const created = await call(admin, 'create_browser_task', { task: taskText('mcp-stop'), tools: [FORM_INPUT_TOOL], wait: true });
      expect(created.run.waitingFor).not.toBeNull();
      const stopped = await call(admin, 'stop_task_run', { taskId: created.taskId });
      expect(stopped.run).toMatchObject({ id: created.run.id, status: 'error', error: 'stopped', waitingFor: null });
      const late = (await admin.callTool({
        name: 'answer_tool_call',
        arguments: { taskId: created.taskId, input: 'too late' },
      })) as CallToolResult;
      expect(late.isError).toBe(true);
    });

    it('logs each tool call with its caller, and never a secret or a key', async () => {
      fx.llm.define('mcp-secret', [{ call: 'done', args: { output: 'nothing typed' } }]);
      const secret = `Zebra-${transport}-991-secret`;
      const created = await call(admin, 'create_browser_task', { task: taskText('mcp-secret'), secrets: { password: secret }, wait: true });
      expect(created.run.status).toBe('completed');
      const lines = logged.map((line) => JSON.parse(line)).filter((line) => line.mcp?.tool === 'create_browser_task');
      const line = lines.find((l) => JSON.stringify(l.args).includes('mcp-secret'));
      expect(line).toMatchObject({ userId: expect.any(Number), isError: false, args: { secrets: ['password'] } });
      // The same request id as the access log's line of the HTTP request that carried the call.
      const requests = logged.map((l) => JSON.parse(l)).filter((l) => l.path === '/mcp' && l.requestId === line.requestId);
      expect(requests).toHaveLength(1);
      expect(logged.join('')).not.toContain(secret);
      expect(logged.join('')).not.toContain(api.keys.administrator);
    });

    it('reads an event as a resource', async () => {
      const start = daysAhead(4);
      const { event } = await call(admin, 'create_event', { title: 'Resource event', startDate: start, endDate: start });
      const read = await admin.readResource({ uri: `almanac://events/${event.id}` });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: event.id, title: 'Resource event' });
      const { resources } = await admin.listResources();
      expect(resources.map((r) => r.uri)).toContain('almanac://calendar/upcoming');
    });
  });
});
