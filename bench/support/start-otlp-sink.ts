/**
 * An OTLP/HTTP sink for the benchmarks: takes `POST /v1/traces`, reads the body, answers 200. It
 * decodes nothing (the bench measures the gateway's cost, not the sink's) and counts the export
 * requests and bytes it took.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  url: string;
  readonly exports: number;
  readonly bytes: number;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get exports() {
      return exports;
    },
    get bytes() {
      return bytes;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
