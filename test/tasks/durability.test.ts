// Durable runs: atomic claiming, shutdown and crash mid-run (resumed), dead workers past their
// resumes (interrupted), unanswered tool calls (timed out), two servers sharing one PostgreSQL.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithKey } from '../../src/auth/api-keys.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { deployMigrations } from '../../src/db/migrations.js';
import type { RunningServer } from '../../src/server.js';
import { claimNextRun } from '../../src/tasks/queue.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/databases.js';
import { ADMIN_KEY } from '../support/server.js';
import {
  clientFor,
  createTask,
  ended,
  eventually,
  runResult,
  startAlmanac,
  taskText,
  useServersOnOneDatabase,
  useTaskFixtures,
  waitForRun,
} from '../support/tasks.js';

/** A scenario whose step 1 hangs the first time it is asked (so the run is mid-step), then finishes. */
function defineInterruptible(fx: ReturnType<typeof useTaskFixtures>, name: string) {
  fx.llm.define(name, [
    { call: 'navigate', args: { url: `${fx.pages.url}/search` } },
    (c) => (c.seen === 0 ? { hang: true } : { call: 'done', args: { output: `resumed on ${/Title: (.*)/.exec(c.page)?.[1]}` } }),
  ]);
}

async function startProcess(env: Record<string, string>): Promise<{ url: string; kill(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, 90_000);
    child.stdout.on('data', () => {
      const match = /"port":(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Reads the database between server lifetimes. The connection is closed again at once: on SQLite a
 * starting server's migration step cannot lock a file another connection has used.
 */
async function inspect<T>(url: string, read: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(url);
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

describe.each(DATABASE_KINDS)('durable runs on %s', (kind) => {
  const fx = useTaskFixtures();
  const servers = useServersOnOneDatabase(kind, () => fx.env);
  const start = servers.start;

  it('claims each run exactly once when workers race for them', async () => {
    const race = await createTestDatabase(kind);
    await deployMigrations(race.url);
    const clients = await Promise.all([0, 1, 2, 3].map(() => openDatabase(race.url, { poolSize: 2 })));
    try {
      const prisma = clients[0].prisma;
      const user = await prisma.user.create({ data: { login: 'racer' } });
      const ids = Array.from({ length: 24 }, (_, i) => `run-${String(i).padStart(2, '0')}`);
      for (const id of ids) {
        await prisma.task.create({
          data: { id: `task-${id}`, ownerId: user.id, task: 'race', agent: 'BROWSER_AGENT', runs: { create: { id, shareToken: 't' } } },
        });
      }
      const claimed = await Promise.all(
        clients.map(async (client, worker) => {
          const mine: string[] = [];
          for (let run = await claimNextRun(client.prisma, `w${worker}`); run; run = await claimNextRun(client.prisma, `w${worker}`))
            mine.push(run.id);
          return mine;
        }),
      );
      expect(claimed.flat().sort()).toEqual(ids);
      const rows = await prisma.taskRun.findMany({
        select: { id: true, workerId: true, attempts: true, status: true, detailedStatus: true },
      });
      for (const row of rows) {
        expect(row).toMatchObject({ attempts: 1, status: 'running', detailedStatus: 'starting_browser' });
        expect(claimed[Number(row.workerId!.slice(1))]).toContain(row.id);
      }
    } finally {
      for (const client of clients) await client.close();
      await race.drop();
    }
  });

  it('hands a running run back to the queue on shutdown; the next start resumes it', async () => {
    defineInterruptible(fx, 'graceful');
    const first = await start();
    const task = taskText('graceful');
    const taskId = await createTask(clientFor(first.url), { task });
    await eventually(() => fx.llm.requestsOf(task).some((r) => r.step === 1), 'the run to reach step 2');
    await first.close();
    const parked = await inspect(servers.databaseUrl, (db) => db.prisma.taskRun.findFirstOrThrow({ where: { taskId } }));
    expect(parked).toMatchObject({ status: 'running', detailedStatus: 'queued', workerId: null });
    await eventually(() => fx.llm.requestsOf(task).find((r) => r.step === 1)!.aborted, 'the LLM call to be aborted', 10_000);

    const second = await start();
    const api = clientFor(second.url);
    await waitForRun(api, taskId, ended);
    expect(await runResult(api, taskId)).toMatchObject({ status: 'completed', output: 'resumed on Find events' });
    const resumed = fx.llm
      .requestsOf(task)
      .filter((r) => r.step === 1)
      .at(-1)!;
    expect(
      resumed.body.messages.some((m: any) =>
        /^\(The run was interrupted and resumed: the browser was reopened at .*\/search/.test(m.content),
      ),
    ).toBe(true);
    const run = await second.db.prisma.taskRun.findFirstOrThrow({ where: { taskId }, include: { steps: { orderBy: { index: 'asc' } } } });
    expect(run.steps.map((s) => [s.index, s.action])).toEqual([
      [1, 'navigate'],
      [2, 'done'],
    ]);
    expect(run).toMatchObject({ attempts: 2, recoveries: 0 });
    await second.close();
  });

  it('keeps a run waiting for tool input across a restart; the input resumes it on the new server', async () => {
    fx.llm.define('ask-restart', [
      { call: 'navigate', args: { url: `${fx.pages.url}/signin` } },
      { call: 'form_input', args: { heading: 'Your name?' } },
      (c) => ({ call: 'done', args: { output: `hello ${c.lastToolResult} on ${/Title: (.*)/.exec(c.page)?.[1]}` } }),
    ]);
    const first = await start();
    const tools = [
      { type: 'function', function: { name: 'form_input', parameters: { type: 'object', properties: { heading: { type: 'string' } } } } },
    ];
    const taskId = await createTask(clientFor(first.url), { task: taskText('ask-restart'), tools });
    const waiting = await waitForRun(clientFor(first.url), taskId, (r) => r.detailedStatus === 'tool_call');
    await first.close();

    const second = await start();
    const api = clientFor(second.url);
    expect((await waitForRun(api, taskId, () => true)).toolCall).toEqual(waiting.toolCall);
    const answered = await api.request('POST', `/api/v1/task/${taskId}/run/tool-input`, {
      key: ADMIN_KEY,
      body: { input: 'Ada', toolCallId: waiting.toolCall!.toolCallId },
    });
    expect(answered.status).toBe(200);
    await waitForRun(api, taskId, ended);
    expect(await runResult(api, taskId)).toMatchObject({ status: 'completed', output: 'hello Ada on Sign in' });
    await second.close();
  });

  it('resumes a run whose server was killed, once its heartbeat is stale', async () => {
    defineInterruptible(fx, 'crash');
    const child = await startProcess({ ...fx.env, DATABASE_URL: servers.databaseUrl, ALMANAC_ADMIN_KEY: ADMIN_KEY });
    const task = taskText('crash');
    let taskId: string;
    try {
      taskId = await createTask(clientFor(child.url), { task });
      await eventually(() => fx.llm.requestsOf(task).some((r) => r.step === 1), 'the run to reach step 2');
    } finally {
      await child.kill(); // the crash under test, and never an orphan if the steps before it fail
    }
    const orphan = await inspect(servers.databaseUrl, (db) => db.prisma.taskRun.findFirstOrThrow({ where: { taskId } }));
    expect(orphan).toMatchObject({ status: 'running', detailedStatus: 'thinking' });
    expect(orphan.workerId).not.toBeNull();

    const survivor = await start();
    const api = clientFor(survivor.url);
    await waitForRun(api, taskId, ended);
    expect(await runResult(api, taskId)).toMatchObject({ status: 'completed', output: 'resumed on Find events' });
    expect(await survivor.db.prisma.taskRun.findFirstOrThrow({ where: { taskId } })).toMatchObject({ recoveries: 1, attempts: 2 });
    await survivor.close();
  }, 180_000);

  it('ends runs interrupted when they may not be resumed again, and tool waits that outlived their limit', async () => {
    // Rows as a dead worker and an unanswered tool call leave them; the periodic sweep finds them.
    const server = await start({ TASK_MAX_RESUMES: '0', TASK_TOOL_INPUT_TIMEOUT_MS: '60000' });
    const prisma = server.db.prisma;
    const { userId } = await createUserWithKey(prisma, { login: 'sweeper', role: 'subscriber' });
    const hourAgo = new Date(Date.now() - 3_600_000);
    await prisma.task.create({
      data: {
        id: 'dead-task',
        ownerId: userId,
        task: 'x',
        agent: 'BROWSER_AGENT',
        runs: {
          create: {
            id: 'dead-run',
            shareToken: 't',
            status: 'running',
            detailedStatus: 'acting',
            workerId: 'gone:1:abcd',
            heartbeatAt: hourAgo,
          },
        },
      },
    });
    await prisma.task.create({
      data: {
        id: 'waiting-task',
        ownerId: userId,
        task: 'x',
        agent: 'BROWSER_AGENT',
        runs: {
          create: {
            id: 'waiting-run',
            shareToken: 't',
            status: 'running',
            detailedStatus: 'tool_call',
            toolCalls: { create: { id: 'old-call', name: 'form_input', createdAt: hourAgo } },
          },
        },
      },
    });
    await eventually(
      async () => (await prisma.taskRun.count({ where: { id: { in: ['dead-run', 'waiting-run'] }, status: 'error' } })) === 2,
      'the sweep',
    );
    const dead = await prisma.taskRun.findUniqueOrThrow({ where: { id: 'dead-run' } });
    expect(dead).toMatchObject({ status: 'error', detailedStatus: 'interrupted' });
    expect(dead.error).toMatch(/^interrupted: the worker running it stopped/);
    const waiting = await prisma.taskRun.findUniqueOrThrow({ where: { id: 'waiting-run' } });
    expect(waiting).toMatchObject({ status: 'error', detailedStatus: 'timed_out' });
    expect(waiting.error).toBe('timed out waiting for input to the tool "form_input" (no answer within 60 s, TASK_TOOL_INPUT_TIMEOUT_MS)');
    await server.close();
  });
});

describe('two servers on one PostgreSQL database', () => {
  const fx = useTaskFixtures();
  let database: TestDatabase;
  let db: Database;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgresql');
    servers.push(await startAlmanac(database.url, { ...fx.env, TASK_WORKERS: '2' }));
    servers.push(await startAlmanac(database.url, { ...fx.env, TASK_WORKERS: '2' }));
    db = await openDatabase(database.url);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await db?.close();
    await database?.drop();
  });

  it('never run the same run twice, and share the work', async () => {
    fx.llm.define('quick', [
      { call: 'navigate', args: { url: `${fx.pages.url}/` } },
      { call: 'done', args: { output: 'done' } },
    ]);
    const tasks = Array.from({ length: 8 }, () => taskText('quick'));
    const ids = [];
    for (const [i, task] of tasks.entries()) ids.push(await createTask(clientFor(servers[i % 2].url), { task }));
    for (const id of ids) await waitForRun(clientFor(servers[0].url), id, ended, { timeoutMs: 120_000 });
    const runs = await db.prisma.taskRun.findMany({ include: { steps: true } });
    expect(runs).toHaveLength(8);
    for (const run of runs) {
      expect(run).toMatchObject({ status: 'completed', attempts: 1 });
      expect(run.steps.map((s) => s.index).sort()).toEqual([1, 2]);
    }
    // Each task's conversation started exactly once.
    for (const task of tasks) expect(fx.llm.requestsOf(task).filter((r) => r.step === 0)).toHaveLength(1);
    expect(new Set(runs.map((r) => r.workerId)).size).toBe(2);
  }, 240_000);
});
