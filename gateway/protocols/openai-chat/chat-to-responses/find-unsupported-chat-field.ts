import type { ChatRequest } from './chat-request-schema.js';
import type { ChatTranslationRefusal } from './responses-request-types.js';

interface UnsupportedField {
  param: string;
  isUsed: (request: ChatRequest) => boolean;
  message: string;
}

/**
 * Chat Completions fields that the Responses API cannot honour, refused rather than silently
 * dropped because dropping them would change the answer the client asked for.
 * (`seed`, `presence_penalty` and `frequency_penalty` are dropped instead: see docs/translation.md.)
 */
const unsupportedFields: readonly UnsupportedField[] = [
  {
    param: 'n',
    isUsed: (r) => (r.n ?? 1) > 1,
    message: 'n > 1 is not supported: the Responses API produces exactly one choice.',
  },
  {
    param: 'stop',
    isUsed: (r) => (typeof r.stop === 'string' ? r.stop !== '' : (r.stop ?? []).length > 0),
    message:
      'stop is not supported: the Responses API has no stop sequences. Remove stop, or stop reading the stream yourself.',
  },
  {
    param: 'logit_bias',
    isUsed: (r) => Object.keys(r.logit_bias ?? {}).length > 0,
    message: 'logit_bias is not supported by the Responses API.',
  },
  {
    param: 'audio',
    isUsed: (r) => r.audio !== undefined && r.audio !== null,
    message: 'audio output is not supported by this gateway for chat completions.',
  },
  {
    param: 'modalities',
    isUsed: (r) => (r.modalities ?? []).some((modality) => modality !== 'text'),
    message: 'Only the text modality is supported.',
  },
  {
    param: 'prediction',
    isUsed: (r) => r.prediction !== undefined && r.prediction !== null,
    message: 'prediction (predicted outputs) is not supported by the Responses API.',
  },
];

/** The first unsupported field the request uses, or undefined. */
export function findUnsupportedChatField(request: ChatRequest): ChatTranslationRefusal | undefined {
  const field = unsupportedFields.find((candidate) => candidate.isUsed(request));
  return field && { ok: false, param: field.param, message: field.message };
}
