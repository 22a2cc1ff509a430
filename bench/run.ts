// npm run bench -- [--events 300] [--database sqlite|postgresql] [--seconds 10] [--connections 4] [--cache both|off|on] [--import N]
// (or BENCH_EVENTS, BENCH_DATABASE, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_CACHE, BENCH_IMPORT)
// npm run bench -- --writes [--clients 8] [--events …] [--database …] [--seconds …]
//
// --import N first imports a generated site running The Events Calendar and an iCalendar file of N
// events each into an empty calendar (bench/import.ts) and reports records/s; --events 0 then skips
// the read routes.
//
// Seeds a calendar of --events events with the bulk loader (bench/seed.ts), then measures the main
// read routes with autocannon (1 s on every route first, then per route 2 s of warm-up and --seconds
// of load), every server alone in its own process: the floor (one SQL statement builds the page,
// bench/floor.ts), then Almanac computing every answer (RESPONSE_CACHE=false) and with its kept
// answers (the default), as --cache says. Reports req/s, p50/p99 latency, SQL statements per
// request (counted on one request of each route by a separate server run with ALMANAC_TRACE_SQL=1,
// which prints a line per statement) and the server's peak RSS during the load
// (/proc/<pid>/status), and writes the table to bench/results/<database>-<events>.md. With --writes
// it measures writes instead (bench/writes.ts): --clients clients over two server processes, each
// kind of write for --seconds; the table goes to bench/results/writes-<database>-<events>.md.
// PostgreSQL runs in a fresh database almanac_bench_<pid>
// on 127.0.0.1:5432, dropped at the end. Every process it starts leads its own process group and
// is stopped by that group's id, whatever happens (end, error, SIGINT/SIGTERM/SIGHUP).
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchImport, type ImportRow } from './import.js';
import { seedCalendar } from './seed.js';
import { measureWrites } from './writes.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const usage =
  'usage: npm run bench -- [--events N] [--database sqlite|postgresql] [--seconds S] [--connections C] [--cache both|off|on] [--import N] [--writes [--clients N]]';

const { values: options } = parseArgs({
  options: {
    events: { type: 'string', default: process.env.BENCH_EVENTS || '300' },
    database: { type: 'string', default: process.env.BENCH_DATABASE || 'sqlite' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS || '10' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS || '4' },
    cache: { type: 'string', default: process.env.BENCH_CACHE || 'both' },
    writes: { type: 'boolean' },
    clients: { type: 'string', default: '8' },
    import: { type: 'string', default: process.env.BENCH_IMPORT || '0' },
    help: { type: 'boolean', short: 'h' },
  },
});
const events = Number(options.events);
const seconds = Number(options.seconds);
const connections = Number(options.connections);
const database = options.database as 'sqlite' | 'postgresql';
const clients = Number(options.clients);
const imported = Number(options.import);
if (
  options.help ||
  !Number.isInteger(events) ||
  events < 0 ||
  !Number.isInteger(imported) ||
  imported < 0 ||
  events + imported < 1 ||
  !(seconds > 0) ||
  !Number.isInteger(connections) ||
  connections < 1 ||
  !Number.isInteger(clients) ||
  clients < 1 ||
  !['sqlite', 'postgresql'].includes(database) ||
  !['both', 'off', 'on'].includes(options.cache!)
) {
  console.error(usage);
  process.exit(options.help ? 0 : 2);
}

// ------------------------------------------------------------------------------ processes, cleanup

const dir = mkdtempSync(join(tmpdir(), 'almanac-bench-'));
const pgName = `almanac_bench_${process.pid}`;
const PG = { host: '127.0.0.1', port: '5432', user: 'postgres' };
const databaseUrl = database === 'sqlite' ? `file:${join(dir, 'bench.db')}` : `postgresql://${PG.user}@${PG.host}:${PG.port}/${pgName}`;
const psql = (sql: string) =>
  execFileSync('psql', ['-h', PG.host, '-p', PG.port, '-U', PG.user, '-d', 'postgres', '-qAtc', sql], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** Process-group ids of the children still running (each child leads its own group). */
const groups = new Set<number>();
const signalGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
};

