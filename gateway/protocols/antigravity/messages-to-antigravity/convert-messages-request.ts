import { describeParseFailure } from '../../../spec/describe-parse-failure.js';
import { definedEntry } from '../../../spec/pick-defined.js';
import { convertMessagesContent, joinSystemText } from './convert-messages-content.js';
import { convertMessagesTools } from './convert-messages-tools.js';
import { messagesRequestSchema, type MessagesRequest } from './messages-request-schema.js';
import { readMessagesOutputCap } from '../../anthropic-messages/read-messages-output-cap.js';
import type {
  GenerationConfig,
  MessagesTranslationRefusal,
  AntigravityEnvelope,
} from './antigravity-types.js';

export type MessagesRequestConversion =
  | { ok: true; envelope: AntigravityEnvelope; stream: boolean; model: string }
  | MessagesTranslationRefusal;

export interface EnvelopeOptions {
  /** The Upstream's Antigravity project id. */
  projectId: string;
  /** Caller-generated, e.g. `agent-<uuid>`. */
  requestId: string;
}

/**
 * Anthropic `thinking` -> `thinkingConfig`. The budget is lowered below `max_tokens` when needed
 * (the client's cap is kept), and thinking is turned off when history holds unsigned thinking.
 */
function convertThinking(
  request: MessagesRequest,
  unsignedThinking: boolean,
): GenerationConfig['thinkingConfig'] {
  const thinking = request.thinking;
  if (!thinking || unsignedThinking) return undefined;
  switch (thinking.type) {
    case 'enabled': {
      const budget = Math.min(
        thinking.budget_tokens ?? request.max_tokens - 1,
        request.max_tokens - 1,
      );
      return budget < 1 ? undefined : { includeThoughts: true, thinkingBudget: budget };
    }
    case 'adaptive':
      return { includeThoughts: true };
    default:
      return undefined;
  }
}

/** Anthropic Messages request body (parsed JSON) -> Antigravity envelope (wire-formats.md 5.4). */
export function convertMessagesRequest(
  body: unknown,
  options: EnvelopeOptions,
): MessagesRequestConversion {
  const parsed = messagesRequestSchema.safeParse(body);
  if (!parsed.success) return describeParseFailure(parsed.error);
  const request = parsed.data;
  const converted = convertMessagesContent(request.messages);
  if (!converted.ok) return converted;
  const tools = convertMessagesTools(request);
  if (!tools.ok) return tools;
  const { contents, systemTexts, unsignedThinking } = converted.conversation;
  const system = [
    ...(request.system == null ? [] : joinSystemText(request.system)),
    ...systemTexts,
  ];

  const generationConfig: GenerationConfig = {
    // The schema guarantees a positive integer, so this is `max_tokens` itself.
    maxOutputTokens: readMessagesOutputCap(request) ?? request.max_tokens,
    ...definedEntry('temperature', request.temperature),
    ...definedEntry('topP', request.top_p),
    ...definedEntry('topK', request.top_k),
    ...definedEntry(
      'stopSequences',
      request.stop_sequences?.length ? request.stop_sequences : undefined,
    ),
    ...definedEntry('thinkingConfig', convertThinking(request, unsignedThinking)),
  };
  const envelope: AntigravityEnvelope = {
    project: options.projectId,
    requestId: options.requestId,
    userAgent: 'antigravity',
    requestType: 'agent',
    model: request.model,
    request: {
      contents,
      ...definedEntry(
        'systemInstruction',
        system.length === 0
          ? undefined
          : { role: 'user' as const, parts: system.map((text) => ({ text })) },
      ),
      generationConfig,
      ...definedEntry('tools', tools.tools),
      ...definedEntry('toolConfig', tools.toolConfig),
      ...definedEntry('sessionId', request.metadata?.user_id),
    },
  };
  return { ok: true, envelope, stream: request.stream === true, model: request.model };
}
