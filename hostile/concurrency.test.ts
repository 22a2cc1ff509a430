// Part 3 of the hostile suite, on each engine: TWO server processes share one database and take
// the same writes at the same moment, half through each. Creates of one title get distinct slugs,
// one term name is created once (term_exists for the rest), one event is trashed once (410 for the
// rest), a term raced by updates and deletes is deleted once, and one tool call awaiting input takes
// exactly one answer. Nothing lost, nothing duplicated, never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysFromNow } from '../test/support/clock.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../test/support/databases.js';
import type { TestResponse, TestServer } from '../test/support/server.js';
import { clientFor, createTask, ended, FORM_INPUT_TOOL, runResult, taskText, useTaskFixtures, waitForRun } from '../test/support/tasks.js';
import { NS, withDatabase } from './support/calendar.js';
import { ADMIN_KEY, startServerProcess, type ServerProcess } from './support/processes.js';

const N = 50;

/** Counts of statuses, e.g. {201: 50}. */
const statuses = (responses: TestResponse[]) =>
  responses.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});

describe.each(DATABASE_KINDS)('two server processes on one %s database', (kind) => {
  const fx = useTaskFixtures();
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  let apis: TestServer[];
  /** Request number i goes to process i % 2, all at once. */
  const together = (count: number, send: (api: TestServer, i: number) => Promise<TestResponse>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(apis[i % 2], i)));
  const post = (api: TestServer, path: string, body: unknown) => api.request('POST', `${NS}${path}`, { body, key: ADMIN_KEY });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // One after the other: the first applies the migrations. Each runs one task worker with the fake LLM.
    for (const name of ['a', 'b'])
      servers.push(await startServerProcess(`${kind}-${name}`, { ...fx.env, DATABASE_URL: database.url, TASK_WORKERS: '1' }));
    apis = servers.map((server) => clientFor(server.url));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it(`gives ${N} parallel creates of one title ${N} events with distinct slugs`, async () => {
    const title = `Same Title ${kind}`;
    const responses = await together(N, (api) =>
      post(api, '/events', { title, start_date: daysFromNow(40), end_date: daysFromNow(40, '12:00:00') }),
    );
    console.log(`[${kind}] ${N} parallel creates of "${title}" on 2 processes: ${JSON.stringify(statuses(responses))}`);
    expect(statuses(responses)).toEqual({ 201: N });
    const slugs = new Set(responses.map((r) => r.json.slug));
    expect(slugs.size).toBe(N);
    const stored = await withDatabase(database.url, (db) =>
      db.prisma.event.findMany({ where: { title }, select: { id: true, slug: true } }),
    );
    expect(stored).toHaveLength(N);
    expect(new Set(stored.map((e) => e.slug))).toEqual(slugs);
    expect(new Set(stored.map((e) => e.id))).toEqual(new Set(responses.map((r) => r.json.id)));
  });

  it(`creates one category and one tag of a name when ${N} ask at once; the others are told term_exists`, async () => {
    for (const route of ['/categories', '/tags']) {
      const name = `Contested ${route.slice(1)} ${kind}`;
      const responses = await together(N, (api) => post(api, route, { name }));
      console.log(`[${kind}] ${N} parallel creates of ${route.slice(1)} "${name}": ${JSON.stringify(statuses(responses))}`);
      expect(statuses(responses)).toEqual({ 201: 1, 400: N - 1 });
      const winner = responses.find((r) => r.status === 201)!.json;
      for (const loser of responses.filter((r) => r.status === 400)) {
        expect(loser.json).toMatchObject({ code: 'term_exists', data: { status: 400, term_id: winner.id } });
      }
      const taxonomy = route === '/categories' ? 'tribe_events_cat' : 'post_tag';
      expect(await withDatabase(database.url, (db) => db.prisma.term.count({ where: { taxonomy, name } }))).toBe(1);
    }
  });

  /** Of 2N requests, every fifth is a delete: updates come first and keep coming after it. */
  const isDelete = (i: number) => i % 5 === 4;

  it('trashes an event atomically when updates and deletes race: each delete trashes it or finds it trashed, an update brings it back', async () => {
    const event = (await post(apis[0], '/events', { title: 'Raced', start_date: daysFromNow(41), end_date: daysFromNow(41, '12:00:00') }))
      .json;
    const responses = await together(2 * N, (api, i) =>
      isDelete(i)
        ? api.request('DELETE', `${NS}/events/${event.id}`, { key: ADMIN_KEY })
        : post(api, `/events/${event.id}`, { title: `Raced ${i}`, cost: String(i) }),
    );
    const deletes = responses.filter((_, i) => isDelete(i));
    const updates = responses.filter((_, i) => !isDelete(i));
    console.log(
      `[${kind}] ${deletes.length} deletes racing ${updates.length} updates of one event: deletes ${JSON.stringify(statuses(deletes))}, updates ${JSON.stringify(statuses(updates))}`,
    );
    // A delete trashes the event or finds it in the trash; an update of a trashed event brings it
    // back (as the original does), so a later delete may trash it again — never more often than
    // updates could have brought it back.
    const trashed = statuses(deletes)[200] ?? 0;
    expect(trashed).toBeGreaterThanOrEqual(1);
    expect(trashed).toBeLessThanOrEqual(updates.length + 1);
    expect(statuses(deletes)).toEqual({ 200: trashed, ...(trashed < deletes.length ? { 410: deletes.length - trashed } : {}) });
    for (const gone of deletes.filter((r) => r.status === 410)) expect(gone.json.code).toBe('event-is-in-trash');
    expect(statuses(updates)).toEqual({ 200: updates.length });
    // Whatever landed last, the record is whole: trashed with its trashed name, or published under its own.
    const stored = await withDatabase(database.url, (db) => db.prisma.event.findUniqueOrThrow({ where: { id: event.id } }));
    expect(updates.map((r) => r.json.title)).toContain(stored.title);
    const read = await apis[1].request('GET', `${NS}/events/${event.id}`, { key: ADMIN_KEY });
    if (stored.status === 'trash') {
      expect(stored.slug).toBe('raced__trashed');
      expect(read).toMatchObject({ status: 403, json: { code: 'event-no-longer-available' } });
    } else {
      expect([stored.status, stored.slug]).toEqual(['publish', 'raced']);
      expect(read).toMatchObject({ status: 200, json: { id: event.id, slug: 'raced', title: stored.title } });
    }
  });

  it('deletes a tag once when updates and deletes race; every other answer is a 4xx', async () => {
    const tag = (await post(apis[0], '/tags', { name: `Doomed ${kind}` })).json;
    const responses = await together(2 * N, (api, i) =>
      isDelete(i)
        ? api.request('DELETE', `${NS}/tags/${tag.id}`, { key: ADMIN_KEY })
        : post(api, `/tags/${tag.id}`, { description: `try ${i}` }),
    );
    const deletes = responses.filter((_, i) => isDelete(i));
    const updates = responses.filter((_, i) => !isDelete(i));
    console.log(
      `[${kind}] ${deletes.length} deletes racing ${updates.length} updates of one tag: deletes ${JSON.stringify(statuses(deletes))}, updates ${JSON.stringify(statuses(updates))}`,
    );
    expect(deletes.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of [...deletes, ...updates].filter((r) => r.status !== 200)) {
      // Terms are deleted for good: afterwards the id names nothing (400 rest_invalid_param on id).
      expect(r.status, r.text).toBe(400);
      expect(r.json.code).toBe('rest_invalid_param');
    }
    expect(await withDatabase(database.url, (db) => db.prisma.term.count({ where: { id: tag.id } }))).toBe(0);
  });

  it('takes exactly one answer when the same tool call is answered many times at once', async () => {
    fx.llm.define('ask-once', [
      { call: 'form_input', args: { heading: 'Your name?' } },
      (c) => ({ call: 'done', args: { output: `hello ${c.lastToolResult}` } }),
    ]);
    const task = taskText('ask-once');
    const taskId = await createTask(apis[0], { task, tools: [FORM_INPUT_TOOL] });
    const waiting = await waitForRun(apis[0], taskId, (r) => r.detailedStatus === 'tool_call', { timeoutMs: 90_000 });
    const toolCallId = waiting.toolCall!.toolCallId;
    const responses = await together(N, (api, i) =>
      api.request('POST', `/api/v1/task/${taskId}/run/tool-input`, {
        key: ADMIN_KEY,
        body: { input: `answer ${i}`, ...(i % 3 ? { toolCallId } : {}) },
      }),
    );
    console.log(`[${kind}] ${N} parallel answers to one tool call on 2 processes: ${JSON.stringify(statuses(responses))}`);
    expect(statuses(responses)).toEqual({ 200: 1, 409: N - 1 });
    const accepted = `answer ${responses.findIndex((r) => r.status === 200)}`;
    await waitForRun(apis[1], taskId, ended, { timeoutMs: 90_000 });
    expect(await runResult(apis[1], taskId)).toMatchObject({ status: 'completed', output: `hello ${accepted}` });
    const stored = await withDatabase(database.url, (db) => db.prisma.toolCall.findMany({ where: { run: { taskId } } }));
    expect(stored.map((call) => [call.id, call.input])).toEqual([[toolCallId, accepted]]);
    // The LLM heard the one answer, once: its conversation went on from there exactly one time.
    expect(fx.llm.requestsOf(task).filter((r) => r.step === 1)).toHaveLength(1);
  });

  it('answered no 5xx and logged no error', () => {
    for (const server of servers)
      expect(server.errorLogs().map((line) => JSON.parse(line).err?.message?.slice(-200) ?? line.slice(0, 600))).toEqual([]);
  });
});