/** PostgreSQL databases of the import measurement, dropped at the end. */
const importDatabases: string[] = [];
let cleaned = false;
function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
  groups.clear();
  rmSync(dir, { recursive: true, force: true });
  if (database === 'postgresql') {
    for (const name of [pgName, ...importDatabases]) {
      try {
        psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } catch (error) {
        console.error(`bench: could not drop database ${name}: ${(error as Error).message}`);
      }
    }
  }
}
process.on('exit', cleanUp);
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}, stopping`);
    process.exit(code);
  });
}
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error) => {
    console.error('bench failed:', error);
    process.exit(1);
  });
}

interface Child {
  name: string;
  pid: number;
  port: number;
  out: string;
  err: string;
  exited: Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const readText = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');

/**
 * Starts `node <args…>` in its own process group, its stdout and stderr going to
 * files (never a pipe this process would have to drain while it runs the load); resolves once the
 * child has printed `"port":N`.
 */
async function start(name: string, script: string[], env: Record<string, string>): Promise<Child> {
  const out = join(dir, `${name}.out`);
  const err = join(dir, `${name}.err`);
  const [outFd, errFd] = [openSync(out, 'w'), openSync(err, 'w')];
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.ALMANAC_TRACE_SQL) delete childEnv.ALMANAC_TRACE_SQL;
  const child = spawn(process.execPath, script, { cwd: root, env: childEnv, stdio: ['ignore', outFd, errFd], detached: true });
  closeSync(outFd);
  closeSync(errFd);
  if (!child.pid) throw new Error(`${name}: could not start`);
  const pid = child.pid;
  groups.add(pid);
  let gone = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => (gone = true));
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(50)) {
    const match = /"port":(\d+)/.exec(readText(out));
    if (match) return { name, pid, port: Number(match[1]), out, err, exited };
    if (gone) break;
  }
  await stop({ name, pid, port: 0, out, err, exited });
  throw new Error(`${name} ${gone ? 'exited' : 'did not report a port'}:\n${readText(err).slice(-3000)}`);
}

/** SIGTERM to the child's group, SIGKILL after 10 s; then the group is killed for good measure. */
async function stop(child: Child): Promise<void> {
  if (!groups.has(child.pid)) return;
  signalGroup(child.pid, 'SIGTERM');
  const timedOut = await Promise.race([child.exited.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut) console.error(`bench: ${child.name} ignored SIGTERM; killing it`);
  signalGroup(child.pid, 'SIGKILL');
  groups.delete(child.pid);
}

const rssMb = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

// ---------------------------------------------------------------------------------------- import

const nproc = (() => {
  try {
    return execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    return String(cpus().length);
  }
})();
const cpu = cpus()[0]?.model?.trim() || 'unknown CPU';
const loadAverage = () => readText('/proc/loadavg').split(' ').slice(0, 3).join(' ');

let importLines: string[] = [];
if (imported > 0) {
  const loadBefore = loadAverage();
  const importRows: ImportRow[] = await benchImport(imported, dir, (name) => {
    if (database === 'sqlite') return `file:${join(dir, `import-${name}.db`)}`;
    const pgImport = `${pgName}_import_${name}`;
    importDatabases.push(pgImport);
    psql(`DROP DATABASE IF EXISTS ${pgImport} WITH (FORCE)`);
    psql(`CREATE DATABASE ${pgImport}`);
    return `postgresql://${PG.user}@${PG.host}:${PG.port}/${pgImport}`;
  });
  importLines = [
    `### import into an empty calendar, ${database}, ${imported.toLocaleString('en')} events — ${new Date().toISOString().slice(0, 10)}, nproc ${nproc}, ${cpu}`,
    '',
    `Node ${process.version}; load average ${loadBefore} before, ${loadAverage()} after. Records: those the job handled (a TEC site lists its venues, organizers, categories and tags too).`,
    '',
    '| source | events | records | seconds | records/s |',
    '|---|---:|---:|---:|---:|',
    ...importRows.map(
      (r) => `| ${r.source} | ${r.events} | ${r.records} | ${r.seconds.toFixed(1)} | ${(r.records / r.seconds).toFixed(0)} |`,
    ),
  ];
  console.log('\n' + importLines.join('\n') + '\n');
}
if (events === 0) {
  const resultsDir = join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, `${database}-import-${imported}.md`), importLines.join('\n') + '\n');
  console.log(`written to bench/results/${database}-import-${imported}.md`);
  process.exit(0);
}

