/**
 * A Responses WebSocket client for the tests (the `ws` package): connect with headers, send
 * `response.create` messages, read the events of a turn up to its end (`response.completed`,
 * `response.failed` or `error`), and see a refused upgrade's HTTP answer.
 */
import { WebSocket } from 'ws';

export interface OpenSocket {
  socket: WebSocket;
  /** Sends one message and reads events until the turn ends. */
  turn(message: Record<string, unknown>): Promise<Record<string, unknown>[]>;
  /** Reads the next event. */
  next(): Promise<Record<string, unknown>>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
}

export interface RefusedUpgrade {
  status: number;
  body: { error: { code: string; type: string; message: string } };
}

const ends = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);

export function openResponsesSocket(
  base: string,
  headers: Record<string, string>,
): Promise<OpenSocket> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/responses`, { headers });
  const queue: Record<string, unknown>[] = [];
  const waiting: ((event: Record<string, unknown>) => void)[] = [];
  socket.on('message', (data: Buffer) => {
    const event = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    const waiter = waiting.shift();
    if (waiter === undefined) queue.push(event);
    else waiter(event);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code: number, reason: Buffer) => {
      resolve({ code, reason: reason.toString() });
    });
  });
  const next = (): Promise<Record<string, unknown>> => {
    const queued = queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => waiting.push(resolve));
  };
  const turn = async (message: Record<string, unknown>) => {
    socket.send(JSON.stringify(message));
    const events: Record<string, unknown>[] = [];
    for (;;) {
      const event = await next();
      events.push(event);
      if (ends.has(String(event.type))) return events;
    }
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      resolve({ socket, turn, next, closed });
    });
    socket.once('unexpected-response', (_request, response) => {
      reject(new Error(`upgrade refused: ${response.statusCode}`));
    });
    socket.once('error', reject);
  });
}

/** Attempts an upgrade that the gateway should refuse; resolves with its HTTP answer. */
export function refusedUpgrade(
  base: string,
  headers: Record<string, string>,
): Promise<RefusedUpgrade> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/responses`, { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: response.statusCode ?? 0,
          body: JSON.parse(text) as RefusedUpgrade['body'],
        });
      });
    });
    socket.once('error', () => undefined);
  });
}
