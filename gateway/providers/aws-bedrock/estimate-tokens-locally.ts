/**
 * `count_tokens` where Bedrock's CountTokens is not available (a Region without the operation, or a
 * model it does not count for): the gateway answers with its local estimate instead of the error,
 * about four bytes of the request body per token, the rule the reservation uses
 * (gateway/billing/estimate-request-cost.ts). Pure.
 */
import type { ProviderErrorReply } from '../../spec/upstream-provider.js';

const BYTES_PER_TOKEN = 4;

function errorMessage(reply: ProviderErrorReply): string {
  try {
    const parsed = JSON.parse(reply.bytes.toString('utf8')) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : '';
  } catch {
    return '';
  }
}

/**
 * True when Bedrock's refusal says CountTokens cannot serve the call: the operation unknown where it
 * was sent (404, `UnknownOperationException`), or a `ValidationException` saying the model does not
 * support counting tokens. Any other error (credentials, throttling, a bad body) stands.
 */
export function countTokensUnavailable(reply: ProviderErrorReply): boolean {
  const type = reply.headers['x-amzn-errortype'] ?? '';
  if (reply.status === 404 || type.startsWith('UnknownOperationException')) return true;
  if (reply.status !== 400) return false;
  const message = errorMessage(reply);
  return (
    /count/i.test(message) && /(not support|n't support|unsupported|not available)/i.test(message)
  );
}

/** The Anthropic count_tokens reply with the local estimate of the request body's tokens. */
export function localTokenEstimate(body: Buffer): Buffer {
  const inputTokens = Math.max(1, Math.ceil(body.length / BYTES_PER_TOKEN));
  return Buffer.from(JSON.stringify({ input_tokens: inputTokens }));
}
