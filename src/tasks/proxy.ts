// The policy proxy: Chromium sends every request through it (loopback included), so the URL policy
// sees each redirect hop, subresource and tunnel, which Playwright's route interception does not
// (it never sees a redirect's target). It connects to the address it checked, never re-resolving.
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { UrlPolicy } from '../net/url-policy.js';

export const BLOCKED_HEADER = 'x-almanac-blocked';

export interface PolicyProxy {
  url: string;
  /** Asked of every request: a proxy a remote browser reaches may listen where others can reach it too. */
  credentials: { username: string; password: string };
  /** The reason the latest request to `host` was refused, if it was (for clearer agent messages). */
  denialFor(host: string): string | undefined;
  close(): Promise<void>;
}

const REALM = 'Basic realm="Almanac"';
const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

export interface ProxyListen {
  host?: string;
  port?: number;
}

export async function startPolicyProxy(policy: UrlPolicy, listen: ProxyListen = {}): Promise<PolicyProxy> {
  const credentials = { username: 'almanac', password: randomBytes(18).toString('base64url') };
  const expected = Buffer.from(`Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`);
  const authorized = (req: http.IncomingMessage) => {
    const given = Buffer.from(req.headers['proxy-authorization'] ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const denials = new Map<string, string>();
  const remember = (host: string, reason: string) => {
    if (denials.size > 200) denials.clear();
    denials.set(host.toLowerCase(), reason);
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const sockets = new Set<net.Socket | Duplex>();

  const server = http.createServer(async (req, res) => {
    if (!authorized(req)) {
      res.writeHead(407, { 'proxy-authenticate': REALM }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const verdict = await policy.check(target.href);
    if (!verdict.allowed) {
      remember(target.hostname, verdict.reason);
      res.writeHead(403, { 'content-type': 'text/html; charset=utf-8', [BLOCKED_HEADER]: encodeURIComponent(verdict.reason) });
      res.end(
        `<!doctype html><title>Blocked by Almanac</title><h1>Blocked by Almanac's URL policy</h1><p>${escapeHtml(verdict.reason)}</p>`,
      );
      return;
    }
    const headers = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    // A request without a body is sent again, once, when the upstream closed the kept-alive socket
    // it went out on just as it was reused (ECONNRESET on a reused socket, the race Node's docs
    // describe): the site never saw it, and the page should not fail for it.
    const bodyless = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
    const send = (retried: boolean) => {
      const upstream = http.request(
        {
          host: verdict.address ?? target.hostname,
          port: target.port || 80,
          method: req.method,
          path: target.pathname + target.search,
          headers,
          agent,
          setHost: false,
        },
        (response) => {
          // The refusal header is the proxy's alone: a site sending it must not pass for a refusal.
          const dropped = (name: string) => HOP_BY_HOP.includes(name.toLowerCase()) || name.toLowerCase() === BLOCKED_HEADER;
          res.writeHead(
            response.statusCode ?? 502,
            response.rawHeaders.filter((_, i, all) => !dropped(all[i - (i % 2)])),
          );
          response.pipe(res);
        },
      );
      const abandon = () => upstream.destroy(); // the browser gave up: so does the upstream request
      res.once('close', abandon);
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        res.off('close', abandon);
        if (bodyless && !retried && upstream.reusedSocket && error.code === 'ECONNRESET' && !res.headersSent && !res.destroyed)
          return send(true);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`Almanac proxy: ${error.message}`);
      });
      if (bodyless) {
        req.resume(); // nothing to forward
        upstream.end();
      } else req.pipe(upstream);
    };
    send(false);
  });

  // HTTPS and WebSocket tunnels: the host is checked, then bytes pass through untouched.
  server.on('connect', async (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (!authorized(req)) return void client.end(`HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: ${REALM}\r\n\r\n`);
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    if (!match) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const [, host, port] = match;
    const verdict = await policy.checkHost(host, port);
    if (!verdict.allowed) {
      remember(host, verdict.reason);
      return void client.end(`HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: ${encodeURIComponent(verdict.reason)}\r\n\r\n`);
    }
    const upstream = net.connect(Number(port), verdict.address ?? host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  server.listen(listen.port ?? 0, listen.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  // Listening on every interface, the browser on this machine still reaches it at loopback.
  const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : net.isIPv6(address) ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    credentials,
    denialFor: (host) => denials.get(host.toLowerCase()),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await closed;
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
