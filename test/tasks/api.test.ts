// The task API's contract over HTTP: envelope, create and its validation, lists, ownership, status
// codes. No LLM is configured here, so every run ends at once with an error naming LLM_BASE_URL.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createUserWithKey } from '../../src/auth/api-keys.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { FORM_INPUT_TOOL, createTask, ended, runResult, waitForRun, withinOneRateWindow } from '../support/tasks.js';

const fn = (f: Record<string, unknown>) => ({ type: 'function', function: { name: 'ask', ...f } });
const params = (p: unknown) => [fn({ parameters: p })];

// [body, the 400 message]
const INVALID: Array<[Record<string, unknown>, string]> = [
  [{}, 'task is required'],
  [{ task: null }, 'task is required'],
  [{ task: 5 }, 'task must be a string'],
  [{ task: '  \n ' }, 'task must not be empty'],
  [{ task: 'x'.repeat(10_001) }, 'task must be at most 10000 characters (got 10001)'],
  [{ task: 'go', agent: 'OTHER_AGENT' }, 'agent must be one of: BROWSER_AGENT'],
  [{ task: 'go', agent: 7 }, 'agent must be one of: BROWSER_AGENT'],
  [{ task: 'go', tools: {} }, 'tools must be an array'],
  [{ task: 'go', tools: Array.from({ length: 33 }, (_, i) => fn({ name: `t${i}` })) }, 'tools must have at most 32 items (got 33)'],
  [{ task: 'go', tools: [5] }, 'tools[0] must be an object {type: "function", function: {...}}'],
  [{ task: 'go', tools: [null] }, 'tools[0] must be an object {type: "function", function: {...}}'],
  [{ task: 'go', tools: [{ type: 'tool', function: { name: 'a' } }] }, 'tools[0].type must be "function"'],
  [{ task: 'go', tools: [{ type: 'function' }] }, 'tools[0].function must be an object with a name'],
  [{ task: 'go', tools: [{ type: 'function', function: {} }] }, 'tools[0].function.name is required'],
  [{ task: 'go', tools: [fn({ name: 'has space' })] }, 'tools[0].function.name must match ^[A-Za-z0-9_-]{1,64}$'],
  [{ task: 'go', tools: [fn({ name: 'n'.repeat(65) })] }, 'tools[0].function.name must match ^[A-Za-z0-9_-]{1,64}$'],
  [{ task: 'go', tools: [fn({ name: 42 })] }, 'tools[0].function.name must match ^[A-Za-z0-9_-]{1,64}$'],
  [{ task: 'go', tools: [fn({}), fn({})] }, 'tools[1].function.name must be unique in the list ("ask" appears twice)'],
  [{ task: 'go', tools: [fn({ name: 'click' })] }, 'tools[0].function.name must not be the name of a built-in browser action ("click")'],
  [{ task: 'go', tools: [fn({ name: 'Done' })] }, 'tools[0].function.name must not be the name of a built-in browser action ("Done")'],
  [{ task: 'go', tools: [fn({ description: 5 })] }, 'tools[0].function.description must be a string'],
  [{ task: 'go', tools: params('object') }, 'tools[0].function.parameters must be a JSON Schema object'],
  [{ task: 'go', tools: params({ type: 'array', items: { type: 'string' } }) }, 'tools[0].function.parameters.type must be "object"'],
  [
    { task: 'go', tools: params({ type: 'object', properties: [] }) },
    'tools[0].function.parameters.properties must be an object mapping names to schemas',
  ],
  [
    { task: 'go', tools: params({ type: 'object', properties: { when: { type: 'date' } } }) },
    'tools[0].function.parameters.properties.when.type must be one of string, number, integer, boolean, array, object',
  ],
  [
    { task: 'go', tools: params({ type: 'object', properties: { list: { type: 'array' } } }) },
    'tools[0].function.parameters.properties.list.items is required for type "array"',
  ],
  [
    {
      task: 'go',
      tools: params({ type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { x: 5 } } } } }),
    },
    'tools[0].function.parameters.properties.list.items.properties.x must be a JSON Schema object',
  ],
  [
    { task: 'go', tools: params({ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }) },
    'tools[0].function.parameters.required names "b", which is not in properties',
  ],
  [
    { task: 'go', tools: params({ type: 'object', properties: { n: { type: 'integer', minimum: 'zero' } } }) },
    'tools[0].function.parameters.properties.n.minimum is not valid JSON Schema: must be number',
  ],
  [{ task: 'go', maxSteps: 0 }, 'maxSteps must be an integer from 1 to 100'],
  [{ task: 'go', maxSteps: 'ten' }, 'maxSteps must be an integer'],
  [{ task: 'go', maxSteps: 2.5 }, 'maxSteps must be an integer'],
  [{ task: 'go', maxSteps: 1e12 }, 'maxSteps is out of range'],
  [{ task: 'go', timeoutSeconds: 100_000 }, 'timeoutSeconds must be an integer from 1 to 600'],
  [{ task: 'go', startUrl: 'file:///etc/passwd' }, 'startUrl must be an absolute http or https URL'],
  [{ task: 'go', startUrl: '/relative' }, 'startUrl must be an absolute http or https URL'],
];

