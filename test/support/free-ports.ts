/**
 * Free loopback ports, picked by the OS, for the processes tests and benchmarks start (etcd, API
 * servers). Every socket stays open until all are picked, so the ports of one call differ.
 */
import { createServer } from 'node:net';

export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            resolve(typeof address === 'object' && address ? address.port : 0);
          });
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** One free loopback port. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}
