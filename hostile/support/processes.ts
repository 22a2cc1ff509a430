// Real server processes for the hostile suite: the built server (`node dist/…/main.js`, what
// `npm start` runs) configured through its environment, each the leader of its own process group,
// stopped or killed by that group's id — never by name — and the processes it started (its
// Chromium) by theirs. Every server a file starts is killed when the file ends (afterAll), and when
// this test process exits, whatever happened.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, inject } from 'vitest';
import { freePort } from '../../test/support/ports.js';
import { ADMIN_KEY } from '../../test/support/server.js';

export { ADMIN_KEY };

/** The environment every hostile server gets unless a test says otherwise. */
export const BASE_ENV = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  ALMANAC_ADMIN_KEY: ADMIN_KEY,
  SITE_URL: 'http://almanac.test',
  TASK_WORKERS: '0',
  // The fuzz sends thousands of task API requests with one key: the limit is not under test here.
  TASK_API_RATE_LIMIT: '1000000',
  // The fuzz sends wrong keys by the hundred: failed sign-ins are limited in sign-in-throttle.test.ts.
  AUTH_FAILURES_PER_MINUTE: '1000000',
};

export interface ServerProcess {
  name: string;
  pid: number;
  port: number;
  url: string;
  /** What the process wrote (stdout and stderr, its last 200 kB). */
  output(): string;
  /**
   * SQL statements it traced so far (with ALMANAC_TRACE_SQL=1: one `SQL …` line each on stderr),
   * leaving out those of the task side's background loops (run claims and sweeps, webhook
   * deliveries: a round a second in every process, whatever the requests).
   */
  sqlStatements(): number;
  /** Its log lines at level error or worse (pino JSON, level ≥ 50). */
  errorLogs(): string[];
  alive(): boolean;
  /** SIGKILL to its process group and whatever it started (a crash); resolves once it exited. */
  kill(): Promise<void>;
  /** SIGTERM to its process group, SIGKILL after 10 s; resolves once it exited. */
  stop(): Promise<void>;
}

const running = new Set<ServerProcess>();

/** Tables the background loops of every process poll (src/tasks/workers.ts, src/tasks/webhooks.ts). */
const BACKGROUND_TABLES = /[`"](Task|TaskRun|TaskStep|ToolCall|WebhookDelivery)[`"]/;

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // already gone (or, for a group id, not a group leader)
  }
}

/** pid → [parent pid, start time] of every process, from /proc. */
function processTable(): Map<number, [number, string]> {
  const table = new Map<number, [number, string]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // state ppid pgrp … starttime (22nd field)
      table.set(Number(entry), [Number(fields[1]), fields[19]]);
    } catch {
      // it ended meanwhile
    }
  }
  return table;
}

/** The descendants of `pid` now, each with its start time (so that a reused pid is never taken for it). */
function descendants(pid: number): Array<[number, string]> {
  const table = processTable();
  const found: Array<[number, string]> = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [child, [ppid, started]] of table) {
      if (ppid === parent) {
        found.push([child, started]);
        queue.push(child);
      }
    }
  }
  return found;
}

/**
 * SIGKILL to the descendants found earlier that still run (the same pid and start time): the
 * server's Chromium leads a process group of its own (Playwright starts it detached), so it is not
 * in the server's group. Each is killed by its own pid and, if it leads one, its group.
 */
function killSurvivors(tree: Array<[number, string]>): void {
  const table = processTable();
  for (const [pid, started] of tree) {
    if (table.get(pid)?.[1] !== started) continue;
    signal(-pid, 'SIGKILL');
    signal(pid, 'SIGKILL');
  }
}

/** SIGKILL to a server's process group and to every process it started. */
function killTree(pid: number): void {
  const tree = descendants(pid);
  signal(-pid, 'SIGKILL');
  killSurvivors(tree);
}

// Whatever ends this test process, no server (nor its browser) outlives it.
process.on('exit', () => {
  for (const server of running) killTree(server.pid);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function spawnOnce(name: string, env: Record<string, string>): Promise<ServerProcess | 'port-taken'> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...BASE_ENV, ...env, PORT: String(port) };
  if (!env.ALMANAC_TRACE_SQL) delete childEnv.ALMANAC_TRACE_SQL;
  delete childEnv.NODE_OPTIONS; // vitest's loader options are not the server's
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', inject('serverEntry')], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (!child.pid) throw new Error(`${name}: could not start`);
  const pid = child.pid;
  let output = '';
  let sql = 0;
  const errors: string[] = [];
  let partial = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-200_000);
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('SQL ') && !BACKGROUND_TABLES.test(line)) sql++;
      else if (/^\{"level":(5\d|60)\b/.test(line)) errors.push(line);
    }
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = child.exitCode !== null || child.signalCode !== null;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exit.then(() => {
    exited = true;
  });

  const server: ServerProcess = {
    name,
    pid,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    sqlStatements: () => sql,
    errorLogs: () => [...errors],
    alive: () => !exited,
    async kill() {
      if (!exited) killTree(pid);
      await exit;
      running.delete(server);
    },
    async stop() {
      if (!exited) {
        const tree = descendants(pid);
        signal(-pid, 'SIGTERM');
        const timedOut = await Promise.race([exit.then(() => false), sleep(10_000).then(() => true)]);
        if (timedOut) signal(-pid, 'SIGKILL');
        await exit;
        killSurvivors(tree);
      }
      await exit;
      running.delete(server);
    },
  };
  running.add(server);
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(50)) {
    if (exited) {
      running.delete(server);
      if (/EADDRINUSE/.test(output)) return 'port-taken';
      throw new Error(`${name} exited before it answered:\n${output.slice(-5000)}`);
    }
    if (await healthy(server.url)) return server;
  }
  await server.kill();
  throw new Error(`${name} did not answer /healthz within 90 s:\n${output.slice(-5000)}`);
}

/**
 * Starts the built server with BASE_ENV plus `env` (DATABASE_URL at least) on a free port and
 * resolves once /healthz answers 200 (migrations applied, admin key in place).
 */
export async function startServerProcess(name: string, env: Record<string, string> & { DATABASE_URL: string }): Promise<ServerProcess> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const server = await spawnOnce(name, env);
    if (server !== 'port-taken') return server;
  }
  throw new Error(`${name}: no free port after 5 attempts`);
}

/** Kills every server still running (what afterAll of each file does). */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((server) => server.kill()));
}

/** Registers the afterAll that kills whatever this file started. */
export function useServerProcesses(): void {
  afterAll(killAll);
}
