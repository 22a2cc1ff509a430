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

  it('refuses a webhookUrl that is not an http(s) URL', async () => {
    for (const webhookUrl of ['ftp://example.com/x', 'not a url', 42]) {
      const response = await api.request('POST', '/api/v1/task/create', { key: ADMIN_KEY, body: { task: 'x', webhookUrl } });
      expect(response.status).toBe(400);
      expect(response.json.error).toMatch(/webhookUrl/);
    }
  });
});
