// The event write endpoints' permission callbacks only decide permission (issue 17): the GraphQL
// write runs in the handler, whose outcome then answers the Allow header (as WordPress asks the
// callbacks again after dispatch).
import { describe, expect, it } from 'vitest';
import type { Viewer } from '../../src/auth/viewer.js';
import { forbidden } from '../../src/rest/errors.js';
import { eventRoutes } from '../../src/rest/calendar/events.js';
import type { Endpoint, RestRequest } from '../../src/rest/route-table.js';

const createEndpoint = eventRoutes.find((route) => route.path === '/events')!.endpoints.find((e) => e.methods.includes('POST'))!;
const admin: Viewer = { userId: 1, login: 'admin', role: 'administrator' };
const subscriber: Viewer = { userId: 2, login: 'sub', role: 'subscriber' };

/** A request past the REST checks (params is the coerced copy of raw) whose GraphQL answers `answer`. */
function request(endpoint: Endpoint, viewer: Viewer, answer: () => unknown) {
  const calls: string[] = [];
  const raw = { title: 'x', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' };
  const req = {
    endpoint,
    viewer,
    raw,
    params: { ...raw },
    sources: { json: raw, body: {}, query: {}, url: {}, defaults: {} },
    memo: new Map<string, unknown>(),
    operationOptions: {},
    has: (name: string) => Object.hasOwn(raw, name),
    url: (path: string) => `http://almanac.test/wp-json/calendar/events/v1${path}`,
    graphql: async (source: string) => {
      calls.push(source);
      return answer();
    },
  } as unknown as RestRequest;
  return { req, calls };
}

const refusal = () => ({ errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }] });

describe('event write permissions (issue 17)', () => {
  it('the permission callback of the endpoint served runs no GraphQL operation', async () => {
    const { req, calls } = request(createEndpoint, subscriber, refusal);
    expect(await createEndpoint.permission!(req)).toBe(true);
    expect(calls).toEqual([]);
  });

  it("the handler runs the write and answers GraphQL's refusal as the permission step does; then the callback refuses", async () => {
    const { req, calls } = request(createEndpoint, subscriber, refusal);
    await expect(createEndpoint.handler(req)).rejects.toEqual(forbidden(true));
    expect(calls).toHaveLength(1);
    expect(await createEndpoint.permission!(req)).toBe(false);
  });

  it('after a 400 the callback answers from the roles (for the Allow header)', async () => {
    const invalid = () => ({
      errors: [{ message: 'bad', extensions: { code: 'INVALID_INPUT', params: { title: 'Invalid parameter.' } } }],
    });
    for (const [viewer, allowed] of [
      [subscriber, false],
      [admin, true],
    ] as const) {
      const { req } = request(createEndpoint, viewer, invalid);
      await expect(createEndpoint.handler(req)).rejects.toMatchObject({ status: 400 });
      expect(await createEndpoint.permission!(req)).toBe(allowed);
    }
  });
});
