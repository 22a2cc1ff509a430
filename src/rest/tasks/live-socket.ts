// The live view's WebSocket: /api/v1/task/{id}/run/live?runId= (an addition to Browserable's API).
// The owner's key comes in the upgrade's x-api-key header or, from a browser (which cannot set
// headers on a WebSocket), as the first message {"key": "…"}; another user's key finds no run
// (closed 4404), a wrong key is refused (4401). The server then sends JSON messages: {type: "frame",
// data (base64 JPEG), url, step} while the run is executing in this process, and {type: "status",
// live: false, status, liveStatus} when it is not (queued, waiting for a tool's answer, ended, or
// executing in another process sharing the database).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { credentialsFromHeaders, type ApiKeyResolver } from '../../auth/api-keys.js';
import type { Database } from '../../db/client.js';
import { liveRuns, screencast } from '../../tasks/live.js';
import { findRun } from '../../tasks/runs.js';

const LIVE_PATH = /^\/api\/v1\/task\/([^/]+)\/run\/live$/;
const AUTH_WAIT_MS = 10_000;
/** How often a viewer of a run not live here is told its status again (it may start). */
const STATUS_MS = 1000;

export function serveLiveRuns(deps: { keys: ApiKeyResolver; db: Database }) {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 4096 });

  async function viewerOf(socket: WebSocket, req: IncomingMessage) {
    const fromHeaders = credentialsFromHeaders(req.headers);
    if (fromHeaders) return deps.keys.resolve(fromHeaders);
    const first = await new Promise<string | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), AUTH_WAIT_MS);
      socket.once('message', (data) => (clearTimeout(timer), resolve(String(data))));
      socket.once('close', () => (clearTimeout(timer), resolve(null)));
    });
    let key: unknown;
    try {
      key = first && (JSON.parse(first) as { key?: unknown }).key;
    } catch {
      key = undefined;
    }
    return typeof key === 'string' ? deps.keys.resolve(credentialsFromHeaders({ 'x-api-key': key })) : null;
  }

  async function watch(socket: WebSocket, req: IncomingMessage, taskId: string, runId: string | null) {
    const viewer = await viewerOf(socket, req);
    if (!viewer || viewer === 'invalid') return socket.close(4401, 'Send the API key of the task');
    const run = await findRun(deps.db.prisma, { userId: viewer.userId, keyId: viewer.keyId }, taskId, runId);
    if (!run) return socket.close(4404, 'No such task or run');
    const send = (message: unknown) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(message));
    let stop: (() => Promise<void>) | undefined;
    const check = async () => {
      const live = liveRuns.get(run.id);
      if (live && !stop) stop = screencast(live, (frame) => send({ type: 'frame', ...frame }));
      if (!live && stop) {
        void stop();
        stop = undefined;
      }
      if (live) return;
      const now = await deps.db.prisma.taskRun.findUnique({ where: { id: run.id }, select: { status: true, liveStatus: true } });
      send({ type: 'status', live: false, status: now?.status ?? 'error', liveStatus: now?.liveStatus ?? '' });
    };
    const timer = setInterval(() => void check().catch(() => undefined), STATUS_MS);
    socket.on('close', () => (clearInterval(timer), void stop?.()));
    await check();
  }

  return {
    matches: (path: string) => LIVE_PATH.test(path),
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      let url: URL;
      let taskId: string;
      try {
        url = new URL(req.url ?? '/', 'http://localhost');
        taskId = decodeURIComponent(LIVE_PATH.exec(url.pathname)![1]);
      } catch {
        // A malformed escape (%E0%A4%A) throws here, inside the server's upgrade event: answered, never thrown.
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
        return;
      }
      sockets.handleUpgrade(req, socket, head, (ws) => {
        watch(ws, req, taskId, url.searchParams.get('runId')).catch(() => ws.close(1011, 'The live view failed'));
      });
    },
    async close() {
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}
