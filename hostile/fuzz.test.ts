// Part 1 and 2 of the hostile suite, on each engine: one real server process (the build) takes
// thousands of malformed requests — REST derived from its route table, GraphQL, the task API — as
// an administrator, a contributor and nobody. No answer may be a 5xx, hostile GraphQL documents
// must be refused before they run (no data, no SQL statement; their times are reported, not asserted:
// a test never depends on the machine being idle), the server must still serve
// the event list afterwards, and the database must be sound: every record readable, no dangling
// link, term counts right, slugs unique.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../test/support/databases.js';
import { clientFor, createTask } from '../test/support/tasks.js';
import { createKeys, seedFixtures, withDatabase } from './support/calendar.js';
import { REFUSED, graphqlCases } from './support/graphql-cases.js';
import { fire, median, parseJson, RawClient, Tally } from './support/http.js';
import { integrityViolations, recordCounts, unreadableRecords } from './support/integrity.js';
import { ADMIN_KEY, startServerProcess, type ServerProcess } from './support/processes.js';
import { credentialCases, restCases, type Fixtures } from './support/rest-cases.js';
import { taskCases } from './support/task-cases.js';

const CONCURRENCY = 8;
/** Refusals per hostile document (after a warm-up); their times are reported. */
const TIMED_TRIES = 40;

