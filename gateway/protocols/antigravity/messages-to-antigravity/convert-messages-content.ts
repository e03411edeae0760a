import type { MessagesBlock, MessagesContent, MessagesMessage } from './messages-request-schema.js';
import type { GeminiContent, GeminiPart, MessagesTranslationRefusal } from './antigravity-types.js';

type PartsResult = { ok: true; parts: GeminiPart[] } | MessagesTranslationRefusal;

interface BlockContext {
  param: string;
  /** tool_use id -> tool name, filled as assistant turns are read (tool_result needs the name). */
  toolNames: Map<string, string>;
  /** Set when a thinking block had no signature and became plain text. */
  flags: { unsignedThinking: boolean };
}

export interface ConvertedConversation {
  contents: GeminiContent[];
  /** Texts of `role:"system"` messages found inside `messages` (folded into systemInstruction). */
  systemTexts: string[];
  unsignedThinking: boolean;
}

function refuse(param: string, message: string): MessagesTranslationRefusal {
  return { ok: false, param, message };
}

const textPart = (text: string | null | undefined): GeminiPart[] => (text ? [{ text }] : []);

function convertMedia(block: MessagesBlock, context: BlockContext): PartsResult {
  const source = block.source;
  if (source?.type === 'base64' && source.media_type && source.data != null)
    return {
      ok: true,
      parts: [{ inlineData: { mimeType: source.media_type, data: source.data } }],
    };
  if (source?.type === 'text') return { ok: true, parts: textPart(source.data) };
  return refuse(
    `${context.param}.source`,
    `${block.type} source type '${source?.type ?? 'missing'}' is not supported on this platform; send base64 data.`,
  );
}

function convertToolResult(block: MessagesBlock, context: BlockContext): PartsResult {
  const id = block.tool_use_id ?? '';
  const name = context.toolNames.get(id);
  if (name === undefined)
    return refuse(
      `${context.param}.tool_use_id`,
      `tool_result refers to unknown tool_use id '${id}'.`,
    );
  const content = block.content ?? '';
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const texts: string[] = [];
  const extra: GeminiPart[] = [];
  for (const [index, inner] of blocks.entries()) {
    if (inner.type === 'text') texts.push(inner.text ?? '');
    else if (inner.type === 'image' || inner.type === 'document') {
      const media = convertMedia(inner, {
        ...context,
        param: `${context.param}.content[${index}]`,
      });
      if (!media.ok) return media;
      extra.push(...media.parts);
    } else
      return refuse(
        `${context.param}.content[${index}].type`,
        `Unsupported tool_result block '${inner.type}'.`,
      );
  }
  const text = texts.join('\n');
  const response = block.is_error === true ? { error: text } : { result: text };
  return { ok: true, parts: [{ functionResponse: { name, response, id } }, ...extra] };
}

type BlockHandler = (block: MessagesBlock, context: BlockContext) => PartsResult;

/** Anthropic block type -> Gemini parts (wire-formats.md 5.4). */
const blockHandlers: Readonly<Record<string, BlockHandler>> = {
  text: (block) => ({ ok: true, parts: textPart(block.text) }),
  image: convertMedia,
  document: convertMedia,
  tool_use: (block, context) => {
    const id = block.id ?? '';
    const name = block.name ?? '';
    context.toolNames.set(id, name);
    return { ok: true, parts: [{ functionCall: { name, args: block.input ?? {}, id } }] };
  },
  tool_result: convertToolResult,
  thinking: (block, context) => {
    if (block.signature) {
      const part: GeminiPart = {
        text: block.thinking ?? '',
        thought: true,
        thoughtSignature: block.signature,
      };
      return { ok: true, parts: [part] };
    }
    context.flags.unsignedThinking = true;
    return { ok: true, parts: textPart(block.thinking) };
  },
  redacted_thinking: () => ({ ok: true, parts: [] }),
};

function convertContent(content: MessagesContent, context: BlockContext): PartsResult {
  if (typeof content === 'string') return { ok: true, parts: textPart(content) };
  const parts: GeminiPart[] = [];
  for (const [index, block] of content.entries()) {
    const param = `${context.param}.content[${index}]`;
    const handler = blockHandlers[block.type];
    if (!handler)
      return refuse(
        `${param}.type`,
        `Content block type '${block.type}' is not supported on this platform.`,
      );
    const converted = handler(block, { ...context, param });
    if (!converted.ok) return converted;
    parts.push(...converted.parts);
  }
  return { ok: true, parts };
}

/** The text of a system prompt given as a string or text blocks. */
export function joinSystemText(content: MessagesContent): string[] {
  if (typeof content === 'string') return content === '' ? [] : [content];
  return content.flatMap((block) => (block.type === 'text' && block.text ? [block.text] : []));
}

const contentRoles: Readonly<Record<string, GeminiContent['role']>> = {
  user: 'user',
  assistant: 'model',
};

/**
 * Messages -> Gemini contents. `system` messages are folded out (see docs/translation.md), turns
 * with no parts are dropped and consecutive turns of one role are merged.
 */
export function convertMessagesContent(
  messages: readonly MessagesMessage[],
): { ok: true; conversation: ConvertedConversation } | MessagesTranslationRefusal {
  const conversation: ConvertedConversation = {
    contents: [],
    systemTexts: [],
    unsignedThinking: false,
  };
  const context: BlockContext = {
    param: '',
    toolNames: new Map(),
    flags: { unsignedThinking: false },
  };
  for (const [index, message] of messages.entries()) {
    if (message.role === 'system') {
      conversation.systemTexts.push(...joinSystemText(message.content));
      continue;
    }
    const role = contentRoles[message.role];
    if (!role) return refuse(`messages[${index}].role`, `Unknown message role '${message.role}'.`);
    const converted = convertContent(message.content, { ...context, param: `messages[${index}]` });
    if (!converted.ok) return converted;
    if (converted.parts.length === 0) continue;
    const previous = conversation.contents.at(-1);
    if (previous?.role === role) previous.parts.push(...converted.parts);
    else conversation.contents.push({ role, parts: converted.parts });
  }
  conversation.unsignedThinking = context.flags.unsignedThinking;
  return { ok: true, conversation };
}
