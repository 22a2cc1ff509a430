import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPolicyProxy, type PolicyProxy } from '../../src/tasks/proxy.ts';
import { UrlPolicy } from '../../src/net/url-policy.ts';

/**
 * The policy proxy as Chromium uses it: plain HTTP requests with absolute URLs. A site that closes
 * a kept-alive connection just as the proxy reuses it must not fail the page.
 */
describe('policy proxy', () => {
  let site: http.Server;
  let proxy: PolicyProxy;
  let sitePort: number;
  const seen: string[] = [];

  beforeAll(async () => {
    // Answers the first request of each connection, keeping it alive; closes the connection
    // without answering any later request on it (a server whose idle timeout just fired).
    site = http.createServer((req, res) => {
      const socket = req.socket as typeof req.socket & { served?: boolean };
      seen.push(`${req.method} ${req.url}${socket.served ? ' (reused: reset)' : ''}`);
      if (socket.served) return socket.destroy();
      socket.served = true;
      res.end(`page ${req.url}`);
    });
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    sitePort = (site.address() as AddressInfo).port;
  });
  afterAll(async () => {
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });

  // A proxy per test: each starts without kept-alive connections.
  beforeEach(async () => {
    seen.length = 0;
    proxy = await startPolicyProxy(new UrlPolicy({ allowPrivateNetwork: true, allowedHosts: [] }));
  });
  afterEach(() => proxy.close());

  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const signed = () => basic(proxy.credentials.username, proxy.credentials.password);
  const viaProxy = (method: string, path: string, body?: string, authorization = signed()) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const { port } = new URL(proxy.url);
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: `http://127.0.0.1:${sitePort}${path}`,
          agent: false,
          headers: { 'proxy-authorization': authorization },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  it('sends a GET again, once, when the site resets the kept-alive connection it reused', async () => {
    expect(await viaProxy('GET', '/a')).toEqual({ status: 200, text: 'page /a' });
    expect(await viaProxy('GET', '/b')).toEqual({ status: 200, text: 'page /b' });
    expect(seen).toEqual(['GET /a', 'GET /b (reused: reset)', 'GET /b']);
  });

  it('does not send a request with a body twice: the reset is the answer', async () => {
    expect(await viaProxy('GET', '/a')).toEqual({ status: 200, text: 'page /a' });
    const answer = await viaProxy('POST', '/form', 'x=1');
    expect(answer.status).toBe(502);
    expect(answer.text).toMatch(/^Almanac proxy: /);
    expect(seen).toEqual(['GET /a', 'POST /form (reused: reset)']);
  });

  it('serves only whoever holds its credentials, for requests and tunnels alike', async () => {
    const refused = await viaProxy('GET', '/a', undefined, basic('almanac', 'guess'));
    expect(refused.status).toBe(407);
    expect((await viaProxy('GET', '/a', undefined, '')).status).toBe(407);
    const tunnel = (authorization: string) =>
      new Promise<number>((resolve, reject) => {
        const { port } = new URL(proxy.url);
        const request = http.request({
          host: '127.0.0.1',
          port,
          method: 'CONNECT',
          path: `127.0.0.1:${sitePort}`,
          headers: { 'proxy-authorization': authorization },
        });
        request.on('connect', (response, socket) => {
          socket.destroy();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end();
      });
    expect(await tunnel(basic('almanac', 'guess'))).toBe(407);
    expect(seen).toEqual([]);
    expect(await tunnel(signed())).toBe(200);
  });
});
