/**
 * An incremental decoder of `application/vnd.amazon.eventstream` (pure): bytes arrive split
 * anywhere; each complete message is checked (prelude CRC32, message CRC32, lengths) and returned
 * with its string-valued headers and payload. Message layout: total length (4 bytes, big endian),
 * headers length (4), prelude CRC (4), headers, payload, message CRC (4). Header values: 0/1
 * booleans, 2 byte, 3 short, 4 integer, 5 long, 6 bytes and 7 string (2-byte length), 8 timestamp,
 * 9 UUID; only strings are kept (the `:message-type`, `:event-type`, ... headers are strings).
 */
const preludeLength = 12;
const minimumMessageLength = 16;
/** Larger messages are refused (AWS caps event stream messages at 16 MiB). */
const maximumMessageLength = 16 * 1024 * 1024 + 1024;

export interface EventStreamMessage {
  headers: Record<string, string>;
  payload: Buffer;
}

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export class EventStreamError extends Error {}

/** Fixed value sizes by header type; -1 for the length-prefixed types. */
const valueSizes: Record<number, number> = {
  0: 0,
  1: 0,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: -1,
  7: -1,
  8: 8,
  9: 16,
};

function readHeaders(bytes: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  let at = 0;
  while (at < bytes.length) {
    const nameLength = bytes.readUInt8(at);
    const name = bytes.toString('utf8', at + 1, at + 1 + nameLength);
    at += 1 + nameLength;
    const type = bytes.readUInt8(at);
    at += 1;
    const size = valueSizes[type];
    if (size === undefined) throw new EventStreamError(`unknown header value type ${String(type)}`);
    if (size >= 0) {
      at += size;
    } else {
      const length = bytes.readUInt16BE(at);
      if (type === 7) headers[name] = bytes.toString('utf8', at + 2, at + 2 + length);
      at += 2 + length;
    }
    if (at > bytes.length) throw new EventStreamError('a header runs past the headers section');
  }
  return headers;
}

export function decodeMessage(message: Buffer): EventStreamMessage {
  const total = message.readUInt32BE(0);
  const headersLength = message.readUInt32BE(4);
  if (crc32(message.subarray(0, 8)) !== message.readUInt32BE(8)) {
    throw new EventStreamError('prelude checksum mismatch');
  }
  if (crc32(message.subarray(0, total - 4)) !== message.readUInt32BE(total - 4)) {
    throw new EventStreamError('message checksum mismatch');
  }
  if (preludeLength + headersLength > total - 4) {
    throw new EventStreamError('headers longer than the message');
  }
  const headersEnd = preludeLength + headersLength;
  return {
    headers: readHeaders(message.subarray(preludeLength, headersEnd)),
    payload: Buffer.from(message.subarray(headersEnd, total - 4)),
  };
}

export class EventStreamDecoder {
  #pending: Buffer = Buffer.alloc(0);

  /** The messages completed by this chunk (throws on a corrupt stream). */
  push(chunk: Buffer): EventStreamMessage[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const messages: EventStreamMessage[] = [];
    while (this.#pending.length >= preludeLength) {
      const total = this.#pending.readUInt32BE(0);
      if (total < minimumMessageLength || total > maximumMessageLength) {
        throw new EventStreamError(`message length ${String(total)} out of range`);
      }
      if (crc32(this.#pending.subarray(0, 8)) !== this.#pending.readUInt32BE(8)) {
        throw new EventStreamError('prelude checksum mismatch');
      }
      if (this.#pending.length < total) break;
      messages.push(decodeMessage(this.#pending.subarray(0, total)));
      this.#pending = this.#pending.subarray(total);
    }
    return messages;
  }

  /** Throws when the stream stopped inside a message. */
  end(): void {
    if (this.#pending.length > 0) {
      throw new EventStreamError(
        `the stream ended inside a message (${String(this.#pending.length)} bytes left)`,
      );
    }
  }
}
