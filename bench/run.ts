// npm run bench -- [--events 300] [--database sqlite|postgresql] [--seconds 5] [--connections 4]
//
// Seeds a calendar of --events events (bench/seed.ts, a bulk loader), then measures the main read
// routes with autocannon, each server alone on the machine: the floor (one SQL statement building
// the page, bench/floor.ts), Almanac computing every answer (RESPONSE_CACHE=false), and Almanac
// with its kept answers (the default). Reports req/s, p50/p99 latency, SQL statements per request
// (counted once per route by a server run with ALMANAC_TRACE_SQL=1) and the server's peak RSS, and
// writes the table to bench/results/<database>-<events>.md. PostgreSQL runs in a fresh database on
// 127.0.0.1:5432 (dropped afterwards). Every process it starts is stopped by its own pid.
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.js';
import { deployMigrations } from '../src/db/migrations.js';
import { seedCalendar } from './seed.js';

const { values: options } = parseArgs({
  options: {
    events: { type: 'string', default: process.env.BENCH_EVENTS ?? '300' },
    database: { type: 'string', default: process.env.BENCH_DATABASE ?? 'sqlite' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '5' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '4' },
  },
});
const events = Number(options.events);
const seconds = Number(options.seconds);
const connections = Number(options.connections);
if (!(events > 0) || !(seconds > 0) || !(connections > 0) || !['sqlite', 'postgresql'].includes(options.database!)) {
  console.error('usage: npm run bench -- [--events N] [--database sqlite|postgresql] [--seconds S] [--connections C]');
  process.exit(2);
}

