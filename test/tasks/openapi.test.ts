// The task API's OpenAPI 3.1 document: valid for swagger-parser, one operation per route of the
// table, the x-api-key scheme, and true to the server: a client following it gets what it says.
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { TASK_ROUTES } from '../../src/rest/tasks/routes.js';
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
      const operation = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.security).toEqual(route.auth === 'none' ? [] : route.auth === 'key' ? [{ ApiKey: [] }] : [{ ApiKey: [] }, {}]);
    }
    const create = doc.paths['/task/create'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['task']);
    expect(create.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/Failure');
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
