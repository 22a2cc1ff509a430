// The task API's rate limit holds across processes that share one database.
import { describe, expect, it } from 'vitest';
import { createUserWithKey } from '../../src/auth/api-keys.js';
import { DATABASE_KINDS, createTestDatabase } from '../support/databases.js';
import { clientFor, startAlmanac, withinOneRateWindow } from '../support/tasks.js';

describe.each(DATABASE_KINDS)('task API rate limit on %s', (kind) => {
  it('is one limit for every process on the database: requests spread over two servers are counted together', async () => {
    const database = await createTestDatabase(kind);
    const env = { TASK_WORKERS: '0', TASK_API_RATE_LIMIT: '10' };
    const one = await startAlmanac(database.url, env);
    const two = await startAlmanac(database.url, env);
    try {
      const { key } = await createUserWithKey(one.db.prisma, { login: 'spreader', role: 'subscriber' });
      const { key: otherKey } = await createUserWithKey(one.db.prisma, { login: 'bystander', role: 'subscriber' });
      const clients = [clientFor(one.url), clientFor(two.url)];
      await withinOneRateWindow();
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await clients[i % 2].request('GET', '/api/v1/check', { key })).status);
      expect(statuses).toEqual(Array(10).fill(200));
      // Each server saw only five requests; together they are over the limit on both.
      for (const client of clients) {
        const limited = await client.request('GET', '/api/v1/check', { key });
        expect(limited.status).toBe(429);
        expect(limited.json).toMatchObject({ success: false, error: expect.stringContaining('10 requests per minute') });
        const retry = Number(limited.headers.get('retry-after'));
        expect(retry).toBeGreaterThan(0);
        expect(retry).toBeLessThanOrEqual(60);
      }
      expect((await clients[1].request('GET', '/api/v1/check', { key: otherKey })).status).toBe(200);
    } finally {
      await one.close();
      await two.close();
      await database.drop();
    }
  });
});
