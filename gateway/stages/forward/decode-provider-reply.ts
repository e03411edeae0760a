/**
 * A cloud provider's success body turned into first-party bytes on its way to the reply stage: the
 * provider's `ReplyDecoder` in a transform stream, and the `content-type` header the reply plan
 * reads set to the decoder's (the length header dropped: the decoded body has its own). The source
 * body's error (undici's body timeout included) reaches the decoded body as it is, and a decoded
 * body destroyed (the client went away) destroys the source. Direct upstreams never get here.
 */
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ReplyDecoder } from '../../spec/upstream-provider.js';

function decodingStream(decoder: ReplyDecoder): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
      let decoded: Buffer;
      try {
        decoded = decoder.push(chunk);
      } catch (error) {
        done(error as Error);
        return;
      }
      done(null, decoded.length === 0 ? undefined : decoded);
    },
    flush(done: TransformCallback): void {
      let decoded: Buffer;
      try {
        decoded = decoder.end();
      } catch (error) {
        done(error as Error);
        return;
      }
      done(null, decoded.length === 0 ? undefined : decoded);
    },
  });
}

function ignoreError(): void {
  // pipeline reports the error on the decoded body, where the reply stage listens.
}

export function decodeProviderReply(
  response: Dispatcher.ResponseData,
  decoder: ReplyDecoder,
): Dispatcher.ResponseData {
  const decoded = decodingStream(decoder);
  pipeline(response.body, decoded, ignoreError);
  const headers: Dispatcher.ResponseData['headers'] = {};
  for (const name in response.headers) {
    if (name !== 'content-type' && name !== 'content-length')
      headers[name] = response.headers[name];
  }
  headers['content-type'] = decoder.contentType;
  return {
    ...response,
    headers,
    // The reply stage reads the body as a Readable only (data events, pause, destroy).
    body: decoded as unknown as Dispatcher.ResponseData['body'],
  };
}
