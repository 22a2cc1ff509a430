// Starts Almanac on an ephemeral port over a fresh database, and talks to it over HTTP like a client.
import { afterAll, beforeAll } from 'vitest';
import { createUserWithKey } from '../../src/auth/api-keys.js';
import type { Role } from '../../src/auth/viewer.js';
import { loadConfig } from '../../src/config.js';
import type { DatabaseKind } from '../../src/db/url.js';
import type { Logger } from '../../src/http/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createTestDatabase, type TestDatabase } from './databases.js';
import { requestJson, type JsonResponse, type RequestOptions } from './http-client.js';

export const ADMIN_KEY = 'test-admin-key-0123456789';

export interface TestServer {
  kind: DatabaseKind;
  url: string;
  /** The database's URL, for another process (a command-line script) to open it. */
  databaseUrl: string;
  server: RunningServer;
  keys: Record<Role, string>;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>, key?: string): Promise<{ status: number; data?: T; errors?: any[] }>;
}

export type TestResponse = JsonResponse;

/**
 * Registers beforeAll/afterAll hooks that start a server on a fresh `kind` database. `env` may be a
 * function, called when the server starts (e.g. to choose a port and name SITE_URL after it).
 * `options`: the URL the server opens the database by (e.g. through a proxy, made from the
 * database's URL), and its logger.
 */
export function useTestServer(
  kind: DatabaseKind,
  env: Record<string, string> | (() => Promise<Record<string, string>>) = {},
  options: { databaseUrl?: (url: string) => string; logger?: Logger } = {},
): TestServer {
  const handle = { kind } as TestServer;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const settings = typeof env === 'function' ? await env() : env;
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl?.(database.url) ?? database.url,
      LOG_LEVEL: 'silent',
      ALMANAC_ADMIN_KEY: ADMIN_KEY,
      SITE_URL: 'http://almanac.test',
      ...settings,
    });
    const server = await startServer(config, { logger: options.logger });
    handle.server = server;
    handle.url = server.url;
    handle.databaseUrl = database.url;
    handle.keys = { administrator: ADMIN_KEY } as Record<Role, string>;
    for (const role of ['subscriber', 'contributor', 'author', 'editor'] as Role[]) {
      handle.keys[role] = (await createUserWithKey(server.db.prisma, { login: role, role })).key;
    }
    handle.request = (method, path, options = {}) => requestJson(server.url + path, method, options);
    handle.graphql = async (query, variables, key) => {
      const response = await handle.request('POST', '/graphql', { body: { query, variables }, key });
      return { status: response.status, data: response.json?.data, errors: response.json?.errors };
    };
  });
  afterAll(async () => {
    await handle.server?.close();
    await database?.drop();
  });
  return handle;
}