// ------------------------------------------------------------------------------------------ seed

if (database === 'postgresql') {
  psql(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
  psql(`CREATE DATABASE ${pgName}`);
}
const seeded = await seedCalendar(databaseUrl, { events });
const seconds1 = (ms: number) => (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
const seedNote = `seeded in ${seconds1(seeded.loadMs)} s (migrations ${seconds1(seeded.migrateMs)} s)`;
console.log(`${events.toLocaleString('en')} events on ${database}: ${seedNote}`);

// ---------------------------------------------------------------------------------------- routes

const NS = '/wp-json/calendar/events/v1';
// The page of the benchmark of record (../shared/bench/page.graphql, beside PostGraphile and its
// floor): 50 published events from a date on, each with its fields, venue, organizers, categories
// with each one's parent, and tags. Here from yesterday, as bench/floor.ts's page.
const NESTED_QUERY = `query Page($filter: EventFilter, $page: Int = 1) {
  events(filter: $filter, page: { page: $page, perPage: 50 }) {
    items {
      id slug title description excerpt status startDate endDate utcStartDate utcEndDate
      timezone allDay cost website featured sticky hideFromListings dateUtc
      venue { id slug name address city country state zip phone website showMap showMapLink status dateUtc }
      organizers { id slug name phone website email status dateUtc }
      categories { id name slug description parent { id name slug } }
      tags { id name slug description }
    }
  }
}`;
const nestedVariables = {
  filter: {
    startDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) + ' 00:00:01',
    endDate: '2099-01-01',
    strictDates: true,
  },
};
const nestedPage = JSON.stringify({ operationName: 'Page', query: NESTED_QUERY, variables: nestedVariables });
interface Target {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
}
/** The routes measured, given how many pages the default list (10 a page) has. */
const routesFor = (totalPages: number): Target[] => {
  // A deep page: 200, or the last page of a smaller calendar.
  const deepPage = Math.max(1, Math.min(200, totalPages));
  return [
    { name: 'GraphQL events page (50, nested)', path: '/graphql', method: 'POST', body: nestedPage },
    // The same by GET (as persisted queries and CDNs send it): kept answers are served before yoga.
    {
      name: 'GraphQL events page (50, nested), GET',
      path: `/graphql?query=${encodeURIComponent(NESTED_QUERY)}&variables=${encodeURIComponent(JSON.stringify(nestedVariables))}`,
    },
    { name: 'REST /events?per_page=50', path: `${NS}/events?per_page=50` },
    { name: 'REST /events/{id}', path: `${NS}/events/${seeded.upcomingEventId}` },
    {
      name: `REST /events?categories=${seeded.categorySlug}&per_page=50`,
      path: `${NS}/events?categories=${seeded.categorySlug}&per_page=50`,
    },
    { name: `REST /events?search=${seeded.searchWord}`, path: `${NS}/events?search=${seeded.searchWord}` },
    { name: `REST /events?page=${deepPage}`, path: `${NS}/events?page=${deepPage}` },
    { name: 'REST /venues', path: `${NS}/venues` },
  ];
};
let routes: Target[] = [];
const MODES = (
  [
    { label: '', env: { RESPONSE_CACHE: 'false' } },
    { label: 'kept: ', env: { RESPONSE_CACHE: 'true' } },
  ] as const
).filter((mode) => options.cache === 'both' || (options.cache === 'on') === (mode.env.RESPONSE_CACHE === 'true'));
// The server as `npm start` runs it: the build (`npm run bench` builds first).
const SERVER = ['--enable-source-maps', 'dist/main.js'];
const serverEnv = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'info',
  SITE_URL: 'http://bench.test',
  TASK_WORKERS: '0',
};

