// Ports for servers a test starts.
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port nobody listens on now (the kernel's choice of an ephemeral one). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
