import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A node:http server on 127.0.0.1 for the transport tests; `close` also drops connections left open. */
export async function serveOnLoopback(
  handler: RequestListener,
): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
