import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BodySilenceWatch } from './watch-body-silence.js';

const IDLE_MS = 200;

let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server that hands every request to `onRequest`, and a client socket that sent `sent`. */
async function requestWithBody(
  onRequest: (raw: IncomingMessage) => void,
  sent: string,
): Promise<Socket> {
  server ??= await new Promise<Server>((resolve) => {
    const started = createServer((raw) => {
      onRequest(raw);
    }).listen(0, '127.0.0.1', () => {
      resolve(started);
    });
  });
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  socket.write(`POST / HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100\r\n\r\n${sent}`);
  return socket;
}

describe('BodySilenceWatch', () => {
  it('cuts every silent body with its error, one timer for all, and then stops', async () => {
    const watch = new BodySilenceWatch(IDLE_MS, () => new Error('silent'));
    const errors: { error: Error; after: number }[] = [];
    const onRequest = (raw: IncomingMessage): void => {
      const watched = Date.now();
      raw.on('error', (error) => errors.push({ error, after: Date.now() - watched }));
      watch.watch(raw);
    };
    await requestWithBody(onRequest, '{"a":');
    // The second body starts between two checks of the one timer: its first check is sooner than
    // a whole interval, and still it is cut only after a whole timeout of silence.
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 8));
    await requestWithBody(onRequest, '{"b":');
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 2));
    expect(errors.map(({ error }) => error.message)).toEqual(['silent', 'silent']);
    // Cut after 1 to 1.25 idle timeouts of silence (plus the timer's lateness), never sooner.
    for (const { after } of errors) {
      expect(after).toBeGreaterThanOrEqual(IDLE_MS);
      expect(after).toBeLessThan(IDLE_MS * 1.25 + 100);
    }
    expect(watch.size).toBe(0);
  });

  it('leaves alone a body that keeps arriving, and one released once read', async () => {
    const watch = new BodySilenceWatch(IDLE_MS, () => new Error('silent'));
    const errors: Error[] = [];
    const requests: IncomingMessage[] = [];
    const onRequest = (raw: IncomingMessage): void => {
      raw.on('error', (error) => errors.push(error));
      requests.push(raw);
      watch.watch(raw);
    };
    const trickling = await requestWithBody(onRequest, '{');
    await requestWithBody(onRequest, '{');
    while (requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    watch.release(requests[1] as IncomingMessage);
    expect(watch.size).toBe(1);
    for (let piece = 0; piece < 8; piece += 1) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 4));
      trickling.write(' ');
    }
    expect(errors).toEqual([]);
    expect(watch.size).toBe(1);
    // Once the trickling request is complete, the next check lets it go.
    trickling.write(' '.repeat(100 - 1 - 8));
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 2));
    expect(requests[0]?.complete).toBe(true);
    expect(watch.size).toBe(0);
    expect(errors).toEqual([]);
  });
});