async function request(base: string, target: Target): Promise<number> {
  const response = await fetch(base + target.path, {
    method: target.method ?? 'GET',
    body: target.body,
    headers: target.body ? { 'content-type': 'application/json' } : {},
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${target.name}: HTTP ${response.status}: ${body.slice(0, 500)}`);
  if (target.path.startsWith('/graphql') && body.includes('"errors"')) throw new Error(`${target.name}: ${body.slice(0, 500)}`);
  return response.status;
}

// ------------------------------------------------------------------------------------------ writes

if (options.writes) {
  const adminKey = `bench-admin-key-${process.pid}-0123456789`;
  // Two processes on one database, as a scaled-out deployment runs (kept answers on, the default).
  const servers = [
    await start('writes-a', SERVER, { ...serverEnv, ALMANAC_ADMIN_KEY: adminKey }),
    await start('writes-b', SERVER, { ...serverEnv, ALMANAC_ADMIN_KEY: adminKey }),
  ];
  try {
    const written = await measureWrites(
      {
        bases: servers.map((server) => `http://127.0.0.1:${server.port}`),
        clients,
        seconds,
        adminKey,
        venueIds: seeded.venueIds,
        categoryIds: seeded.categoryIds,
      },
      console.log,
    );
    const lines = [
      `### writes, ${database}, ${events.toLocaleString('en')} events, ${clients} clients over 2 server processes, ${seconds} s per kind — ${new Date().toISOString().slice(0, 10)}, nproc ${nproc}, ${cpu}`,
      '',
      `Node ${process.version}; each client sends its next write when the last is answered, 1 s of each kind first not counted; ${seedNote}. Venues and categories: the seeded ones, in turn.`,
      '',
      '| write | writes/s | p50 ms | p99 ms | writes |',
      '|---|---:|---:|---:|---:|',
      ...written.map((r) => `| ${r.name} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.writes} |`),
    ];
    console.log('\n' + lines.join('\n'));
    const resultsDir = join(root, 'bench', 'results');
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, `writes-${database}-${events}.md`), lines.join('\n') + '\n');
    console.log(`\nwritten to bench/results/writes-${database}-${events}.md`);
  } finally {
    for (const server of servers) await stop(server);
  }
  process.exit(0);
}

// -------------------------------------------------------------------------- SQL statements per request

// One traced server per mode. Each route: a first request (one-time work such as the first query
// of a kind, and with kept answers the filling of the cache), then the counted one, each followed
// by 200 ms for its lines to land. Kept answers are keyed by the second: both requests are sent
// at the start of one second, and again (up to three times) while they straddle two.
const statements = new Map<string, number>();
const countSql = (file: string) =>
  readText(file)
    .split('\n')
    .filter((line) => line.startsWith('SQL ')).length;
for (const mode of MODES) {
  const traced = await start(`traced${mode.label ? '-kept' : ''}`, SERVER, { ...serverEnv, ...mode.env, ALMANAC_TRACE_SQL: '1' });
  try {
    const base = `http://127.0.0.1:${traced.port}`;
    if (!routes.length) {
      const list = await fetch(`${base}${NS}/events`);
      await list.arrayBuffer();
      routes = routesFor(Number(list.headers.get('x-tec-totalpages')) || 1);
    }
    for (const target of routes) {
      let count = 0;
      for (let attempt = 0; attempt < 3; attempt++) {
        if (mode.label) await sleep(1000 - (Date.now() % 1000));
        const first = Date.now();
        await request(base, target);
        await sleep(200);
        const before = countSql(traced.err);
        const second = Date.now();
        await request(base, target);
        await sleep(200);
        count = countSql(traced.err) - before;
        if (!mode.label || Math.floor(first / 1000) === Math.floor(second / 1000)) break;
      }
      statements.set(mode.label + target.name, count);
    }
  } finally {
    await stop(traced);
  }
}

