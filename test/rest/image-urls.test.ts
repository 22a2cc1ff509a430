// An image given as a URL makes Almanac fetch it (HEAD): that request obeys the one outbound URL
// policy on every hop, so no input can make the server reach a private address, not even through
// a redirect from an allowed host.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';
import { clientFor, startAlmanac } from '../support/tasks.js';

/** A local HTTP server answering `handler`; its requests are counted. */
async function localServer(handler: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    handler(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, hits, port: (server.address() as AddressInfo).port };
}

const image = (_request: http.IncomingMessage, response: http.ServerResponse) => {
  response.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' });
  response.end();
};

const servers: Array<Awaited<ReturnType<typeof localServer>>> = [];
let imageHost: Awaited<ReturnType<typeof localServer>>;
let privateTarget: Awaited<ReturnType<typeof localServer>>;
let redirector: Awaited<ReturnType<typeof localServer>>;
let goodRedirector: Awaited<ReturnType<typeof localServer>>;

beforeAll(async () => {
  imageHost = await localServer(image);
  privateTarget = await localServer(image);
  // Allowed itself, it sends clients on to a private address that is not.
  redirector = await localServer((_request, response) => {
    response.writeHead(302, { location: `http://127.0.0.1:${privateTarget.port}/secret.png` });
    response.end();
  });
  goodRedirector = await localServer((_request, response) => {
    response.writeHead(301, { location: `http://127.0.0.1:${imageHost.port}/moved.png` });
    response.end();
  });
  servers.push(imageHost, privateTarget, redirector, goodRedirector);
});
afterAll(async () => {
  for (const { server } of servers) server.close();
});

describe.each(DATABASE_KINDS)('image URLs on %s', (kind) => {
  const api = useTestServer(kind);
  const createEvent = (imageUrl: string) =>
    api.request('POST', '/wp-json/calendar/events/v1/events', {
      key: api.keys.administrator,
      body: { title: `Pictured ${Math.random()}`, start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00', image: imageUrl },
    });

  it('refuses an image on a private address, without fetching it', async () => {
    const response = await createEvent(`http://127.0.0.1:${privateTarget.port}/direct.png`);
    expect(response.status).toBe(400);
    expect(response.json.data.params).toHaveProperty('image');
    expect(privateTarget.hits).toEqual([]);
    const linkLocal = await createEvent('http://169.254.169.254/latest/meta-data/');
    expect(linkLocal.status).toBe(400);
  });
});

describe('image URLs with some local hosts allowed', () => {
  const api = useTestServer('sqlite', {});
  let allowed: string;
  beforeAll(() => {
    allowed = [imageHost, redirector, goodRedirector].map((s) => `127.0.0.1:${s.port}`).join(',');
  });

  it('follows redirects only to allowed addresses', async () => {
    // Only the image host and the two redirectors are allowed although they are on loopback: the
    // list is configuration, so a second server on the same database has it.
    const server = await startAlmanac(api.databaseUrl, { TASK_WORKERS: '0', TASK_ALLOWED_HOSTS: allowed });
    try {
      const client = clientFor(server.url);
      const post = (url: string) =>
        client.request('POST', '/wp-json/calendar/events/v1/events', {
          key: api.keys.administrator,
          body: { title: `Pictured ${Math.random()}`, start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00', image: url },
        });
      const direct = await post(`http://127.0.0.1:${imageHost.port}/ok.png`);
      expect(direct.status, direct.text).toBe(201);
      expect(direct.json.image.url).toBe(`http://127.0.0.1:${imageHost.port}/ok.png`);

      const viaGoodRedirect = await post(`http://127.0.0.1:${goodRedirector.port}/old.png`);
      expect(viaGoodRedirect.status, viaGoodRedirect.text).toBe(201);
      expect(imageHost.hits).toContain('HEAD /moved.png');

      const viaBadRedirect = await post(`http://127.0.0.1:${redirector.port}/innocent.png`);
      expect(viaBadRedirect.status).toBe(400);
      expect(viaBadRedirect.json.data.params).toHaveProperty('image');
      expect(redirector.hits).toEqual(['HEAD /innocent.png']);
      expect(privateTarget.hits).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
