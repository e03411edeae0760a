/**
 * The child's side of `spawnBenchChild`: listen on a free port of 127.0.0.1 and send `ready` with
 * the URL, once listening.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export function listenAndAnnounce(server: Server): void {
  server.listen(0, '127.0.0.1', () => {
    process.send?.({
      type: 'ready',
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
  });
}
