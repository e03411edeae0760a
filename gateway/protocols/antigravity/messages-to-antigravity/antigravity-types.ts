/** The Gemini-format parts and envelope the Antigravity upstream takes. */

export type GeminiPart =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
  | { functionCall: { name: string; args: unknown; id?: string } }
  | { functionResponse: { name: string; response: Record<string, unknown>; id?: string } };

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

export interface GenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  thinkingConfig?: { includeThoughts: boolean; thinkingBudget?: number };
}

export interface AntigravityRequest {
  contents: GeminiContent[];
  systemInstruction?: { role: 'user'; parts: { text: string }[] };
  generationConfig: GenerationConfig;
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  toolConfig?: { functionCallingConfig: { mode: string; allowedFunctionNames?: string[] } };
  sessionId?: string;
}

export interface AntigravityEnvelope {
  project: string;
  requestId: string;
  userAgent: 'antigravity';
  requestType: 'agent';
  model: string;
  request: AntigravityRequest;
}

/** Why a Messages request cannot be translated: rendered by the caller as an Anthropic 400. */
export interface MessagesTranslationRefusal {
  ok: false;
  param: string | null;
  message: string;
}
