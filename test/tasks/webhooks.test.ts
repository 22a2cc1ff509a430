// Webhooks as a receiver sees them: a signed POST when a run waits for a caller tool's input and when
// it completes; a receiver that fails gets the delivery again (with backoff) until it answers 2xx;
// the delivery log in GraphQL; bad webhook URLs refused.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { createTask, eventually, FORM_INPUT_TOOL, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

describe.each(DATABASE_KINDS)('task webhooks on %s', (kind) => {
  const fx = useTaskFixtures();
  const api = useTestServer(kind, fx.env);
  const received: Received[] = [];
  /** Answers 500 to the first POST of each of these events, 200 otherwise. */
  const failFirst = new Set<string>(['completed']);
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const event = String(req.headers['x-almanac-event']);
      if (failFirst.delete(event)) res.writeHead(500).end('not now');
      else res.writeHead(204).end();
    });
  });
  let receiverUrl = '';
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/almanac`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('POSTs signed events for a tool call and the completion, retrying a failed delivery', async () => {
    const secret = (await api.request('GET', '/api/v1/webhook/secret', { key: ADMIN_KEY })).json.data.secret;
    expect(secret).toMatch(/^whsec_/);
    fx.llm.define('hooked', [
      { call: 'form_input', args: { heading: 'Name?', fields: [{ type: 'text', label: 'Name' }] } },
      { call: 'done', args: { output: 'thanks' } },
    ]);
    const taskId = await createTask(api, { task: taskText('hooked', 'Ask my name'), tools: [FORM_INPUT_TOOL], webhookUrl: receiverUrl });
    const waiting = await waitForRun(api, taskId, (r) => r.detailedStatus === 'tool_call');
    await eventually(() => received.some((r) => JSON.parse(r.body).taskId === taskId), 'the tool_call POST');
    const [toolCall] = received.filter((r) => JSON.parse(r.body).taskId === taskId);
    const ts = String(toolCall.headers['x-almanac-timestamp']);
    expect(toolCall.headers['x-almanac-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(`${ts}.${toolCall.body}`).digest('hex')}`,
    );
    expect(Math.abs(Date.now() / 1000 - Number(ts))).toBeLessThan(300);
    expect(toolCall.headers['content-type']).toBe('application/json');
    expect(JSON.parse(toolCall.body)).toMatchObject({
      event: 'tool_call',
      taskId,
      detailedStatus: 'tool_call',
      toolCall: { id: waiting.toolCall!.toolCallId, name: 'form_input' },
    });

    await api.request('POST', `/api/v1/task/${taskId}/run/tool-input`, { key: ADMIN_KEY, body: { input: '{"Name":"Ada"}' } });
    const completions = () => received.filter((r) => JSON.parse(r.body).taskId === taskId && r.headers['x-almanac-event'] === 'completed');
    await eventually(() => completions().length === 2, 'the completed POST, retried after a 500');
    const [first, second] = completions();
    expect(first.headers['x-almanac-delivery']).toBe(second.headers['x-almanac-delivery']);
    expect(JSON.parse(second.body)).toMatchObject({ event: 'completed', status: 'completed', output: 'thanks' });

    await eventually(async () => {
      const { data } = await api.graphql(
        `query ($id: ID!) { task(id: $id) { webhookUrl webhookDeliveries { event status attempts lastStatus } } }`,
        { id: taskId },
        ADMIN_KEY,
      );
      return data.task.webhookDeliveries.some((d: any) => d.event === 'completed' && d.status === 'delivered');
    }, 'the delivery log');
    const { data } = await api.graphql(
      `query ($id: ID!) { task(id: $id) { webhookUrl webhookDeliveries { event status attempts lastStatus } } }`,
      { id: taskId },
      ADMIN_KEY,
    );
    expect(data.task.webhookUrl).toBe(receiverUrl);
    expect(data.task.webhookDeliveries).toEqual([
      { event: 'completed', status: 'delivered', attempts: 2, lastStatus: 204 },
      { event: 'tool_call', status: 'delivered', attempts: 1, lastStatus: 204 },
    ]);
  });

  it("sends the events of a task without a webhookUrl to its key's default one; only the key's owner sets it", async () => {
    const key = api.keys.author;
    const keyId = (await api.graphql(`{ apiKey { id webhookUrl } }`, {}, key)).data.apiKey.id;
    const set = `mutation ($id: Int!, $url: String) { setApiKeyWebhookUrl(id: $id, webhookUrl: $url) { id webhookUrl } }`;
    // The URL policy of a task's webhookUrl.
    for (const url of ['ftp://example.com/x', 'not a url']) {
      const { errors } = await api.graphql(set, { id: keyId, url }, key);
      expect(errors?.[0]).toMatchObject({
        message: 'webhookUrl must be an absolute http or https URL',
        extensions: { code: 'INVALID_INPUT', params: { webhookUrl: 'webhookUrl must be an absolute http or https URL' } },
      });
    }
    // Nobody else's key: another user's is not found.
    const other = await api.graphql(set, { id: keyId, url: 'http://127.0.0.1:9/elsewhere' }, api.keys.subscriber);
    expect(other.errors?.[0]).toMatchObject({ message: `No API key with id ${keyId}.`, extensions: { code: 'NOT_FOUND' } });
    expect((await api.graphql(set, { id: keyId, url: receiverUrl }, key)).data.setApiKeyWebhookUrl).toEqual({
      id: keyId,
      webhookUrl: receiverUrl,
    });
    expect((await api.graphql(`{ apiKeys { id webhookUrl } }`, {}, key)).data.apiKeys).toContainEqual({
      id: keyId,
      webhookUrl: receiverUrl,
    });

    const secret = (await api.request('GET', '/api/v1/webhook/secret', { key })).json.data.secret;
    fx.llm.define('key-hooked', [{ call: 'done', args: { output: 'by default' } }]);
    const taskId = await createTask(api, { task: taskText('key-hooked', 'Say hi') }, key);
    const mine = () => received.filter((r) => JSON.parse(r.body).taskId === taskId);
    await eventually(() => mine().some((r) => r.headers['x-almanac-event'] === 'completed'), "the completed POST to the key's URL");
    const [completed] = mine();
    const ts = String(completed.headers['x-almanac-timestamp']);
    expect(completed.headers['x-almanac-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(`${ts}.${completed.body}`).digest('hex')}`,
    );
    expect(JSON.parse(completed.body)).toMatchObject({ event: 'completed', output: 'by default' });
    expect((await api.graphql(`query ($id: ID!) { task(id: $id) { webhookUrl } }`, { id: taskId }, key)).data.task.webhookUrl).toBe(
      receiverUrl,
    );

    // A task's own webhookUrl wins; once the default is removed, new tasks send nothing.
    const own = await createTask(api, { task: 'Own hook', webhookUrl: 'http://127.0.0.1:9/own' }, key);
    expect((await api.graphql(`query ($id: ID!) { task(id: $id) { webhookUrl } }`, { id: own }, key)).data.task.webhookUrl).toBe(
      'http://127.0.0.1:9/own',
    );
    expect((await api.graphql(set, { id: keyId, url: null }, key)).data.setApiKeyWebhookUrl.webhookUrl).toBe(null);
    const quiet = await createTask(api, { task: 'No hook' }, key);
    expect((await api.graphql(`query ($id: ID!) { task(id: $id) { webhookUrl } }`, { id: quiet }, key)).data.task.webhookUrl).toBe(null);
  });

  it('refuses a webhookUrl that is not an http(s) URL', async () => {
    for (const webhookUrl of ['ftp://example.com/x', 'not a url', 42]) {
      const response = await api.request('POST', '/api/v1/task/create', { key: ADMIN_KEY, body: { task: 'x', webhookUrl } });
      expect(response.status).toBe(400);
      expect(response.json.error).toMatch(/webhookUrl/);
    }
  });
});
