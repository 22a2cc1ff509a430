// Part 5 of the hostile suite: PostgreSQL restarted under a stream of REST creates and GraphQL
// reads, on a PostgreSQL server of this file's own (hostile/support/own-postgres.ts), so that no
// other test sees it go. First `pg_ctl restart -m fast`, then a stop, an outage, and a start. A
// database fault is the server's, not the client's: no 5xx but 503, each with Retry-After and in
// its API's shape; no acknowledged create lost; the server recovers by itself; its log says each
// fault in one line, without a stack, and never the database's password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysFromNow } from '../test/support/clock.js';
import type { TestResponse } from '../test/support/server.js';
import { clientFor, eventually } from '../test/support/tasks.js';
import { NS, withDatabase } from './support/calendar.js';
import { pool } from './support/http.js';
import { startOwnPostgres, type OwnPostgres } from './support/own-postgres.js';
import { ADMIN_KEY, startServerProcess, type ServerProcess } from './support/processes.js';

const WRITERS = 6;
const READERS = 2;
/** Acknowledged creates to wait for before each fault, and after the last one (the server back). */
const ACKNOWLEDGED_PER_PHASE = 60;
/** How long the database stays stopped in the second fault. */
const OUTAGE_MS = 1500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL restarted under a stream of creates and reads', () => {
  let postgres: OwnPostgres;
  let server: ServerProcess;
  let databaseUrl: string;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    databaseUrl = await postgres.createDatabase('almanac_restart');
    server = await startServerProcess('postgres-restart', { DATABASE_URL: databaseUrl });
  });
  afterAll(async () => {
    await server?.stop();
    await postgres?.destroy();
  });

  it('answers 503 with Retry-After meanwhile, never another 5xx, loses no acknowledged create, and recovers', async () => {
    const api = clientFor(server.url);
    const acknowledged = new Map<number, string>(); // id → title
    const tally: Record<string, number> = {};
    const violations: string[] = [];
    let stopping = false;
    const count = (what: string) => void (tally[what] = (tally[what] ?? 0) + 1);

    /** Checks one answer: expected success, or a 503 with Retry-After in the API's shape. */
    const judge = (kind: 'rest' | 'graphql', response: TestResponse, success: number): boolean => {
      count(`${kind} ${response.status}`);
      if (response.status === success) return true;
      const said = `${kind} ${response.status}: ${response.text.slice(0, 300)}`;
      if (response.status !== 503) violations.push(said);
      else if (!/^[1-9]\d*$/.test(response.headers.get('retry-after') ?? '')) violations.push(`no Retry-After: ${said}`);
      else if (kind === 'rest' && !(response.json?.code === 'database_unavailable' && response.json?.data?.status === 503))
        violations.push(`REST shape: ${said}`);
      else if (kind === 'graphql' && response.json?.errors?.[0]?.extensions?.code !== 'SERVICE_UNAVAILABLE')
        violations.push(`GraphQL shape: ${said}`);
      return false;
    };

    const writer = async (lane: number) => {
      for (let i = 0; !stopping; i++) {
        const title = `Restart ${lane}-${i}`;
        const body = {
          title,
          start_date: daysFromNow(60),
          end_date: daysFromNow(60, '11:00:00'),
          categories: [`Restart lane ${lane % 3}`],
        };
        try {
          const response = await api.request('POST', `${NS}/events`, { body, key: ADMIN_KEY });
          if (judge('rest', response, 201)) acknowledged.set(response.json.id, title);
        } catch (error) {
          violations.push(`REST create failed: ${(error as Error).message}`);
        }
      }
    };
    const reader = async () => {
      while (!stopping) {
        try {
          const response = await api.request('POST', '/graphql', {
            body: { query: '{ events(page: { perPage: 5 }) { total items { id title venue { name } } } }' },
          });
          // A partial result (a nested field's read failed after the list's) stays a 200, its failed fields SERVICE_UNAVAILABLE.
          const codes: unknown[] = judge('graphql', response, 200) ? (response.json?.errors ?? []).map((e: any) => e.extensions?.code) : [];
          if (codes.length) count('graphql 200 partial');
          if (codes.some((code) => code !== 'SERVICE_UNAVAILABLE'))
            violations.push(`GraphQL 200 with errors: ${response.text.slice(0, 300)}`);
        } catch (error) {
          violations.push(`GraphQL read failed: ${(error as Error).message}`);
        }
      }
    };
    const lanes = pool(
      Array.from({ length: WRITERS + READERS }, (_, lane) => lane),
      WRITERS + READERS,
      (lane) => (lane < WRITERS ? writer(lane) : reader()),
    );
    const acknowledgedMore = async (what: string) => {
      const target = acknowledged.size + ACKNOWLEDGED_PER_PHASE;
      await eventually(
        () => acknowledged.size >= target || violations.length > 20,
        `${ACKNOWLEDGED_PER_PHASE} acknowledged creates ${what}`,
        90_000,
      );
    };

    const refused = () => (tally['rest 503'] ?? 0) + (tally['graphql 503'] ?? 0);
    const answered503 = { restart: 0, outage: 0 }; // by the fault they met
    try {
      await acknowledgedMore('before the restart');
      await postgres.restart(); // pg_ctl restart -m fast, under the stream
      await acknowledgedMore('after the restart');
      answered503.restart = refused();
      await postgres.stop();
      await sleep(OUTAGE_MS); // the database gone: every request meanwhile is refused a connection
      await postgres.start();
      answered503.outage = refused() - answered503.restart;
      await acknowledgedMore('after the outage'); // the server recovered by itself
    } finally {
      stopping = true;
      await lanes;
    }
    console.log(
      `[postgresql restart] answers: ${JSON.stringify(tally)}; 503 by fault: ${JSON.stringify(answered503)}; acknowledged creates: ${acknowledged.size}`,
    );

    expect(violations.slice(0, 10), `${violations.length} answers neither a success nor a proper 503`).toEqual([]);
    expect(answered503.outage, 'answers 503 while the database was stopped').toBeGreaterThan(0);
    expect(server.alive()).toBe(true);

    // Every acknowledged create is there, with its title.
    const stored = await withDatabase(databaseUrl, (db) =>
      db.prisma.event.findMany({ where: { id: { in: [...acknowledged.keys()] } }, select: { id: true, title: true } }),
    );
    const titles = new Map(stored.map((event) => [event.id, event.title]));
    const missing = [...acknowledged].filter(([id, title]) => titles.get(id) !== title);
    expect(missing.slice(0, 10), `${missing.length} of ${acknowledged.size} acknowledged creates missing`).toEqual([]);

    // The log: a line per fault, none with a stack, and nowhere the password of the database.
    const errors = server.errorLogs();
    expect(errors.length).toBeGreaterThan(0);
    for (const line of errors) expect(line).not.toMatch(/"stack"|\\n\s+at /);
    expect(server.output()).not.toContain(postgres.password);
  });
});
