// The MCP server: one McpServer per session, with every tool group and the resources. Each tool and
// resource runs as the caller the transport authenticated (src/mcp/http.ts), through GraphQL.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerCalendarTools } from './tools/calendar.js';
import { EVENT_FIELDS, eventView, registerEventTools } from './tools/events.js';
import { registerPlaceTools } from './tools/places.js';
import { registerTaskTools } from './tools/tasks.js';
import { registerTermTools } from './tools/terms.js';
import { runAs, viewerOf, type McpDeps } from './tool-kit.js';

export const SERVER_INFO = { name: 'almanac', version: '0.1.0' };

const INSTRUCTIONS = [
  'Almanac: a calendar (events, series, venues, organizers, categories, tags, a change feed, imports) and a browser-task service.',
  "Call current_datetime before turning relative dates into dates: event dates are local to the event's time zone.",
  'Every tool runs as the API key it was called with: what it may do is what that user may do in the GraphQL API.',
  'delete_event moves an event to the trash; restore_event brings it back.',
].join('\n');

export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
    capabilities: { tools: {}, resources: {}, logging: {} },
  });
  registerEventTools(server, deps);
  registerPlaceTools(server, deps);
  registerTermTools(server, deps);
  registerCalendarTools(server, deps);
  registerTaskTools(server, deps);
  registerResources(server, deps);
  return server;
}

function registerResources(server: McpServer, deps: McpDeps): void {
  server.registerResource(
    'event',
    new ResourceTemplate('almanac://events/{id}', { list: undefined }),
    { title: 'An event', description: 'One event as JSON, as get_event shows it to the caller.', mimeType: 'application/json' },
    async (uri, { id }, extra) => {
      const data = await runAs(deps, viewerOf(extra), `query($id: Int) { event(id: $id) { ${EVENT_FIELDS} } }`, {
        id: Number(id),
      });
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(eventView(data.event)) }] };
    },
  );
  server.registerResource(
    'upcoming-events',
    'almanac://calendar/upcoming',
    {
      title: 'Upcoming events',
      description: "The calendar's feed: the next 50 events the caller may see, as JSON (search_events pages further).",
      mimeType: 'application/json',
    },
    async (uri, extra) => {
      const data = await runAs(
        deps,
        viewerOf(extra),
        `query($first: Int) { eventsConnection(first: $first) { totalCount edges { node { ${EVENT_FIELDS} } } } }`,
        { first: 50 },
      );
      const events = data.eventsConnection.edges.map((edge: { node: unknown }) => eventView(edge.node));
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ total: data.eventsConnection.totalCount, events }) },
        ],
      };
    },
  );
}
