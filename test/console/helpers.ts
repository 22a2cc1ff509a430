// Shared by the console suites: an API server that runs no tasks and a second server on the same
// database that does (runs executed by "another process"), a GraphQL-over-SSE client, and the
// form_input tool of the product brief (the server's built-in definition).
import { afterAll, beforeAll } from 'vitest';
import { createUserWithKey } from '../../src/auth/api-keys.js';
import type { RunningServer } from '../../src/server.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import type { DatabaseKind } from '../../src/db/url.js';
import type { TestServer } from '../support/server.js';
import { clientFor, startAlmanac, type TaskFixtures } from '../support/tasks.js';

/** The brief's form_input tool as the server offers it built in (its fields may carry `options`: the console renders a select). */
export { FORM_INPUT_TOOL } from '../support/tasks.js';

export interface ConsoleServers {
  /** Serves the API, /graphql and /console; on PostgreSQL it runs no tasks (TASK_WORKERS=0). */
  api: RunningServer;
  /** Runs the tasks: on PostgreSQL a second server on the same database; on SQLite the same server. */
  worker: RunningServer;
  client: TestServer;
  /** The key of a second user, who must not see the admin's tasks. */
  otherKey: string;
  database: TestDatabase;
}

/**
 * Registers hooks that start the servers on a fresh `kind` database (register the task fixtures
 * first). On PostgreSQL, where several processes share a database, the runs are executed by a
 * second server, so what the API server shows can only come from the database. SQLite is a
 * one-process database: one server does both.
 */
export function useConsoleServers(kind: DatabaseKind, fx: TaskFixtures): ConsoleServers {
  const servers = {} as ConsoleServers;
  beforeAll(async () => {
    servers.database = await createTestDatabase(kind);
    if (kind === 'postgresql') {
      servers.api = await startAlmanac(servers.database.url, { ...fx.env, TASK_WORKERS: '0' });
      servers.worker = await startAlmanac(servers.database.url, { ...fx.env, TASK_WORKERS: '2' });
    } else {
      servers.api = servers.worker = await startAlmanac(servers.database.url, { ...fx.env, TASK_WORKERS: '2' });
    }
    servers.client = clientFor(servers.api.url);
    servers.otherKey = (await createUserWithKey(servers.api.db.prisma, { login: 'other', role: 'author' })).key;
  });
  afterAll(async () => {
    await servers.api?.close();
    if (servers.worker !== servers.api) await servers.worker?.close();
    await servers.database?.drop();
  });
  return servers;
}

export interface SseEvent {
  event: string;
  data: string;
}

export interface Subscription {
  status: number;
  contentType: string | null;
  /** The events as they arrive (comments, i.e. pings, skipped); ends with the stream. */
  events: AsyncGenerator<SseEvent>;
  /** The body when the answer is not an event stream. */
  text?: string;
  close(): void;
}

/** Opens a GraphQL subscription over server-sent events, as any HTTP client can. */
export async function subscribe(baseUrl: string, query: string, variables: Record<string, unknown>, key?: string): Promise<Subscription> {
  const controller = new AbortController();
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (key) headers['x-api-key'] = key;
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
    signal: controller.signal,
  });
  const contentType = response.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream')) {
    return {
      status: response.status,
      contentType,
      events: (async function* () {})(),
      text: await response.text(),
      close: () => controller.abort(),
    };
  }
  async function* events(): AsyncGenerator<SseEvent> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') event = value;
            if (field === 'data') data.push(value);
          }
          if (block.split('\n').every((line) => line.startsWith(':'))) continue;
          yield { event, data: data.join('\n') };
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  }
  return { status: response.status, contentType, events: events(), close: () => controller.abort() };
}

/** The `next` payloads of a subscription until it completes (or `until` says stop), parsed. */
export async function collect(
  subscription: Subscription,
  onNext: (payload: any, all: any[]) => unknown | Promise<unknown>,
  timeoutMs = 30_000,
) {
  const payloads: any[] = [];
  let completed = false;
  const timer = setTimeout(() => subscription.close(), timeoutMs);
  try {
    for await (const { event, data } of subscription.events) {
      if (event === 'complete') {
        completed = true;
        break;
      }
      if (event !== 'next') continue;
      const payload = JSON.parse(data);
      payloads.push(payload);
      if ((await onNext(payload, payloads)) === false) break;
    }
  } finally {
    clearTimeout(timer);
  }
  return { payloads, completed };
}
