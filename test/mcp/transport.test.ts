// What /mcp's host adds to the SDK's transport: the API key (401 + WWW-Authenticate), the Origin
// check, bounded bodies, sessions that belong to their user; and the stdio bin's one-line reasons.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { connectMcpClient, MCP_BIN } from '../support/mcp.js';
import { useTestServer } from '../support/server.js';

/** Runs the bin on `node` with only `env` (and PATH, HOME); not spawnSync: the server it calls runs in this process. */
async function runBin(node: string, env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  const { PATH, HOME } = process.env;
  const child = spawn(node, [MCP_BIN], { env: { PATH: PATH!, HOME: HOME!, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [status] = await once(child, 'exit');
  return { status, stderr };
}

/** The machine's own `node` (PATH without node_modules) when it is older than Node 24, else undefined. */
function olderMachineNode(): string | undefined {
  const dirs = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.includes('node_modules') && !dir.includes(join('.cache', 'almanac')));
  const node = dirs.map((dir) => join(dir, 'node')).find((path) => existsSync(path));
  if (!node) return undefined;
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  return Number(/^v(\d+)/.exec(version)?.[1]) < 24 ? node : undefined;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe.each(DATABASE_KINDS)('/mcp on %s', (kind) => {
  const api = useTestServer(kind, { CORS_ORIGINS: 'https://editor.example' });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...ACCEPT, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers 401 with WWW-Authenticate without a key or with a wrong one', async () => {
    const missing = await post(initialize);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="almanac"');
    expect((await missing.json()).error.message).toMatch(/API key is required/);
    const wrong = await post(initialize, { authorization: 'Bearer not-a-key' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="almanac", error="invalid_token"');
    const client = new Client({ name: 'no-key', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL('/mcp', api.url)))).rejects.toThrow();
  });

  it('takes the key as x-api-key or Authorization: Bearer', async () => {
    const ways: Record<string, string>[] = [{ 'x-api-key': api.keys.editor }, { authorization: `Bearer ${api.keys.editor}` }];
    for (const headers of ways) {
      const answer = await post(initialize, headers);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('mcp-session-id')).toBeTruthy();
    }
  });

  it('refuses foreign Origins (DNS rebinding) and takes the site and CORS_ORIGINS ones', async () => {
    const key = { 'x-api-key': api.keys.editor };
    expect((await post(initialize, { ...key, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(initialize, { ...key, origin: 'https://editor.example' })).status).toBe(200);
    expect((await post(initialize, { ...key, origin: 'http://almanac.test' })).status).toBe(200);
    // A local page calling the local server (the inspector's UI).
    expect((await post(initialize, { ...key, origin: 'http://localhost:6274' })).status).toBe(200);
  });

  it('lets a page of a CORS_ORIGINS origin use sessions: preflight and exposed headers', async () => {
    const preflight = await fetch(`${api.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://editor.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'mcp-session-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('mcp-session-id');
    const opened = await post(initialize, { 'x-api-key': api.keys.editor, origin: 'https://editor.example' });
    expect(opened.headers.get('access-control-allow-origin')).toBe('https://editor.example');
    expect(opened.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
  });

  it('bounds request bodies (413) and answers a body that is not JSON with a parse error', async () => {
    const key = { 'x-api-key': api.keys.editor };
    const big = await post(JSON.stringify({ ...initialize, padding: 'x'.repeat(1024 * 1024) }), key);
    expect(big.status).toBe(413);
    const garbled = await post('{not json', key);
    expect(garbled.status).toBe(400);
    expect((await garbled.json()).error.code).toBe(-32700);
  });

  it("treats another user's session as unknown, and asks for initialize without one", async () => {
    const opened = await post(initialize, { 'x-api-key': api.keys.editor });
    const session = opened.headers.get('mcp-session-id')!;
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const foreign = await post(list, { 'x-api-key': api.keys.author, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
    expect(foreign.status).toBe(404);
    const sessionless = await post(list, { 'x-api-key': api.keys.editor });
    expect(sessionless.status).toBe(400);
  });

  it("caps a user's sessions (the least recently used ends), and the stdio bin opens a new one by itself", async () => {
    const key = { 'x-api-key': api.keys.subscriber };
    const bin = await connectMcpClient(api.url, 'stdio', api.keys.subscriber);
    try {
      expect((await bin.callTool({ name: 'current_datetime', arguments: {} })).isError).toBeFalsy();
      const first = (await post(initialize, key)).headers.get('mcp-session-id')!;
      // 20 sessions a user: 20 more end the bin's session and then the first raw one.
      for (let i = 0; i < 20; i++) expect((await post(initialize, key)).status).toBe(200);
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
      expect((await post(list, { ...key, 'mcp-session-id': first, 'mcp-protocol-version': '2025-06-18' })).status).toBe(404);
      // The bin's session ended too (it was older): it opens a new one, and the call goes through.
      const result = await bin.callTool({ name: 'current_datetime', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ timezone: 'UTC' });
    } finally {
      await bin.close();
    }
  });

  it('the stdio bin says in one line what is misconfigured', async () => {
    const noUrl = await runBin(process.execPath, {});
    expect(noUrl.status).toBe(1);
    expect(noUrl.stderr).toMatch(/^almanac-mcp: set ALMANAC_URL .*\n$/);
    expect((await runBin(process.execPath, { ALMANAC_URL: api.url })).stderr).toMatch(/^almanac-mcp: set ALMANAC_API_KEY .*\n$/);
    const refused = await runBin(process.execPath, { ALMANAC_URL: api.url, ALMANAC_API_KEY: 'wrong' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^almanac-mcp: cannot connect to .*\/mcp: the API key was refused \(401\).*\n$/);
  });

  // CI machines' own Node is 20: the bin run on it says what it needs instead of failing later.
  it.skipIf(!olderMachineNode())('the stdio bin on a Node older than 24 says it needs Node 24', async () => {
    const old = await runBin(olderMachineNode()!, { ALMANAC_URL: api.url, ALMANAC_API_KEY: api.keys.editor });
    expect(old.status).toBe(1);
    expect(old.stderr).toMatch(/^almanac-mcp: needs Node 24 or later \(this is Node \d+\.[\d.]+\).*\n$/);
  });

  // Last in this block: it leaves this address over its limit of failed sign-ins for the minute.
  it('answers a burst of wrong keys 429 with Retry-After once the address is over its limit, and still takes a valid key', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post(initialize, { 'x-api-key': `alm_wrong_${i}` })));
    const throttled = answers.filter((answer) => answer.status === 429);
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    expect(throttled.length).toBeGreaterThanOrEqual(10);
    expect(Number(throttled[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await throttled[0].json()).error.message).toMatch(/Too many failed sign-ins/);
    expect((await post(initialize, { 'x-api-key': api.keys.editor })).status).toBe(200);
  });
});
