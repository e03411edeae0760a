/**
 * The preParsing stage: what a request body may be before it is read. On Tollgate routes a body
 * with a content-type must be JSON (415 otherwise); a `content-encoding` of gzip, deflate or br is
 * decoded with the body limit applied to the decoded size (a zip bomb stops at the limit), others
 * are refused with 415; and a body that goes silent for the idle timeout is answered 408.
 *
 * A body without a content-encoding (nearly every call) is read by fastify from the request
 * itself, which applies the body limit and the content-length check: no stream in between, and
 * one timer for every such body that watches their sockets' bytes (watch-body-silence.ts).
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { GatewayError } from '../../errors/gateway-error.js';
import '../request/route-config.js';
import { BodySilenceWatch } from './watch-body-silence.js';

type Headers = Record<string, string | string[] | undefined>;

const decoders: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/** Pure: true when the request carries a body (a length above zero, or chunked). */
export function hasBody(headers: Headers): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = Number(single(headers['content-length']) ?? '0');
  return Number.isFinite(length) && length > 0;
}

/** Pure: true for `application/json`, `application/*+json`, or no content-type at all. */
export function isJsonMediaType(header: string | undefined): boolean {
  if (header === undefined || header === 'application/json') return true;
  const type = (header.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/** Pure: the decoding steps for a `content-encoding` header, in the order to apply them. */
export function decodingSteps(header: string | undefined): string[] | GatewayError {
  if (header === undefined) return [];
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const unknown = codings.find((coding) => decoders[coding] === undefined);
  if (unknown !== undefined) {
    return new GatewayError('TG_UNSUPPORTED_MEDIA_TYPE', {
      detail: `(content-encoding ${unknown} is not supported)`,
    });
  }
  return codings.reverse();
}

function idleError(): GatewayError {
  return new GatewayError('TG_REQUEST_TIMEOUT', { detail: '(the body went silent)' });
}

/** Counts decoded bytes against the limit and cuts the body after `idleMs` of silence. */
class BoundedBody extends Transform {
  receivedEncodedLength = 0;
  private decodedLength = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly bounds: { limitBytes: number; idleMs: number }) {
    super();
    this.touch();
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.destroy(idleError());
    }, this.bounds.idleMs);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.touch();
    this.decodedLength += chunk.length;
    if (this.decodedLength > this.bounds.limitBytes) {
      done(new GatewayError('TG_BODY_TOO_LARGE'));
      return;
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    clearTimeout(this.timer);
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    done(error);
  }
}

function decodeError(coding: string, cause: unknown): GatewayError {
  return new GatewayError('TG_BAD_REQUEST', {
    message: `The request body could not be decoded as ${coding}. Send it uncompressed or re-encode it.`,
    cause,
  });
}

/** Wires the raw request through the decoders into the bounded body; never destroys `raw`. */
function boundBody(raw: Readable, steps: string[], bounds: { limitBytes: number; idleMs: number }) {
  const output = new BoundedBody(bounds);
  // Fastify stops listening once it has refused the body; a later error has nobody to tell.
  output.on('error', () => undefined);
  const stages = steps.map((coding) => ({ coding, stream: (decoders[coding] ?? createGunzip)() }));
  let source: Readable = raw;
  for (const stage of stages) {
    source.pipe(stage.stream);
    stage.stream.once('error', (error) => output.destroy(decodeError(stage.coding, error)));
    source = stage.stream;
  }
  source.pipe(output);
  const onData = (chunk: Buffer) => {
    output.receivedEncodedLength += chunk.length;
    output.touch();
  };
  const onClose = () => {
    if (!(raw as Readable & { complete?: boolean }).complete) {
      output.destroy(new GatewayError('TG_CLIENT_CLOSED'));
    }
  };
  raw.on('data', onData);
  raw.once('close', onClose);
  output.once('close', () => {
    raw.off('data', onData);
    raw.off('close', onClose);
    raw.unpipe();
    for (const stage of stages) stage.stream.destroy();
  });
  return output;
}

export interface BodyReader {
  /** The preParsing hook. */
  preParsing: preParsingHookHandler;
  /**
   * The request's body needs no watching any more: fastify read it whole (its content parser
   * runs), or the request ended first.
   */
  stopWatching: (request: FastifyRequest) => void;
}

export function createBodyReader(bounds: {
  limitBytes: number;
  idleTimeoutMs: number;
}): BodyReader {
  const silence = new BodySilenceWatch(bounds.idleTimeoutMs, idleError);
  // Fastify's callback form (its four parameters): no promise per call, the body read at once.
  // eslint-disable-next-line max-params
  const preParsing = function readRequestBody(
    request: FastifyRequest,
    _reply: FastifyReply,
    payload: Readable,
    done: (error: Error | null, payload?: Readable) => void,
  ): void {
    if (!hasBody(request.headers)) {
      done(null, payload);
      return;
    }
    if (request.routeOptions.config.profile !== undefined) {
      if (!isJsonMediaType(single(request.headers['content-type']))) {
        done(new GatewayError('TG_UNSUPPORTED_MEDIA_TYPE'));
        return;
      }
    }
    const steps = decodingSteps(single(request.headers['content-encoding']));
    if (steps instanceof GatewayError) {
      done(steps);
      return;
    }
    if (steps.length === 0 && payload === request.raw) {
      silence.watch(request.raw);
      done(null, payload);
      return;
    }
    done(
      null,
      boundBody(payload, steps, { limitBytes: bounds.limitBytes, idleMs: bounds.idleTimeoutMs }),
    );
  };
  return {
    preParsing,
    stopWatching: (request) => {
      silence.release(request.raw);
    },
  };
}
