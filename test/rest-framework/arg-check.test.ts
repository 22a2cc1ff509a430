// The JSON tables' argument checker (rest/arg-check.ts) with the task API's rules: declaration
// order, absent values and defaults, JSON's types without PHP juggling, and the table's wording.
import { describe, expect, it } from 'vitest';
import { assertCheckable, checkArgs } from '../../src/rest/arg-check.js';
import { RestError } from '../../src/rest/errors.js';
import type { Args } from '../../src/rest/route-table.js';
import { TASK_ARG_RULES } from '../../src/rest/tasks/http.js';

const ARGS: Args = {
  task: { type: 'string', required: true },
  agent: { type: 'string', enum: ['BROWSER_AGENT'] },
  maxSteps: { type: 'integer' },
  cost: { type: 'number' },
  tools: { type: 'array', items: { type: 'object' } },
  schema: { type: 'object' },
};
const PAGE: Args = {
  page: { type: 'integer', minimum: 1, default: 1 },
  limit: { type: 'integer', minimum: 1, maximum: 30, default: 30 },
  runId: { type: 'string' },
};

/** The refusal's status and message, or the checked values. */
function check(values: Record<string, unknown>, args: Args, place: 'body' | 'query') {
  try {
    return checkArgs(values, args, place, TASK_ARG_RULES);
  } catch (error) {
    if (!(error instanceof RestError)) throw error;
    return `${error.status} ${error.message}`;
  }
}

describe('the JSON argument checker with the task rules', () => {
  it('returns the declared body arguments as sent, without coercion; null counts as absent', () => {
    const body = { task: 'go', maxSteps: 5, cost: 0.5, tools: [5], schema: {}, extra: 1, agent: null };
    expect(check(body, ARGS, 'body')).toEqual({ task: 'go', maxSteps: 5, cost: 0.5, tools: [5], schema: {} });
  });

  it('refuses the first bad argument in declaration order, in the table’s words', () => {
    expect(check({}, ARGS, 'body')).toBe('400 task is required');
    expect(check({ task: 5, agent: 'X' }, ARGS, 'body')).toBe('400 task must be a string');
    expect(check({ task: 'go', agent: 7 }, ARGS, 'body')).toBe('400 agent must be one of: BROWSER_AGENT');
    expect(check({ task: 'go', maxSteps: '5' }, ARGS, 'body')).toBe('400 maxSteps must be an integer');
    expect(check({ task: 'go', maxSteps: 1.5 }, ARGS, 'body')).toBe('400 maxSteps must be an integer');
    expect(check({ task: 'go', maxSteps: 2 ** 31 }, ARGS, 'body')).toBe('400 maxSteps is out of range');
    expect(check({ task: 'go', cost: '1' }, ARGS, 'body')).toBe('400 cost must be a number');
    expect(check({ task: 'go', tools: {} }, ARGS, 'body')).toBe('400 tools must be an array');
    expect(check({ task: 'go', schema: [] }, ARGS, 'body')).toBe('400 schema must be an object');
  });

  it('reads a query: defaults for absent or empty values, the last of repeated ones, decimal integers in range', () => {
    expect(check({ page: '', runId: ['a', 'b'] }, PAGE, 'query')).toEqual({ page: 1, limit: 30, runId: 'b' });
    expect(check({ page: '3', limit: '30' }, PAGE, 'query')).toEqual({ page: 3, limit: 30 });
    for (const page of ['0', '3.0', '1e3', ' 3', 'x', '2147483648']) {
      expect(check({ page }, PAGE, 'query')).toBe('400 page must be an integer from 1 to 2147483647');
    }
    expect(check({ limit: '31' }, PAGE, 'query')).toBe('400 limit must be an integer from 1 to 30');
  });

  it('refuses at start-up the declarations it cannot check', () => {
    expect(() => assertCheckable('/x', { a: { type: ['string', 'null'] } })).toThrow(/arg a must be a string, integer/);
    expect(() => assertCheckable('/x', { a: { type: 'string', validate: () => true } })).toThrow(/without callbacks/);
    expect(() => assertCheckable('/x', { a: { type: 'boolean' } })).toThrow(/arg a must be/);
    expect(() => assertCheckable('/x', ARGS)).not.toThrow();
  });
});
