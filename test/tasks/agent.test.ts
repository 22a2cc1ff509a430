// The agent with real Chromium, driven by the scripted LLM against pages on loopback.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { FORM_INPUT_TOOL, createTask, ended, runResult, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';

describe.each(DATABASE_KINDS)('browser agent on %s', (kind) => {
  const fx = useTaskFixtures();
  const api = useTestServer(kind, fx.env);

  it('navigates, fills a form and extracts the result rows into dataTable', async () => {
    fx.llm.define('search', [
      { call: 'navigate', args: { url: `${fx.pages.url}/search` } },
      (c) => ({ call: 'type', args: { element: c.element('"City"'), text: 'Lyon' } }),
      (c) => ({ call: 'select', args: { element: c.element('name=kind'), option: 'Music' } }),
      (c) => ({ call: 'click', args: { element: c.element('button "Search"') } }),
      { call: 'extract', args: { selector: '#events' } },
      (c) => ({ call: 'done', args: { output: `Found events: ${c.lastToolResult?.slice(0, 40)}` } }),
    ]);
    const task = taskText('search', 'Find music events in Lyon');
    const taskId = await createTask(api, { task });
    const run = await waitForRun(api, taskId, ended);
    const result = await runResult(api, taskId);
    expect(run.status, JSON.stringify(result)).toBe('completed');
    expect(run.detailedStatus).toBe('completed');
    expect(result.error).toBeNull();
    expect(result.output).toMatch(/^Found events: extracted 2 rows/);
    expect(result.dataTable).toEqual([
      { Event: 'Jazz Night', City: 'Lyon', Date: '2026-12-05' },
      { Event: 'Organ Recital', City: 'Lyon', Date: '2026-12-12' },
    ]);
    expect(fx.pages.hits).toContain('/results?city=Lyon&kind=Music');

    // Each step that acted on an element keeps how to find it again without its number.
    const { data } = await api.graphql(
      `query ($taskId: ID!) { taskRun(taskId: $taskId) { steps { action locator } } }`,
      { taskId },
      ADMIN_KEY,
    );
    expect(data.taskRun.steps).toEqual([
      { action: 'navigate', locator: null },
      { action: 'type', locator: { tag: 'input', type: 'text', name: 'city', label: 'City' } },
      { action: 'select', locator: expect.objectContaining({ tag: 'select', name: 'kind' }) },
      { action: 'click', locator: expect.objectContaining({ tag: 'button', label: 'Search' }) },
      { action: 'extract', locator: null },
      { action: 'done', locator: null },
    ]);

    // What the LLM was sent: the model, the key, built-in actions as tools, the page as numbered elements.
    const sent = fx.llm.requestsOf(task);
    expect(sent).toHaveLength(6);
    expect(sent[0].headers.authorization).toBe('Bearer fake-llm-key');
    expect(sent[0].body.model).toBe('fake-model');
    expect(sent[0].body.tools.map((t: any) => t.function.name)).toEqual([
      'navigate',
      'click',
      'type',
      'select',
      'scroll',
      'back',
      'switch_tab',
      'close_tab',
      'wait',
      'extract',
      'done',
    ]);
    const page = sent[1].body.messages.at(-1).content;
    expect(page).toContain(`URL: ${fx.pages.url}/search`);
    expect(page).toContain('Title: Find events');
    expect(page).toMatch(/\[\d+\] input type=text name=city "City"/);
    expect(page).toMatch(/\[\d+\] button "Search"/);
  });

  it("keeps the model's reasoning and the tokens it reported with each step, and the run's total, in GraphQL", async () => {
    const long = 'Because '.repeat(1000);
    fx.llm.define('reasoning', [
      {
        call: 'navigate',
        args: { url: `${fx.pages.url}/search` },
        say: 'The search form is on the /search page, so I open it first.',
        tokens: 1200,
      },
      { call: 'done', args: { output: 'seen' }, say: long, tokens: 345 },
    ]);
    const taskId = await createTask(api, { task: taskText('reasoning', 'Look at the search page') });
    expect((await waitForRun(api, taskId, ended)).status).toBe('completed');
    const { data } = await api.graphql(
      `query ($taskId: ID!) { taskRun(taskId: $taskId) { tokensUsed steps { action reasoning tokens } } }`,
      { taskId },
      ADMIN_KEY,
    );
    expect(data.taskRun.steps).toEqual([
      { action: 'navigate', reasoning: 'The search form is on the /search page, so I open it first.', tokens: 1200 },
      { action: 'done', reasoning: long.trim().slice(0, 4000), tokens: 345 },
    ]);
    expect(data.taskRun.tokensUsed).toBe(1545);
  });

  it('serves the run as an animated GIF and each step as a PNG, through tokened URLs', async () => {
    fx.llm.define('gif', [
      { call: 'navigate', args: { url: `${fx.pages.url}/search` } },
      { call: 'done', args: { output: 'seen' } },
    ]);
    const taskId = await createTask(api, { task: taskText('gif') });
    await waitForRun(api, taskId, ended);
    const gifInfo = await api.request('GET', `/api/v1/task/${taskId}/run/gif`, { key: ADMIN_KEY });
    expect(gifInfo.status).toBe(200);
    expect(gifInfo.json.data).toMatchObject({ status: 'completed', error: null });
    const url = new URL(gifInfo.json.data.url);
    expect(url.origin).toBe('http://almanac.test');
    const gif = await fetch(api.url + url.pathname + url.search);
    expect(gif.status).toBe(200);
    expect(gif.headers.get('content-type')).toBe('image/gif');
    const bytes = Buffer.from(await gif.arrayBuffer());
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    // Two steps, two frames (each frame starts with a graphic control extension 0x21 0xF9).
    expect(bytes.toString('latin1').split('\x21\xF9\x04').length - 1).toBe(2);
    const forged = await fetch(api.url + url.pathname + url.search.replace(/token=[^&]+/, 'token=nope'));
    expect(forged.status).toBe(404);
    // Without the token: the owner's key (latest run by default), never another key, never nobody.
    const byKey = await api.request('GET', `/api/v1/task/${taskId}/run/gif.gif`, { key: ADMIN_KEY });
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get('content-type')).toBe('image/gif');
    expect((await api.request('GET', `/api/v1/task/${taskId}/run/gif.gif`, { key: api.keys.editor })).status).toBe(404);
    expect((await api.request('GET', `/api/v1/task/${taskId}/run/gif.gif`)).status).toBe(401);

    const steps = await api.graphql(
      `query($id: ID!) { taskRun(taskId: $id) { steps { index action result screenshotUrl } } }`,
      { id: taskId },
      ADMIN_KEY,
    );
    const [first] = steps.data.taskRun.steps;
    expect(first).toMatchObject({ index: 1, action: 'navigate' });
    const png = await fetch(api.url + new URL(first.screenshotUrl).pathname + new URL(first.screenshotUrl).search);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it("pauses in tool_call for the caller's form_input tool, takes the input, and finishes", async () => {
    const ask = { heading: 'Sign in', description: 'Who are you?', fields: [{ type: 'text', label: 'Your name' }] };
    fx.llm.define('signin', [
      { call: 'navigate', args: { url: `${fx.pages.url}/signin` } },
      { call: 'form_input', args: ask },
      (c) => ({ call: 'type', args: { element: c.element('"Your name"'), text: c.lastToolResult, submit: true } }),
      (c) => ({ call: 'done', args: { output: /Welcome, [^!]+!/.exec(c.page)?.[0] ?? 'no greeting' } }),
    ]);
    const task = taskText('signin', 'Sign in with my name');
    const taskId = await createTask(api, { task, tools: [FORM_INPUT_TOOL] });
    const waiting = await waitForRun(api, taskId, (r) => r.detailedStatus === 'tool_call');
    expect(waiting.status).toBe('running');
    expect(waiting.toolCall).toEqual({ toolCallId: expect.any(String), tool: { name: 'form_input', parameters: ask } });
    expect(fx.llm.requestsOf(task)[0].body.tools.map((t: any) => t.function.name)).toContain('form_input');

    const path = `/api/v1/task/${taskId}/run/tool-input`;
    const wrongCall = await api.request('POST', path, { key: ADMIN_KEY, body: { input: 'Ada', toolCallId: 'not-this-one' } });
    expect(wrongCall.status).toBe(409);
    const noInput = await api.request('POST', path, { key: ADMIN_KEY, body: {} });
    expect(noInput.status).toBe(400);
    expect(noInput.json.error).toBe('input is required');
    const answered = await api.request('POST', path, { key: ADMIN_KEY, body: { input: 'Ada', toolCallId: waiting.toolCall!.toolCallId } });
    expect(answered.status).toBe(200);
    expect(answered.json).toEqual({ success: true, data: null });
    const again = await api.request('POST', path, { key: ADMIN_KEY, body: { input: 'Ada' } });
    expect(again.status).toBe(409);

    const run = await waitForRun(api, taskId, ended);
    const result = await runResult(api, taskId);
    expect(run.status, JSON.stringify(result)).toBe('completed');
    expect(result.output).toBe('Welcome, Ada!');
    // The input came back to the LLM as the tool's result.
    const resumed = fx.llm.requestsOf(task)[2].body.messages;
    expect(resumed.find((m: any) => m.role === 'tool' && m.content === 'Ada')).toBeTruthy();
    const view = await api.graphql(
      `query($id: ID!) { taskRun(taskId: $id) { toolCall { id } toolCalls { name input parameters } steps { action } } }`,
      { id: taskId },
      ADMIN_KEY,
    );
    expect(view.errors).toBeUndefined();
    expect(view.data.taskRun.toolCalls).toEqual([{ name: 'form_input', input: 'Ada', parameters: ask }]);
    expect(view.data.taskRun.steps.map((s: any) => s.action)).toEqual(['navigate', 'form_input', 'type', 'done']);
  });

  it('stops a running run: the LLM call is aborted and the run ends "stopped"', async () => {
    fx.llm.define('hang', [{ hang: true }]);
    const task = taskText('hang');
    const taskId = await createTask(api, { task });
    await waitForRun(api, taskId, (r) => r.detailedStatus === 'thinking' && fx.llm.requestsOf(task).length > 0);
    const stopped = await api.request('PUT', `/api/v1/task/${taskId}/run/stop`, { key: ADMIN_KEY });
    expect(stopped.status).toBe(200);
    expect(stopped.json).toEqual({ success: true, data: null });
    expect(await runResult(api, taskId)).toMatchObject({ status: 'error', error: 'stopped' });
    const status = await waitForRun(api, taskId, ended);
    expect(status.detailedStatus).toBe('stopped');
    const started = Date.now();
    while (!fx.llm.requestsOf(task)[0].aborted && Date.now() - started < 3000) await new Promise((r) => setTimeout(r, 50));
    expect(fx.llm.requestsOf(task)[0].aborted).toBe(true);
    const twice = await api.request('PUT', `/api/v1/task/${taskId}/run/stop`, { key: ADMIN_KEY });
    expect(twice.status).toBe(409);
    expect(twice.json.success).toBe(false);
  });

  it('stops a run waiting for tool input (through the task stop), and refuses input afterwards', async () => {
    fx.llm.define('ask', [{ call: 'form_input', args: { heading: 'Anything?' } }]);
    const taskId = await createTask(api, { task: taskText('ask'), tools: [FORM_INPUT_TOOL] });
    await waitForRun(api, taskId, (r) => r.detailedStatus === 'tool_call');
    const stop = await api.request('PUT', `/api/v1/task/${taskId}/stop`, { key: ADMIN_KEY });
    expect(stop.status).toBe(200);
    const run = await waitForRun(api, taskId, ended);
    expect(run).toMatchObject({ status: 'error', detailedStatus: 'stopped', toolCall: null });
    expect((await runResult(api, taskId)).error).toBe('stopped');
    const late = await api.request('POST', `/api/v1/task/${taskId}/run/tool-input`, { key: ADMIN_KEY, body: { input: 'too late' } });
    expect(late.status).toBe(409);
    const list = await api.request('GET', '/api/v1/tasks', { key: ADMIN_KEY });
    expect(list.json.data.find((t: any) => t.id === taskId).status).toBe('inactive');
  });

  it('ends the run when the step budget is used up', async () => {
    fx.llm.define('wander', [
      { call: 'navigate', args: { url: `${fx.pages.url}/still` } },
      { call: 'scroll', args: { direction: 'down' } },
      { call: 'scroll', args: { direction: 'up' } },
      { call: 'done', args: { output: 'never reached' } },
    ]);
    const task = taskText('wander');
    const taskId = await createTask(api, { task, maxSteps: 3 });
    const run = await waitForRun(api, taskId, ended);
    expect(run).toMatchObject({ status: 'error', detailedStatus: 'failed' });
    expect((await runResult(api, taskId)).error).toBe('step budget used up: 3 steps taken without finishing (maxSteps)');
    expect(fx.llm.requestsOf(task)).toHaveLength(3);
  });

  it('ends the run when the same action repeats without effect', async () => {
    fx.llm.define('repeat', [
      { call: 'navigate', args: { url: `${fx.pages.url}/still` } },
      (c) => ({ call: 'click', args: { element: c.element('"Do nothing"') } }),
      (c) => ({ call: 'click', args: { element: c.element('"Do nothing"') } }),
      (c) => ({ call: 'click', args: { element: c.element('"Do nothing"') } }),
    ]);
    const taskId = await createTask(api, { task: taskText('repeat') });
    const run = await waitForRun(api, taskId, ended);
    expect(run).toMatchObject({ status: 'error', detailedStatus: 'failed' });
    expect((await runResult(api, taskId)).error).toMatch(
      /^the agent repeated the same action \(click \{"element":1\}\) 3 times without the page changing$/,
    );
  });

  it('ends the run after consecutive failed actions', async () => {
    fx.llm.define('fumble', [
      { call: 'click', args: { element: 97 } },
      { call: 'click', args: { element: 98 } },
      { call: 'click', args: { element: 99 } },
    ]);
    const taskId = await createTask(api, { task: taskText('fumble') });
    await waitForRun(api, taskId, ended);
    const result = await runResult(api, taskId);
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/^3 browser actions failed in a row .*; the last: element \[99\] is not on the page/);
  });

  it('retries once after an unusable LLM reply, then fails clearly when it happens twice', async () => {
    fx.llm.define('garbled-once', [
      (c) =>
        c.attempt === 0
          ? { message: { role: 'assistant', content: 'I would click something.' } }
          : { call: 'done', args: { output: 'ok' } },
    ]);
    const once = taskText('garbled-once');
    const onceId = await createTask(api, { task: once });
    await waitForRun(api, onceId, ended);
    expect(await runResult(api, onceId)).toMatchObject({ status: 'completed', output: 'ok' });
    const retry = fx.llm.requestsOf(once)[1].body.messages.at(-1).content;
    expect(retry).toMatch(/^Your previous reply could not be used: it contained no function call \(it said: "I would click something."\)/);

    fx.llm.define('garbled-twice', [
      (c) =>
        c.attempt === 0
          ? { call: 'fly', args: {} }
          : {
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'x', type: 'function', function: { name: 'done', arguments: '{"output": ' } }],
              },
            },
    ]);
    const twiceId = await createTask(api, { task: taskText('garbled-twice') });
    await waitForRun(api, twiceId, ended);
    expect(await runResult(api, twiceId)).toMatchObject({
      status: 'error',
      error: 'LLM: the LLM gave no usable function call twice in a row; last problem: the arguments of done are not valid JSON',
    });

    fx.llm.define('refused', [{ status: 401, body: 'invalid api key' }]);
    const refused = taskText('refused');
    const refusedId = await createTask(api, { task: refused });
    await waitForRun(api, refusedId, ended);
    expect((await runResult(api, refusedId)).error).toBe('LLM: the LLM server answered HTTP 401: invalid api key');
    expect(fx.llm.requestsOf(refused)).toHaveLength(1);
  });

  it('times out a hanging LLM call, and a run over its time limit', async () => {
    fx.llm.define('slow-llm', [{ hang: true }]);
    const slowId = await createTask(api, { task: taskText('slow-llm') });
    const slow = await waitForRun(api, slowId, ended);
    expect(slow).toMatchObject({ status: 'error', detailedStatus: 'timed_out' });
    expect((await runResult(api, slowId)).error).toBe('LLM: the LLM did not answer within 3 s (LLM_TIMEOUT_MS)');

    const longId = await createTask(api, { task: taskText('slow-llm'), timeoutSeconds: 1 });
    const long = await waitForRun(api, longId, ended);
    expect(long).toMatchObject({ status: 'error', detailedStatus: 'timed_out' });
    expect((await runResult(api, longId)).error).toMatch(/^the run exceeded its time limit of 1 s/);
  });
});
