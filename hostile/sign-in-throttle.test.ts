// Failed sign-ins are limited per address (AUTH_FAILURES_PER_MINUTE, 30 by default), across
// processes: 1,200 wrong API keys in a burst, half to each of two server processes on one
// database, through every API that takes a key (REST, GraphQL, the task API, the site), get 401s
// until the address's limit and then 429s with Retry-After, each in its API's shape. A valid key
// sent from the same address at the same time is never refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../test/support/databases.js';
import { NS } from './support/calendar.js';
import { parseJson, pool, RawClient, type RawRequest, type RawResponse } from './support/http.js';
import { ADMIN_KEY, startServerProcess, useServerProcesses, type ServerProcess } from './support/processes.js';

useServerProcesses();

const BURST = 1200;
const LIMIT = 30;

/** Each API's request with a key, and how it words a throttled refusal. */
const apis: { name: string; request: (key: string) => RawRequest; throttled: (r: RawResponse) => boolean }[] = [
  {
    name: 'REST',
    request: (key) => ({ method: 'GET', path: `${NS}/events?per_page=1`, headers: { 'x-api-key': key } }),
    throttled: (r) => parseJson(r.text)?.code === 'rest_too_many_failed_sign_ins' && parseJson(r.text)?.data?.status === 429,
  },
  {
    name: 'GraphQL',
    request: (key) => ({
      method: 'POST',
      path: '/graphql',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    }),
    throttled: (r) => parseJson(r.text)?.errors?.[0]?.extensions?.code === 'RATE_LIMITED',
  },
  {
    name: 'task API',
    request: (key) => ({ method: 'GET', path: '/api/v1/check', headers: { 'x-api-key': key } }),
    throttled: (r) => /Too many failed sign-ins/.test(parseJson(r.text)?.error ?? ''),
  },
  {
    name: 'site',
    request: (key) => ({ method: 'GET', path: '/events/list/', headers: { 'x-api-key': key } }),
    throttled: (r) => /Too many failed sign-ins/.test(r.text),
  },
];

describe.each(DATABASE_KINDS)('a burst of wrong API keys on two processes sharing one %s database', (kind) => {
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  let clients: RawClient[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    for (const name of ['a', 'b'])
      servers.push(
        await startServerProcess(`throttle-${kind}-${name}`, { DATABASE_URL: database.url, AUTH_FAILURES_PER_MINUTE: String(LIMIT) }),
      );
    clients = servers.map((server) => new RawClient(server.url, 16));
  });
  afterAll(async () => {
    clients?.forEach((client) => client.close());
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it(`gives at most ${LIMIT} per minute window 401s, then 429s with Retry-After in each API's shape, and never refuses a valid key`, async () => {
    const wrong = Array.from({ length: BURST }, (_, i) => ({ i, api: apis[i % apis.length], key: `alm_wrong${i}_${kind}` }));
    const valid: RawResponse[] = [];
    let bursting = true;
    // A valid key, through every API, for as long as the burst lasts.
    const validLane = (async () => {
      for (let n = 0; bursting || n < apis.length; n++) valid.push(await clients[n % 2].send(apis[n % apis.length].request(ADMIN_KEY)));
    })();
    const answers = await pool(wrong, 32, ({ i, api, key }) => clients[i % 2].send(api.request(key)).then((r) => ({ api, r })));
    bursting = false;
    await validLane;

    const statuses = answers.reduce<Record<number, number>>((n, { r }) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {});
    console.log(`[${kind}] ${BURST} wrong keys: ${JSON.stringify(statuses)}; ${valid.length} valid-key requests meanwhile`);
    // Only 401 and 429; the counter is shared, so both processes together let through one limit per
    // calendar minute (two windows if the burst crosses a minute's end).
    expect(Object.keys(statuses).sort()).toEqual(['401', '429']);
    expect(statuses[401]).toBeGreaterThanOrEqual(LIMIT);
    expect(statuses[401]).toBeLessThanOrEqual(2 * LIMIT);
    for (const { api, r } of answers.filter(({ r }) => r.status === 429)) {
      expect(api.throttled(r), `${api.name}: ${r.text.slice(0, 200)}`).toBe(true);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    for (const api of apis)
      expect(
        answers.some(({ api: a, r }) => a === api && r.status === 429),
        api.name,
      ).toBe(true);
    // The valid key: never refused, whichever process and API, while its address was over the limit.
    expect(valid.length).toBeGreaterThanOrEqual(apis.length);
    expect(valid.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text.slice(0, 100)}`)).toEqual([]);
  });
});
