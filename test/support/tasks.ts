// Helpers for the browser-task suites: the fake LLM and test pages as fixtures, servers on a shared
// database, task creation and waiting for a run to reach a state.
import { afterAll, beforeAll, expect } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import type { DatabaseKind } from '../../src/db/url.js';
import { createTestDatabase, type TestDatabase } from './databases.js';
import { requestJson } from './http-client.js';
import { startFakeLlm, type FakeLlm } from './fake-llm.js';
import { ADMIN_KEY, type TestServer } from './server.js';
import { startTestPages, type TestPages } from './test-pages.js';

/** Settings that keep agent runs quick in tests. */
export const FAST_TASK_ENV = {
  TASK_POLL_MS: '100',
  TASK_HEARTBEAT_MS: '200',
  TASK_STALE_AFTER_MS: '4000',
  TASK_ACTION_TIMEOUT_MS: '5000',
  LLM_TIMEOUT_MS: '3000',
  LLM_API_KEY: 'fake-llm-key',
  LLM_MODEL: 'fake-model',
};

export interface TaskFixtures {
  llm: FakeLlm;
  pages: TestPages;
  /** Filled in before the server starts: pass it to useTestServer (its values are read in its beforeAll). */
  env: Record<string, string>;
}

/** Starts the fake LLM and the test pages before the suite's server (register it first). */
export function useTaskFixtures(extraEnv: (f: Omit<TaskFixtures, 'env'>) => Record<string, string> = () => ({})): TaskFixtures {
  const fixtures = { env: {} } as TaskFixtures;
  beforeAll(async () => {
    fixtures.llm = await startFakeLlm();
    fixtures.pages = await startTestPages();
    Object.assign(
      fixtures.env,
      { ...FAST_TASK_ENV, LLM_BASE_URL: fixtures.llm.url, TASK_ALLOW_PRIVATE_NETWORK: 'true' },
      extraEnv(fixtures),
    );
  });
  afterAll(async () => {
    await fixtures.llm?.close();
    await fixtures.pages?.close();
  });
  return fixtures;
}

let counter = 0;
/** A task text naming its fake-LLM scenario, unique per call. */
export function taskText(scenario: string, what = 'Do the thing'): string {
  return `${what} (#${++counter}-${process.pid}) [scenario:${scenario}]`;
}

export async function createTask(api: TestServer, body: Record<string, unknown>, key = ADMIN_KEY): Promise<string> {
  const response = await api.request('POST', '/api/v1/task/create', { body, key });
  expect(response.status, response.text).toBe(200);
  return response.json.data.taskId;
}

export interface RunView {
  status: string;
  detailedStatus: string;
  toolCall: { toolCallId: string; tool: { name: string; parameters: any } } | null;
  liveStatus: string;
}

/** Polls the run's status until `done` holds; fails with the last status after `timeoutMs`. */
export async function waitForRun(
  api: TestServer,
  taskId: string,
  done: (run: RunView) => boolean,
  { timeoutMs = 60_000, runId, key = ADMIN_KEY }: { timeoutMs?: number; runId?: string; key?: string } = {},
): Promise<RunView> {
  const deadline = Date.now() + timeoutMs;
  const path = `/api/v1/task/${taskId}/run/status${runId ? `?runId=${runId}` : ''}`;
  let last: RunView | undefined;
  while (Date.now() < deadline) {
    const response = await api.request('GET', path, { key });
    last = response.json?.data;
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run of task ${taskId} did not reach the expected state; last: ${JSON.stringify(last)}`);
}

export const ended = (run: RunView) => run.status === 'completed' || run.status === 'error';

export async function runResult(api: TestServer, taskId: string, key = ADMIN_KEY) {
  return (await api.request('GET', `/api/v1/task/${taskId}/run/result`, { key })).json.data;
}

/** Creates a task of `task`, waits for its run to end, and gives the run, its result and its steps' results. */
export async function finishTask(api: TestServer, task: string, extra: Record<string, unknown> = {}, stepFields = 'result') {
  const taskId = await createTask(api, { task, ...extra });
  const run = await waitForRun(api, taskId, ended);
  const result = await runResult(api, taskId);
  const { runId, steps } = await runSteps(api, taskId, stepFields);
  return { taskId, runId, run, result, steps, results: steps.map((s) => s.result as string) };
}

/** The id of a task's latest run and its steps: `fields` of each (GraphQL TaskStep), `result` always. */
export async function runSteps(api: TestServer, taskId: string, fields = 'result') {
  const query = `query($id: ID!) { taskRun(taskId: $id) { id steps { result ${fields} } } }`;
  const { taskRun } = (await api.graphql(query, { id: taskId }, ADMIN_KEY)).data;
  return { runId: taskRun.id as string, steps: taskRun.steps as any[] };
}

/** Starts another Almanac on an existing database (another "process" sharing it). */
export async function startAlmanac(databaseUrl: string, env: Record<string, string>): Promise<RunningServer> {
  return startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      ALMANAC_ADMIN_KEY: ADMIN_KEY,
      SITE_URL: 'http://almanac.test',
      ...env,
    }),
  );
}

/**
 * Servers started by hand on one fresh `kind` database (one after another, as a restart, or side by
 * side): `start` adds `extra` to `env()`. All are closed and the database dropped after the suite.
 */
export function useServersOnOneDatabase(kind: DatabaseKind, env: () => Record<string, string>) {
  let database: TestDatabase | undefined;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await database?.drop();
  });
  return {
    get databaseUrl(): string {
      return database!.url;
    },
    async start(extra: Record<string, string> = {}): Promise<RunningServer> {
      const server = await startAlmanac(database!.url, { ...env(), ...extra });
      servers.push(server);
      return server;
    },
  };
}

/** A client like TestServer's for a server started by hand (only `request`). */
export function clientFor(url: string): TestServer {
  return {
    url,
    request: (method, path, options = {}) => requestJson(url + path, method, options),
  } as TestServer;
}

/** Waits until `check` holds (polling), or fails with `what`. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The caller tool of the product brief, as the server offers it built in (savedTools): one definition, in src/tasks/saved-tools.ts. */
export { FORM_INPUT_TOOL } from '../../src/tasks/saved-tools.js';

/**
 * The task API counts requests per calendar minute: a test that must stay inside one window waits
 * for the next minute when fewer than `needMs` are left of this one.
 */
export async function withinOneRateWindow(needMs = 20_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Every row of every table of the server's database, as text (binary columns as latin1): for tests that grep stored bytes. */
export async function dumpDatabase(api: TestServer): Promise<string> {
  const prisma = api.server.db.prisma as unknown as { $queryRawUnsafe(sql: string): Promise<Record<string, unknown>[]> };
  const tables =
    api.server.db.kind === 'sqlite'
      ? await prisma.$queryRawUnsafe(`SELECT name FROM sqlite_master WHERE type = 'table'`)
      : await prisma.$queryRawUnsafe(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
  let text = '';
  for (const { name } of tables) {
    const rows = await prisma.$queryRawUnsafe(`SELECT * FROM "${String(name)}"`);
    text += JSON.stringify(rows, (_k, v) =>
      typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v,
    );
  }
  return text;
}
