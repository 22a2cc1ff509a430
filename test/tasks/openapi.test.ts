// The task API's OpenAPI 3.1 document: valid for swagger-parser, one operation per route of the
// table, the x-api-key scheme, and true to the server: a client following it gets what it says.
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { TASK_ROUTES } from '../../src/rest/tasks/routes.js';
import { generatedClient, schemaProblems } from '../support/openapi-client.js';
import { useTestServer } from '../support/server.js';

describe('task API OpenAPI document', () => {
  const api = useTestServer('sqlite', { TASK_WORKERS: '0' });

  it('is valid OpenAPI 3.1 and describes every route, with the key scheme', async () => {
    const response = await api.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.json;
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    for (const route of TASK_ROUTES) {
      const [{ methods, auth }] = route.endpoints;
      const operation = doc.paths[route.docPath!]?.[methods[0].toLowerCase()];
      expect(operation, `${methods[0]} ${route.docPath}`).toBeDefined();
      expect(operation.security).toEqual(auth === 'none' ? [] : auth === 'key' ? [{ ApiKey: [] }] : [{ ApiKey: [] }, {}]);
    }
    // What Almanac POSTs to receivers: the task webhooks and the calendar's, side by side.
    expect(Object.keys(doc.webhooks)).toEqual(['taskEvent', 'calendarChanges']);
    const create = doc.paths['/task/create'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['task']);
    expect(create.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/Failure');
    expect(create.responses['200'].content['application/json'].schema.properties.data).toEqual({
      type: 'object',
      properties: { taskId: { type: 'string' } },
      required: ['taskId'],
    });
    expect(doc.paths['/tasks'].get.responses['200'].content['application/json'].schema.properties.data.items.properties.status).toEqual({
      type: 'string',
      enum: ['active', 'inactive'],
    });
  });

  it('documents what the server answers: each answer of a session validates against its documented schema', async () => {
    const doc = (await api.request('GET', '/api/v1/openapi.json')).json;
    const check = async (
      method: string,
      path: string,
      template: string,
      body?: unknown,
      key: string | undefined = api.keys.administrator,
    ) => {
      const response = await api.request(method, `/api/v1${path}`, { body, key });
      expect(schemaProblems(doc, template, method, response.status, response.json), `${method} ${path}: ${response.text}`).toEqual([]);
      return response.json;
    };
    const { data } = await check('POST', '/task/create', '/task/create', { task: 'Compare two train fares' });
    await check('GET', '/tasks?limit=5', '/tasks');
    await check('GET', `/task/${data.taskId}/runs`, '/task/{taskId}/runs');
    await check('GET', `/task/${data.taskId}/run/status`, '/task/{taskId}/run/status');
    await check('GET', `/task/${data.taskId}/run/result`, '/task/{taskId}/run/result');
    await check('GET', `/task/${data.taskId}/run/gif`, '/task/{taskId}/run/gif');
    await check('GET', '/check', '/check');
    await check('GET', '/webhook/secret', '/webhook/secret');
    await check('PUT', `/task/${data.taskId}/run/stop`, '/task/{taskId}/run/stop');
    await check('PUT', `/task/${data.taskId}/stop`, '/task/{taskId}/stop');
    await check('GET', '/health', '/health');
    await check('GET', '/tasks', '/tasks', undefined, 'wrong-key');
    await check('GET', '/task/no-such-task/run/status', '/task/{taskId}/run/status');
    await check('POST', '/task/create', '/task/create', { task: '' });
  });

  it('generates a typed client (openapi-typescript + openapi-fetch) that compiles and round-trips', async () => {
    const doc = (await api.request('GET', '/api/v1/openapi.json')).json;
    const client = await generatedClient(
      doc,
      `import createClient from 'openapi-fetch';
import type { paths } from './paths.js';

export async function roundTrip(baseUrl: string, key: string) {
  const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': key } });
  const created = await client.POST('/task/create', { body: { task: 'Find the cheapest ferry', maxSteps: 5 } });
  if (!created.data) throw new Error('create failed');
  const taskId: string = created.data.data.taskId;
  const status = await client.GET('/task/{taskId}/run/status', { params: { path: { taskId } } });
  if (!status.data) throw new Error('status failed');
  // No LLM is configured here: the run ends at once, with the reason.
  const runStatus: 'scheduled' | 'running' | 'completed' | 'error' = status.data.data.status;
  const list = await client.GET('/tasks', { params: { query: { page: 1, limit: 5 } } });
  if (!list.data) throw new Error('list failed');
  const total: number = list.data.total;
  const names: string[] = list.data.data.map((task) => task.readable_name);
  const stopped = await client.PUT('/task/{taskId}/stop', { params: { path: { taskId } } });
  const missing = await client.GET('/task/{taskId}/run/result', { params: { path: { taskId: 'no-such-task' } } });
  const error: string = missing.error?.error ?? '';
  return { runStatus, total, names, stopped: stopped.data?.success, error };
}
`,
    );
    expect(client.diagnostics).toEqual([]);
    const result = await client.module.roundTrip(`${api.url}/api/v1`, api.keys.administrator);
    expect(result).toMatchObject({ runStatus: 'error', stopped: true, error: 'No task with id "no-such-task".' });
    expect(result.names).toContain('Find the cheapest ferry');
    expect(result.total).toBe(result.names.length);
  });

  it('says what the server does: a client following it creates a task, reads it back, and gets the documented errors', async () => {
    const doc = (await api.request('GET', '/api/v1/openapi.json')).json;
    const base = doc.servers[0].url;
    const created = await api.request('POST', `${base}/task/create`, {
      key: api.keys.administrator,
      body: { task: 'Read the menu of the day' },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ success: true, data: { taskId: expect.any(String) } });
    const listed = await api.request('GET', `${base}/tasks?page=1&limit=5`, { key: api.keys.administrator });
    expect(listed.json.success).toBe(true);
    expect(Object.keys(doc.paths['/tasks'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    const unauthenticated = await api.request('GET', `${base}/tasks`);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.json).toEqual({ success: false, error: expect.any(String) });
    const missing = await api.request('POST', `${base}/task/create`, { key: api.keys.administrator, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ success: false, error: 'task is required' });
  });
});
