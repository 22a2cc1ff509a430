// A tiny Koa app serving one REST table on an ephemeral port (the app's one router), and a client for it.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import Koa from 'koa';
import type { Viewer } from '../../src/auth/viewer.js';
import { loadConfig } from '../../src/config.js';
import { authenticator } from '../../src/http/caller.js';
import { serveTables } from '../../src/http/router.js';
import { restTable, type RestTableOptions } from '../../src/rest/index.js';
import { requestJson, type JsonResponse } from '../support/http-client.js';

export const config = loadConfig({ SITE_URL: 'http://127.0.0.1:8080', DATABASE_URL: 'file:./unused.db', LOG_LEVEL: 'silent' });

export const VIEWERS: Record<string, Viewer> = {
  admin: { userId: 1, login: 'admin', role: 'administrator' },
  contributor: { userId: 2, login: 'carla', role: 'contributor' },
  subscriber: { userId: 3, login: 'sam', role: 'subscriber' },
};

export type Reply = JsonResponse;

export interface TestApp {
  origin: string;
  request(
    method: string,
    path: string,
    options?: { json?: unknown; form?: string; body?: string | Uint8Array; key?: string; headers?: Record<string, string> },
  ): Promise<Reply>;
  close(): Promise<void>;
}

export async function startApp(
  options: Omit<RestTableOptions, 'config' | 'authenticate'> &
    Partial<RestTableOptions> & { logger?: { error(details: object, message?: string): void } },
): Promise<TestApp> {
  const app = new Koa();
  app.proxy = true;
  const { logger = { error: () => undefined }, ...tableOptions } = options;
  const table = restTable({
    config,
    // x-api-key names a viewer; an unknown key is a bad credential.
    authenticate: authenticator((ctx) => {
      const key = ctx.get('x-api-key');
      return key ? (VIEWERS[key] ?? 'invalid') : null;
    }),
    ...tableOptions,
  });
  app.use(serveTables([table], logger));
  const server = createServer(app.callback());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    request: (method, path, { json, body, ...opts } = {}) =>
      requestJson(origin + path, method, {
        ...opts,
        // A JSON body as the caller wrote it (a string stays a JSON string); a raw body as it is.
        ...(json !== undefined ? { body: JSON.stringify(json) } : { rawBody: body }),
      }),
    async close() {
      server.close();
      server.closeAllConnections();
      await once(server, 'close');
    },
  };
}

/** Pieces of the original's recorded responses (shared/spec/samples), kept as test data. */
export const samples = JSON.parse(readFileSync(new URL('./fixtures/original-samples.json', import.meta.url), 'utf8'));
