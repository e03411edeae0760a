/**
 * Bedrock CountTokens' reply `{"inputTokens": N}` as the Anthropic count_tokens reply
 * `{"input_tokens": N}` (pure). The reply is small: it is collected and converted at the end;
 * an unreadable one throws.
 */
const maxReplyBytes = 64 * 1024;

export function convertCountTokensReply(text: string): string | null {
  try {
    const body = JSON.parse(text) as { inputTokens?: unknown };
    if (typeof body.inputTokens !== 'number' || !Number.isInteger(body.inputTokens)) return null;
    return JSON.stringify({ input_tokens: body.inputTokens });
  } catch {
    return null;
  }
}

export class CountTokensReplyDecoder {
  readonly contentType = 'application/json';
  readonly #chunks: Buffer[] = [];
  #size = 0;

  push(chunk: Buffer): Buffer {
    this.#size += chunk.length;
    if (this.#size > maxReplyBytes)
      throw new Error('the AWS Bedrock CountTokens reply is too large');
    this.#chunks.push(chunk);
    return Buffer.alloc(0);
  }

  end(): Buffer {
    const converted = convertCountTokensReply(Buffer.concat(this.#chunks).toString('utf8'));
    if (converted === null) throw new Error('the AWS Bedrock CountTokens reply has no inputTokens');
    return Buffer.from(converted);
  }
}
