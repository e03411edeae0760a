import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { ProviderCall } from '../../spec/upstream-provider.js';
import { UpstreamWebsockets } from '../../upstreams/upstream-websockets.js';
import { attemptUpstreamWebsocket } from './attempt-upstream-websocket.js';
import { UpstreamAbort } from './upstream-abort.js';

/** A real WebSocket server speaking the mode: chains are unknown to it, 'limit' is a 429. */
let server: WebSocketServer;
const received: Record<string, unknown>[] = [];
let responses = 0;
let origin = '';

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      received.push(message);
      if (message.previous_response_id !== undefined) {
        const error = { type: 'invalid_request_error', code: 'previous_response_not_found' };
        socket.send(JSON.stringify({ type: 'error', status: 400, error }));
        return;
      }
      if (JSON.stringify(message.input).includes('limit')) {
        const error = { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'wait' };
        socket.send(
          JSON.stringify({ type: 'error', status: 429, error, headers: { 'retry-after': '3' } }),
        );
        return;
      }
      responses += 1;
      const response = { id: `resp_${responses}`, output: [] };
      socket.send(JSON.stringify({ type: 'response.created', response }));
      socket.send(JSON.stringify({ type: 'response.completed', response }));
    });
  });
});

afterAll(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => {
    server.close(resolve);
  });
});

const user = (text: string) => ({ type: 'message', role: 'user', content: text });

function turn(websockets: UpstreamWebsockets, connection: string, input: unknown[]) {
  const upstream = {
    name: 'u',
    platform: 'OpenAI',
    origin,
    basePath: '',
    credential: 'k',
    responsesWebSocket: true,
    provider: { kind: 'Direct' },
  } as ResolvedUpstream;
  const call = {
    platform: 'OpenAI',
    method: 'POST',
    path: '/v1/responses',
    headers: {},
    body: Buffer.from(JSON.stringify({ model: 'm', stream: true, input })),
    stream: true,
    model: 'm',
  } as unknown as ProviderCall;
  return attemptUpstreamWebsocket({
    websockets,
    connection,
    call,
    upstream,
    abort: new UpstreamAbort(),
    timeouts: { headersMs: 5_000, firstOutputMs: 0, idleMs: 5_000 },
  });
}

async function readBody(body: Readable): Promise<string> {
  let text = '';
  for await (const chunk of body) text += String(chunk);
  return text;
}

describe('attemptUpstreamWebsocket', () => {
  it('resends a chained turn unchained when the upstream no longer holds the response', async () => {
    const websockets = new UpstreamWebsockets();
    const connection = websockets.open(undefined);
    const first = await turn(websockets, connection, [user('a')]);
    expect(first?.kind).toBe('success');
    if (first?.kind !== 'success') return;
    expect(await readBody(first.response.body)).toContain('event: response.completed\n');
    const since = received.length;
    const second = await turn(websockets, connection, [user('a'), user('b')]);
    expect(second?.kind).toBe('success');
    if (second?.kind === 'success') await readBody(second.response.body);
    const sent = received.slice(since);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ previous_response_id: 'resp_1', input: [user('b')] });
    expect(sent[1]?.previous_response_id).toBeUndefined();
    expect(sent[1]?.input).toEqual([user('a'), user('b')]);
    websockets.close(connection);
  });

  it("answers an error event before any other with the error's status", async () => {
    const websockets = new UpstreamWebsockets();
    const connection = websockets.open(undefined);
    const result = await turn(websockets, connection, [user('limit')]);
    expect(result).toMatchObject({
      kind: 'error-status',
      outcome: 'status_429',
      reply: { status: 429, headers: { 'retry-after': '3' } },
    });
    websockets.close(connection);
  });

  it('leaves a call that names no open connection to HTTP', async () => {
    const websockets = new UpstreamWebsockets();
    expect(await turn(websockets, 'not-a-connection', [user('a')])).toBeNull();
  });
});
