/**
 * The attributes of the gateway's spans (pure): the OpenTelemetry GenAI semantic conventions
 * (`gen_ai.*`), the HTTP and server ones, and Tollgate's own (`tollgate.*`). Built only when
 * tracing is on, once per span end; docs/observability.md lists them span by span.
 */
import type { Attributes } from '@opentelemetry/api';
import type { Platform } from '../../crds/schema/resources.js';
import type { UsageBuckets } from '../../store/usage-buckets.js';
import type { ProviderKind } from '../spec/resolved-upstream.js';

/** `gen_ai.provider.name` and the older `gen_ai.system` of one upstream. */
export interface GenAiProvider {
  name: string;
  system: string;
}

const DIRECT_PROVIDERS: Record<Platform, GenAiProvider> = {
  Anthropic: { name: 'anthropic', system: 'anthropic' },
  OpenAI: { name: 'openai', system: 'openai' },
  Gemini: { name: 'gcp.gemini', system: 'gcp.gemini' },
  Antigravity: { name: 'gcp.gen_ai', system: 'gcp.gen_ai' },
};

const CLOUD_PROVIDERS: Record<Exclude<ProviderKind, 'Direct'>, GenAiProvider> = {
  AWSBedrock: { name: 'aws.bedrock', system: 'aws.bedrock' },
  GCPVertexAI: { name: 'gcp.vertex_ai', system: 'gcp.vertex_ai' },
  AzureOpenAI: { name: 'azure.ai.openai', system: 'az.ai.openai' },
};

/** Who serves a call: the platform's first-party API, or the cloud provider in front of it. */
export function genAiProvider(platform: Platform, kind: ProviderKind): GenAiProvider {
  return kind === 'Direct' ? DIRECT_PROVIDERS[platform] : CLOUD_PROVIDERS[kind];
}

/**
 * `gen_ai.operation.name` of a forwarded path: `generate_content` for Gemini's methods, `chat` for
 * Messages, Chat Completions and Responses; token counting is not a GenAI operation of the
 * conventions and is named `count_tokens`.
 */
export function operationName(path: string): string {
  if (path.endsWith('/count_tokens') || path.endsWith(':countTokens')) return 'count_tokens';
  if (path.includes(':generateContent') || path.includes(':streamGenerateContent')) {
    return 'generate_content';
  }
  if (path.endsWith('/embeddings') || path.includes(':embedContent')) return 'embeddings';
  return 'chat';
}

/** The request's `max_tokens` (or the Gemini, Responses and Chat spellings), if it names one. */
export function requestMaxTokens(json: unknown): number | null {
  if (typeof json !== 'object' || json === null) return null;
  const body = json as Record<string, unknown>;
  const config: unknown = body.generationConfig;
  const value =
    body.max_tokens ??
    body.max_output_tokens ??
    body.max_completion_tokens ??
    (typeof config === 'object' && config !== null
      ? (config as Record<string, unknown>).maxOutputTokens
      : undefined);
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** `server.address` and `server.port` of an origin (`https://host[:port]`). */
export function serverAttributes(origin: string): Attributes {
  try {
    const url = new URL(origin);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    return { 'server.address': url.hostname, 'server.port': port };
  } catch {
    return {};
  }
}

/** The call's usage and cost, as billed. */
export interface CallBill {
  usage: UsageBuckets;
  costNano: number;
  /** The model the upstream reported; null when it named none. */
  responseModel: string | null;
  /** Why generation stopped, in the upstream's words; empty when the reply named no reason. */
  finishReasons: readonly string[];
}

/**
 * The GenAI usage attributes, the response model and finish reasons, and the cost (input includes
 * cache reads and writes).
 */
export function usageAttributes(bill: CallBill): Attributes {
  const { usage } = bill;
  const cacheCreation = usage.cacheWrite5m + usage.cacheWrite1h;
  const attributes: Attributes = {
    'gen_ai.usage.input_tokens': usage.inputUncached + usage.cacheRead + cacheCreation,
    'gen_ai.usage.output_tokens': usage.output,
    'gen_ai.usage.cache_read.input_tokens': usage.cacheRead,
    'gen_ai.usage.cache_creation.input_tokens': cacheCreation,
    'tollgate.usage.reasoning_tokens': usage.reasoning,
    'tollgate.cost_usd': bill.costNano / 1e9,
  };
  if (bill.responseModel !== null) attributes['gen_ai.response.model'] = bill.responseModel;
  if (bill.finishReasons.length > 0) {
    attributes['gen_ai.response.finish_reasons'] = [...bill.finishReasons];
  }
  return attributes;
}
