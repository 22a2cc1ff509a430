// A TCP proxy in front of the test PostgreSQL server, for tests of database faults that no other
// test may see: a server connected through it loses its database when the proxy is cut (its
// connections closed, new ones refused), and gets it back when the proxy listens again.
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `url` (a PostgreSQL URL) with the proxy's host and port. */
  through(url: string): string;
  /** Closes every connection and refuses new ones (ECONNREFUSED) until `restore`. */
  cut(): Promise<void>;
  /** Listens again, on the same port. */
  restore(): Promise<void>;
  /**
   * The next bytes a client sends on a connection already open are not passed on: that connection
   * is closed instead, as if it broke under the statement (which never reaches the database).
   */
  dropNextStatement(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let dropArmed = false;
  let port = 0;
  const serve = (): Server =>
    createServer((client) => {
      let started = false; // the connection's start-up has been passed on (so it is "already open")
      const upstream = createConnection(target);
      open.add(client).add(upstream);
      const end = () => {
        client.destroy();
        upstream.destroy();
        open.delete(client);
        open.delete(upstream);
      };
      client.on('data', (chunk) => {
        if (started && dropArmed) {
          dropArmed = false;
          end();
          return;
        }
        started = true;
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => client.write(chunk));
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
  let server = serve();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as { port: number }).port;
  const closeServer = async () => {
    for (const socket of open) socket.destroy();
    open.clear();
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  };
  return {
    through(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    cut: closeServer,
    async restore() {
      server = serve();
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    dropNextStatement() {
      dropArmed = true;
    },
    close: closeServer,
  };
}
