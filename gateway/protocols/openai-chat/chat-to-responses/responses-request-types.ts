/** The subset of a Responses create request that the Chat translator produces. */

export type ResponsesInputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: string }
  | { type: 'input_file'; file_id?: string; file_data?: string; filename?: string }
  | { type: 'output_text'; text: string };

export type ResponsesInputItem =
  | { role: 'system' | 'developer' | 'user' | 'assistant'; content: string | ResponsesInputPart[] }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

export type ResponsesTool =
  | {
      type: 'function';
      name: string;
      description?: string;
      parameters: Record<string, unknown> | null;
      strict: boolean;
    }
  | { type: 'custom'; name: string; description?: string; format?: unknown }
  | { type: 'web_search'; search_context_size?: unknown; user_location?: unknown };

export type ResponsesToolChoice =
  string | { type: 'function'; name: string } | { type: 'custom'; name: string };

export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      name: string;
      schema: Record<string, unknown>;
      strict?: boolean;
      description?: string;
    };

export interface ResponsesRequest {
  model: string;
  input: ResponsesInputItem[];
  store: false;
  include: string[];
  stream?: boolean;
  stream_options?: { include_obfuscation: boolean };
  max_output_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_logprobs?: number;
  reasoning?: { effort: string };
  text?: { format?: ResponsesTextFormat; verbosity?: string };
  tools?: ResponsesTool[];
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean;
  metadata?: Record<string, string>;
  user?: string;
  safety_identifier?: string;
  prompt_cache_key?: string;
  prompt_cache_retention?: string;
  service_tier?: string;
}

/** Why a Chat request cannot be translated: rendered by the caller as an OpenAI 400 error. */
export interface ChatTranslationRefusal {
  ok: false;
  param: string | null;
  message: string;
}