// ------------------------------------------------------------------------------------------- load

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  sql: number;
  rss: number;
}
const rows: Row[] = [];

const loadOf = (base: string, target: Target) => ({
  url: base + target.path,
  method: target.method ?? 'GET',
  body: target.body,
  headers: target.body ? { 'content-type': 'application/json' } : undefined,
  connections,
});

async function measure(name: string, base: string, pid: number, target: Target, sql: number): Promise<void> {
  const args = loadOf(base, target);
  await autocannon({ ...args, duration: 2 }); // warm-up
  let rss = rssMb(pid);
  const sampler = setInterval(() => (rss = Math.max(rss, rssMb(pid))), 250);
  const result = await autocannon({ ...args, duration: seconds });
  clearInterval(sampler);
  rss = Math.max(rss, rssMb(pid));
  if (result.non2xx || result.errors || result.timeouts)
    throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  rows.push({ name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, sql, rss });
  console.log(
    `${name}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${sql} SQL/req, ${rss.toFixed(0)} MB`,
  );
}

{
  const floor = await start('floor', ['--import', 'tsx', 'bench/floor.ts', databaseUrl], {});
  try {
    await measure(
      'floor: one SQL statement builds the 50-event page',
      `http://127.0.0.1:${floor.port}`,
      floor.pid,
      { name: 'floor', path: '/' },
      1,
    );
  } finally {
    await stop(floor);
  }
}
for (const mode of MODES) {
  const server = await start(`server${mode.label ? '-kept' : ''}`, SERVER, { ...serverEnv, ...mode.env });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    // A new process runs below its steady rate for its first seconds (V8 optimizing the shared hot
    // paths, the pool opening connections), which fell on whichever route came first: every route
    // is loaded for a second before any is measured.
    for (const target of routes) await autocannon({ ...loadOf(base, target), duration: 1 });
    for (const target of routes)
      await measure(mode.label + target.name, base, server.pid, target, statements.get(mode.label + target.name)!);
  } finally {
    await stop(server);
  }
}

// ----------------------------------------------------------------------------------------- report

const floorRps = rows[0].rps;
const ms = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
const lines = [
  `### ${database}, ${events.toLocaleString('en')} events, ${connections} connections, ${seconds} s per route — ${new Date().toISOString().slice(0, 10)}, nproc ${nproc}, ${cpu}`,
  '',
  `Node ${process.version}; autocannon, ${seconds} s per route after a 2 s warm-up (and 1 s on every route first); ${seedNote}. Server: LOG_LEVEL=info, TASK_WORKERS=0.`,
  'SQL/req: statements of one request (after a first one) on a server run with ALMANAC_TRACE_SQL=1; RSS: the peak of the serving process during the load.',
  ...(MODES.some((mode) => mode.label)
    ? ['"kept:" rows: RESPONSE_CACHE=true (the default), answers kept per data version and second; the others RESPONSE_CACHE=false.']
    : []),
  '',
  '| route | req/s | p50 ms | p99 ms | SQL/req | RSS MB | vs floor |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.sql} | ${r.rss.toFixed(0)} | ${(r.rps / floorRps).toFixed(2)} |`,
  ),
  ...(importLines.length ? ['', ...importLines] : []),
];
console.log('\n' + lines.join('\n'));
const resultsDir = join(root, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, `${database}-${events}.md`), lines.join('\n') + '\n');
console.log(`\nwritten to bench/results/${database}-${events}.md`);
process.exit(0);