const children = new Set<ChildProcess>();
const dir = mkdtempSync(join(tmpdir(), 'almanac-bench-'));
const pgName = `almanac_bench_${process.pid}`;
const databaseUrl = options.database === 'sqlite' ? `file:${join(dir, 'bench.db')}` : `postgresql://postgres@127.0.0.1:5432/${pgName}`;
const psql = (sql: string) => execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-qAtc', sql], { stdio: ['ignore', 'pipe', 'inherit'] });
function cleanUp() {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  if (options.database === 'postgresql') {
    try {
      psql(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    } catch {
      // nothing to drop
    }
  }
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** Starts `script` with node + tsx, resolves its pid and the port it reports on stdout. */
function start(script: string[], env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  return new Promise((resolve, reject) => {
    let out = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = out.match(/"port":(\d+)/);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolve({ child, port: Number(match[1]) });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script[0]} exited with ${code}: ${stderr.slice(-2000)}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return void children.delete(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  children.delete(child);
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

// ---------------------------------------------------------------------------------------------

if (options.database === 'postgresql') {
  psql(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
  psql(`CREATE DATABASE ${pgName}`);
}
await deployMigrations(databaseUrl);
let seedMs = Date.now();
const db = await openDatabase(databaseUrl);
const seeded = await seedCalendar(db, { events });
await db.close();
seedMs = Date.now() - seedMs;
console.log(`seeded ${events} events on ${options.database} in ${(seedMs / 1000).toFixed(1)} s`);

const NS = '/wp-json/calendar/events/v1';
/** A deep page of the default list (10 a page): 200 at 100,000 events, fewer on small calendars. */
const deepPage = Math.min(200, Math.max(2, Math.floor(events / 50)));
const nestedPage = JSON.stringify({
  query: `{ events(page: { perPage: 50 }) { total items { id title startDate endDate timezone cost venue { name city } organizers { name email } categories { name } tags { name } } } }`,
});
interface Target {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
}
const routes: Target[] = [
  { name: 'GraphQL nested page (50 events)', path: '/graphql', method: 'POST', body: nestedPage },
  { name: 'REST GET /events?per_page=50', path: `${NS}/events?per_page=50` },
  { name: 'REST GET /events/{id}', path: `${NS}/events/${seeded.upcomingEventId}` },
  { name: 'REST /events?categories=…&per_page=50', path: `${NS}/events?categories=category-3&per_page=50` },
  { name: 'REST /events?search=jazz', path: `${NS}/events?search=jazz` },
  { name: `REST /events?page=${deepPage}`, path: `${NS}/events?page=${deepPage}` },
  { name: 'REST GET /venues', path: `${NS}/venues` },
];
const serverEnv = { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', SITE_URL: 'http://bench.test', TASK_WORKERS: '0' };

async function request(base: string, target: Target): Promise<number> {
  const response = await fetch(base + target.path, {
    method: target.method ?? 'GET',
    body: target.body,
    headers: target.body ? { 'content-type': 'application/json' } : {},
  });
  await response.arrayBuffer();
  return response.status;
}

const MODES = [
  ['', { RESPONSE_CACHE: 'false' }],
  ['kept: ', { RESPONSE_CACHE: 'true' }],
] as const;

// SQL statements per request: one request of each route on a traced server, after one that warms
// it (and, with the cache on, fills it: the second request is then answered from it).
const statements = new Map<string, number>();
for (const [label, env] of MODES) {
  const traced = await start(['src/main.ts'], { ...serverEnv, ...env, ALMANAC_TRACE_SQL: '1' });
  let lines = 0;
  traced.child.stderr!.on('data', (chunk: Buffer) => (lines += chunk.toString().split('\n').filter((l) => l.startsWith('SQL ')).length));
  const base = `http://127.0.0.1:${traced.port}`;
  for (const target of routes) {
    // Both requests in one second: kept answers are keyed by the second.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
    await request(base, target);
    await new Promise((r) => setTimeout(r, 100));
    const before = lines;
    const status = await request(base, target);
    await new Promise((r) => setTimeout(r, 300));
    if (status !== 200) throw new Error(`${target.name}: HTTP ${status}`);
    statements.set(label + target.name, lines - before);
  }
  await stop(traced.child);
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  sql: number | string;
  rss: number;
}
const rows: Row[] = [];

async function measure(name: string, base: string, pid: number, target: Target, sql: number | string): Promise<void> {
  const args = { url: base + target.path, method: target.method ?? 'GET', body: target.body, headers: target.body ? { 'content-type': 'application/json' } : undefined, connections };
  await autocannon({ ...args, duration: 2 }); // warm-up
  let rss = rssMb(pid);
  const sampler = setInterval(() => (rss = Math.max(rss, rssMb(pid))), 200);
  const result = await autocannon({ ...args, duration: seconds });
  clearInterval(sampler);
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  rows.push({ name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, sql, rss });
  console.log(`${name}: ${result.requests.average.toFixed(0)} req/s`);
}

{
  const floor = await start(['bench/floor.ts', databaseUrl], {});
  await measure('floor: one SQL statement builds the page', `http://127.0.0.1:${floor.port}`, floor.child.pid!, { name: 'floor', path: '/' }, 1);
  await stop(floor.child);
}
for (const [label, env] of MODES) {
  const server = await start(['src/main.ts'], { ...serverEnv, ...env });
  const base = `http://127.0.0.1:${server.port}`;
  for (const target of routes) await measure(label + target.name, base, server.child.pid!, target, statements.get(label + target.name)!);
  await stop(server.child);
}

const floorRps = rows[0].rps;
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const lines = [
  `### ${options.database}, ${events.toLocaleString('en')} events — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `${cpus().length} cores (${cpu}); autocannon, ${connections} connections, ${seconds} s per route after a 2 s warm-up; seeded in ${(seedMs / 1000).toFixed(1)} s.`,
  '"kept:" rows: the same requests with the response cache on (RESPONSE_CACHE=true, the default); the others compute every answer.',
  '',
  '| route | req/s | p50 ms | p99 ms | SQL/req | RSS MB | vs floor |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.sql} | ${r.rss.toFixed(0)} | ${(r.rps / floorRps).toFixed(2)} |`),
];
console.log('\n' + lines.join('\n'));
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/${options.database}-${events}.md`, lines.join('\n') + '\n');
process.exit(0);
