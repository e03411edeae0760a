/**
 * An OTLP/HTTP trace receiver for tests: a real HTTP server on a free port that takes
 * `POST /v1/traces` with a protobuf body, decodes it (decode-otlp-traces.ts) and answers 200 with
 * an empty `ExportTraceServiceResponse`. `stall()` makes it hold every later export unanswered (a
 * collector that hangs), so the gateway's export queue fills.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeOtlpTraces, type ReceivedSpan } from './decode-otlp-traces.js';

export interface OtlpReceiver {
  /** The base URL (`http://127.0.0.1:port`), as `--otlp-endpoint` takes it. */
  url: string;
  readonly spans: readonly ReceivedSpan[];
  /** Export requests received, answered or not. */
  readonly exports: number;
  /** The headers of the latest export request. */
  readonly lastHeaders: IncomingMessage['headers'];
  /** Spans that match, once at least `count` arrived (else throws after `timeoutMs`). */
  waitForSpans(
    match: (span: ReceivedSpan) => boolean,
    count: number,
    timeoutMs?: number,
  ): Promise<ReceivedSpan[]>;
  stall(): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const held: ServerResponse[] = [];
  let exports = 0;
  let stalled = false;
  let lastHeaders: IncomingMessage['headers'] = {};
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      exports += 1;
      lastHeaders = request.headers;
      if (stalled) {
        held.push(response);
        return;
      }
      if (request.headers['content-type'] !== 'application/x-protobuf') {
        response.writeHead(415).end();
        return;
      }
      spans.push(...decodeOtlpTraces(body));
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    get exports() {
      return exports;
    },
    get lastHeaders() {
      return lastHeaders;
    },
    async waitForSpans(match, count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.filter(match);
        if (found.length >= count) return found;
        if (Date.now() > deadline) {
          throw new Error(`${found.length} of ${count} spans arrived (${spans.length} in all)`);
        }
        await sleep(25);
      }
    },
    stall() {
      stalled = true;
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
