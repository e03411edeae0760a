/**
 * A fake AWS Bedrock runtime for tests: a real HTTP server that checks each request's SigV4
 * signature with the AWS SDK's own signer from the same credentials (fake-bedrock-wire.ts),
 * refusing a bad one with Bedrock's 403 reply, and answers InvokeModel with the Anthropic Messages
 * JSON, InvokeModelWithResponseStream with `application/vnd.amazon.eventstream` frames encoded by
 * `@smithy/eventstream-codec` (each `chunk` a base64 Anthropic stream event, the last one with
 * `amazon-bedrock-invocationMetrics`), and CountTokens with `{inputTokens}`. It can throttle the
 * next requests (ThrottlingException) or break a stream with an exception frame.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  encodeChunk,
  encodeException,
  fakeInputTokens,
  readBody,
  sendError,
  validateInvokeBody,
  verifySignature,
  type FakeAwsCredentials,
} from './fake-bedrock-wire.js';

export type { FakeAwsCredentials } from './fake-bedrock-wire.js';

export interface FakeBedrockRequest {
  operation: 'invoke' | 'invoke-stream' | 'count-tokens';
  modelId: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface FakeBedrockOptions {
  region: string;
  /** Credentials whose signatures are accepted (more can be added with `accept`). */
  credentials: FakeAwsCredentials[];
  /** The answer's text. Default 'Hello from Bedrock.' */
  text?: string;
  /** Streams: leave usage out of message_delta (only the invocation metrics report it). */
  omitStreamUsage?: boolean;
}

export interface FakeBedrock {
  url: string;
  requests: FakeBedrockRequest[];
  /** Requests refused for their signature or credentials so far. */
  refusals: number;
  accept(credentials: FakeAwsCredentials): void;
  /** The next `count` requests are answered 429 ThrottlingException. */
  throttle(count: number): void;
  /** The next stream sends an exception frame of this type after its first text delta. */
  breakNextStream(exceptionType: string): void;
  /** Answers CountTokens as a model that cannot count does (400 ValidationException), or not. */
  refuseCountTokens(refused: boolean): void;
  close(): Promise<void>;
}

const operations: Record<string, FakeBedrockRequest['operation']> = {
  invoke: 'invoke',
  'invoke-with-response-stream': 'invoke-stream',
  'count-tokens': 'count-tokens',
};

/** `anthropic.claude-x-v1:0` or `us.anthropic.claude-x-v1:0` -> `claude-x` as the reply names it. */
function replyModel(modelId: string): string {
  const last = modelId.split('/').pop() ?? modelId;
  return last.replace(/^([a-z-]+\.)?anthropic\./, '').replace(/-v\d+(:\d+)?$/, '');
}

function message(modelId: string, text: string, inputTokens: number) {
  return {
    id: `msg_bdrk_${Math.random().toString(36).slice(2, 12)}`,
    type: 'message',
    role: 'assistant',
    model: replyModel(modelId),
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: text.split(' ').length },
  };
}

export async function startFakeBedrock(options: FakeBedrockOptions): Promise<FakeBedrock> {
  const known = new Map(options.credentials.map((c) => [c.accessKeyId, c]));
  const text = options.text ?? 'Hello from Bedrock.';
  let throttled = 0;
  let breakWith: string | null = null;
  let countTokensRefused = false;
  const state = { requests: [] as FakeBedrockRequest[], refusals: 0 };

  function stream(response: ServerResponse, request: FakeBedrockRequest, inputTokens: number) {
    const reply = message(request.modelId, text, inputTokens);
    const outputTokens = reply.usage.output_tokens;
    response.writeHead(200, {
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amzn-bedrock-content-type': 'application/json',
    });
    const start = {
      ...reply,
      content: [],
      stop_reason: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    };
    const events: Record<string, unknown>[] = [
      { type: 'message_start', message: start },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      ...text.split(/(?<= )/).map((piece) => ({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: piece },
      })),
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        ...(options.omitStreamUsage === true ? {} : { usage: { output_tokens: outputTokens } }),
      },
      {
        type: 'message_stop',
        'amazon-bedrock-invocationMetrics': {
          inputTokenCount: inputTokens,
          outputTokenCount: outputTokens,
          invocationLatency: 120,
          firstByteLatency: 40,
        },
      },
    ];
    const exception = breakWith;
    breakWith = null;
    for (const [index, event] of events.entries()) {
      if (exception !== null && index === 3) {
        response.end(
          encodeException(exception, 'Too many tokens, please wait before trying again.'),
        );
        return;
      }
      response.write(encodeChunk(event));
    }
    response.end();
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const body = await readBody(request);
    const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|count-tokens)$/.exec(
      new URL(request.url ?? '/', 'http://fake').pathname,
    );
    const operation = operations[match?.[2] ?? ''];
    if (request.method !== 'POST' || match === null || operation === undefined) {
      sendError(response, { status: 404, type: 'UnknownOperationException', message: 'Not found' });
      return;
    }
    const verdict = await verifySignature(request, body, { region: options.region, known });
    if (verdict !== 'ok') {
      state.refusals += 1;
      sendError(
        response,
        verdict === 'unknown-key'
          ? {
              status: 403,
              type: 'UnrecognizedClientException',
              message: 'The security token included in the request is invalid.',
            }
          : {
              status: 403,
              type: 'InvalidSignatureException',
              message:
                'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
            },
      );
      return;
    }
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      sendError(response, {
        status: 400,
        type: 'ValidationException',
        message: 'Malformed input request, please reformat your input and try again.',
      });
      return;
    }
    const modelId = decodeURIComponent(match[1] ?? '');
    const recorded: FakeBedrockRequest = {
      operation,
      modelId,
      headers: request.headers,
      body: json,
    };
    state.requests.push(recorded);
    if (throttled > 0) {
      throttled -= 1;
      sendError(response, {
        status: 429,
        type: 'ThrottlingException',
        message: 'Too many requests, please wait before trying again.',
      });
      return;
    }
    const wrapped = (json.input as { invokeModel?: { body?: unknown } } | undefined)?.invokeModel;
    const encoded = typeof wrapped?.body === 'string' ? wrapped.body : '';
    const invokeBody =
      operation === 'count-tokens'
        ? (JSON.parse(Buffer.from(encoded, 'base64').toString('utf8') || '{}') as Record<
            string,
            unknown
          >)
        : json;
    const invalid = validateInvokeBody(invokeBody, operation === 'count-tokens');
    if (invalid !== null) {
      sendError(response, { status: 400, type: 'ValidationException', message: invalid });
      return;
    }
    const inputTokens = fakeInputTokens(invokeBody);
    if (operation === 'count-tokens' && countTokensRefused) {
      sendError(response, {
        status: 400,
        type: 'ValidationException',
        message: "The provided model doesn't support counting tokens.",
      });
      return;
    }
    if (operation === 'count-tokens') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ inputTokens }));
    } else if (operation === 'invoke') {
      const reply = message(modelId, text, inputTokens);
      response.writeHead(200, {
        'content-type': 'application/json',
        'x-amzn-bedrock-input-token-count': String(inputTokens),
        'x-amzn-bedrock-output-token-count': String(reply.usage.output_tokens),
      });
      response.end(JSON.stringify(reply));
    } else {
      stream(response, recorded, inputTokens);
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests: state.requests,
    get refusals() {
      return state.refusals;
    },
    accept(credentials) {
      known.set(credentials.accessKeyId, credentials);
    },
    throttle(count) {
      throttled = count;
    },
    breakNextStream(exceptionType) {
      breakWith = exceptionType;
    },
    refuseCountTokens(refused) {
      countTokensRefused = refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
