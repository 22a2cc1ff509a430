// The real process as `npm start` runs it: the build (scripts/build.mjs, one bundle run by plain
// Node) with a config from the environment, stopped by SIGTERM.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS, createTestDatabase } from '../support/databases.js';

// This file's own build, so that other test files building or starting the server never race it.
const outdir = `dist/test-process-${process.pid}`;
const server = [`${outdir}/main.js`];
beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', outdir], { stdio: 'pipe' });
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Every server a test starts; whatever the test's outcome, none outlives it. */
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
});

async function startProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, server, {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
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
    const child = spawn(process.execPath, server, {
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('PORT must be an integer');
  });

  it('creates a PostgreSQL database that does not exist yet, as a first start on a new SQLite file does', async () => {
    const name = `almanac_created_${process.pid}_${Date.now()}`;
    const url = new URL(process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
    const admin = url.toString();
    url.pathname = `/${name}`;
    try {
      const { port } = await startProcess({ DATABASE_URL: url.toString(), LOG_LEVEL: 'info', TASK_WORKERS: '0' });
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'postgresql' });
      const events = await fetch(`http://127.0.0.1:${port}/wp-json/calendar/events/v1/events`);
      expect(events.status).toBe(200);
    } finally {
      for (const child of children.splice(0)) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    }
  });

  it('says in one line why it cannot start when the database server cannot be reached', async () => {
    const child = spawn(process.execPath, server, {
      env: { ...process.env, PORT: '0', DATABASE_URL: 'postgresql://postgres@127.0.0.1:9/almanac' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^almanac: cannot start: Can't reach database server at `127\.0\.0\.1:9`/);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe.each(DATABASE_KINDS)('process lifecycle on %s', (kind) => {
  it('SIGTERM finishes in-flight writes: every acknowledged create survives a restart; logs never carry API keys', async () => {
    const database = await createTestDatabase(kind);
    const adminKey = 'lifecycle-admin-key-0123456789';
    const create = (base: string, i: number) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
        body: JSON.stringify({
          query: 'mutation($input: CreateEventInput!) { createEvent(input: $input) { id title } }',
          variables: { input: { title: `Durable ${i}`, startDate: daysFromNow(30), endDate: daysFromNow(30, '11:00:00') } },
        }),
      }).then(
        async (r) => ({ status: r.status, body: await r.json() }),
        () => null,
      );
    try {
      const first = await startProcess({ DATABASE_URL: database.url, ALMANAC_ADMIN_KEY: adminKey, LOG_LEVEL: 'info' });
      const base = `http://127.0.0.1:${first.port}`;
      const inFlight = Array.from({ length: 30 }, (_, i) => create(base, i));
      await new Promise((r) => setTimeout(r, 20));
      first.child.kill('SIGTERM');
      const [code] = await once(first.child, 'exit');
      expect(code).toBe(0);
      expect(first.output()).toContain('shutting down');
      expect(first.output()).not.toContain(adminKey);
      const acknowledged = (await Promise.all(inFlight))
        .filter((r) => r?.status === 200 && r.body.data?.createEvent)
        .map((r) => r!.body.data.createEvent.id as number);

      const second = await startProcess({ DATABASE_URL: database.url, ALMANAC_ADMIN_KEY: adminKey });
      const response = await fetch(`http://127.0.0.1:${second.port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `{ events(filter: { search: "Durable", startsBefore: "${daysFromNow(60)}" }, page: { perPage: 50 }) { items { id } } }`,
        }),
      });
      const stored = new Set(((await response.json()).data.events.items as { id: number }[]).map((e) => e.id));
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
      expect(acknowledged.length).toBeGreaterThan(0);
      expect([...stored].sort()).toEqual(expect.arrayContaining(acknowledged));
    } finally {
      await database.drop();
    }
  }, 120_000);
});

describe('the build', () => {
  it('serves every surface from one bundle: health, GraphQL, REST, the console and its assets', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      const { child, port } = await startProcess({ DATABASE_URL: database.url });
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const graphql = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ events { total } }' }),
      });
      expect(await graphql.json()).toEqual({ data: { events: { total: 0 } } });
      const rest = await fetch(`${base}/wp-json/calendar/events/v1/venues`);
      expect(rest.status).toBe(200);
      expect(await rest.json()).toMatchObject({ venues: [], total: 0 });
      const page = await fetch(`${base}/console/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /src="(\/console\/[\w-]+\.js\?v=\w+)"/.exec(html)?.[1];
      expect(script).toBeTruthy();
      const asset = await fetch(base + script);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain('text/javascript');
      child.kill('SIGTERM');
      await once(child, 'exit');
    } finally {
      await database.drop();
    }
  }, 120_000);

  // The entry replaces itself (same process id) with a bounded young generation, unless the
  // operator sized it: read off the running process's own command line.
  it.runIf(process.platform === 'linux')(
    "runs with 16 MB semi-spaces by default, and with the operator's own size when given",
    async () => {
      const database = await createTestDatabase('sqlite');
      try {
        const commandLine = async (env: Record<string, string>) => {
          const { child } = await startProcess({ DATABASE_URL: database.url, ...env });
          const line = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
          child.kill('SIGTERM');
          await once(child, 'exit');
          return line;
        };
        expect(await commandLine({})).toContain('--max-semi-space-size=16');
        const own = await commandLine({ NODE_OPTIONS: '--max-semi-space-size=4' });
        expect(own.filter((arg) => arg.includes('semi-space'))).toEqual([]);
      } finally {
        await database.drop();
      }
    },
    120_000,
  );
});
