// Structured output: a task's outputSchema is checked at create (400 in the API's shape), shown to
// the model, its final answer validated; an answer that does not fit is sent back with the errors,
// twice at most, then the run fails naming the schema. The validated value is the run's output.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { createTask, ended, runResult, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';

const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, count: { type: 'integer', minimum: 0 } },
  required: ['city', 'count'],
  additionalProperties: false,
};

describe.each(DATABASE_KINDS)('structured output on %s', (kind) => {
  const fx = useTaskFixtures();
  const api = useTestServer(kind, fx.env);

  const run = async (scenario: string, body: Record<string, unknown> = {}) => {
    const task = taskText(scenario, 'Count the events');
    const taskId = await createTask(api, { task, outputSchema: SCHEMA, ...body });
    const status = await waitForRun(api, taskId, ended);
    const steps = await api.graphql(`query($id: ID!) { taskRun(taskId: $id) { steps { action result } } }`, { id: taskId }, ADMIN_KEY);
    return { task, status, result: await runResult(api, taskId), results: steps.data.taskRun.steps.map((s: any) => s.result) };
  };

  it('sends a non-matching answer back with the errors and keeps the validated object as output', async () => {
    fx.llm.define('schema-fixed', [
      { call: 'done', args: { output: 'There are 3 events in Lyon.' } },
      { call: 'done', args: { output: '{"city": "Lyon", "count": "three"}' } },
      { call: 'done', args: { output: '{"city": "Lyon", "count": 3}' } },
    ]);
    const { task, status, result, results } = await run('schema-fixed');
    expect(status.status, JSON.stringify(result)).toBe('completed');
    expect(result.output).toEqual({ city: 'Lyon', count: 3 });
    expect(results).toEqual(['output rejected: (root) must be object', 'output rejected: /count must be integer', 'finished']);
    const sent = fx.llm.requestsOf(task);
    expect(sent[0].body.messages[0].content).toContain(`validates against this JSON Schema: ${JSON.stringify(SCHEMA)}`);
    expect(sent[1].body.messages.find((m: any) => m.role === 'tool').content).toBe(
      'Not accepted: output does not match the outputSchema ((root) must be object). Call done again with `output` a JSON value that validates.',
    );
  });

  it('fails the run after the answer was sent back twice', async () => {
    fx.llm.define('schema-never', [
      { call: 'done', args: { output: { city: 'Lyon' } } },
      { call: 'done', args: { output: { city: 'Lyon', count: -1 } } },
      { call: 'done', args: { output: { city: 'Lyon', count: 1, extra: true } } },
    ]);
    const { status, result } = await run('schema-never');
    expect(status.detailedStatus).toBe('failed');
    expect(result.error).toBe(
      'the final answer did not match outputSchema after 3 attempts; the last: (root) must NOT have additional properties',
    );
  });

  it('keeps text output as it was without a schema, and refuses bad schemas with 400', async () => {
    fx.llm.define('no-schema', [{ call: 'done', args: { output: 'plain words' } }]);
    const { result } = await run('no-schema', { outputSchema: undefined });
    expect(result.output).toBe('plain words');
    for (const [outputSchema, error] of [
      [{ type: 'nonsense' }, 'outputSchema.type is not valid JSON Schema: must be equal to one of the allowed values'],
      ['{}', 'outputSchema must be an object'],
      [{ $ref: '#/nowhere' }, expect.stringMatching(/^outputSchema cannot be used: /)],
      [{ description: 'x'.repeat(20_001) }, 'outputSchema must be at most 20000 characters of JSON (got 20019)'],
    ] as const) {
      const response = await api.request('POST', '/api/v1/task/create', { body: { task: 'x', outputSchema }, key: ADMIN_KEY });
      expect(response.status, response.text).toBe(400);
      expect(response.json).toEqual({ success: false, error });
    }
  });
});
