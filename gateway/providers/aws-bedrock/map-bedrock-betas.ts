/**
 * Which `anthropic-beta` values go to Bedrock (pure, a table). Bedrock's InvokeModel refuses a beta
 * it does not know with 400 `invalid beta flag`, and clients such as Claude Code send first-party
 * betas (`claude-code-20250219`, `oauth-2025-04-20`, `prompt-caching-scope-2026-01-05` ...) with
 * every call, so only the betas Bedrock documents for Claude are passed on; the first-party tool
 * search beta is renamed to Bedrock's. Everything else is dropped.
 */
const BEDROCK_BETAS: Readonly<Record<string, string>> = {
  'advanced-tool-use-2025-11-20': 'tool-search-tool-2025-10-19',
  'tool-search-tool-2025-10-19': 'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29': 'tool-examples-2025-10-29',
  'computer-use-2024-10-22': 'computer-use-2024-10-22',
  'computer-use-2025-01-24': 'computer-use-2025-01-24',
  'computer-use-2025-11-24': 'computer-use-2025-11-24',
  'token-efficient-tools-2025-02-19': 'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14': 'interleaved-thinking-2025-05-14',
  'dev-full-thinking-2025-05-14': 'dev-full-thinking-2025-05-14',
  'output-128k-2025-02-19': 'output-128k-2025-02-19',
  'context-1m-2025-08-07': 'context-1m-2025-08-07',
  'context-management-2025-06-27': 'context-management-2025-06-27',
  'effort-2025-11-24': 'effort-2025-11-24',
  'fine-grained-tool-streaming-2025-05-14': 'fine-grained-tool-streaming-2025-05-14',
  'compact-2026-01-12': 'compact-2026-01-12',
};

/** The Bedrock names of the betas Bedrock takes, each once, in the order given. */
export function mapBedrockBetas(betas: readonly string[]): string[] {
  const mapped = betas.map((beta) => BEDROCK_BETAS[beta]).filter((beta) => beta !== undefined);
  return [...new Set(mapped)];
}
