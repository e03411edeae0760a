/**
 * An upstream for back-pressure tests: a real node:http server answering every Anthropic Messages
 * call with a stream of 4 KB text deltas that goes on until `capBytes`, written only as fast as
 * the socket drains (as a real provider's server does), counting what each stream has written and
 * whether it is waiting for its reader.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EndlessStreams {
  url: string;
  /** Bytes written per stream, in the order the streams started. */
  written(): number[];
  /** Streams whose last write is waiting for the socket to drain. */
  waiting(): number;
  close(): Promise<void>;
}

const frame = (event: string, data: object): string =>
  `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const START =
  frame('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_endless',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  }) +
  frame('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  });

const DELTA = frame('content_block_delta', {
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text: 'x'.repeat(4096) },
});

const END =
  frame('content_block_stop', { type: 'content_block_stop', index: 0 }) +
  frame('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 1000 },
  }) +
  frame('message_stop', { type: 'message_stop' });

interface StreamState {
  written: number;
  waiting: boolean;
}

async function pour(response: ServerResponse, state: StreamState, capBytes: number) {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(START);
  while (state.written < capBytes && !response.destroyed) {
    state.written += DELTA.length;
    if (!response.write(DELTA)) {
      state.waiting = true;
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.once('drain', done);
        response.once('close', done);
      });
      state.waiting = false;
    }
  }
  if (!response.destroyed) response.end(END);
}

export async function serveEndlessStreams(options: { capBytes: number }): Promise<EndlessStreams> {
  const streams: StreamState[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      const state = { written: 0, waiting: false };
      streams.push(state);
      pour(response, state, options.capBytes).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    written: () => streams.map((state) => state.written),
    waiting: () => streams.filter((state) => state.waiting).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
