// npm run bench — seeds a realistic calendar, then measures the main routes with autocannon next to
// the floor: the same page read straight through the database driver by a bare node:http server.
// The server and the floor run in their own processes; autocannon runs here.
// Options (env): BENCH_SECONDS (default 5), BENCH_CONNECTIONS (10), BENCH_DATABASE_URL (default a
// temporary SQLite file; a postgresql:// URL must name an existing, empty database).
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const dir = mkdtempSync(join(tmpdir(), 'almanac-bench-'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `file:${join(dir, 'bench.db')}`;
const adminKey = 'bench-admin-key-0123456789';
const children: ChildProcess[] = [];
// However the bench ends, its servers end with it.
process.on('exit', () => children.forEach((child) => child.kill('SIGTERM')));

/** Starts `args` with node + tsx and resolves the port it reports on stdout. */
function start(args: string[], env: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = out.match(/"port":(\d+)/);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume(); // keep draining the access log without holding it
      resolve(Number(match[1]));
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

const port = await start(['src/main.ts'], { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: "info", ALMANAC_ADMIN_KEY: adminKey, SITE_URL: 'http://bench.test' });
const base = `http://127.0.0.1:${port}`;

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}
console.log('seeding 300 events, 25 venues, 15 organizers, 10 categories, 20 tags…');
const day = (i: number) => new Date(Date.now() + (i % 300) * 86_400_000 + 86_400_000).toISOString().slice(0, 10);
for (let i = 0; i < 300; i++) {
  await graphql('mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }', {
    input: {
      title: `Event ${i}`,
      description: `Description of event ${i}, with enough words to look like a real one.`,
      startDate: `${day(i)} 18:00:00`,
      endDate: `${day(i)} 21:00:00`,
      timezone: i % 2 ? 'America/Chicago' : 'Europe/Paris',
      cost: [`${(i % 5) * 10}$`],
      venue: { venue: `Venue ${i % 25}`, city: 'Springfield', country: 'United States', state: 'IL' },
      organizer: [{ organizer: `Organizer ${i % 15}`, email: `org${i % 15}@example.com` }],
      categories: [`Category ${i % 10}`],
      tags: [`tag-${i % 20}`, `tag-${(i + 7) % 20}`],
    },
  });
}

// The floor: the same page read straight through the driver (SQLite only).
const floorUrl = databaseUrl.startsWith('file:') ? `http://127.0.0.1:${await start(['bench/floor.ts', databaseUrl.slice('file:'.length)], {})}/` : null;

const firstEventId = (await graphql('{ events(page: { perPage: 1 }) { items { id } } }')).events.items[0].id;
const eventsQuery = JSON.stringify({
  query: `{ events { total items { id title startDate endDate timezone cost venue { name city } organizers { name email } categories { name } tags { name } } } }`,
});
const targets: { name: string; url: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }[] = [
  ...(floorUrl ? [{ name: 'floor: driver read of the same page', url: floorUrl }] : []),
  { name: 'GraphQL events page (nested)', url: `${base}/graphql`, method: 'POST', body: eventsQuery, headers: { 'content-type': 'application/json' } },
  { name: 'REST GET /events', url: `${base}/wp-json/calendar/events/v1/events` },
  { name: 'REST GET /events/{id}', url: `${base}/wp-json/calendar/events/v1/events/${firstEventId}` },
  { name: 'REST GET /venues', url: `${base}/wp-json/calendar/events/v1/venues` },
];

const results: { name: string; rps: number; p50: number; p99: number }[] = [];
for (const target of targets) {
  const probe = await fetch(target.url, { method: target.method ?? 'GET', body: target.body, headers: target.headers });
  if (probe.status !== 200) {
    console.log(`skip ${target.name}: ${probe.status}`);
    continue;
  }
  const result = await autocannon({ url: target.url, method: target.method ?? 'GET', body: target.body, headers: target.headers, connections, duration: seconds });
  results.push({ name: target.name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
}

const floorRps = results.find((r) => r.name.startsWith('floor'))?.rps;
console.log(`\n${databaseUrl.startsWith('file:') ? 'sqlite' : 'postgresql'}, ${connections} connections, ${seconds}s each`);
console.log('route'.padEnd(42), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'vs floor'.padStart(9));
for (const r of results) {
  const ratio = floorRps ? (r.rps / floorRps).toFixed(2) : '-';
  console.log(r.name.padEnd(42), r.rps.toFixed(0).padStart(9), String(r.p50).padStart(8), String(r.p99).padStart(8), ratio.padStart(9));
}
for (const child of children) child.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
process.exit(0);