describe.each(DATABASE_KINDS)('task API on %s', (kind) => {
  const api = useTestServer(kind, { TASK_API_RATE_LIMIT: '300' });
  const count = () => api.server.db.prisma.task.count();

  it('answers health without a key, check with a valid key only', async () => {
    expect(await api.request('GET', '/api/v1/health')).toMatchObject({ status: 200, json: { success: true } });
    expect(await api.request('GET', '/api/v1/check', { key: ADMIN_KEY })).toMatchObject({
      status: 200,
      json: { success: true, data: 'ok' },
    });
    const missing = await api.request('GET', '/api/v1/check');
    expect(missing).toMatchObject({ status: 401, json: { success: false, error: 'Missing API key: send it in the x-api-key header.' } });
    const wrong = await api.request('GET', '/api/v1/check', { key: 'nope' });
    expect(wrong).toMatchObject({ status: 401, json: { success: false, error: 'Invalid API key.' } });
    const bearer = await api.request('GET', '/api/v1/check', { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(bearer.status).toBe(200);
  });

  it('creates a task (the brief form_input example) and stores it with its first run', async () => {
    const before = await count();
    const response = await api.request('POST', '/api/v1/task/create', {
      key: ADMIN_KEY,
      body: { task: '  Book a table for two at Chez Paul\nthen tell me the time  ', agent: 'BROWSER_AGENT', tools: [FORM_INPUT_TOOL] },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.json).toEqual({ success: true, data: { taskId: expect.any(String) } });
    expect(await count()).toBe(before + 1);
    const { taskId } = response.json.data;
    const stored = await api.graphql(
      `query($id: ID!) { task(id: $id) { id task agent status readableName tools maxSteps timeoutSeconds startUrl runs { total items { id } } } }`,
      { id: taskId },
      ADMIN_KEY,
    );
    expect(stored.data.task).toEqual({
      id: taskId,
      task: 'Book a table for two at Chez Paul\nthen tell me the time',
      agent: 'BROWSER_AGENT',
      status: 'active',
      readableName: 'Book a table for two at Chez Paul',
      tools: [FORM_INPUT_TOOL],
      maxSteps: 30,
      timeoutSeconds: 600,
      startUrl: null,
      runs: { total: 1, items: [{ id: expect.any(String) }] },
    });
  });

  it('accepts the optional fields maxSteps, timeoutSeconds and startUrl, and defaults agent and tools', async () => {
    const taskId = await createTask(api, {
      task: 'x'.repeat(10_000) + '   ',
      maxSteps: 5,
      timeoutSeconds: 60,
      startUrl: 'https://example.org/start',
    });
    const { data } = await api.graphql(
      `query($id: ID!) { task(id: $id) { agent tools maxSteps timeoutSeconds startUrl } }`,
      { id: taskId },
      ADMIN_KEY,
    );
    expect(data.task).toEqual({
      agent: 'BROWSER_AGENT',
      tools: [],
      maxSteps: 5,
      timeoutSeconds: 60,
      startUrl: 'https://example.org/start',
    });
  });

  it('with no LLM configured, ends the run at once with an error naming LLM_BASE_URL', async () => {
    const taskId = await createTask(api, { task: 'Anything' });
    const status = await waitForRun(api, taskId, ended, { timeoutMs: 1000 });
    expect(status).toEqual({ status: 'error', detailedStatus: 'failed', toolCall: null, liveStatus: 'Failed' });
    const result = await runResult(api, taskId);
    expect(result).toMatchObject({ status: 'error', output: null, dataTable: [] });
    expect(result.error).toContain('LLM_BASE_URL');
  });

  it.each(INVALID)('refuses %j with 400', async (body, message) => {
    const before = await count();
    const response = await api.request('POST', '/api/v1/task/create', { key: ADMIN_KEY, body });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ success: false, error: message });
    expect(await count()).toBe(before);
  });

  it('refuses bodies that are not a JSON object (400), not JSON (415) or too large (413)', async () => {
    const path = '/api/v1/task/create';
    const notObject = await api.request('POST', path, { key: ADMIN_KEY, body: '[1, 2]' });
    expect(notObject).toMatchObject({ status: 400, json: { success: false, error: 'The body must be a JSON object.' } });
    const malformed = await api.request('POST', path, { key: ADMIN_KEY, body: '{"task": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toMatch(/^The body is not valid JSON/);
    const form = await api.request('POST', path, { key: ADMIN_KEY, form: 'task=go' });
    expect(form.status).toBe(415);
    expect(form.json.error).toContain('application/json');
    // 1 MB at most; task create's body may be larger by its files (test/tasks/files.test.ts).
    const huge = await api.request('POST', '/api/v1/task/any/run/tool-input', {
      key: ADMIN_KEY,
      body: { input: 'go', padding: 'x'.repeat(1_100_000) },
    });
    expect(huge).toMatchObject({ status: 413, json: { success: false } });
    const noKey = await api.request('POST', path, { body: { task: 'go' } });
    expect(noKey.status).toBe(401);
  });

  it('closes the connection with a 413 for a chunked body over the limit, so the next request is answered', async () => {
    // The unread rest of the body was once taken for the next request on the connection, which hung
    // and was reset (found by the hostile suite, hostile/fuzz.test.ts).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body?: string) =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const headers = { 'x-api-key': ADMIN_KEY, ...(body ? { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } : {}) };
        const req = http.request(`${api.url}${path}`, { method, agent, headers }, (res) => res.resume().on('end', () => resolve(res)));
        req.on('error', reject);
        for (let i = 0; body && i < body.length; i += 65_536) req.write(body.slice(i, i + 65_536));
        req.end();
      });
    try {
      const huge = await send('POST', '/api/v1/task/any/run/tool-input', JSON.stringify({ input: 'go', padding: 'x'.repeat(2_000_000) }));
      expect(huge.statusCode).toBe(413);
      expect(huge.headers.connection).toBe('close');
      expect((await send('GET', '/api/v1/health')).statusCode).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('never answers 500 to odd client input', async () => {
    const odd = [
      await api.request('GET', '/api/v1/task/%E0%A4%A/run/status', { key: ADMIN_KEY }),
      await api.request('GET', '/api/v1/tasks?page=abc&limit=-1', { key: ADMIN_KEY }),
      await api.request('GET', `/api/v1/task/${'z'.repeat(3000)}/runs`, { key: ADMIN_KEY }),
      await api.request('POST', '/api/v1/task/create', {
        key: ADMIN_KEY,
        body: {
          task: 'go',
          tools: [
            {
              type: 'function',
              function: {
                name: 'a',
                parameters: {
                  type: 'object',
                  properties: {
                    x: {
                      type: 'object',
                      properties: {
                        y: {
                          type: 'array',
                          items: {
                            type: 'array',
                            items: {
                              type: 'array',
                              items: {
                                type: 'array',
                                items: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'string' } } } },
                              },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          ],
        },
      }),
      await api.request('POST', '/api/v1/task/unknown/run/tool-input?runId=x', { key: ADMIN_KEY, body: { input: ['not', 'a string'] } }),
      await api.request('GET', '/api/v1/task/x/run/gif.gif?runId=y&token=z'),
    ];
    for (const response of odd) {
      expect(response.status, response.text).toBeGreaterThanOrEqual(400);
      expect(response.status, response.text).toBeLessThan(500);
      expect(response.json.success).toBe(false);
    }
  });

  it('lists tasks newest first with readable names, and pages them (limit at most 30)', async () => {
    const { key } = await createUserWithKey(api.server.db.prisma, { login: 'lister', role: 'subscriber' });
    const ids = [];
    for (const name of ['First task', 'Second task', 'Third task']) ids.push(await createTask(api, { task: name }, key));
    const list = await api.request('GET', '/api/v1/tasks', { key });
    expect(list.json).toEqual({
      success: true,
      data: [
        { id: ids[2], status: 'active', readable_name: 'Third task' },
        { id: ids[1], status: 'active', readable_name: 'Second task' },
        { id: ids[0], status: 'active', readable_name: 'First task' },
      ],
      total: 3,
      page: 1,
      limit: 30,
    });
    const second = await api.request('GET', '/api/v1/tasks?page=2&limit=2', { key });
    expect(second.json).toEqual({
      success: true,
      data: [{ id: ids[0], status: 'active', readable_name: 'First task' }],
      total: 3,
      page: 2,
      limit: 2,
    });
    const tooMany = await api.request('GET', '/api/v1/tasks?limit=31', { key });
    expect(tooMany).toMatchObject({ status: 400, json: { success: false, error: 'limit must be an integer from 1 to 30' } });
    const pageZero = await api.request('GET', '/api/v1/tasks?page=0', { key });
    expect(pageZero).toMatchObject({ status: 400, json: { error: 'page must be an integer from 1 to 2147483647' } });

    const runs = await api.request('GET', `/api/v1/task/${ids[0]}/runs`, { key });
    expect(runs.json).toEqual({
      success: true,
      data: [{ id: expect.any(String), created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }],
      total: 1,
      page: 1,
      limit: 30,
    });
  });

  it("answers 404 for another key's task and for unknown tasks and runs", async () => {
    const taskId = await createTask(api, { task: 'Mine' });
    const other = api.keys.editor;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/task/${taskId}/runs`],
      ['GET', `/api/v1/task/${taskId}/run/status`],
      ['GET', `/api/v1/task/${taskId}/run/result`],
      ['GET', `/api/v1/task/${taskId}/run/gif`],
      ['POST', `/api/v1/task/${taskId}/run/tool-input`, { input: 'hi' }],
      ['PUT', `/api/v1/task/${taskId}/run/stop`],
      ['PUT', `/api/v1/task/${taskId}/stop`],
    ];
    for (const [method, path, body] of routes) {
      const response = await api.request(method, path, { key: other, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.json).toEqual({ success: false, error: `No task with id "${taskId}".` });
    }
    expect((await api.request('GET', '/api/v1/tasks', { key: other })).json.data.map((t: any) => t.id)).not.toContain(taskId);
    const viaGraphQL = await api.graphql(`query($id: ID!) { task(id: $id) { id } }`, { id: taskId }, other);
    expect(viaGraphQL.data.task).toBeNull();

    const unknownRun = await api.request('GET', `/api/v1/task/${taskId}/run/status?runId=nope`, { key: ADMIN_KEY });
    expect(unknownRun).toMatchObject({ status: 404, json: { success: false, error: `No run "nope" in task "${taskId}".` } });
    const unknownRoute = await api.request('GET', '/api/v1/nothing-here', { key: ADMIN_KEY });
    expect(unknownRoute).toMatchObject({ status: 404, json: { success: false } });
    const wrongMethod = await api.request('GET', '/api/v1/task/create', { key: ADMIN_KEY });
    expect(wrongMethod).toMatchObject({ status: 405, json: { success: false } });
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('answers 409 to input for a run that is not waiting and to stopping a finished run; stops a task', async () => {
    const taskId = await createTask(api, { task: 'Ends at once' });
    await waitForRun(api, taskId, ended);
    const input = await api.request('POST', `/api/v1/task/${taskId}/run/tool-input`, { key: ADMIN_KEY, body: { input: 'hello' } });
    expect(input.status).toBe(409);
    expect(input.json).toEqual({ success: false, error: 'The run is not waiting for tool input (status "error", failed).' });
    const stop = await api.request('PUT', `/api/v1/task/${taskId}/run/stop`, { key: ADMIN_KEY });
    expect(stop.status).toBe(409);
    expect(stop.json.error).toMatch(/^The run has already ended/);
    const stopTask = await api.request('PUT', `/api/v1/task/${taskId}/stop`, { key: ADMIN_KEY });
    expect(stopTask).toMatchObject({ status: 200, json: { success: true, data: null } });
    const { data } = await api.graphql(`query($id: ID!) { task(id: $id) { status } }`, { id: taskId }, ADMIN_KEY);
    expect(data.task.status).toBe('inactive');
  });

  it('serves the same operations through GraphQL, with coded errors', async () => {
    const anonymous = await api.graphql(`{ tasks { total } }`);
    expect(anonymous.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    const invalid = await api.graphql(
      `mutation { createTask(input: { task: "go", tools: [{type: "function", function: {name: "navigate"}}] }) { id } }`,
      {},
      ADMIN_KEY,
    );
    expect(invalid.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_INPUT',
      params: { 'tools[0].function.name': 'tools[0].function.name must not be the name of a built-in browser action ("navigate")' },
    });
    const created = await api.graphql(
      `mutation { createTask(input: { task: "Via GraphQL" }) { id readableName latestRun { status error } } }`,
      {},
      ADMIN_KEY,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createTask).toMatchObject({ readableName: 'Via GraphQL', latestRun: { status: 'error' } });
  });

  it('rate-limits each key (429 with Retry-After)', async () => {
    const { key } = await createUserWithKey(api.server.db.prisma, { login: 'hasty', role: 'subscriber' });
    await withinOneRateWindow(30_000);
    const statuses: number[] = [];
    for (let i = 0; i < 301; i++) statuses.push((await api.request('GET', '/api/v1/check', { key })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    const limited = await api.request('GET', '/api/v1/check', { key });
    expect(limited.status).toBe(429);
    expect(limited.json.success).toBe(false);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other keys are not affected.
    expect((await api.request('GET', '/api/v1/check', { key: ADMIN_KEY })).status).toBe(200);
  });
});
