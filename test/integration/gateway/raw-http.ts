/**
 * Raw HTTP/1.1 over node:net for what no client library sends: oversized heads, conflicting
 * framing, bad percent-encoding, stalled bodies, and uploads that watch for an early answer.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses one response (content-length or chunked body); null when no full head arrived. */
export function parseRawResponse(bytes: Buffer): RawResponse | null {
  const text = bytes.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd === -1) return null;
  const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(headEnd + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let rest = body;
    body = '';
    for (;;) {
      const sizeEnd = rest.indexOf('\r\n');
      const size = parseInt(rest.slice(0, sizeEnd), 16);
      if (!(size > 0)) break;
      body += rest.slice(sizeEnd + 2, sizeEnd + 2 + size);
      rest = rest.slice(sizeEnd + 2 + size + 2);
    }
  }
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? '0');
  return { status, headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
function collect(socket: Socket): Promise<Buffer> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
  });
  return new Promise((resolve) => {
    socket.on('error', () => undefined);
    socket.once('close', () => {
      resolve(Buffer.concat(chunks));
    });
  });
}

/** Sends the parts in order (the optional pause between them), then reads until the close. */
export async function exchange(
  port: number,
  parts: (string | Buffer)[],
  pauseMs = 0,
): Promise<RawResponse> {
  const socket = await open(port);
  const received = collect(socket);
  for (const part of parts) {
    if (socket.destroyed) break;
    socket.write(part);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  const response = parseRawResponse(await received);
  if (response === null) throw new Error('the server closed without a response');
  return response;
}

export interface UploadResult {
  response: RawResponse;
  /** Body bytes handed to the socket when the first response byte arrived. */
  bodyBytesWritten: number;
  bodyBytes: number;
}

/**
 * Writes `head` and then `bodyBytes` of body in 64 KiB chunks (waiting for the socket to drain),
 * and stops writing as soon as the server answers or closes.
 */
export async function upload(port: number, head: string, bodyBytes: number): Promise<UploadResult> {
  const socket = await open(port);
  const progress: { written: number; answeredAt: number | null } = { written: 0, answeredAt: null };
  socket.on('data', () => {
    progress.answeredAt ??= progress.written;
  });
  const received = collect(socket);
  socket.write(head);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  while (progress.written < bodyBytes && progress.answeredAt === null && !socket.destroyed) {
    const part = chunk.subarray(0, Math.min(chunk.length, bodyBytes - progress.written));
    progress.written += part.length;
    if (!socket.write(part)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.once('drain', done);
        socket.once('close', done);
      });
    }
  }
  const response = parseRawResponse(await received);
  if (response === null) throw new Error('the server closed without a response');
  return { response, bodyBytesWritten: progress.answeredAt ?? progress.written, bodyBytes };
}
