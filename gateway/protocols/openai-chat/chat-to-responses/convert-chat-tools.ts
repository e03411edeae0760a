import type {
  ChatFunctionDefinition,
  ChatRequest,
  ChatTool,
  ChatToolChoice,
} from './chat-request-schema.js';
import type {
  ChatTranslationRefusal,
  ResponsesTool,
  ResponsesToolChoice,
} from './responses-request-types.js';

type ToolsResult = { ok: true; tools: ResponsesTool[] } | ChatTranslationRefusal;
type ChoiceResult =
  { ok: true; toolChoice: ResponsesToolChoice | undefined } | ChatTranslationRefusal;

/** Chat function definitions are nested; Responses flattens them and defaults `strict` to true. */
function flattenFunction(definition: ChatFunctionDefinition): ResponsesTool {
  return {
    type: 'function',
    name: definition.name,
    ...(definition.description == null ? {} : { description: definition.description }),
    parameters: definition.parameters ?? null,
    strict: definition.strict ?? false,
  };
}

function convertTool(tool: ChatTool, param: string): ToolsResult {
  if (tool.type === 'function' && tool.function)
    return { ok: true, tools: [flattenFunction(tool.function)] };
  if (tool.type === 'custom' && tool.custom) {
    const { name, description, format } = tool.custom;
    const custom: ResponsesTool = {
      type: 'custom',
      name,
      ...(description == null ? {} : { description }),
      ...(format === undefined ? {} : { format }),
    };
    return { ok: true, tools: [custom] };
  }
  return {
    ok: false,
    param,
    message: `Tool type '${tool.type}' cannot be translated to the Responses API.`,
  };
}

/**
 * `tools`, legacy `functions` and `web_search_options` -> Responses `tools` (wire-formats.md 3.4).
 */
export function convertChatTools(request: ChatRequest): ToolsResult {
  const tools: ResponsesTool[] = [];
  for (const [index, tool] of (request.tools ?? []).entries()) {
    const converted = convertTool(tool, `tools[${index}].type`);
    if (!converted.ok) return converted;
    tools.push(...converted.tools);
  }
  tools.push(...(request.functions ?? []).map(flattenFunction));
  const search = request.web_search_options;
  if (search) {
    tools.push({
      type: 'web_search',
      ...(search['search_context_size'] === undefined
        ? {}
        : { search_context_size: search['search_context_size'] }),
      ...(search['user_location'] === undefined ? {} : { user_location: search['user_location'] }),
    });
  }
  return { ok: true, tools };
}

const toolChoiceStrings = new Set(['none', 'auto', 'required']);

function convertChoiceObject(choice: Exclude<ChatToolChoice, string>): ChoiceResult {
  if (choice.type === 'function' && choice.function)
    return { ok: true, toolChoice: { type: 'function', name: choice.function.name } };
  if (choice.type === 'custom' && choice.custom)
    return { ok: true, toolChoice: { type: 'custom', name: choice.custom.name } };
  return {
    ok: false,
    param: 'tool_choice',
    message: `tool_choice type '${choice.type}' cannot be translated to the Responses API.`,
  };
}

function convertChoiceString(choice: string, param: string): ChoiceResult {
  if (toolChoiceStrings.has(choice)) return { ok: true, toolChoice: choice };
  return { ok: false, param, message: `Unknown ${param} value '${choice}'.` };
}

/** `tool_choice` (or legacy `function_call`) -> Responses `tool_choice`. */
export function convertChatToolChoice(request: ChatRequest): ChoiceResult {
  const choice = request.tool_choice;
  if (typeof choice === 'string') return convertChoiceString(choice, 'tool_choice');
  if (choice != null) return convertChoiceObject(choice);
  const legacy = request.function_call;
  if (typeof legacy === 'string') return convertChoiceString(legacy, 'function_call');
  if (legacy != null) return { ok: true, toolChoice: { type: 'function', name: legacy.name } };
  return { ok: true, toolChoice: undefined };
}
