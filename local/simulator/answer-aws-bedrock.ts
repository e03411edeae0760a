/**
 * AWS Bedrock on the simulator: `POST /model/<model id>/invoke`, `/invoke-with-response-stream`
 * and `/count-tokens`, answered with the Anthropic Messages answer of the simulator (the model
 * named after the id), streams as `application/vnd.amazon.eventstream` (encode-bedrock-event-stream.ts)
 * and counts as `{inputTokens}`. Any SigV4-signed request is accepted (the signature is not
 * checked: no AWS account is needed); errors take Bedrock's shape, `{message}` with the exception
 * in `x-amzn-errortype`.
 */
import { answerAnthropicMessages } from './answer-anthropic-messages.js';
import { computeFakeAnswer } from './compute-fake-answer.js';
import { createBedrockFrameEncoder } from './encode-bedrock-event-stream.js';
import { bodyFields, type FakeCall } from './fake-call.js';
import type { FakeRoute } from './fake-route.js';
import { sendJson } from './write-fake-response.js';

const BEDROCK_METHOD = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|count-tokens)$/;

const exceptions: Record<number, string> = {
  400: 'ValidationException',
  403: 'UnrecognizedClientException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
  529: 'ServiceUnavailableException',
};

/** Bedrock's status for a simulated one (it has no 529) and its `x-amzn-errortype` header. */
export function bedrockError(status: number): { status: number; headers: Record<string, string> } {
  const exception = exceptions[status] ?? 'InternalServerException';
  return {
    status: status === 529 ? 503 : status,
    headers: {
      'x-amzn-errortype': `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    },
  };
}

/**
 * Answers a Bedrock error when the call is not SigV4-signed (any signature is accepted) or the
 * behaviour asks for an error status; true when it did.
 */
export async function refuseBedrockCall(call: FakeCall): Promise<boolean> {
  const authorization = call.request.headers.authorization;
  const signed = authorization?.startsWith('AWS4-HMAC-SHA256 Credential=') === true;
  const wanted = signed ? call.behaviour.status : 403;
  if (wanted === undefined) return false;
  const { status, headers } = bedrockError(wanted);
  const message = signed
    ? `simulated AWS Bedrock error ${String(status)}`
    : 'Missing Authentication Token';
  await sendJson(call.write, { status, body: { message }, headers });
  return true;
}

/** `us.anthropic.claude-sonnet-4-5-20250929-v1:0` -> `claude-sonnet-4-5-20250929`. */
function modelOf(modelId: string): string {
  const last = modelId.split('/').pop() ?? modelId;
  return last.replace(/^([a-z-]+\.)?anthropic\./, '').replace(/-v\d+(:\d+)?$/, '');
}

function withBody(call: FakeCall, body: Record<string, unknown>): FakeCall {
  return { ...call, request: { ...call.request, body } };
}

async function answerCountTokens(call: FakeCall, model: string): Promise<void> {
  const input = bodyFields(call).input as { invokeModel?: { body?: unknown } } | undefined;
  const encoded = input?.invokeModel?.body;
  const bytes = typeof encoded === 'string' ? Buffer.from(encoded, 'base64').length : 0;
  const answer = computeFakeAnswer({ model, bodyBytes: bytes, behaviour: call.behaviour });
  await sendJson(call.write, { status: 200, body: { inputTokens: answer.inputTotal } });
}

export function routeBedrockRequest(path: string): FakeRoute | null {
  const match = BEDROCK_METHOD.exec(path);
  if (match === null) return null;
  const model = modelOf(decodeURIComponent(match[1] ?? ''));
  const operation = match[2];
  if (operation === 'count-tokens') {
    return { platform: 'bedrock', answer: (call) => answerCountTokens(call, model) };
  }
  const stream = operation === 'invoke-with-response-stream';
  return {
    platform: 'bedrock',
    answer: (call) => {
      const body = { ...bodyFields(call), model, stream };
      const encoder = createBedrockFrameEncoder();
      const write = stream
        ? {
            ...call.write,
            frames: { contentType: 'application/vnd.amazon.eventstream', encode: encoder },
          }
        : call.write;
      return answerAnthropicMessages({ ...withBody(call, body), write });
    },
  };
}
