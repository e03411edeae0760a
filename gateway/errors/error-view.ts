/** What a protocol renderer needs from an error: status, stable code, caller-facing message. */
export interface ErrorView {
  statusCode: number;
  code: string;
  message: string;
  /** OpenAI only: the request field at fault. */
  param?: string | null;
}

/** The three error body families a caller can speak. */
export type ErrorShape = 'anthropic' | 'openai' | 'google';

/** The message with the Tollgate code in front, for protocols without a `code` field. */
export function messageWithCode(error: ErrorView): string {
  return `[${error.code}] ${error.message}`;
}
