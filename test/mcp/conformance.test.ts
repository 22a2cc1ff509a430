// The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios) against
// /mcp. Its CLI cannot send an API key, so it talks to /mcp through a loopback proxy that adds one
// header, x-api-key, and forwards everything else (Host and Origin included) as it is.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server.js';

const CLI = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));

/**
 * Scenarios that test features of the suite's own reference server, which Almanac does not offer,
 * each with why. Every other server scenario must pass.
 */
export const NOT_APPLICABLE: Record<string, string> = {
  'completion-complete': 'Almanac offers no argument completion (completion/complete is not one of its capabilities: Method not found).',
  'tools-call-simple-text': "Calls the reference server's test_simple_text tool; Almanac's tools are its own.",
  'tools-call-image': "Calls the reference server's test_image_content tool; no Almanac tool answers images.",
  'tools-call-audio': "Calls the reference server's test_audio_content tool; no Almanac tool answers audio.",
  'tools-call-embedded-resource': "Calls the reference server's test_embedded_resource tool.",
  'tools-call-mixed-content': "Calls the reference server's test_multiple_content_types tool.",
  'tools-call-with-logging': "Calls the reference server's test_tool_with_logging tool.",
  'tools-call-error': "Calls the reference server's test_error_handling tool (Almanac's tool errors are tested in mcp.test.ts).",
  'tools-call-with-progress': "Calls the reference server's test_tool_with_progress tool (Almanac's progress is tested in mcp.test.ts).",
  'tools-call-sampling': 'Almanac never asks the client to sample an LLM.',
  'tools-call-elicitation':
    'Almanac never asks the client for input through elicitation (a run waiting for a person says so in get_task_run).',
  'elicitation-sep1034-defaults': 'Almanac uses no elicitation.',
  'elicitation-sep1330-enums': 'Almanac uses no elicitation.',
  'json-schema-2020-12': "Lists the reference server's json_schema_2020_12_tool.",
  'resources-read-text': "Reads the reference server's test://static-text resource.",
  'resources-read-binary': "Reads the reference server's test://static-binary resource.",
  'resources-templates-read': "Reads the reference server's test://template/{id}/data template.",
  'resources-subscribe': 'Almanac offers no resource subscriptions (calendar_changes follows changes).',
  'resources-unsubscribe': 'Almanac offers no resource subscriptions.',
  'prompts-list': 'Almanac offers no prompts.',
  'prompts-get-simple': 'Almanac offers no prompts.',
  'prompts-get-with-args': 'Almanac offers no prompts.',
  'prompts-get-embedded-resource': 'Almanac offers no prompts.',
  'prompts-get-with-image': 'Almanac offers no prompts.',
  'server-sse-polling': "Needs the reference server's test_reconnection tool and SSE event ids (resumability).",
};

/** A loopback proxy to `target` that adds the API key header. */
async function keyProxy(target: string, key: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const upstream = http.request(target + req.url, { method: req.method, headers: { ...req.headers, 'x-api-key': key } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Runs one server scenario; its checks, as the CLI saved them. */
async function runScenario(
  url: string,
  scenario: string,
  outputDir: string,
): Promise<{ status: string; name: string; errorMessage?: string }[]> {
  const child = spawn(process.execPath, [CLI, 'server', '--url', url, '--scenario', scenario, '--output-dir', outputDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  await once(child, 'exit');
  const files = listFiles(outputDir).filter((file) => file.includes(scenario) && file.endsWith('checks.json'));
  if (!files.length) throw new Error(`no checks saved for ${scenario}:\n${output}`);
  return files.flatMap((file) => JSON.parse(readFileSync(file, 'utf8')));
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

async function serverScenarios(): Promise<string[]> {
  const listed = spawn(process.execPath, [CLI, 'list', '--server']);
  let text = '';
  listed.stdout.on('data', (chunk) => (text += chunk));
  await once(listed, 'exit');
  return [...text.matchAll(/^\s+- ([\w-]+)/gm)].map((match) => match[1]);
}

describe('MCP conformance suite (server scenarios)', () => {
  const api = useTestServer('sqlite');
  let proxy: Awaited<ReturnType<typeof keyProxy>>;
  let outputDir: string;
  beforeAll(async () => {
    proxy = await keyProxy(api.url, api.keys.editor);
    outputDir = mkdtempSync(join(tmpdir(), 'almanac-conformance-'));
  });
  afterAll(async () => {
    await proxy?.close();
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  it('passes every scenario that applies, and names why the others do not', async () => {
    const scenarios = await serverScenarios();
    expect(scenarios).toContain('server-initialize');
    // A scenario the suite adds later must be looked at: passed, or named here with a reason.
    const applicable = scenarios.filter((scenario) => !(scenario in NOT_APPLICABLE));
    const failures: string[] = [];
    const passed: Record<string, string[]> = {};
    for (const scenario of applicable) {
      const checks = await runScenario(`${proxy.url}/mcp`, scenario, outputDir);
      for (const check of checks)
        if (check.status === 'FAILURE') failures.push(`${scenario} / ${check.name}: ${check.errorMessage ?? ''}`);
        else if (check.status === 'SUCCESS') (passed[scenario] ??= []).push(check.name);
    }
    expect(failures).toEqual([]);
    // Each applicable scenario checked something, and it held.
    expect(Object.keys(passed).sort()).toEqual([...applicable].sort());
    console.log(`conformance: ${JSON.stringify(passed)}`);
  });
});
