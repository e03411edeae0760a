import { definedEntry } from '../../../spec/pick-defined.js';
import { cleanToolSchema } from './clean-tool-schema.js';
import type {
  MessagesRequest,
  MessagesTool,
  MessagesToolChoice,
} from './messages-request-schema.js';
import type {
  GeminiFunctionDeclaration,
  MessagesTranslationRefusal,
  AntigravityRequest,
} from './antigravity-types.js';

type ToolsResult =
  | { ok: true; tools: AntigravityRequest['tools']; toolConfig: AntigravityRequest['toolConfig'] }
  | MessagesTranslationRefusal;

/** Client tools only: server tools (web search, code execution, …) have a versioned `type`. */
const clientToolTypes = new Set(['custom']);

function declare(tool: MessagesTool): GeminiFunctionDeclaration {
  return {
    name: tool.name,
    ...definedEntry('description', tool.description),
    parameters: cleanToolSchema(tool.input_schema),
  };
}

/** Anthropic `tool_choice.type` -> Gemini `functionCallingConfig.mode`. */
const toolChoiceModes: Readonly<Record<string, string>> = {
  auto: 'VALIDATED',
  any: 'ANY',
  tool: 'ANY',
  none: 'NONE',
};

function convertToolChoice(
  choice: MessagesToolChoice | null | undefined,
  hasTools: boolean,
): ToolsResult {
  const mode = choice ? toolChoiceModes[choice.type] : hasTools ? 'VALIDATED' : undefined;
  if (choice && mode === undefined)
    return {
      ok: false,
      param: 'tool_choice.type',
      message: `Unknown tool_choice type '${choice.type}'.`,
    };
  if (mode === undefined) return { ok: true, tools: undefined, toolConfig: undefined };
  const allowed =
    choice?.type === 'tool' && choice.name ? { allowedFunctionNames: [choice.name] } : {};
  return {
    ok: true,
    tools: undefined,
    toolConfig: { functionCallingConfig: { mode, ...allowed } },
  };
}

/** `tools` + `tool_choice` -> `tools[0].functionDeclarations` + `toolConfig`. */
export function convertMessagesTools(request: MessagesRequest): ToolsResult {
  const tools = request.tools ?? [];
  const declarations: GeminiFunctionDeclaration[] = [];
  for (const [index, tool] of tools.entries()) {
    if (tool.type != null && !clientToolTypes.has(tool.type))
      return {
        ok: false,
        param: `tools[${index}].type`,
        message: `Server tool '${tool.type}' is not supported on this platform.`,
      };
    declarations.push(declare(tool));
  }
  const choice = convertToolChoice(request.tool_choice, declarations.length > 0);
  if (!choice.ok) return choice;
  return {
    ok: true,
    tools: declarations.length === 0 ? undefined : [{ functionDeclarations: declarations }],
    toolConfig: choice.toolConfig,
  };
}
