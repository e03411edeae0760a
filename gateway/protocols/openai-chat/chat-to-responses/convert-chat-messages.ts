import type { ChatContentPart, ChatMessage } from './chat-request-schema.js';
import type {
  ChatTranslationRefusal,
  ResponsesInputItem,
  ResponsesInputPart,
} from './responses-request-types.js';

type Converted = { ok: true; items: ResponsesInputItem[] } | ChatTranslationRefusal;
type PartResult = { ok: true; part: ResponsesInputPart } | ChatTranslationRefusal;

/** Pairs legacy `function_call` turns with the `function` results that follow them. */
interface LegacyCallIds {
  next: number;
  pendingByName: Map<string, string[]>;
}

function refuse(param: string, message: string): ChatTranslationRefusal {
  return { ok: false, param, message };
}

function convertUserPart(part: ChatContentPart, param: string): PartResult {
  if (part.type === 'text' && part.text != null)
    return { ok: true, part: { type: 'input_text', text: part.text } };
  if (part.type === 'image_url' && part.image_url) {
    const { url, detail } = part.image_url;
    return { ok: true, part: { type: 'input_image', image_url: url, detail: detail ?? 'auto' } };
  }
  if (part.type === 'file' && part.file) {
    const { file_id, file_data, filename } = part.file;
    return {
      ok: true,
      part: {
        type: 'input_file',
        ...(file_id == null ? {} : { file_id }),
        ...(file_data == null ? {} : { file_data }),
        ...(filename == null ? {} : { filename }),
      },
    };
  }
  return refuse(
    param,
    `Content part type '${part.type}' cannot be translated to the Responses API.`,
  );
}

/** Text of a string or of text (and refusal) parts, joined with newlines. */
function joinText(content: ChatMessage['content']): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => part.text ?? part.refusal ?? '')
    .filter((text) => text !== '')
    .join('\n');
}

function convertInstruction(message: ChatMessage, role: 'system' | 'developer'): Converted {
  const content = message.content;
  if (typeof content === 'string' || content == null)
    return { ok: true, items: [{ role, content: content ?? '' }] };
  const parts: ResponsesInputPart[] = [{ type: 'input_text', text: joinText(content) }];
  return { ok: true, items: [{ role, content: parts }] };
}

function convertUser(message: ChatMessage, param: string): Converted {
  const content = message.content;
  if (typeof content === 'string' || content == null)
    return { ok: true, items: [{ role: 'user', content: content ?? '' }] };
  const parts: ResponsesInputPart[] = [];
  for (const [index, part] of content.entries()) {
    const converted = convertUserPart(part, `${param}.content[${index}]`);
    if (!converted.ok) return converted;
    parts.push(converted.part);
  }
  return { ok: true, items: [{ role: 'user', content: parts }] };
}

function convertAssistant(message: ChatMessage, legacy: LegacyCallIds): Converted {
  const items: ResponsesInputItem[] = [];
  const text = [joinText(message.content), message.refusal ?? '']
    .filter((t) => t !== '')
    .join('\n');
  if (text !== '') items.push({ role: 'assistant', content: [{ type: 'output_text', text }] });
  for (const call of message.tool_calls ?? []) {
    const { name, arguments: args } = call.function;
    items.push({ type: 'function_call', call_id: call.id, name, arguments: args ?? '{}' });
  }
  if (message.function_call) {
    const { name, arguments: args } = message.function_call;
    const callId = `call_legacy_${legacy.next++}`;
    legacy.pendingByName.set(name, [...(legacy.pendingByName.get(name) ?? []), callId]);
    items.push({ type: 'function_call', call_id: callId, name, arguments: args ?? '{}' });
  }
  return { ok: true, items };
}

function convertTool(message: ChatMessage, param: string): Converted {
  if (message.tool_call_id == null)
    return refuse(`${param}.tool_call_id`, 'A tool message needs tool_call_id.');
  const output = joinText(message.content);
  return {
    ok: true,
    items: [{ type: 'function_call_output', call_id: message.tool_call_id, output }],
  };
}

function convertLegacyFunction(message: ChatMessage, legacy: LegacyCallIds): Converted {
  const name = message.name ?? '';
  const pending = legacy.pendingByName.get(name) ?? [];
  const callId = pending.shift() ?? `call_legacy_${legacy.next++}`;
  const output = joinText(message.content);
  return { ok: true, items: [{ type: 'function_call_output', call_id: callId, output }] };
}

/** Chat `messages[]` -> Responses `input[]` (wire-formats.md 3.4). */
export function convertChatMessages(messages: readonly ChatMessage[]): Converted {
  const legacy: LegacyCallIds = { next: 0, pendingByName: new Map() };
  const items: ResponsesInputItem[] = [];
  for (const [index, message] of messages.entries()) {
    const param = `messages[${index}]`;
    const converted = convertOne(message, { param, legacy });
    if (!converted.ok) return converted;
    items.push(...converted.items);
  }
  return { ok: true, items };
}

function convertOne(
  message: ChatMessage,
  context: { param: string; legacy: LegacyCallIds },
): Converted {
  switch (message.role) {
    case 'system':
    case 'developer':
      return convertInstruction(message, message.role);
    case 'user':
      return convertUser(message, context.param);
    case 'assistant':
      return convertAssistant(message, context.legacy);
    case 'tool':
      return convertTool(message, context.param);
    case 'function':
      return convertLegacyFunction(message, context.legacy);
    default:
      return refuse(`${context.param}.role`, `Unknown message role '${message.role}'.`);
  }
}
