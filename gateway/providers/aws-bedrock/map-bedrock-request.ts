/**
 * The Anthropic Messages call as Bedrock wants it (pure): the path of InvokeModel,
 * InvokeModelWithResponseStream or CountTokens on `/model/<model id>/...` (the id URI-encoded, so
 * an inference profile ARN stays one segment), and the body: `anthropic_version:
 * bedrock-2023-05-31`, no `model` or `stream`, the `anthropic-beta` header's values Bedrock takes
 * as `anthropic_beta` (map-bedrock-betas.ts). CountTokens wraps that body as `{input: {invokeModel: {body: <base64>}}}` and
 * counts with the foundation model (an inference profile's geography prefix removed).
 */
import { mapBedrockBetas } from './map-bedrock-betas.js';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

export type BedrockOperation = 'invoke' | 'invoke-stream' | 'count-tokens';

export interface BedrockRequest {
  operation: BedrockOperation;
  path: string;
  body: Buffer;
  accept: string;
}

export type BedrockRequestResult =
  { ok: true; request: BedrockRequest } | { ok: false; detail: string };

/** Geography prefixes of cross-region inference profile ids (`us.anthropic.claude-...`). */
const profilePrefix = /^(us|eu|apac|us-gov|ca|jp|au|global)\.(?=[a-z0-9-]+\.)/;

/** The foundation model id CountTokens accepts for a model or inference profile id. */
export function foundationModelOf(modelId: string): string {
  return modelId.replace(profilePrefix, '');
}

/** `anthropic-beta: a, b` -> ['a', 'b'] (also several header lines folded with commas). */
export function readBetas(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/** The Bedrock body (JSON text) from the first-party one; null when it is not a JSON object. */
export function mapBedrockBody(body: Buffer, betas: readonly string[]): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const rest: Record<string, unknown> = { ...(parsed as Record<string, unknown>) };
  delete rest.model;
  delete rest.stream;
  const mapped: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest };
  const given = Array.isArray(rest.anthropic_beta) ? (rest.anthropic_beta as unknown[]) : [];
  const bedrockBetas = mapBedrockBetas([...given.map(String), ...betas]);
  if (bedrockBetas.length > 0) mapped.anthropic_beta = bedrockBetas;
  else delete mapped.anthropic_beta;
  return JSON.stringify(mapped);
}

export interface MapBedrockRequestInput {
  /** The first-party path, e.g. `/v1/messages` or `/v1/messages/count_tokens`. */
  path: string;
  body: Buffer;
  stream: boolean;
  model: string | null;
  betaHeader: string | undefined;
}

export function mapBedrockRequest(input: MapBedrockRequestInput): BedrockRequestResult {
  const pathOnly = input.path.split('?')[0] ?? '';
  const counting = pathOnly.endsWith('/messages/count_tokens');
  if (!counting && !pathOnly.endsWith('/messages')) {
    return { ok: false, detail: `(AWS Bedrock serves /v1/messages only, not ${pathOnly})` };
  }
  if (input.model === null || input.model === '') {
    return { ok: false, detail: '(the request names no model for AWS Bedrock)' };
  }
  const mapped = mapBedrockBody(input.body, readBetas(input.betaHeader));
  if (mapped === null) return { ok: false, detail: '(the request body is not a JSON object)' };
  if (counting) {
    const invokeBody = JSON.parse(mapped) as Record<string, unknown>;
    // CountTokens checks the body as InvokeModel would, which requires max_tokens.
    invokeBody.max_tokens ??= 1;
    const wrapped = {
      input: {
        invokeModel: { body: Buffer.from(JSON.stringify(invokeBody)).toString('base64') },
      },
    };
    return {
      ok: true,
      request: {
        operation: 'count-tokens',
        path: `/model/${encodeURIComponent(foundationModelOf(input.model))}/count-tokens`,
        body: Buffer.from(JSON.stringify(wrapped)),
        accept: 'application/json',
      },
    };
  }
  const model = encodeURIComponent(input.model);
  return {
    ok: true,
    request: input.stream
      ? {
          operation: 'invoke-stream',
          path: `/model/${model}/invoke-with-response-stream`,
          body: Buffer.from(mapped),
          accept: 'application/vnd.amazon.eventstream',
        }
      : {
          operation: 'invoke',
          path: `/model/${model}/invoke`,
          body: Buffer.from(mapped),
          accept: 'application/json',
        },
  };
}
