// The live view of a run: a WebSocket at /api/v1/task/{id}/run/live sends the owner JPEG frames of
// the page the agent works on (a CDP screencast), with the URL and the agent's current step, while a
// real Chromium runs the task for the scripted model; another user's key and a wrong key are refused.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCdpChromium, type CdpChromium } from '../support/browser.js';
import WebSocket from 'ws';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer, type TestServer } from '../support/server.js';
import { createTask, taskText, useTaskFixtures, waitForRun, type TaskFixtures } from '../support/tasks.js';

interface Message {
  type: string;
  data?: string;
  url?: string;
  step?: string;
  live?: boolean;
  status?: string;
}

/** Opens the live view; `key` in the upgrade's header, or `firstMessage` sent once open (as a browser does). */
function openLive(url: string, options: { key?: string; firstMessage?: unknown }) {
  const socket = new WebSocket(url.replace(/^http/, 'ws'), { headers: options.key ? { 'x-api-key': options.key } : {} });
  const messages: Message[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Message);
    for (const wake of waiters.splice(0)) wake();
  });
  if (options.firstMessage !== undefined) socket.on('open', () => socket.send(JSON.stringify(options.firstMessage)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const next = async (match: (m: Message) => boolean, what: string): Promise<Message> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${what} in ${JSON.stringify(messages.map((m) => m.type))}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 500);
      });
    }
  };
  return { socket, messages, closed, next };
}

describe.each(DATABASE_KINDS)('live view of a run on %s', (kind) => {
  // The model takes its time on step 2: the run stays on the page while the test watches it.
  const fx = useTaskFixtures(() => ({ LLM_TIMEOUT_MS: '60000' }));
  const api = useTestServer(kind, fx.env);
  it("sends the owner frames of the page with its URL and the agent's step; refuses other keys", () => watchRun(fx, api));
  it('answers an upgrade to a malformed live path with 400, and goes on serving', async () => {
    const { hostname, port } = new URL(api.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(
        'GET /api/v1/task/%E0%A4%A/run/live HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
  });
});

describe.each(DATABASE_KINDS)('live view of a run in a remote browser (BROWSER_CDP_URL) on %s', (kind) => {
  let remote: CdpChromium;
  beforeAll(async () => {
    remote = await startCdpChromium();
  });
  afterAll(async () => {
    await remote?.close();
  });
  const fx = useTaskFixtures(() => ({ LLM_TIMEOUT_MS: '60000', BROWSER_CDP_URL: remote.url, CHROMIUM_PATH: '/nonexistent/chromium' }));
  const api = useTestServer(kind, fx.env);
  it('sends the owner frames from the remote browser too', () => watchRun(fx, api));
});

async function watchRun(fx: TaskFixtures, api: TestServer) {
  {
    fx.llm.define('watched', [{ call: 'navigate', args: { url: `${fx.pages.url}/signin` } }, { hang: true }]);
    const taskId = await createTask(api, { task: taskText('watched', 'Sign in') });
    await waitForRun(api, taskId, (run) => run.liveStatus.startsWith('Step 2'));
    const liveUrl = `${api.url}/api/v1/task/${taskId}/run/live`;

    // The owner, from a browser: the key as the first message.
    const owner = openLive(liveUrl, { firstMessage: { key: ADMIN_KEY } });
    const frame = await owner.next((m) => m.type === 'frame', 'frame');
    expect(frame.url).toBe(`${fx.pages.url}/signin`);
    expect(frame.step).toMatch(/^Step 2: deciding what to do on /);
    const jpeg = Buffer.from(frame.data!, 'base64');
    expect([jpeg[0], jpeg[1], jpeg[2]]).toEqual([0xff, 0xd8, 0xff]);
    expect(jpeg.length).toBeGreaterThan(1000);

    // Another user's key finds no run; a wrong key and no key are refused; neither gets a frame.
    const other = openLive(liveUrl, { key: api.keys.editor });
    expect(await other.closed).toEqual({ code: 4404, reason: 'No such task or run' });
    const wrong = openLive(liveUrl, { firstMessage: { key: 'alm_not-a-key' } });
    expect((await wrong.closed).code).toBe(4401);
    expect([...other.messages, ...wrong.messages].filter((m) => m.type === 'frame')).toEqual([]);

    // Once the run ends the view says so.
    expect((await api.request('PUT', `/api/v1/task/${taskId}/run/stop`, { key: ADMIN_KEY })).status).toBe(200);
    const ended = await owner.next((m) => m.type === 'status' && m.status === 'error', 'status after the stop');
    expect(ended.live).toBe(false);
    owner.socket.close();
  }
}
