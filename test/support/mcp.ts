// An MCP client of a test server, through the SDK's own Client, over either transport: Streamable
// HTTP at /mcp, or the stdio bin (bin/almanac-mcp.mjs) spawned on this Node and pointed at it.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const MCP_BIN = fileURLToPath(new URL('../../bin/almanac-mcp.mjs', import.meta.url));
export const MCP_TRANSPORTS = ['http', 'stdio'] as const;
export type McpTransportKind = (typeof MCP_TRANSPORTS)[number];

/** A connected client acting as `key`'s user. */
export async function connectMcpClient(url: string, transport: McpTransportKind, key: string): Promise<Client> {
  const client = new Client({ name: 'almanac-test', version: '1.0.0' });
  if (transport === 'http') {
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { 'x-api-key': key } } }));
  } else {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MCP_BIN],
        env: { ...(process.env as Record<string, string>), ALMANAC_URL: url, ALMANAC_API_KEY: key },
        stderr: 'pipe',
      }),
    );
  }
  return client;
}