describe.each(DATABASE_KINDS)('hostile input on %s', (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let raw: RawClient;
  let fixtures: Fixtures;
  let callers: Array<{ name: string; headers: Record<string, string> }>;
  const tallies: Record<string, Tally> = {};

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // SQL tracing on: a refused GraphQL document must cost no statement. No task workers: the
    // server runs no background statements, and tasks the fuzz creates stay queued.
    server = await startServerProcess(`fuzz-${kind}`, { DATABASE_URL: database.url, ALMANAC_TRACE_SQL: '1', TASK_WORKERS: '0' });
    const keys = await createKeys(database.url, ['contributor']);
    callers = [
      { name: 'administrator', headers: { 'x-api-key': ADMIN_KEY } },
      { name: 'contributor', headers: { 'x-api-key': keys.contributor } },
      { name: 'anonymous', headers: {} },
    ];
    fixtures = await seedFixtures(clientFor(server.url), ADMIN_KEY);
    raw = new RawClient(server.url, CONCURRENCY);
  });
  afterAll(async () => {
    raw?.close();
    await server?.kill();
    await database?.drop();
  });

  const report = (name: string, tally: Tally, seconds: number) => {
    tallies[name] = tally;
    console.log(`[${kind}] ${name}: ${tally.summary()} in ${seconds.toFixed(1)} s\n${tally.timings()}`);
    if (tally.failures.length) console.log(`[${kind}] ${name} failures:\n${tally.describeFailures(20)}`);
  };
  const timed = async (run: () => Promise<Tally>) => {
    const started = Date.now();
    const tally = await run();
    return { tally, seconds: (Date.now() - started) / 1000 };
  };

  it('refuses a depth-50 document, 10,000 aliases and a fragment cycle before running them', async () => {
    const client = new RawClient(server.url, 1);
    // Bodies encoded once, outside the timed sends.
    const bodies = new Map<string, Buffer>();
    const send = (query: string) => {
      if (!bodies.has(query)) bodies.set(query, Buffer.from(JSON.stringify({ query })));
      return client.send({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: bodies.get(query)! });
    };
    try {
      // The statement counter works: a document that runs costs statements.
      const before = server.sqlStatements();
      const ran = await send('{ events { total } }');
      expect(parseJson(ran.text)?.data?.events).toBeDefined();
      await expect.poll(() => server.sqlStatements(), { timeout: 5000 }).toBeGreaterThan(before);

      const lines: string[] = [];
      for (const [name, query] of Object.entries(REFUSED)) {
        for (let i = 0; i < 15; i++) await send(query); // warm-up: code paths compiled, caches filled
        await new Promise((resolve) => setTimeout(resolve, 300)); // trace lines of anything earlier land
        const statements = server.sqlStatements();
        const times: number[] = [];
        for (let i = 0; i < TIMED_TRIES; i++) {
          const answer = await send(query);
          times.push(answer.ms);
          const body = parseJson(answer.text);
          expect(answer.status, answer.text).toBeLessThan(500);
          expect(body?.data, answer.text).toBeUndefined(); // refused before execution: no data at all
          expect(body?.errors?.[0]?.message, answer.text).toMatch(/depth|cost|token|alias|within itself/i);
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(server.sqlStatements() - statements, `${name}: SQL statements`).toBe(0);
        const sorted = [...times].sort((a, b) => a - b);
        lines.push(
          `  ${name.padEnd(15)} median ${median(times).toFixed(2)} ms (min ${sorted[0].toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)}) over ${TIMED_TRIES}, 0 SQL statements`,
        );
      }
      console.log(`[${kind}] hostile GraphQL refused:\n${lines.join('\n')}`);
    } finally {
      client.close();
    }
  });

  it('answers no 5xx to malformed REST requests on every route, method and argument', async () => {
    const { tally, seconds } = await timed(async () => {
      const tally = new Tally();
      for (const [i, caller] of callers.entries()) await fire(raw, restCases(fixtures, caller, i), CONCURRENCY, tally);
      return fire(raw, credentialCases(), CONCURRENCY, tally);
    });
    report('REST', tally, seconds);
    expect(tally.total).toBeGreaterThanOrEqual(5000);
    expect(
      tally.failures.map((f) => `${f.request.method} ${f.request.path.slice(0, 200)} → ${f.response.status || f.response.error}`),
    ).toEqual([]);
  });

  it('answers no 5xx to malformed GraphQL requests', async () => {
    const { tally, seconds } = await timed(async () => {
      const tally = new Tally();
      for (const caller of callers) await fire(raw, graphqlCases(caller.headers), CONCURRENCY, tally);
      return tally;
    });
    report('GraphQL', tally, seconds);
    expect(tally.total).toBeGreaterThanOrEqual(1000);
    expect(
      tally.failures.map(
        (f) =>
          `${f.request.method} ${f.request.path.slice(0, 200)} ${String(f.request.body).slice(0, 200)} → ${f.response.status || f.response.error}`,
      ),
    ).toEqual([]);
  });

  it('answers no 5xx to malformed task API requests', async () => {
    const taskId = await createTask(clientFor(server.url), { task: 'A task to aim at' }, ADMIN_KEY);
    const { tally, seconds } = await timed(async () => {
      const tally = new Tally();
      for (const [i, caller] of callers.entries()) await fire(raw, taskCases(caller.headers, taskId, i), CONCURRENCY, tally);
      return tally;
    });
    report('task API', tally, seconds);
    expect(tally.total).toBeGreaterThanOrEqual(500);
    expect(
      tally.failures.map(
        (f) =>
          `${f.request.method} ${f.request.path.slice(0, 200)} ${String(f.request.body).slice(0, 200)} → ${f.response.status || f.response.error}`,
      ),
    ).toEqual([]);
  });

  it('still serves the event list, and logged no unexpected error', async () => {
    const list = await clientFor(server.url).request('GET', '/wp-json/tribe/events/v1/events');
    expect(list.status).toBe(200);
    expect(list.json.events).toBeInstanceOf(Array);
    expect(server.alive()).toBe(true);
    const total = Object.values(tallies).reduce((sum, t) => sum + t.total, 0);
    console.log(
      `[${kind}] after ${total.toLocaleString('en')} hostile requests: GET /wp-json/tribe/events/v1/events → ${list.status}; error log lines: ${server.errorLogs().length}`,
    );
    expect(server.errorLogs().map((line) => line.slice(0, 500))).toEqual([]);
  });

  it('leaves a sound database: every record readable, no dangling link, term counts right, slugs unique', async () => {
    const counts = await withDatabase(database.url, recordCounts);
    const violations = await withDatabase(database.url, integrityViolations);
    const db = await openDatabase(database.url);
    let unreadable: string[];
    try {
      unreadable = await unreadableRecords(db, clientFor(server.url), ADMIN_KEY);
    } finally {
      await db.close();
    }
    console.log(
      `[${kind}] integrity after the fuzz: ${counts.events} events, ${counts.venues} venues, ${counts.organizers} organizers, ${counts.terms} terms, ${counts.links} links; ` +
        `${Object.keys(violations).length} rules broken, ${unreadable.length} records unreadable`,
    );
    expect(violations).toEqual({});
    expect(unreadable).toEqual([]);
    expect(counts.events).toBeGreaterThan(6); // the fuzz created records (plausible bodies with one hostile value)
    expect(counts.links).toBeGreaterThanOrEqual(20); // the bystanders' (support/calendar.ts) at least
  });
});
