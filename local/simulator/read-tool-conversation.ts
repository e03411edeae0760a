/**
 * A request's conversation as the simulator's tool sessions see it, whatever the platform: the
 * names of the tools it offers, and its turns in order, each a user turn (its text and the tool
 * results it carries) or an assistant turn. System, developer and other turns are left out
 * (Claude Code puts a `role: "system"` message after the user's). Pure.
 */
import { contentText } from './compute-fake-answer.js';

export interface ConversationTurn {
  role: 'user' | 'assistant';
  text: string;
  /** The text of each tool result the turn carries, in order. */
  toolResults: string[];
}

export interface ToolConversation {
  /** Names of the tools the request offers. */
  offered: string[];
  turns: ConversationTurn[];
}

type Fields = Record<string, unknown>;

function fieldsOf(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : {};
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/** A tool result's content as text: a string, text parts, or the JSON of anything else. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return contentText(content);
  return content === undefined ? '' : JSON.stringify(content);
}

function namesOf(tools: unknown): string[] {
  return listOf(tools).flatMap((tool): string[] => {
    const fields = fieldsOf(tool);
    if (typeof fields.name === 'string') return [fields.name];
    const name = fieldsOf(fields.function).name;
    if (typeof name === 'string') return [name];
    return listOf(fields.functionDeclarations)
      .map((declared) => fieldsOf(declared).name)
      .filter((declared): declared is string => typeof declared === 'string');
  });
}

const user = (text: string, toolResults: string[] = []): ConversationTurn => ({
  role: 'user',
  text,
  toolResults,
});
const assistant: ConversationTurn = { role: 'assistant', text: '', toolResults: [] };

/** Anthropic Messages: `tool_result` blocks in user messages. */
export function readAnthropicConversation(body: Fields): ToolConversation {
  const turns = listOf(body.messages).flatMap((message): ConversationTurn[] => {
    const { role, content } = fieldsOf(message);
    if (role === 'assistant') return [assistant];
    if (role !== 'user') return [];
    const results = listOf(content)
      .map(fieldsOf)
      .filter((block) => block.type === 'tool_result')
      .map((block) => resultText(block.content));
    return [user(contentText(content), results)];
  });
  return { offered: namesOf(body.tools), turns };
}

/** OpenAI Responses: `function_call_output` (and `custom_tool_call_output`) input items. */
export function readResponsesConversation(body: Fields): ToolConversation {
  const input =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  const turns = listOf(input).flatMap((item): ConversationTurn[] => {
    const fields = fieldsOf(item);
    if (fields.type === 'function_call_output' || fields.type === 'custom_tool_call_output') {
      return [user('', [resultText(fields.output)])];
    }
    if (fields.type === 'function_call' || fields.role === 'assistant') return [assistant];
    return fields.role === 'user' ? [user(contentText(fields.content))] : [];
  });
  return { offered: namesOf(body.tools), turns };
}

/** OpenAI Chat Completions: `role: "tool"` messages. */
export function readChatConversation(body: Fields): ToolConversation {
  const turns = listOf(body.messages).flatMap((message): ConversationTurn[] => {
    const { role, content } = fieldsOf(message);
    if (role === 'tool') return [user('', [resultText(content)])];
    if (role === 'assistant') return [assistant];
    return role === 'user' ? [user(contentText(content))] : [];
  });
  return { offered: namesOf(body.tools), turns };
}

/** Gemini (and Antigravity's inner `request`): `functionResponse` parts in user contents. */
export function readGeminiConversation(request: Fields): ToolConversation {
  const turns = listOf(request.contents).flatMap((content): ConversationTurn[] => {
    const { role, parts } = fieldsOf(content);
    if (role === 'model') return [assistant];
    const results = listOf(parts)
      .map((part) => fieldsOf(fieldsOf(part).functionResponse))
      .filter((response) => Object.keys(response).length > 0)
      .map((response) => {
        const answer = fieldsOf(response.response);
        return resultText(answer.output ?? answer.content ?? response.response);
      });
    return [user(contentText(parts), results)];
  });
  return { offered: namesOf(request.tools), turns };
}
