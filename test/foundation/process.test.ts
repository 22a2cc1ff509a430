// The real process: `tsx src/main.ts` with a config from the environment, stopped by SIGTERM.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, createTestDatabase } from '../support/databases.js';

async function startProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout.on('data', () => {
      const match = output.match(/"port":(\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return { child, port, output: () => output };
}

describe('configuration', () => {
  it('refuses a bad setting with a clear message', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('PORT must be an integer');
  });
});

describe.each(DATABASE_KINDS)('process lifecycle on %s', (kind) => {
  it('SIGTERM finishes in-flight requests, then exits 0; logs never carry API keys', async () => {
    const database = await createTestDatabase(kind);
    const adminKey = 'lifecycle-admin-key-0123456789';
    try {
      const server = await startProcess({ DATABASE_URL: database.url, ALMANAC_ADMIN_KEY: adminKey, LOG_LEVEL: 'info' });
      const base = `http://127.0.0.1:${server.port}`;
      const inFlight = Array.from({ length: 20 }, () =>
        fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
          body: JSON.stringify({ query: '{ events { total } }' }),
        }).then(async (r) => ({ status: r.status, body: await r.json() }), () => null),
      );
      await new Promise((r) => setTimeout(r, 5));
      server.child.kill('SIGTERM');
      const [code] = await once(server.child, 'exit');
      const answered = (await Promise.all(inFlight)).filter((r) => r !== null);
      // Every request the server answered was answered completely.
      for (const response of answered) expect(response).toEqual({ status: 200, body: { data: { events: { total: 0 } } } });
      expect(code).toBe(0);
      expect(server.output()).toContain('shutting down');
      expect(server.output()).not.toContain(adminKey);
    } finally {
      await database.drop();
    }
  });
});
