// Requests Node's parser refuses get their answer even while the client is still sending: 431 for a
// header over the limit, 400 for a malformed request, never a reset connection (src/http/client-errors.ts).
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server.js';

/**
 * Writes `parts` on a fresh connection, 50 ms apart (a client still sending when the server answers),
 * and resolves with what came back before the connection closed, or its error.
 */
function exchange(url: string, parts: string[]): Promise<{ answer: string; error?: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ answer: Buffer.concat(chunks).toString(), error: error.code }));
    socket.on('close', () => resolve({ answer: Buffer.concat(chunks).toString() }));
    const send = async () => {
      for (const [i, part] of parts.entries()) {
        if (i) await new Promise((next) => setTimeout(next, 50));
        if (socket.destroyed) return;
        socket.write(part);
      }
      socket.end();
    };
    void send();
  });
}

describe('requests the HTTP parser refuses', () => {
  const api = useTestServer('sqlite');

  it('answers 431 to a 40 kB header, every time, while the client is still sending', async () => {
    const key = 'k'.repeat(20_000);
    const parts = [
      'POST /wp-json/calendar/events/v1/categories HTTP/1.1\r\nHost: x\r\nx-api-key: ',
      key,
      key,
      '\r\nContent-Length: 0\r\n\r\n',
    ];
    const results = await Promise.all(Array.from({ length: 20 }, () => exchange(api.url, parts)));
    for (const result of results) {
      expect(result.error).toBeUndefined();
      expect(result.answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    }
  });

  it('answers 431 on a kept-alive connection that already served a request', async () => {
    const { hostname, port } = new URL(api.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const closed = new Promise<string | undefined>((resolve) => {
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code));
      socket.on('close', () => resolve(undefined));
    });
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => received, { timeout: 5000 }).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\n/);
    const first = received;
    socket.end(`GET /healthz HTTP/1.1\r\nHost: x\r\nx-api-key: ${'k'.repeat(40_000)}\r\n\r\n`);
    expect(await closed).toBeUndefined();
    expect(received.slice(first.length)).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  });

  it('answers 400 to a malformed request, and keeps serving', async () => {
    const result = await exchange(api.url, ['GARBAGE\r\n\r\n']);
    expect(result.answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
  });
});
