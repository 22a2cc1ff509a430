// Part 4 of the hostile suite, on each engine: kill -9. A server process takes a stream of creates
// from several clients, each acknowledgement (201 and the id) recorded, and is killed mid-stream;
// restarted on the same database, it must serve every acknowledged record, and the database must be
// sound. Then a browser task is killed mid-run with its server: the next server must resume the run
// to its end, or end it `interrupted` when it may not be resumed again, never lose it or leave it
// running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysFromNow } from '../test/support/clock.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../test/support/databases.js';
import { clientFor, createTask, ended, eventually, runResult, taskText, useTaskFixtures, waitForRun } from '../test/support/tasks.js';
import { NS, withDatabase } from './support/calendar.js';
import { pool } from './support/http.js';
import { integrityViolations } from './support/integrity.js';
import { ADMIN_KEY, startServerProcess, type ServerProcess } from './support/processes.js';

const WRITERS = 6;
/** Acknowledged creates before the kill (the kill lands while the writers keep going). */
const ACKNOWLEDGED_BEFORE_KILL = 120;

describe.each(DATABASE_KINDS)('kill -9 on %s', (kind) => {
  const fx = useTaskFixtures();
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  /** A server on the test's database with a task worker (the fake LLM's), at most one running at a time. */
  const start = async (name: string, env: Record<string, string> = {}) => {
    await Promise.all(servers.map((server) => server.kill())); // any earlier one: no other worker may take the runs
    const server = await startServerProcess(`${kind}-${name}`, { ...fx.env, DATABASE_URL: database.url, TASK_WORKERS: '1', ...env });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await database?.drop();
  });

  it('keeps every acknowledged write of a server killed mid-stream', async () => {
    const server = await start('writer');
    const api = clientFor(server.url);
    const acknowledged = new Map<number, string>(); // id → title
    let attempted = 0;
    let failed = 0;
    let killed = false;
    const writer = async (lane: number) => {
      for (let i = 0; ; i++) {
        const title = `Stream ${lane}-${i}`;
        attempted++;
        // Each create also names a category (created or found in the same transaction), so that a
        // half-written one would show as a dangling link or a wrong count.
        const body = { title, start_date: daysFromNow(50), end_date: daysFromNow(50, '11:00:00'), categories: [`Crash lane ${lane % 3}`] };
        try {
          const response = await api.request('POST', `${NS}/events`, { body, key: ADMIN_KEY });
          if (response.status === 201) acknowledged.set(response.json.id, title);
          else if (!killed) throw new Error(`create answered ${response.status}: ${response.text.slice(0, 300)}`);
          else failed++;
        } catch (error) {
          if (!killed) throw error;
          failed++; // the connection died with the server: not acknowledged
          return;
        }
        if (killed) return;
      }
    };
    const writing = pool(
      Array.from({ length: WRITERS }, (_, lane) => lane),
      WRITERS,
      writer,
    );
    await eventually(() => acknowledged.size >= ACKNOWLEDGED_BEFORE_KILL, `${ACKNOWLEDGED_BEFORE_KILL} acknowledged creates`, 120_000);
    killed = true;
    await server.kill(); // SIGKILL to its process group, mid-stream
    await writing;
    const atKill = acknowledged.size;

    const restarted = await start('after-kill');
    const again = clientFor(restarted.url);
    const missing: string[] = [];
    await pool([...acknowledged], 8, async ([id, title]) => {
      const read = await again.request('GET', `${NS}/events/${id}`, { key: ADMIN_KEY });
      if (read.status !== 200 || read.json.title !== title) missing.push(`${id} ${title}: ${read.status} ${read.text.slice(0, 200)}`);
    });
    const stored = await withDatabase(database.url, (db) => db.prisma.event.count({ where: { title: { startsWith: 'Stream ' } } }));
    const violations = await withDatabase(database.url, integrityViolations);
    console.log(
      `[${kind}] kill -9 mid-stream: ${attempted} creates sent by ${WRITERS} clients, ${atKill} acknowledged, ${failed} cut off by the kill; ` +
        `after restart ${atKill - missing.length}/${atKill} acknowledged readable, ${stored} stored (${stored - atKill} committed unacknowledged), ${Object.keys(violations).length} integrity rules broken`,
    );
    expect(missing).toEqual([]);
    expect(stored).toBeGreaterThanOrEqual(atKill);
    expect(stored).toBeLessThanOrEqual(attempted);
    expect(violations).toEqual({});
  });

  it('resumes a browser task run killed with its server, or ends it interrupted, never loses it', async () => {
    // Step 1 hangs the first time (the run is mid-step, the browser open), then finishes.
    fx.llm.define('crash-run', [
      { call: 'navigate', args: { url: `${fx.pages.url}/search` } },
      (c) => (c.seen === 0 ? { hang: true } : { call: 'done', args: { output: `resumed on ${/Title: (.*)/.exec(c.page)?.[1]}` } }),
    ]);
    const midRun = async (server: ServerProcess) => {
      const task = taskText('crash-run');
      const taskId = await createTask(clientFor(server.url), { task });
      await eventually(() => fx.llm.requestsOf(task).some((r) => r.step === 1), 'the run to reach its second step', 90_000);
      await server.kill(); // the crash: the server and its Chromium, SIGKILL
      return taskId;
    };
    const outcome = async (server: ServerProcess, taskId: string) => {
      const api = clientFor(server.url);
      const run = await waitForRun(api, taskId, ended, { timeoutMs: 90_000 });
      const result = await runResult(api, taskId);
      const row = await withDatabase(database.url, (db) => db.prisma.taskRun.findFirstOrThrow({ where: { taskId } }));
      return { run, result, row };
    };

    // Resumed: the next server takes the run back once its heartbeat is stale, and finishes it.
    const resumedId = await midRun(await start('task-1'));
    const second = await start('task-2');
    const resumed = await outcome(second, resumedId);
    expect(resumed.result).toMatchObject({ status: 'completed', output: 'resumed on Find events' });
    expect(resumed.row).toMatchObject({ status: 'completed', recoveries: 1, attempts: 2 });

    // Interrupted: killed again, and the next server may not resume it (TASK_MAX_RESUMES=0).
    const interruptedId = await midRun(second);
    const third = await start('task-3', { TASK_MAX_RESUMES: '0' });
    const interrupted = await outcome(third, interruptedId);
    expect(interrupted.run).toMatchObject({ status: 'error', detailedStatus: 'interrupted' });
    expect(interrupted.result.error).toMatch(/^interrupted/);
    console.log(
      `[${kind}] kill -9 mid-run: run resumed by the next server → ${resumed.result.status} "${resumed.result.output}" (recoveries ${resumed.row.recoveries}); ` +
        `with TASK_MAX_RESUMES=0 → ${interrupted.run.status}/${interrupted.run.detailedStatus}`,
    );
    // Nothing left running anywhere.
    const unfinished = await withDatabase(database.url, (db) =>
      db.prisma.taskRun.count({ where: { status: { in: ['scheduled', 'running'] } } }),
    );
    expect(unfinished).toBe(0);
  });
});
