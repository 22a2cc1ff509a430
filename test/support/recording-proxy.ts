// An HTTP proxy in front of a server that records what passes: a test sees which requests a client
// made of that server (e.g. that an import read the change log, not every list).
import { once } from 'node:events';
import { createServer } from 'node:http';

export interface RecordingProxy {
  url: string;
  port: number;
  /** "METHOD /path?query", and for a POST its body after a space, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    requests.push(`${req.method} ${req.url}${body.length ? ` ${body.toString('utf8')}` : ''}`);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (name !== 'host' && typeof value === 'string') headers[name] = value;
    try {
      const answer = await fetch(target + req.url, { method: req.method, headers, body: body.length ? body : undefined });
      const text = Buffer.from(await answer.arrayBuffer());
      const kept: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) kept[name] = value;
      });
      res.writeHead(answer.status, kept).end(text);
    } catch {
      res.writeHead(502).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
