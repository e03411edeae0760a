/**
 * The wire parts of the fake AWS Bedrock (fake-bedrock.ts), done with the AWS SDK's own code:
 * SigV4 checked by signing the request again with `@smithy/signature-v4`, event stream messages
 * encoded with `@smithy/eventstream-codec`, and Bedrock's error replies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import hashNode from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

export interface FakeAwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const { Hash } = hashNode;

export function sendError(
  response: ServerResponse,
  error: { status: number; type: string; message: string },
): void {
  const { status, type, message } = error;
  response.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': 'fake-request-id',
  });
  response.end(JSON.stringify({ message }));
}

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Signs the request again with the AWS SDK's signer and compares the signatures. */
export async function verifySignature(
  request: IncomingMessage,
  body: Buffer,
  context: { region: string; known: Map<string, FakeAwsCredentials> },
): Promise<'ok' | 'unknown-key' | 'bad-signature'> {
  const authorization = request.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (match === null) return 'bad-signature';
  const [, keyId = '', , region, service, signedHeaders = '', signature] = match;
  const credentials = context.known.get(keyId);
  if (credentials === undefined) return 'unknown-key';
  if (region !== context.region || service !== 'bedrock') return 'bad-signature';
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) {
    const value = request.headers[name];
    headers[name] = Array.isArray(value) ? value.join(',') : (value ?? '');
  }
  const url = new URL(request.url ?? '/', 'http://fake');
  const signer = new SignatureV4({
    credentials,
    region: context.region,
    service: 'bedrock',
    sha256: Hash.bind(null, 'sha256'),
  });
  const iso = amzDate.replace(
    /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
    '$1-$2-$3T$4:$5:$6Z',
  );
  const signed = await signer.sign(
    new HttpRequest({
      method: request.method ?? 'POST',
      protocol: 'http:',
      hostname: 'fake',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
    }),
    { signingDate: new Date(iso) },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(signed.headers.authorization ?? '')?.[1];
  const sameHeaders = (/SignedHeaders=([^,]+)/.exec(signed.headers.authorization ?? '') ?? [])[1];
  return expected === signature && sameHeaders === signedHeaders ? 'ok' : 'bad-signature';
}

export function encodeChunk(event: Record<string, unknown>): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify({ bytes, p: 'abcdefghijklmnopqrstuvwxyzABCDEF'.slice(0, 7) })),
  });
}

export function encodeException(type: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/** Input tokens as the fake counts them: one per 4 bytes of the messages' JSON, at least 1. */
export function fakeInputTokens(body: Record<string, unknown>): number {
  const text = JSON.stringify(body.messages ?? []) + JSON.stringify(body.system ?? '');
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The betas Bedrock documents for Claude; any other is refused with `invalid beta flag`. */
const KNOWN_BETAS = new Set([
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'computer-use-2025-11-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'dev-full-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
  'fine-grained-tool-streaming-2025-05-14',
  'compact-2026-01-12',
]);

export function validateInvokeBody(
  body: Record<string, unknown>,
  counting: boolean,
): string | null {
  if (body.anthropic_version !== 'bedrock-2023-05-31') return 'anthropic_version is required';
  if ('model' in body) return 'extraneous key [model] is not permitted';
  if ('stream' in body) return 'extraneous key [stream] is not permitted';
  if (!Array.isArray(body.messages)) return 'messages: field required';
  if (body.messages.length === 0) return 'messages: at least one message is required';
  const betas: unknown[] = Array.isArray(body.anthropic_beta) ? body.anthropic_beta : [];
  if (betas.some((beta) => typeof beta !== 'string' || !KNOWN_BETAS.has(beta))) {
    return 'invalid beta flag';
  }
  if (!counting && typeof body.max_tokens !== 'number') return 'max_tokens: field required';
  return null;
}
