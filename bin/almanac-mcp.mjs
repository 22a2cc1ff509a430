#!/usr/bin/env node
// almanac-mcp: Almanac's MCP server over stdio, for assistants that start a command. It is a proxy:
// it connects to a running Almanac's /mcp (ALMANAC_URL) with ALMANAC_API_KEY, using the SDK's own
// client, and offers the very tools and resources that endpoint lists, forwarding each call, its
// progress notifications and its cancellation. So both transports have the same tools, the same
// permissions (the key's user, checked by the server) and the same errors, with no second copy of
// the tools, and no database access from the assistant's machine.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** A tool call may follow a browser run for up to 600 s (create_browser_task's waitSeconds). */
const CALL_TIMEOUT_MS = 660_000;

/** Misconfiguration: one line on stderr that says what to fix, and exit 1 (stdout is the protocol's). */
function fail(reason) {
  process.stderr.write(`almanac-mcp: ${reason}\n`);
  process.exit(1);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 24)
  fail(`needs Node 24 or later (this is Node ${process.versions.node}); run it with npx or npm run mcp in the Almanac checkout.`);

const { ALMANAC_URL: baseUrl, ALMANAC_API_KEY: apiKey } = process.env;
if (!baseUrl) fail('set ALMANAC_URL to your Almanac server, e.g. ALMANAC_URL=https://calendar.example.org');
if (!apiKey) fail('set ALMANAC_API_KEY to an API key of the Almanac user the assistant acts as (npm run keys creates one).');
let endpoint;
try {
  endpoint = new URL(baseUrl.replace(/\/+$/, '') + '/mcp');
  if (!/^https?:$/.test(endpoint.protocol)) throw new Error('not http(s)');
} catch {
  fail(`ALMANAC_URL is not an http(s) URL: ${baseUrl}`);
}

/** A client connected to /mcp: a new session. */
async function connectUpstream() {
  const client = new Client({ name: 'almanac-mcp-stdio', version: '0.1.0' });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { 'x-api-key': apiKey } } }));
  return client;
}

let upstream;
try {
  upstream = await connectUpstream();
} catch (error) {
  const message = String(error?.message ?? error);
  const reason = /401|unauthori[sz]ed|api key/i.test(message)
    ? 'the API key was refused (401): check ALMANAC_API_KEY'
    : message.split('\n')[0];
  fail(`cannot connect to ${endpoint.href}: ${reason}`);
}

/**
 * Sends a request upstream. When the server no longer knows the session (404: it restarted, ended
 * an idle session, or another process behind a balancer without affinity got the request), the
 * proxy opens a new session and sends the request once more: the server refused it before running
 * anything, so nothing happens twice.
 */
async function forward(send) {
  try {
    return await send(upstream);
  } catch (error) {
    if (error?.code !== 404) throw error;
    const stale = upstream;
    upstream = await connectUpstream();
    stale.close().catch(() => undefined);
    return send(upstream);
  }
}

const server = new Server(upstream.getServerVersion() ?? { name: 'almanac', version: '0.1.0' }, {
  capabilities: { tools: {}, resources: {} },
  instructions: upstream.getInstructions(),
});

/** Request options that carry the caller's cancellation and, when it asked for progress, relay it. */
function forwarding(request, extra) {
  const token = request.params?._meta?.progressToken;
  return {
    signal: extra.signal,
    timeout: CALL_TIMEOUT_MS,
    resetTimeoutOnProgress: true,
    onprogress:
      token === undefined
        ? undefined
        : (progress) => extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken: token } }),
  };
}

server.setRequestHandler(ListToolsRequestSchema, (request) => forward((client) => client.listTools(request.params)));
server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
  forward((client) => client.callTool(request.params, undefined, forwarding(request, extra))),
);
server.setRequestHandler(ListResourcesRequestSchema, (request) => forward((client) => client.listResources(request.params)));
server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) =>
  forward((client) => client.listResourceTemplates(request.params)),
);
server.setRequestHandler(ReadResourceRequestSchema, (request) => forward((client) => client.readResource(request.params)));

const stdio = new StdioServerTransport();
// When the assistant goes, so does the session on the server.
stdio.onclose = async () => {
  await upstream.transport?.terminateSession?.().catch(() => undefined);
  await upstream.close().catch(() => undefined);
  process.exit(0);
};
await server.connect(stdio);
