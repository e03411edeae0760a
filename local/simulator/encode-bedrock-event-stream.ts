/**
 * The simulator's AWS Bedrock stream encoding (no AWS code ships): each Anthropic SSE frame the
 * Messages answer writes (`event: <type>\ndata: <json>\n\n`) becomes one
 * `application/vnd.amazon.eventstream` message as Bedrock sends it: a `chunk` event whose payload
 * is `{"bytes": <base64 of the JSON>}`; the `message_stop` chunk carries
 * `amazon-bedrock-invocationMetrics` from the usage seen before; an `error` event becomes an
 * exception message. `ping` frames are left out. Message layout: total length, headers length,
 * prelude CRC32, string headers (type 7), payload, message CRC32.
 */
import { crc32 } from 'node:zlib';

function encodeHeaders(headers: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const valueBytes = Buffer.from(value, 'utf8');
    const head = Buffer.alloc(1 + nameBytes.length + 3);
    head.writeUInt8(nameBytes.length, 0);
    nameBytes.copy(head, 1);
    head.writeUInt8(7, 1 + nameBytes.length);
    head.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
    parts.push(head, valueBytes);
  }
  return Buffer.concat(parts);
}

export function encodeEventStreamMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const headerBytes = encodeHeaders(headers);
  const total = 12 + headerBytes.length + payload.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
  headerBytes.copy(message, 12);
  payload.copy(message, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}

const exceptionByErrorType: Record<string, string> = {
  overloaded_error: 'serviceUnavailableException',
  rate_limit_error: 'throttlingException',
  invalid_request_error: 'validationException',
};

interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** A per-stream encoder from SSE frames to event stream messages (null: nothing to send). */
export function createBedrockFrameEncoder(): (frame: string) => Buffer | null {
  const usage: Usage = {};
  return (frame) => {
    const data = /^data: (.*)$/m.exec(frame)?.[1];
    if (data === undefined) return null;
    const event = JSON.parse(data) as {
      type?: string;
      message?: { usage?: Usage };
      usage?: Usage;
      error?: { type?: string; message?: string };
    };
    if (event.type === 'ping') return null;
    if (event.type === 'error') {
      const exception = exceptionByErrorType[event.error?.type ?? ''] ?? 'internalServerException';
      return encodeEventStreamMessage(
        {
          ':exception-type': exception,
          ':content-type': 'application/json',
          ':message-type': 'exception',
        },
        Buffer.from(JSON.stringify({ message: event.error?.message ?? 'error' })),
      );
    }
    Object.assign(usage, event.message?.usage, event.usage);
    const json =
      event.type === 'message_stop'
        ? JSON.stringify({
            ...event,
            'amazon-bedrock-invocationMetrics': {
              inputTokenCount: usage.input_tokens ?? 0,
              outputTokenCount: usage.output_tokens ?? 0,
              invocationLatency: 1,
              firstByteLatency: 1,
              ...(usage.cache_read_input_tokens === undefined
                ? {}
                : { cacheReadInputTokenCount: usage.cache_read_input_tokens }),
              ...(usage.cache_creation_input_tokens === undefined
                ? {}
                : { cacheWriteInputTokenCount: usage.cache_creation_input_tokens }),
            },
          })
        : data;
    const payload = JSON.stringify({ bytes: Buffer.from(json).toString('base64'), p: 'abcdefg' });
    return encodeEventStreamMessage(
      { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' },
      Buffer.from(payload),
    );
  };
}
